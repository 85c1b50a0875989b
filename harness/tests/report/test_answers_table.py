"""answers.json and answers.md from run folders: two kept real runs (their summary.json goldens) and a synthetic
REPEAT=3 run whose platform knees disagree beyond their intervals; the README's block generated from answers.json and
its check failing on a changed cell."""

import json
import shutil

import pytest
import synthrun
from conftest import REPO, summarised
from synthrun import ModeSpec, stairs

from loadlab.core import answer_rows
from loadlab.report import answers_json, answers_md, answers_readme
from loadlab.report.answers_json import Outcome

GOLDEN = REPO / "harness" / "tests" / "data" / "golden"
ROWS = {r.id: r for r in answer_rows.load()}
MACHINE = {"cores": 2, "load_before": "0.10 0.20 0.30"}


def kept(tmp_path, name):
    """A kept real run's folder as a row's run folder: its summary.json golden."""
    run = tmp_path / name
    run.mkdir()
    shutil.copy(GOLDEN / name / "summary.json", run / "summary.json")
    return run


def outcome(row_id, run, status="measured", repeat=3, **kw):
    return Outcome(ROWS[row_id], repeat, status, "2026-12-02T01:00:00Z", 754.2, MACHINE, 0, run, **kw)


@pytest.fixture(scope="module")
def disagreeing(tmp_path_factory):
    """Platform's knee at 300–400, 200–300 and 400–500 rps: no rate common to all three; virtual holds 500."""
    run = tmp_path_factory.mktemp("results") / "20261202-010203"
    rates = (100, 200, 300, 400, 500)
    synthrun.write_params(
        run, completed=[f"rep-{k}/{m}" for k in (1, 2, 3) for m in ("platform", "virtual")], REPEAT=3, REFINE=0
    )
    for k, first_bad in ((1, 400), (2, 300), (3, 500)):
        synthrun.write_mode(run / f"rep-{k}", "platform", ModeSpec(stairs(rates, first_bad)))
        synthrun.write_mode(run / f"rep-{k}", "virtual", ModeSpec(stairs(rates)))
    summarised(run)
    return run


def test_two_kept_real_runs_as_rows(tmp_path):
    backlog = answers_json.row_entry(outcome("http-default", kept(tmp_path, "app_warmup_backlog"), repeat=1))
    platform = backlog["modes"]["platform"]
    assert platform["sustained_rps"] == {"median": 504, "min": 504, "max": 504}
    assert platform["knee_interval_rps"] == [[504, 840]] and platform["knees"] == ["504–840"]
    assert platform["limit_met_first"].startswith("the knee 504 rps meets none") and not platform["disagree"]
    assert backlog["modes"]["virtual"]["valid"] is False and backlog["modes"]["virtual"]["invalid_reasons"]
    assert backlog["run_id"] == "app_warmup_backlog" and backlog["seconds"] == 754.2
    assert backlog["machine"] == MACHINE and backlog["date"] == "2026-12-02T01:00:00Z"
    assert backlog["ratio"]["text"] == "—"

    injector = answers_json.row_entry(outcome("pool-sweep", kept(tmp_path, "set_aside_injector"), repeat=1))
    cells = answers_md.row_cells(ROWS["pool-sweep"], injector)
    assert cells[1] == "94.1 — threads (Tomcat's pool, Little's law)"
    assert answers_md.row_cells(ROWS["http-default"], backlog)[2] == "invalid (answers.md says why)"


def test_repetitions_that_disagree_are_said_in_words(disagreeing):
    entry = answers_json.row_entry(outcome("http-default", disagreeing))
    platform = entry["modes"]["platform"]
    assert platform["sustained_rps"] == {"median": 300, "min": 200, "max": 400}
    assert platform["knee_interval_rps"] == [[300, 400], [200, 300], [400, 500]]
    assert platform["disagree"] and platform["spread"] == (
        "the 3 repetitions disagree beyond their intervals: knees 300–400, 200–300, 400–500; sustained 200–400 rps, "
        "median 300"
    )
    assert not entry["modes"]["virtual"]["disagree"]  # three bounds at 500 share every rate above it
    workload, platform_cell, virtual_cell, ratio_cell = answers_md.row_cells(ROWS["http-default"], entry)
    assert platform_cell.startswith("200–400 over 3 runs that disagree — ")
    assert virtual_cell == "≥ 500 (held)"
    assert ratio_cell.startswith("≥ ") and "over the repetitions" in ratio_cell  # a bound, never its point
    assert "×" in ratio_cell and entry["ratio"]["bound"] == "lower"


def test_answers_json_keeps_rows_measured_before_in_the_files_order(tmp_path, disagreeing):
    rows = list(ROWS.values())
    first = answers_json.merged([answers_json.row_entry(outcome("pinned-jdk21", disagreeing))], None, rows)
    skipped = Outcome(
        ROWS["petclinic-owners"],
        3,
        "skipped",
        "2026-12-02T02:00:00Z",
        0.0,
        MACHINE,
        reason="skipped: needs APP=x (how)",
    )
    second = answers_json.merged([answers_json.row_entry(skipped)], first, rows)
    assert [e["id"] for e in second["rows"]] == ["pinned-jdk21", "petclinic-owners"]
    path = tmp_path / "answers.json"
    answers_json.write(second, path)
    assert answers_json.read(path) == json.loads(json.dumps(second))
    page = answers_md.page(rows, second)
    assert "| `pinned`: `synchronized` around the call, JDK 21, 50 threads | 200–400 over 3 runs that disagree" in page
    assert "| spring-petclinic `/owners/1`, a public app | skipped (answers.md says why) | — | — |" in page
    assert "- why: skipped: needs APP=x (how)" in page and "12 min 34 s" in page
    http = ROWS["http-default"]  # not measured in this table: the ledger's figures, one run, said so
    assert f"| {http.workload}{answers_md.FROM_LEDGER} | {' | '.join(http.ledger_cells or ())} |" in page
    assert f"### `http-default`: {answers_md.NOT_MEASURED}; the table shows the ledger's figures, runs " in page


def test_a_row_with_no_ledger_figures_and_no_measurement_says_so():
    bare = answer_rows.Row("bare", "a new row", {"MODES": "platform virtual"}, ledger="")
    assert (
        answers_md.table([bare], None)[2]
        == f"| a new row | {answers_md.NOT_MEASURED} | {answers_md.NOT_MEASURED} | — |"
    )


def test_the_readme_block_is_generated_and_checked(tmp_path, disagreeing):
    answers = answers_json.merged([answers_json.row_entry(outcome("http-default", disagreeing))], None, ROWS.values())
    path = tmp_path / "answers.json"
    readme = tmp_path / "README.md"
    readme.write_text(answers_readme.README.read_text())
    assert answers_readme.problems(readme, path) == []  # no answers.json yet: not yet generated, nothing checked
    answers_json.write(answers, path)
    assert answers_readme.write(readme, path)
    assert answers_readme.problems(readme, path) == []
    text = readme.read_text()
    assert "200–400 over 3 runs that disagree" in text and "## The answer measured here" in text
    changed = text.replace("200–400 over 3 runs that disagree", "990 — threads")
    readme.write_text(changed)
    (problem,) = answers_readme.problems(readme, path)
    assert "the README's answer table differs from answers.json" in problem and "990 — threads" in problem
    readme.write_text(text.replace(answers_readme.END, ""))
    assert "needs one <!-- answers:begin --> and one <!-- answers:end -->" in answers_readme.problems(readme, path)[0]


def test_the_readme_table_is_what_answers_json_gives():
    """`make check`'s gate: once `make answers` has written docs/studies/answers.json, the README's block equals what
    it gives; before, the block holds the ledger's figures and is "not yet generated"."""
    assert answers_readme.problems() == []
    text = answers_readme.README.read_text()
    assert text.count(answers_readme.BEGIN) == 1 and text.count(answers_readme.END) == 1


def test_the_rows_are_the_readmes_rows_in_its_order():
    block = answers_readme.README.read_text().split(answers_readme.BEGIN)[1].split(answers_readme.END)[0]
    cells = [line.split(" | ")[0].removeprefix("| ") for line in block.strip().splitlines()[2:]]
    workloads = [c.removesuffix(answers_md.FROM_LEDGER).removesuffix(answers_md.FAILED_RUN) for c in cells]
    assert workloads == [r.workload for r in ROWS.values()]


@pytest.mark.parametrize(
    ("mode", "cell"),
    [
        ({"sustained_rps": {"median": 0, "min": 0, "max": 0}, "collapsed": True, "valid": True}, "no healthy level"),
        (
            {"sustained_rps": {"median": 2640, "min": 2400, "max": 2700}, "collapsed": False, "repetitions": 3},
            "≥ 2,640 (held; 2,400–2,700 over 3)",
        ),
        (
            {
                "sustained_rps": {"median": 990, "min": 960, "max": 990},
                "collapsed": True,
                "repetitions": 3,
                "limit_met_first": (
                    "threads (Tomcat's pool, Little's law): the knee 990 rps meets its predicted 743–996 rps"
                ),
            },
            "990 (960–990 over 3) — threads (Tomcat's pool, Little's law)",
        ),
    ],
)
def test_a_cell_follows_the_labs_rule(mode, cell):
    assert answers_md.mode_cell(mode) == cell


def test_a_mode_whose_median_repetition_held_names_no_limit():
    held = {
        "sustained_rps": {"median": 700, "min": 405, "max": 700},
        "collapsed": False,
        "repetitions": 3,
        "disagree": True,
        "limit_met_first": "none within this run: it held 700 rps; the limits ahead: CPU at 1,222 rps",
    }
    assert answers_md.mode_cell(held) == "405–700 over 3 runs that disagree"


def test_a_failed_run_shows_its_valid_repetitions_marked_and_claims_no_ratio():
    # REPEAT=2 where the second repetition was invalid (the stand-in served late): bench exits 1 (make 2), the median
    # is the valid repetition's. The row names the invalid one with why and claims no ratio from the run.
    from loadlab.run import answers_run
    from loadlab.summary.verdicts.records import RunSummary

    reps = [
        {"repetition": 1, "sustained_rps": 1200, "collapsed": True, "knee_interval_rps": [1200, 1500], "valid": True},
        {"repetition": 2, "sustained_rps": 0, "valid": False, "invalid_reasons": ["the delay-service served late"]},
    ]
    summary = RunSummary.from_mapping(
        {
            "modes": {"virtual": {"sustained_rps": 1200, "collapsed": True, "valid": True, "invalid_reasons": []}},
            "repeats": {"n": 2, "modes": {"virtual": {"median": 1200, "min": 1200, "max": 1200, "repetitions": reps}}},
        }
    )
    mode = answers_json.mode_entry(summary, "virtual", summary.modes["virtual"])
    assert mode["invalid_repetitions"] == ["repetition 2: the delay-service served late"]
    assert mode["knees"] == ["1,200–1,500", "invalid (repetition 2)"] and not mode["disagree"]

    entry = {"status": "failed", "modes": {"virtual": mode}, "ratio": {"value": 1.0, "interval": [0.8, 1.25]}}
    assert "virtual: repetition 2: the delay-service served late" in answers_run._failure_reasons(entry)
    row = ROWS["pool-sweep"]
    cells = answers_md.row_cells(row, entry)
    assert cells[0] == row.workload + answers_md.FAILED_RUN and cells[3] == "none claimed"
    detail = "\n".join(answers_md._detail(row, entry))
    assert "  - invalid: repetition 2: the delay-service served late" in detail
    assert "none claimed: the run failed" in detail and "1.00×" not in detail
