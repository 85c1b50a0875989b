"""End to end, the limit ladder (LADDER=1): a platform pool of 8 threads breaks near Little's law (8 / 0.2 s ≈ 40
rps); its prescription, sized for TARGET_RPS=80, raises PLATFORM_THREADS, and the rung — the mode run again with it,
its own run folder — moves the knee up. The margin asserted is wide: the rung's knee at least 1.3× the first (its
pool is about twice as large), never a figure of time."""

import json

import pytest
from conftest import blamed_on_the_machine, machine_blame, make, not_proven

from loadlab.analysis import rung

pytestmark = pytest.mark.e2e

LADDERED = {
    "TARGET": "local",
    "MODES": "platform",
    "PLATFORM_THREADS": "8",
    "DELAY_MS": "200",
    "START_RPS": "25",
    "PEAK_RPS": "55",
    "STEPS": "4",
    "STEP_SECONDS": "4",
    "WARMUP_SECONDS": "4",
    "TARGET_RPS": "80",
    "LADDER": "1",
    # The coarse brackets carry the claim (a knee moved by at least 1.3x); fine passes, proven on the tiny local run
    # and the sample app's, would double the run's time in make test.
    "REFINE": "0",
}


def test_a_rung_raises_the_pool_and_moves_the_knee(tmp_path):
    results = tmp_path / "results"
    r = make("bench", env={**LADDERED, "RESULTS_DIR": str(results)}, timeout=900)
    run_dir = (results / "latest").resolve()
    assert run_dir.parent == results, "results/latest stays on the run, not on its rung"
    mode = json.loads((run_dir / "summary.json").read_text())["modes"]["platform"]
    (first,) = mode["ladder"]
    moves = "a rung raises PLATFORM_THREADS and moves the knee"
    if not mode["valid"] and blamed_on_the_machine(mode):
        # a mode the shared machine voided climbs no rung, and says why: never a rung on an untrusted knee
        assert first["verdict"] == rung.NOT_APPLIED and "cannot be trusted" in first["words"], first
        not_proven(moves, "; ".join(machine_blame(mode)))
        return
    assert "rung 1 (platform): PLATFORM_THREADS 8 → " in r.stdout, r.stdout[-3000:]
    assert first["setting"] == "PLATFORM_THREADS" and first["from"] == 8 and first["to"] >= 14, first
    rung_dir = run_dir / first["run"]
    assert (rung_dir / "index.html").is_file() and (rung_dir / "summary.json").is_file()
    page = (run_dir / "index.html").read_text()
    assert "the limit ladder" in page and f'href="{first["run"]}/index.html"' in page
    climbed = json.loads((rung_dir / "summary.json").read_text())["modes"]["platform"]
    if first["verdict"] is None and blamed_on_the_machine(climbed):
        assert "cannot be trusted" in first["words"], first
        not_proven(moves, "; ".join(machine_blame(climbed)))
        return
    assert first["verdict"] in rung.CLIMBS_ON, first
    assert first["sustained_rps"] >= 1.3 * mode["sustained_rps"], (first, mode["sustained_rps"])
