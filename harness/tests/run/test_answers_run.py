"""`make answers`' runner with a fake bench in make bench's place (the test-only seam LOADLAB_ANSWERS_BENCH): a
progress line per row, a failing row recorded with why and the next row run, a row whose jar is absent skipped with
how to build it, and each row's make bench given exactly its parameters. No real bench runs here."""

import dataclasses
import json
import sys

import pytest
from conftest import REPO, make

from loadlab.core import answer_rows
from loadlab.core.answer_rows import Needs
from loadlab.run import answers_run

GOLDEN = REPO / "harness" / "tests" / "data" / "golden"

# A stand-in for `make bench`: logs the parameters it was given, fails for CLIENT=apache (exit 3 after writing an
# invalid run folder), and otherwise writes a run folder holding a kept real run's summary.json, pointed to by latest.
FAKE_BENCH = """
import json, os, shutil, sys
from pathlib import Path
results = Path(os.environ["RESULTS_DIR"])
with open(results.parent / "bench.log", "a") as log:
    seen = {k: os.environ.get(k) for k in ("MODES", "REPEAT", "CLIENT", "THREADLOCAL_KB", "ROWS")}
    log.write(json.dumps(seen) + "\\n")
n = len(list(results.glob("2026*")))
run = results / f"20261202-0100{n:02d}"
run.mkdir(parents=True)
golden = "set_aside_injector" if os.environ.get("CLIENT") == "apache" else "app_warmup_backlog"
summary = json.loads(Path(sys.argv[1], golden, "summary.json").read_text())
if os.environ.get("CLIENT") == "apache":
    for mode in summary["modes"].values():
        mode["valid"], mode["invalid_reasons"] = False, ["the machine saturated before any knee"]
(run / "summary.json").write_text(json.dumps(summary))
latest = results / "latest"
if latest.is_symlink():
    latest.unlink()
latest.symlink_to(run.name)
sys.exit(3 if os.environ.get("CLIENT") == "apache" else 0)
"""


def _rows():
    by_id = {r.id: r for r in answer_rows.load()}
    absent = Needs("APP", "no-such-folder/app.jar", "build it with ./mvnw package")
    petclinic = dataclasses.replace(by_id["petclinic-owners"], needs=absent)
    return [by_id["http-default"], by_id["client-apache"], petclinic, by_id["threadlocal-64k"]]


def test_rows_run_in_turn_past_a_failure_with_a_progress_line_each(tmp_path):
    script = tmp_path / "fake_bench.py"
    script.write_text(FAKE_BENCH)
    (tmp_path / "results").mkdir()
    base = {
        "LOADLAB_ANSWERS_BENCH": f"{sys.executable} {script} {GOLDEN}",
        "RESULTS_DIR": str(tmp_path / "results"),
        "MODES": "virtual",  # left in the shell or given to make answers: no row may see it
        "MAKEFLAGS": "ROWS=x",
        "ROWS": "x",
        "PATH": "/usr/bin:/bin",
    }
    lines, written = [], []
    code = answers_run.run(_rows(), 3, base, lines.append, lambda entries, rows: written.append(list(entries)))

    assert code == 1  # one row failed, one was skipped
    progress = [line for line in lines if "REPEAT=3, elapsed" in line]
    assert (
        progress[0]
        == "-- answers: row 1 of 4 (http-default), REPEAT=3, elapsed 0 min 0 s, time left: known after a row"
    )
    assert (
        progress[1].startswith("-- answers: row 2 of 4 (client-apache), REPEAT=3, elapsed ") and "left" in progress[1]
    )
    assert "about" in progress[1] and len(progress) == 4

    entries = {e["id"]: e for e in written[-1]}
    assert len(written) == 4  # answers written again after every row
    assert [e["status"] for e in written[-1]] == ["measured", "failed", "skipped", "measured"]
    failed = entries["client-apache"]
    assert failed["exit_code"] == 3 and failed["run_id"] == "20261202-010001"
    assert failed["reason"].startswith("the run ended INVALID (make bench exited 3): ")
    assert "the machine saturated before any knee" in failed["reason"]
    skipped = entries["petclinic-owners"]
    assert skipped["reason"] == "skipped: needs APP=no-such-folder/app.jar (build it with ./mvnw package)"
    assert any("(petclinic-owners): skipped: needs APP=no-such-folder/app.jar" in line for line in lines)
    measured = entries["threadlocal-64k"]  # the row after the failure ran
    assert measured["modes"]["platform"]["sustained_rps"]["median"] == 504
    assert measured["command"].startswith("make bench MODES='platform virtual' JDKS=25 ")
    assert measured["command"].endswith(
        "THREADLOCAL_KB=64 START_RPS=300 PEAK_RPS=3000 STEPS=10 STEP_SECONDS=6 WARMUP_SECONDS=30 REFINE=0 REPEAT=3"
    )
    assert measured["machine"]["cores"] and measured["date"].endswith("Z") and measured["seconds"] >= 0

    seen = [json.loads(line) for line in (tmp_path / "bench.log").read_text().splitlines()]
    assert [s["MODES"] for s in seen] == ["platform virtual"] * 3  # the rows', never the shell's
    assert {s["REPEAT"] for s in seen} == {"3"} and {s["ROWS"] for s in seen} == {None}
    assert [s["CLIENT"] for s in seen] == [None, "apache", None]  # a row's parameters only


def test_a_bench_that_makes_no_run_folder_is_a_failure_that_says_so(tmp_path):
    (tmp_path / "results").mkdir()
    base = {"LOADLAB_ANSWERS_BENCH": "false", "RESULTS_DIR": str(tmp_path / "results"), "PATH": "/usr/bin:/bin"}
    lines, written = [], []
    row = answer_rows.load()[0]
    assert answers_run.run([row], 1, base, lines.append, lambda e, r: written.append(list(e))) == 1
    entry = written[-1][0]
    assert entry["status"] == "failed" and entry["run_folder"] is None
    assert entry["reason"] == "make bench exited 1; it made no run folder"


def test_make_answers_refuses_a_bad_rows_or_repeat_before_anything_starts():
    r = make("answers", "ROWS=http-default nope", "REPEAT=0")
    assert r.returncode == 2
    said = [line for line in r.stderr.splitlines() if line.startswith("loadlab:")]
    assert said == [
        "loadlab: ROWS='http-default nope' names unknown row ids nope; allowed: "
        + " ".join(row.id for row in answer_rows.load()),
        "loadlab: REPEAT='0' is not allowed; allowed: a whole number 1..20 (make answers' default: 3)",
    ]
    assert "installing" not in r.stdout  # refused before the venv or any bench


def test_the_petclinic_row_says_how_to_get_its_jar():
    row = {r.id: r for r in answer_rows.load()}["petclinic-owners"]
    if (REPO / row.params["APP"]).exists():
        pytest.skip("spring-petclinic is built next to this checkout: nothing to say")
    said = row.missing()
    assert said is not None and said.startswith(f"skipped: needs APP={row.params['APP']} (git clone ")
    assert "spring-petclinic" in said and "mvnw" in said
