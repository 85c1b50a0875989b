"""No prediction interval narrower than the data (issue 33): a hold time read at one level says so in words ("from
one level only") and takes its interval from that level's seconds; inputs with no spread at all give no interval,
never a point written as one ("884–884")."""

import pytest
import synthrun
from conftest import summarised
from synthrun import START_EPOCH, stairs
from test_app_summary import write_pool_gauges
from test_app_verdict import APP, write_app_mode

from loadlab.analysis import models
from loadlab.analysis.levels import Level
from loadlab.core.app import HIKARI_USAGE_TOTAL_S
from loadlab.summary.judge import app_pool
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.raw_rows import MetricSample
from loadlab.summary.verdicts import prediction_text
from loadlab.summary.verdicts.records import ModeRecord, RunSummary


def one_level_with_seconds(increments_s):
    """One level of 100 requests a second whose usage timer grew by these seconds of connection time each second."""
    raw = RawMode([], {}, {}, {}, None)
    total, raw.actuator = 0.0, {START_EPOCH: MetricSample.parse({HIKARI_USAGE_TOTAL_S: "0"})}
    for k, grew in enumerate(increments_s, start=1):
        total += grew
        raw.actuator[START_EPOCH + k] = MetricSample.parse({HIKARI_USAGE_TOTAL_S: f"{total:.4f}"})
    seconds = len(increments_s) + 1
    return raw, Level(0, 100, seconds, 100 * seconds, 100 * seconds, 0, None, first_second=0)


def test_a_hold_read_at_one_level_takes_its_interval_from_that_levels_seconds_and_says_so():
    # 100 requests a second holding 1.0, 1.2, 0.9, 1.1 s of connection time: 10, 12, 9, 11 ms per request
    raw, level = one_level_with_seconds([1.0, 1.2, 0.9, 1.1])
    hold = app_pool.hold(raw, [(level, START_EPOCH)])
    assert hold.levels == 1 and hold.ms == pytest.approx(10.5)
    assert (hold.shortest_ms, hold.longest_ms) == pytest.approx((9.0, 12.0))
    p = models.pool(2, hold, measured_at=100)
    assert round(p.rps) == 190 and tuple(round(v) for v in p.interval) == (167, 222)
    assert p.quality() == "rough: measured at 100 rps, from one level only"


def test_a_hold_with_no_spread_gives_no_interval_and_says_why():
    raw, level = one_level_with_seconds([1.0, 1.0, 1.0, 1.0])
    p = models.pool(2, app_pool.hold(raw, [(level, START_EPOCH)]), measured_at=100)
    assert p.rps == 200 and p.interval is None
    assert p.quality() == (
        "rough: measured at 100 rps, from one level only, its inputs show no spread to give an interval"
    )


def test_a_run_whose_knee_follows_its_first_level_prints_no_point_as_an_interval(tmp_path, capsys):
    """A knee right after the first level: the pool model has one level to read; the console and summary.json say
    "from one level only" and print no `200–200`."""
    from loadlab.run import console

    rates = [100, 250, 300]
    synthrun.write_params(tmp_path, APP=APP, APP_PATH="/owners/1", platform_threads=200)
    for mode, starts, pool in (("platform", 0, 200), ("virtual", 5_000, 0)):
        write_app_mode(tmp_path, mode, stairs(rates, slow_from=250), virtual_starts=starts, pool_threads=pool)
        write_pool_gauges(tmp_path, mode, rates, size=2, hold_ms=10, full_from=250)
    result = summarised(tmp_path)
    m = result["modes"]["virtual"]
    assert m["predicted_by"] == "pool" and m["predicted_rps"] == 200
    assert m["predicted_interval_rps"] is None, m["predicted_interval_rps"]
    assert "from one level only" in m["prediction_quality"], m["prediction_quality"]
    assert prediction_text.predicted(ModeRecord.from_mapping(m)) == "200 (pool) rough"
    console.table(RunSummary.from_mapping(result), tmp_path)
    out = capsys.readouterr().out
    assert "virtual: rough: measured at 100 rps, from one level only" in out, out
    assert "200–200" not in out
