"""Real raw files, as the simulation wrote them on this machine, judged as `make report` judges them.

data/warmup_empty_first_second: a tiny run (one platform thread, 200 ms, stairs 2 -> 5 rps, a 4 s warm-up climbing
from 0.2 rps). Gatling injected nobody in the warm-up's first second (0.65 users), the case that once anchored every
label a second late: each level's last second carried the next rate and the last level's last second was the empty
tail, so a level read as 'the injector fell behind'. (Its verdict is invalid for another reason, true of that minute:
other programs kept the machine's CPU busy.)"""

import csv
import json
import math
import shutil
from pathlib import Path

import pytest
from conftest import summarised

from loadlab.analysis import bracket, knee
from loadlab.core import runrecord, summary_inputs
from loadlab.core.thresholds import Thresholds
from loadlab.summary.judge import judging

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    run = tmp_path_factory.mktemp("real") / "warmup_empty_first_second"
    shutil.copytree(DATA / run.name, run)
    return run, summarised(run)


def test_the_case_under_test_is_in_the_files(rebuilt):
    run, _ = rebuilt
    rows = list(csv.DictReader((run / "platform/raw/injector-0/seconds.csv").open()))
    assert (rows[0]["phase"], rows[0]["target_rps"], rows[0]["sent"]) == ("warmup", "0.65", "0")


def test_every_level_sends_its_own_rate_in_its_own_seconds(rebuilt):
    run, _ = rebuilt
    injector = run / "platform/raw/injector-0"
    measured = [r for r in csv.DictReader((injector / "seconds.csv").open()) if r["phase"] == "measure"]
    meta = json.loads((injector / "meta.json").read_text())
    assert meta["measure_start_epoch_ms"] == int(measured[0]["second"]) * 1000
    for level in meta["levels"]:
        sent = [int(r["sent"]) for r in measured if int(r["level"]) == level["index"]]
        target = level["target_rps"]
        # Gatling spreads round(rate x seconds) users over the level's seconds, a whole number each second.
        assert sum(sent) == pytest.approx(target * len(sent), abs=1), (level, sent)
        assert math.floor(target) - 1 <= min(sent) and max(sent) <= math.ceil(target) + 1, (level, sent)
    last = max(int(r["level"]) for r in measured)
    tail = measured[max(i for i, r in enumerate(measured) if int(r["level"]) == last) + 1 :]
    assert tail and all(r["level"] == "-1" and r["sent"] == "0" for r in tail), tail


def test_no_level_reads_as_an_injector_that_fell_behind(rebuilt):
    _, result = rebuilt
    platform = result["modes"]["platform"]
    assert [(lv["target_rps"], lv["offered_rps"]) for lv in platform["levels"]] == [(2, 2), (5, 5)]
    assert not [r for r in platform["invalid_reasons"] if "fell behind" in r], platform["invalid_reasons"]
    assert platform["levels"][0]["healthy"]
    # what is true of that minute costs each level it touched, named as such, not as an injector behind
    assert [e["reason"].split(":")[0] for e in platform["set_aside_levels"]] == [
        "something outside the run used the CPU"
    ] * 2


def test_a_real_fine_pass_that_held_every_level_is_judged_on_its_own_rates(tmp_path):
    """data/fine_pass_all_healthy: the same tiny run with its fine pass (2 -> 4.66 rps, a warm-up at 1 rps whose
    first second injected nobody). Every fine level held; two are set aside because other programs kept the machine
    busy (true of that minute), never as an injector that fell behind; the pass places the knee on the others, and
    judged whole with nothing against it, it moves the knee to its top level."""
    run = shutil.copytree(DATA / "fine_pass_all_healthy", tmp_path / "run")
    platform = summarised(run)["modes"]["platform"]
    (fine,) = platform["refine"]["passes"]
    # Gatling offers round(rate x seconds) users a level: within one request (0.2 rps over 5 s) of the rate.
    assert [lv["offered_rps"] for lv in fine["levels"]] == pytest.approx(
        [lv["target_rps"] for lv in fine["levels"]], abs=0.15
    )
    assert all(lv["healthy"] for lv in fine["levels"]), fine["levels"]
    # judged level by level: the two levels other programs' CPU touched are set aside, the pass is used on the rest
    assert fine["used"] is True
    aside = [(lv["target_rps"], lv["set_aside"]) for lv in fine["levels"] if lv["set_aside"]]
    assert [rate for rate, _ in aside] == [3.52, 4.66]
    assert all(why.startswith("something outside the run used the CPU") for _, why in aside), aside
    assert platform["knee_interval_rps"] == [4.3, 5]  # 4.28, the highest trusted rate held

    record = runrecord.load(run)
    judged = judging.judge_mode(
        run / "platform",
        "platform",
        record,
        summary_inputs.of_run(record),
        Thresholds.from_mapping(record.thresholds),
        "local",
        False,
    )
    mode_knee = knee.coarse_knee(judged.tables.levels, judged.verdict)
    levels = judged.fine[0].tables.levels
    outcome = mode_knee.add_pass("refine-1", levels, knee.judge(levels, Thresholds(), judged.verdict.baseline_p50_ms))
    assert outcome.used and mode_knee.sustained_rps == 4.66 and mode_knee.interval == bracket.Bracket(4.66, 5)
