"""percentiles.csv: each second's exact percentiles of successful responses, merged across injectors, beside
timeline.csv (whose columns the contract fixes), for the page's percentiles-over-time chart."""

import csv
import json
import math
import shutil
from pathlib import Path

import pytest
import synthrun
from conftest import summarised
from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog

DATA = Path(__file__).parents[1] / "data"


def _rows(path: Path) -> list[dict]:
    return list(csv.DictReader(path.open()))


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("real") / "fine_pass_all_healthy"
    shutil.copytree(DATA / run.name, run)
    summarised(run)
    return run


@pytest.mark.parametrize("folder", ["platform", "platform/refine-1"])
def test_each_second_holds_the_exact_percentiles_of_the_interval_logs(real_run, folder):
    raw_dir = real_run / folder / "raw"
    t0 = math.floor(json.loads((raw_dir / "injector-0/meta.json").read_text())["measure_start_epoch_ms"] / 1000)
    by_second: dict[int, HdrHistogram] = {}
    for interval in hlog.read_log(raw_dir / "injector-0/latency.hlog").intervals:
        if interval.tag == "ok":
            by_second.setdefault(interval.second, HdrHistogram(1, 3_600_000, 3)).add(
                HdrHistogram.decode(interval.payload)
            )
    rows = _rows(real_run / folder / "percentiles.csv")
    timeline = _rows(real_run / folder / "timeline.csv")
    assert [r["second"] for r in rows] == [r["second"] for r in timeline]
    assert list(rows[0]) == ["second", "ok", "ko", "p50_ms", "p90_ms", "p99_ms", "p99_9_ms", "max_ms"]
    seen = 0
    for row, line in zip(rows, timeline):
        assert (row["ok"], row["ko"], row["max_ms"]) == (line["ok"], line["ko"], line["max_ms"])
        logs = by_second.get(t0 + int(row["second"]))
        if logs is None:
            assert row["p50_ms"] == "" and row["max_ms"] == ""
            continue
        seen += 1
        expected = [logs.get_value_at_percentile(p) for p in (50, 90, 99, 99.9)] + [logs.get_max_value()]
        assert [int(row[c]) for c in ("p50_ms", "p90_ms", "p99_ms", "p99_9_ms", "max_ms")] == expected, row
    assert seen >= 10  # the coarse pass has 11 seconds with successful responses, the fine pass 40


def test_injectors_are_merged_before_a_percentile_is_read(tmp_path):
    # Two injectors, each with half of every second: the slow tail's p90 is 700 only in the merged histogram.
    synthrun.write_params(tmp_path, modes=("platform",))
    synthrun.write_mode(
        tmp_path, "platform", synthrun.ModeSpec([synthrun.LevelSpec(200, latency=synthrun.SLOW_TAIL)], injectors=2)
    )
    summarised(tmp_path)
    measured = [r for r in _rows(tmp_path / "platform/percentiles.csv") if r["ok"] == "200"]
    assert measured and all((r["p50_ms"], r["p90_ms"], r["p99_ms"]) == ("201", "700", "900") for r in measured)


def test_a_mode_with_no_ok_response_draws_its_errors_and_says_it_has_no_latency():
    # seen with a real app whose every request timed out at the injector: the page failed on a log scale of zeros
    from loadlab.report.charts.percentile_charts import OVER_TIME, Segment, over_time
    from loadlab.summary.schema.level_records import LevelRecord

    seconds = list(range(4))
    series = {"second": seconds, "ko": [300] * 4, **{c.replace(".", "_") + "_ms": [0] * 4 for c in OVER_TIME}}
    level = LevelRecord.from_mapping({"index": 0, "target_rps": 300, "seconds": 4, "first_second": 0, "healthy": False})
    svg = over_time("all-failed", {"platform": [Segment("coarse", series, [level], 0, 0, True)]})
    assert "no OK response" in svg
