"""The charts mark a prediction's interval, not only its point (report/charts/marks.py)."""

from loadlab.report.charts.level_charts import throughput
from loadlab.summary.verdicts.records import ModeRecord


def mode(interval, predicted=990, by="little"):
    levels = [
        {"index": i, "target_rps": r, "offered_rps": r, "ok_rps": r, "healthy": True} for i, r in enumerate((300, 600))
    ]
    return ModeRecord.from_mapping(
        {"levels": levels, "predicted_rps": predicted, "predicted_by": by, "predicted_interval_rps": interval}
    )


def test_a_prediction_s_interval_is_drawn_and_named_beside_its_point():
    svg = throughput({"platform": mode([978, 995])})
    assert "little prediction 990 rps" in svg and "little predicted 978–995 rps (its 95% interval)" in svg


def test_an_interval_with_no_upper_end_says_so_and_one_reaching_zero_is_no_figure():
    svg = throughput({"virtual": mode([400, None], predicted=400, by="cpu")})
    assert "cpu predicted ≥ 400 rps (no upper end)" in svg
    svg = throughput({"virtual": mode([0, 2400], predicted=1200, by="memory")})
    assert "memory prediction: its interval reaches zero, no figure" in svg
    assert "1200 rps" not in svg and "predicted 0" not in svg
