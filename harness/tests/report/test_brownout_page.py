"""PROFILE=brownout on the page's first line and its verdict table: a brownout holds one rate, so each mode is said by
what it is judged on (answered during it, peak in flight, recovery), never by a knee, a sustained rate or a collapse.

data/brownout_busy/summary.json: `test_e2e_brownout.py`'s run (platform, virtual, virtual-limited; 40 rps, 10 threads,
the downstream at 1 s for 5 s) on a machine busy with other work, so two columns are invalid; as the summary was
written by the harness of 2026-11-27, whose page said "virtual sustained 40 rps, knee between 40 and 40 (…; knee
does not agree)" and "collapsed: yes" for every mode whose brownout seconds read unhealthy."""

from pathlib import Path

from loadlab.report import verdict_table
from loadlab.report.headline import headline
from loadlab.summary.verdicts import records

DATA = Path(__file__).parents[1] / "data" / "brownout_busy"


def test_the_first_line_says_each_mode_by_its_brownout_figures_not_a_knee():
    summary = records.read(DATA)
    text = headline(summary)
    assert "sustained" not in text and "knee between" not in text and "agree" not in text, text
    assert "ran out of CPU" not in text, text  # at a knee it does not have
    said = "rps answered during the brownout of 40 offered"
    assert f"virtual: 40.2 {said}, 42 in flight at the most, recovered 1 s after the brownout ended" in text
    assert f"platform: 10.0 {said}, 160 in flight at the most, not judged: the instrument failed" in text
    # and why it cannot be trusted, as for any run
    assert " — invalid because platform: seconds 0–5 were set aside" in text


def test_the_verdict_table_has_no_knee_rows_for_a_run_that_held_one_rate():
    table = verdict_table.section(records.read(DATA))
    for row in ("collapsed", "knee between", "sustained rate", "prediction (rps)", "limit met first"):
        assert f'<th class="text">{row}' not in table, row
    assert '<th class="text">concurrency limit / requests it shed (503)</th>' in table
    assert '<th class="text">valid</th>' in table
