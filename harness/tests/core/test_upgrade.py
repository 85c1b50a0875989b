"""A run folder written before params.json had a `format` is upgraded as it is read (upgrade.py), and renders."""

import json

import synthrun
from synthrun import SLOW_TAIL, LevelSpec, ModeSpec

from loadlab import report
from loadlab.core import runrecord, upgrade


def collapsing():
    return ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300, latency=SLOW_TAIL)])


def test_a_format_0_folder_is_judged_with_what_it_ran_and_renders(tmp_path):
    synthrun.write_params(tmp_path, modes=["platform", "virtual"], record_format=0)
    synthrun.write_mode(tmp_path, "platform", collapsing())
    synthrun.write_mode(tmp_path, "virtual", ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300)]))
    assert "format" not in json.loads((tmp_path / "params.json").read_text())

    result = report.rebuild(tmp_path).as_json()

    # what those runs did, where their record said nothing: one scenario, the fixed timeouts, no fine pass
    assert result["scenario"] == "http" and result["params"]["SCENARIO"] == "http"
    assert result["limits"] == upgrade.FORMAT_0_LIMITS
    platform = result["modes"]["platform"]
    assert platform["collapsed"] and platform["refine"]["not_refined"] == upgrade.FORMAT_0_NOT_REFINED
    html = (tmp_path / "index.html").read_text()
    assert 'id="headline">http scenario: platform sustained 200 rps' in html
    assert "could not be drawn" not in html and html.count("<svg") >= 3


def test_a_format_0_record_keeps_what_it_did_record():
    doc = {"params": {"TARGET": "netns", "REFINE": 1}, "limits": {"injector_request_timeout_ms": 3400}}
    record = runrecord.from_doc(doc)
    assert (record.target, record.params.refine, record.limits) == ("netns", 1, doc["limits"])
    assert record.refine_skipped == {} and doc == {
        "params": {"TARGET": "netns", "REFINE": 1},
        "limits": {"injector_request_timeout_ms": 3400},
    }  # the document read is not changed


def test_a_current_record_is_read_as_written(tmp_path):
    synthrun.write_params(tmp_path, modes=["virtual"], crashes={"virtual": {"role": "delay-service"}})
    doc = json.loads((tmp_path / "params.json").read_text())
    assert doc["format"] == runrecord.FORMAT and upgrade.upgrade(doc) == doc
    record = runrecord.load(tmp_path)
    assert (
        record.found
        and record.params.to_json() == doc["params"]
        and record.crash_of("virtual") == {"role": "delay-service"}
    )


def test_a_folder_without_params_json_is_read_as_a_format_0_run(tmp_path):
    record = runrecord.load(tmp_path)
    assert not record.found and record.limits == upgrade.FORMAT_0_LIMITS and record.params.scenario == "http"


def test_a_repetition_sees_its_own_modes_under_their_plain_labels():
    record = runrecord.from_doc(
        {
            "format": runrecord.FORMAT,
            "target": "local",
            "params": {"SCENARIO": "http", "REFINE": 1},
            "limits": {"injector_request_timeout_ms": 3400},
            "modes_completed": ["rep-1/platform", "rep-1/virtual", "rep-2/platform"],
            "mode_problems": {"rep-2/platform": "gatling exited 1"},
            "crashes": {"rep-1/virtual": {"role": "thread-service"}, "rep-2/virtual": {"exit": 1}},
            "evidence_lost": {"rep-2/platform": [{"sampler": "thread", "what": "died"}]},
        }
    )
    first, second = record.for_repetition("rep-1/"), record.for_repetition("rep-2/")
    assert first.modes_completed == ["platform", "virtual"] and second.modes_completed == ["platform"]
    assert second.mode_problems == {"platform": ["gatling exited 1"]} and first.mode_problems == {}
    # a crash record without a role says nothing and is dropped as it is read
    assert first.crash_of("virtual") == {"role": "thread-service"} and second.crashes == {}
    assert second.evidence_lost == {"platform": [{"sampler": "thread", "what": "died"}]} and first.evidence_lost == {}
