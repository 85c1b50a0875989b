"""A kept real run's `prescription` in summary.json and its "What to change" on the page: the platform pool whose knee
met Little's law is lifted by PLATFORM_THREADS. Its run climbed to 100 rps, so the CPU's predicted knee (1,208 rps)
is beyond its reach and names no next rung: the prescription asks for TARGET_RPS, and sizes the pool for it."""

import json
import math
import shutil
from pathlib import Path

from loadlab import report
from loadlab.run import console
from loadlab.summary.verdicts import records

DATA = Path(__file__).parents[1] / "data"


def kept(tmp_path: Path, target_rps: float | None = None) -> Path:
    run = tmp_path / "set_aside_injector"
    shutil.copytree(DATA / "set_aside_injector", run)  # 10 threads, DELAY_MS=100: knee 94–98, Little 83–98
    if target_rps is not None:
        recorded = json.loads((run / "params.json").read_text(encoding="utf-8"))
        recorded["params"]["TARGET_RPS"] = target_rps
        (run / "params.json").write_text(json.dumps(recorded), encoding="utf-8")
    return run


def test_ten_platform_threads_are_sized_for_target_rps_by_the_model_s_hold(tmp_path):
    run = kept(tmp_path, 500)
    p = report.rebuild(run).modes["platform"].limit.prescription
    assert (p.limit, p.setting) == ("threads (Tomcat's pool, Little's law)", "PLATFORM_THREADS")
    assert p.app_setting == "server.tomcat.threads.max"
    assert p.current == 10 and p.applicable and (p.rate_rps, p.rate_from) == (500, "TARGET_RPS")
    assert math.isclose(p.hold_ms, 118.0)  # the model's hold: 10 threads / 85 rps
    assert p.to == 59 and p.to_p99 > p.to  # 500 rps × 0.118 s
    assert p.words.startswith("threads (Tomcat's pool, Little's law): PLATFORM_THREADS 10 → 59 (")
    assert records.read(run).modes["platform"].limit.prescription == p
    page = (run / "index.html").read_text(encoding="utf-8")
    assert '<section id="what-to-change"><h2>What to change</h2>' in page and "PLATFORM_THREADS 10 → 59" in page


def test_without_target_rps_a_next_limit_beyond_the_run_gives_no_figure(tmp_path, capsys):
    run = kept(tmp_path)
    summary = report.rebuild(run)
    p = summary.modes["platform"].limit.prescription
    assert p.setting == "PLATFORM_THREADS" and p.to is None and not p.applicable
    assert "no other limit the lab predicts within the run's reach" in p.reason and "set TARGET_RPS" in p.reason
    console.table(summary, run)  # the run's last lines: each mode's prescription, as the page words it
    assert f"platform: what to change: {p.words}\n" in capsys.readouterr().out
