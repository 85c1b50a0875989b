"""A main claim of an e2e run that does not hold fails in CI, and on a workstation unless the test's own reading of
the host showed the machine saturated by other work (claims.py). Claims broken on purpose."""

import subprocess
import sys

import pytest
from claims import FAIL, PASS, WARN, HostWatch, Reading, claim, claim_outcome, in_ci
from conftest import NotProvenHere

BUSY = "the host's own counters (/proc, read by the test) over 1 blamed level(s): host 97% busy, the run's 20%"


def test_a_claim_that_holds_passes_everywhere():
    assert claim_outcome(True, ci=True, saturated_by_others="") == PASS
    assert claim_outcome(True, ci=False, saturated_by_others=BUSY) == PASS


def test_a_failed_claim_fails_in_ci_even_on_a_machine_shown_saturated():
    assert claim_outcome(False, ci=True, saturated_by_others="") == FAIL
    assert claim_outcome(False, ci=True, saturated_by_others=BUSY) == FAIL
    with pytest.raises(pytest.fail.Exception, match="claim failed: platform's knee.*CI=true"):
        claim(False, "platform's knee between 20 and 60 rps", {"sustained_rps": 75}, BUSY, ci=True)


def test_a_failed_claim_on_a_workstation_is_only_reported_when_the_host_was_shown_saturated_by_others():
    assert claim_outcome(False, ci=False, saturated_by_others=BUSY) == WARN
    with pytest.warns(NotProvenHere, match="NOT PROVEN on this run: virtual holds 75 rps.*host 97% busy"):
        claim(False, "virtual holds 75 rps without collapsing", {}, BUSY, ci=False)
    # the harness's blame alone (no independent reading agreeing) excuses nothing
    assert claim_outcome(False, ci=False, saturated_by_others="") == FAIL
    with pytest.raises(pytest.fail.Exception, match="did not show the machine saturated"):
        claim(False, "a clean run gets no validity flag at all", ["the machine itself was saturated"], "", ci=False)


@pytest.mark.parametrize(("value", "ci"), [("true", True), ("1", True), ("", False), ("false", False)])
def test_ci_is_read_from_the_environment(value, ci):
    assert in_ci({"CI": value}) is ci


def readings(*rows):
    """(busy ticks, total ticks, the run's ticks) per reading, one second apart."""
    return [Reading(float(i), busy, total, {42: run}) for i, (busy, total, run) in enumerate(rows)]


def test_the_machine_is_blamed_only_where_it_was_busy_and_the_run_was_not():
    watch = HostWatch()
    # seconds 0-2: 95% busy, the run 20%; seconds 2-4: 95% busy, the run 70% (the run's own load)
    watch.readings = readings((0, 0, 0), (95, 100, 20), (190, 200, 40), (285, 300, 110), (380, 400, 180))
    assert watch.shares(0, 2) == (95.0, 20.0)
    assert "host 95% busy, the run's processes 20%" in watch.saturated_by_others([(0, 2)])
    assert watch.saturated_by_others([(2, 4)]) == ""  # the run saturated the machine itself: no excuse
    quiet = HostWatch()
    quiet.readings = readings((0, 0, 0), (50, 100, 20), (100, 200, 40))
    assert quiet.saturated_by_others([(0, 2)]) == ""
    assert watch.saturated_by_others([(10, 12)]) == ""  # no reading there: nothing shown


def test_the_watch_counts_a_process_of_the_run_by_its_command_line(tmp_path):
    """A CPU-bound process whose command line names the marker is the run's: its CPU shows as the run's share."""
    marker = f"{tmp_path}/the-run"
    spin = "import time\nend = time.process_time() + 1.5\nwhile time.process_time() < end: pass"
    with HostWatch(marker=marker, period_s=0.2) as watch:
        subprocess.run([sys.executable, "-c", spin, marker], check=True)
    assert watch.saw_the_run()
    host, run = watch.shares(watch.readings[0].at, watch.readings[-1].at)
    assert run > 0 and run <= host + 1, (host, run)
