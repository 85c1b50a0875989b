"""Issue 44 item 7: `make compare` has one rule for "a change was detected", its 95% interval's, in the console, on
the page and in FAIL_IF's exit; the rank test's p is said beside it, and where it would call it otherwise that is
said in words and not acted on. Never "no change detected (95%: 0% to +3.5%)" beside a p = 0.002 left unsaid."""

import csv
import shutil

import pytest
import synthrun
from conftest import summarised
from synthrun import ModeSpec, stairs

from loadlab import cli
from loadlab.analysis.difference import Change, latency_change
from loadlab.report.changes import change_text

# 20 seconds of p99 at 230 ms against 20 where 8 answered 238: the medians are equal, so the bootstrap's interval of
# their ratio holds 0% (0% to +3.5%), while the rank test sees the 8 slower seconds (p = 0.002).
SECONDS = 20
NUDGED = 8
DISAGREE = "no change detected (95%: 0% to +3.5%); the interval includes 0%; the rank test alone (p = 0.0019) would "
DISAGREE += "call it a change: not claimed"


def test_a_rank_test_that_disagrees_with_the_interval_is_said_and_not_acted_on():
    change = latency_change([230] * (SECONDS - NUDGED) + [238] * NUDGED, [230] * SECONDS)
    assert change.p_value < 0.05 and change.low_pct == 0 and not change.detected and change.rank_agrees is False
    assert change_text(change) == DISAGREE
    # the other way round: an interval that excludes 0% is a change, whatever the rank test alone would say
    other = Change(4.0, 1.0, 7.0, "per-second p99", p_value=0.12)
    assert other.detected and change_text(other) == (
        "+4.0% (95%: +1.0% to +7.0%); the interval excludes 0%; the rank test alone (p = 0.12) would not call it a "
        "change: the interval decides"
    )
    agreeing = Change(30.0, 29.0, 31.0, "per-second p99", p_value=0.002)
    assert change_text(agreeing) == "+30% (95%: +29% to +31%); the rank test agrees (p = 0.002)"


def test_an_end_that_is_not_zero_is_never_printed_as_zero():
    """An interval the rule calls a change (it excludes 0%) never reads as one holding 0%."""
    assert change_text(Change(1.5, 0.04, 3.0, "from the knee brackets")) == "+1.5% (95%: just above 0% to +3.0%)"


def _run(folder):
    synthrun.write_params(folder, modes=("platform",))
    levels = stairs((150, 250, 350, 450), slow_from=450)
    synthrun.write_mode(folder, "platform", ModeSpec(levels, seconds_per_level=SECONDS))
    return summarised(folder)


def _nudge(folder, level):
    """The first NUDGED seconds of the level answered their p99 at 238 ms instead of 230 (timeline.csv, which the
    comparison reads per second)."""
    path = folder / "platform" / "timeline.csv"
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    first = level["first_second"]
    for row in rows:
        if first <= int(row["second"]) < first + NUDGED:
            row["p99_ms"] = "238"
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


@pytest.fixture(scope="module")
def nudged(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    base = root / "20261127-100000"
    summary = _run(base)
    run = root / "20261127-110000"
    shutil.copytree(base, run)
    level = next(lv for lv in summary["modes"]["platform"]["levels"] if lv["target_rps"] == 350)
    _nudge(run, level)
    return run, base


def test_the_console_the_page_and_the_gate_say_one_verdict(nudged, capsys):
    run, base = nudged
    # under the rank test alone the p99 moved; under the interval it did not: no condition on it is met
    code = cli.main(["compare", str(run), str(base), "--fail-if", "platform.p99 > -1%, platform.p99 < +5%"])
    out, err = capsys.readouterr()
    assert code == 0 and err.strip() == "", err
    row = next(line for line in out.splitlines() if line.startswith("platform.p99@350"))
    assert DISAGREE in row, row
    assert f"FAIL_IF platform.p99 > -1%: not met: platform.p99@350 {DISAGREE}" in out, out
    page = (run / f"compare-{base.name}.html").read_text()
    assert DISAGREE in page


def test_a_capacity_that_did_not_change_never_meets_a_threshold_its_interval_reaches(nudged, capsys):
    """The same knee (95%: -22% to +29%): "no change detected", so `< +50%` is not met either, though the whole
    interval lies below +50%."""
    run, base = nudged
    code = cli.main(["compare", str(run), str(base), "--fail-if", "platform.sustained < +50%"])
    out, err = capsys.readouterr()
    assert code == 0 and "FAIL_IF platform.sustained < +50%: not met: platform.sustained no change detected" in out
