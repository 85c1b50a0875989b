"""summary.json is written from typed records (summary/verdicts/records.py) in one place: the text a record writes is
the text it was read from, key for key and in order, for every shape a run takes (a real run's folders, a failed mode, a
repetition); a field no record declares is refused, so a new one is typed before the page can read it."""

import json
import shutil

import pytest
from conftest import REPO, summarised
from partial_records import partial

from loadlab.report import costs_table
from loadlab.summary.schema.fit_records import PredictedRecord
from loadlab.summary.schema.level_records import LevelRecord, healthy_prefix
from loadlab.summary.verdicts import records, verdict
from loadlab.summary.verdicts.records import KneeRecord, ModeRecord, RunSummary

REAL_RUNS = ["app_ignores_switch", "fine_pass_all_healthy", "warmup_empty_first_second"]


@pytest.mark.parametrize("name", REAL_RUNS)
def test_a_real_runs_summary_json_is_spelled_back_byte_for_byte(tmp_path, name):
    run = tmp_path / name
    shutil.copytree(REPO / "harness" / "tests" / "data" / name, run)
    returned = summarised(run)
    text = (run / "summary.json").read_text(encoding="utf-8")
    assert json.loads(text) == returned
    record = RunSummary.from_mapping(json.loads(text))
    assert records.json_text(record) == text
    assert all(isinstance(m, ModeRecord) for m in record.modes.values())
    # every nested part is typed too (the page reads none of them by key), and records.read is the file's reader
    assert all(isinstance(lv, LevelRecord) for m in record.modes.values() for lv in m.all_levels)
    assert records.read(run) == record and records.json_text(records.read(run)) == text


def test_a_failed_mode_keeps_its_shorter_shape():
    record = verdict.failed_mode("the analysis of this mode failed: boom")
    assert list(record.as_json())[:3] == ["sustained_rps", "collapsed", "predicted_rps"]
    assert "levels" in record.as_json() and record.as_json()["missing"] == ["the analysis of this mode failed: boom"]
    assert ModeRecord.from_mapping(record.as_json()) == record
    assert record.knee.refine is None and "refine" not in record.as_json()
    assert record.validity.invalid_reasons == ["the analysis of this mode failed: boom"]


def test_the_prediction_is_one_record_spelled_as_the_modes_flat_keys():
    """ModeRecord.predicted (record_fields.Inline): summary.json's `predicted_*`/`prediction_*` keys, where the
    mode has them, gathered into one record and spelled back as they were."""
    flat = {
        "sustained_rps": 200,
        "predicted_rps": 995,
        "predicted_interval_rps": [978, 995],
        "predicted_by": "little",
        "prediction": "little: 200 threads / 0.201 s = 995 rps",
        "prediction_agrees": True,
        "prediction_verdict": "agrees",
        "collapsed": True,
    }
    mode = ModeRecord.from_mapping(flat)
    assert mode.predicted == partial(
        PredictedRecord,
        rps=995,
        interval_rps=[978, 995],
        predicted_by="little",
        formula="little: 200 threads / 0.201 s = 995 rps",
        agrees=True,
        verdict="agrees",
    )
    assert mode.as_json() == flat and list(mode.as_json()) == ["sustained_rps", "collapsed", *list(flat)[1:7]]
    assert "predicted_r2" not in mode.as_json() and "prediction_check" not in mode.as_json()
    assert ModeRecord.from_mapping({"sustained_rps": 1}).predicted == PredictedRecord.unknown()  # no key: nothing known
    assert list(ModeRecord.from_mapping({"sustained_rps": 1}).as_json()) == ["sustained_rps"]


def test_a_modes_groups_are_records_spelled_as_its_flat_keys_where_they_stand():
    """ModeRecord's groups (limit, knee, validity, request_cost, jvm, stop; record_fields.Inline): summary.json's flat
    keys gathered into a record each and written back in their place; a group the mapping has part of keeps that
    part, one it lacks is unknown (every field None) and writes no key."""
    flat = {
        "sustained_rps": 300,
        "limit_met_first": "threads",
        "knee_interval_rps": [300, 400],
        "knee_bound": None,
        "requests": 10,
        "valid": True,
        "invalid_reasons": [],
        "levels": [],
        "costs": {"missing": ["no measured phase"]},
        "jdk": 25,
        "stopped_early": False,
        "missing": [],
    }
    mode = ModeRecord.from_mapping(flat)
    assert (mode.limit.met_first, mode.knee.interval_rps, mode.knee.bound) == ("threads", [300, 400], None)
    assert (mode.validity.valid, mode.validity.notes, mode.jvm.jdk, mode.stop.early) == (True, None, 25, False)
    assert mode.request_cost.fits is not None and mode.request_cost.fits.missing == ["no measured phase"]
    assert mode.as_json() == flat and list(mode.as_json()) == list(flat)
    assert ModeRecord.from_mapping({}).knee == KneeRecord.unknown() == partial(ModeRecord).knee
    grouped = {"limit_met_first", "knee_interval_rps", "valid", "costs", "jdk", "stopped_early"}
    assert not grouped & set(partial(ModeRecord).as_json())  # built without its groups: none of their keys
    # built by its constructor, a group writes every field, None as null (mode_summary's)
    knee = KneeRecord(interval_rps=None, refine=None, bound=None, set_aside_levels=[])
    assert knee.as_json() == {"knee_interval_rps": None, "refine": None, "knee_bound": None, "set_aside_levels": []}


def test_a_field_no_record_declares_is_refused():
    with pytest.raises(ValueError, match="no field made_up"):
        ModeRecord.from_mapping({"sustained_rps": 1, "made_up": 2})
    with pytest.raises(ValueError, match="no field made_up"):
        RunSummary.from_mapping({"run_id": "x", "made_up": 2})
    # at any depth, a plain record's (a kind of the mix) and an analysis object's (a level's evidence) too
    with pytest.raises(ValueError, match="SetAsideRecord has no field pass_number"):
        ModeRecord.from_mapping({"set_aside_levels": [{"pass": "coarse", "pass_number": 1}]})
    with pytest.raises(ValueError, match="KindRecord has no field made_up"):
        ModeRecord.from_mapping({"kinds": [{"name": "a", "made_up": 1}]})
    with pytest.raises(ValueError, match="Evidence has no field made_up"):
        ModeRecord.from_mapping({"levels": [{"index": 1, "evidence": {"made_up": 1}}]})
    with pytest.raises(ValueError, match="CrashRecord is a mapping in summary.json"):
        ModeRecord.from_mapping({"crashed": "thread"})


def test_a_key_that_is_no_python_name_is_read_and_written_as_summary_json_spells_it():
    mode = ModeRecord.from_mapping({"set_aside_levels": [{"pass": "refine-1", "level": 2}]})
    (aside,) = mode.knee.set_aside_levels or []
    assert aside.pass_name == "refine-1" and mode.as_json() == {"set_aside_levels": [{"pass": "refine-1", "level": 2}]}


def test_the_healthy_prefix_is_the_healthy_levels_before_the_knee():
    levels = [{"index": i, "healthy": ok} for i, ok in enumerate([True, True, False, True])]
    assert [lv.index for lv in healthy_prefix(ModeRecord.from_mapping({"levels": levels}).levels)] == [0, 1]
    assert healthy_prefix([]) == []


def test_the_costs_table_spans_the_levels_the_summary_counts_not_a_healthy_level_after_the_knee():
    """A level held healthy after the first unhealthy one (a transient) is past the knee: the page's 'last healthy
    level' is the summary's, the last one before the knee."""
    rss = [200.0, 400.0, 900.0, 950.0]
    levels = [{"index": i, "healthy": ok, "rss_mb": r} for i, (ok, r) in enumerate(zip([1, 1, 0, 1], rss))]
    cells = dict(costs_table.rows(ModeRecord.from_mapping({"levels": levels, "first_unhealthy_level": 2})))
    assert cells["resident memory, first → last healthy level"] == "200 → 400 MB"


def test_fitted_levels_are_the_counted_ones_and_each_used_fine_pass_s_healthy_prefix():
    """What the costs are fitted on and make plan fits its CPU lines on: one rule, from the summary."""

    def levels(first, oks):
        return [{"index": first + i, "healthy": ok} for i, ok in enumerate(oks)]

    refine = {
        "passes": [
            {"name": "refine-1", "used": True, "levels": levels(10, [1, 0, 1])},
            {"name": "refine-2", "used": False, "levels": levels(20, [1, 1])},
        ]
    }
    mode = ModeRecord.from_mapping({"levels": levels(0, [1, 1, 0, 1]), "refine": refine})
    assert [lv.index for lv in mode.fitted_levels] == [0, 1, 10]


def test_every_key_only_some_runs_have_is_said_in_the_docs():
    # A record's field without a default is given by every builder; one with a default of None is a part only some
    # runs have, left out while None: docs/RESULTS.md says when each is written, and no other field may default.
    import dataclasses
    import importlib
    import pkgutil

    import loadlab.summary
    from loadlab.summary.schema.record_fields import Fields, declared

    found: set[str] = set()
    for info in pkgutil.walk_packages(loadlab.summary.__path__, "loadlab.summary."):
        for obj in vars(importlib.import_module(info.name)).values():
            if isinstance(obj, type) and issubclass(obj, Fields) and obj is not Fields:
                keys = declared(obj).keys
                found |= {keys[f.name] for f in dataclasses.fields(obj) if f.name != "absent" and f.default is None}
    doc = (REPO / "docs" / "RESULTS.md").read_text()
    table = doc.split("### What a missing key or a null says", 1)[1].split("\n### ", 1)[0]
    said = {
        cell.strip().strip("`")
        for row in table.splitlines()
        if row.startswith("| `")
        for cell in row.split("|")[1].split(", ")
    }
    assert found == said, (sorted(found - said), sorted(said - found))
