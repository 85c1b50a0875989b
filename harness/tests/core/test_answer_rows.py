"""docs/studies/answers-rows.json, the README's answer table as rows to run: each row's parameters are ones make bench
accepts, written out in full; ROWS and REPEAT checked in one line each, naming what is allowed."""

import pytest

from loadlab.core import answer_rows, params
from loadlab.core.errors import ExitCode, LoadlabError

ROWS = answer_rows.load()
# What every row writes out, defaults too: a default that moves must not move a published row unseen.
EVERY_ROW_SAYS = {
    "MODES",
    "JDKS",
    "PLATFORM_THREADS",
    "START_RPS",
    "PEAK_RPS",
    "STEPS",
    "STEP_SECONDS",
    "WARMUP_SECONDS",
    "REFINE",
}


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_each_row_is_a_make_bench_command_written_out(row):
    assert EVERY_ROW_SAYS <= set(row.params), f"{row.id} leaves out {sorted(EVERY_ROW_SAYS - set(row.params))}"
    assert "REPEAT" not in row.params  # make answers' own
    try:
        params.parse(dict(row.params))
    except params.ParamError as e:
        # only the jar a row needs from outside may be missing here, and the row says how to build it
        assert row.needs is not None and all(line.startswith(f"{row.needs.param}=") for line in str(e).splitlines())
    assert row.ledger


def test_ids_are_unique_and_a_row_needing_a_jar_says_how():
    assert len({r.id for r in ROWS}) == len(ROWS)
    needing = [r for r in ROWS if r.needs]
    assert [r.id for r in needing] == ["petclinic-owners"]
    assert needing[0].needs.path == needing[0].params["APP"] and "git clone" in needing[0].needs.how


def test_rows_default_to_all_and_repeat_to_three():
    assert answer_rows.select(ROWS, "", "") == (ROWS, 3)
    chosen, repeat = answer_rows.select(ROWS, "fanout-4 http-default", "1")
    assert [r.id for r in chosen] == ["http-default", "fanout-4"] and repeat == 1  # the README's order


@pytest.mark.parametrize(
    ("rows", "repeat", "given", "said"),
    [
        ("db", "3", {}, "ROWS='db' names unknown row ids db; allowed: " + " ".join(r.id for r in ROWS)),
        ("", "0", {}, "REPEAT='0' is not allowed; allowed: a whole number 1..20 (make answers' default: 3)"),
        ("", "21", {}, "REPEAT='21' is not allowed; allowed: a whole number 1..20 (make answers' default: 3)"),
        ("", "three", {}, "REPEAT='three' is not allowed; allowed: a whole number 1..20 (make answers' default: 3)"),
        (
            "",
            "",
            {"MODES": "virtual"},
            "MODES='virtual' is not a parameter of make answers; allowed: ROWS, REPEAT "
            "(each row's make bench parameters are fixed in docs/studies/answers-rows.json)",
        ),
    ],
)
def test_bad_rows_or_repeat_refused_in_one_line(rows, repeat, given, said):
    with pytest.raises(LoadlabError) as e:
        answer_rows.select(ROWS, rows, repeat, given)
    assert str(e.value) == said and e.value.exit_code == ExitCode.USAGE


def test_a_row_command_is_what_a_user_types():
    row = {r.id: r for r in ROWS}["pool-sweep"]
    assert "PLATFORM_THREADS='200 1000 4000'" in row.command(3) and row.command(3).endswith(" REPEAT=3")
