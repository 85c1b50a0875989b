"""Which runtime a mode ran on reaches summary.json and the page's setup from what the run recorded at its start
(params.json's `java_runtimes`, liveconfig.record_runtimes); a run from before it says so instead of guessing."""

import json
import shutil
from pathlib import Path

from loadlab import report

DATA = Path(__file__).parents[1] / "data"


def kept_run(tmp_path: Path, runtimes: dict | None) -> Path:
    run = tmp_path / "run"
    shutil.copytree(DATA / "fine_pass_all_healthy", run)
    if runtimes is not None:
        meta = json.loads((run / "params.json").read_text(encoding="utf-8"))
        meta["java_runtimes"] = runtimes
        (run / "params.json").write_text(json.dumps(meta), encoding="utf-8")
    return run


def test_each_mode_names_the_runtime_its_jdk_was(tmp_path):
    run = kept_run(tmp_path, {"25": "Temurin 25.0.3+9"})
    summary = report.rebuild(run)
    jvms = [m.jvm for m in summary.modes.values()]
    assert jvms and {(jvm.jdk, jvm.java_runtime) for jvm in jvms} == {(25, "Temurin 25.0.3+9")}
    written = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    assert {m["java_runtime"] for m in written["modes"].values()} == {"Temurin 25.0.3+9"}
    page = (run / "index.html").read_text(encoding="utf-8")
    assert '<th class="text">JDK 25</th><td class="text">Temurin 25.0.3+9</td>' in page


def test_a_run_from_before_the_record_says_not_recorded(tmp_path):
    run = kept_run(tmp_path, None)
    summary = report.rebuild(run)
    assert all(m.jvm.java_runtime is None for m in summary.modes.values())
    page = (run / "index.html").read_text(encoding="utf-8")
    assert '<th class="text">JDK 25</th><td class="text"><span class=muted>not recorded</span></td>' in page
