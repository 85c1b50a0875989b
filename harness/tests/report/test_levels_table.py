"""The levels table says when a level's tail was judged by its count past the limit, not by a p99 it cannot place."""

from loadlab.report import levels_table
from loadlab.summary.verdicts.records import RunSummary


def summary(tail_judged_by):
    level = {"index": 0, "target_rps": 22, "healthy": True, "unhealthy_reasons": [], "p99_ms": 240, "seconds": 3}
    level["tail_judged_by"] = tail_judged_by
    return RunSummary.from_mapping({"modes": {"platform": {"sustained_rps": 22, "levels": [level]}}})


def test_a_short_level_says_its_tail_was_judged_by_count():
    html = levels_table.section(summary("count"))
    assert "its tail judged by the count past the limit: too few requests for a p99" in html
    assert "judged by the count" not in levels_table.section(summary("p99"))
