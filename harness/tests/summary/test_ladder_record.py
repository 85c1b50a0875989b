"""summary.json's `ladder`: each rung bench recorded in params.json, judged from the rung's own run folder against the
knee below it (synthetic runs with known knees)."""

import json

import synthrun
from conftest import summarised
from synthrun import ModeSpec, stairs

from loadlab.analysis import rung
from loadlab.summary.verdicts import ladder_record


def _run_with_rung(tmp_path, rung_spec, facts_extra=None):
    """A platform mode whose pool of 60 threads breaks at 400 rps (bracket 300–400), and its first rung: 150 threads
    on stairs 270 → 1,050 rps."""
    synthrun.write_params(tmp_path, modes=("platform",), platform_threads=60, LADDER=1)
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs([100, 200, 300, 400, 500], 400)))
    folder = ladder_record.folder("platform", 1)
    synthrun.write_params(tmp_path / folder, modes=("platform",), platform_threads=150, START_RPS=270, PEAK_RPS=1050)
    synthrun.write_mode(tmp_path / folder, "platform", rung_spec)
    summarised(tmp_path / folder)  # the rung's own summary.json, as its bench wrote it
    doc = json.loads((tmp_path / "params.json").read_text())
    facts = {
        "mode": "platform",
        "rung": 1,
        "limit": "threads (Tomcat's pool, Little's law)",
        "setting": "PLATFORM_THREADS",
    }
    doc["ladder"] = [{**facts, "from": 60, "to": 150, "run": folder, "top_rps": 1050, **(facts_extra or {})}]
    (tmp_path / "params.json").write_text(json.dumps(doc))
    return summarised(tmp_path)["modes"]["platform"]


def test_a_rung_whose_knee_meets_the_next_prediction_moved_as_predicted(tmp_path):
    # 150 threads / 0.201 s: Little's law predicts about 746 rps; the rung breaks at 800
    mode = _run_with_rung(tmp_path, ModeSpec(stairs([270, 465, 660, 800, 1050], 800)))
    (r,) = mode["ladder"]
    assert (r["rung"], r["setting"], r["from"], r["to"], r["run"]) == (
        1,
        "PLATFORM_THREADS",
        60,
        150,
        "ladder/platform-rung-1",
    )
    assert r["knee_interval_rps"] == [660, 800]
    assert r["verdict"] == rung.MOVED_AS_PREDICTED, r["words"]


def test_a_rung_whose_knee_stayed_did_not_move(tmp_path):
    mode = _run_with_rung(tmp_path, ModeSpec(stairs([270, 300, 400, 660, 1050], 400)))
    (r,) = mode["ladder"]
    assert r["verdict"] == rung.DID_NOT_MOVE and "did not take effect" in r["words"]


def test_a_prescription_that_could_not_be_applied_is_a_rung_said_as_such(tmp_path):
    mode = _run_with_rung(tmp_path, ModeSpec(stairs([270, 465], None)), {"run": None, "not_applied": "beyond 10000"})
    (r,) = mode["ladder"]
    assert r["verdict"] == rung.NOT_APPLIED and r["words"] == "beyond 10000" and r["run"] is None


def test_a_run_without_a_ladder_has_no_ladder_field(tmp_path):
    synthrun.write_params(tmp_path, modes=("platform",))
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs([100, 200, 300], 300)))
    assert "ladder" not in summarised(tmp_path)["modes"]["platform"]


def test_a_ladder_refused_for_the_whole_run_is_said_in_every_mode(tmp_path):
    synthrun.write_params(tmp_path, modes=("platform",), LADDER=1)
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs([100, 200, 300], 300)))
    doc = json.loads((tmp_path / "params.json").read_text())
    doc["ladder"] = [{"mode": ladder_record.EVERY_MODE, "not_applied": "LADDER climbs one JDK"}]
    (tmp_path / "params.json").write_text(json.dumps(doc))
    (r,) = summarised(tmp_path)["modes"]["platform"]["ladder"]
    assert r["verdict"] == rung.NOT_APPLIED and r["words"] == "LADDER climbs one JDK"
