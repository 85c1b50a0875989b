"""Real raw files of a pass with one saturated-instrument level (issue 33, section 3).

data/set_aside_injector: `make bench MODES=platform PLATFORM_THREADS=10 DELAY_MS=100 START_RPS=25 PEAK_RPS=150
STEPS=6 STEP_SECONDS=5 WARMUP_SECONDS=5` (REFINE=1, run 20261127-055555 on this machine, with a fix of this branch)
with the injector starved on purpose during the third coarse level only (LOADLAB_FAULT_CPU_QUOTA, 3% of one core
while a file exists, opened when level 3 began and closed when it ended). At 75 rps the injector sent 24 requests/s:
the level read unhealthy and the simulation stopped there. The coarse pass once voided the whole mode. Judged level by
level, it keeps 25 and 50 rps and answers with a bound (≥ 50); the fine pass below the level set aside held through
75.6 rps, the climb above it found 100 rps unhealthy, and the last pass placed the knee between 94.1 and 97.8 rps
(Little's law: 85, 82.7–89.6). The files are the simulation's and the samplers' as written; the flight recording,
the page and Gatling's reports are left out."""

import json
import shutil
from pathlib import Path

import pytest
from conftest import summarised

from loadlab.analysis import refine
from loadlab.analysis.bracket import Bracket
from loadlab.summary.judge import fine_plan

DATA = Path(__file__).parents[1] / "data" / "set_aside_injector"
STARVED = "the injector fell behind: it sent 24 requests/s, 32% of the target (needs 95%)"


def copy(tmp_path, passes: int) -> Path:
    """The run as it stood after its coarse pass and its first `passes` fine passes."""
    run = tmp_path / f"after-{passes}"
    kept = {f"refine-{k}" for k in range(1, passes + 1)}
    shutil.copytree(DATA, run, ignore=lambda _, names: [n for n in names if n.startswith("refine-") and n not in kept])
    return run


def next_pass(run: Path) -> fine_plan.FineStep:
    """What bench would run next, from the raw files so far (params.json as bench holds it)."""
    return fine_plan.next_fine_pass(run, "platform", json.loads((run / "params.json").read_text()))


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    run = copy(tmp_path_factory.mktemp("real"), 3)
    return run, summarised(run)["modes"]["platform"]


def test_the_files_hold_a_level_whose_injector_fell_behind():
    rows = (DATA / "platform/raw/injector-0/seconds.csv").read_text().splitlines()
    assert rows[0].startswith("second,phase,level,target_rps,sent")
    sent = [int(r.split(",")[4]) for r in rows[1:] if r.split(",")[1] == "measure" and r.split(",")[2] == "2"]
    assert sum(sent) < 0.5 * 75 * len(sent), sent  # the third level: 75 rps asked, a third of it sent


def test_the_coarse_pass_keeps_its_other_levels_and_answers_with_a_bound_not_a_collapse(tmp_path):
    run = copy(tmp_path, 0)
    mode = summarised(run)["modes"]["platform"]
    assert mode["valid"] is True, mode["invalid_reasons"]
    assert mode["set_aside_levels"] == [{"pass": "coarse", "level": 3, "target_rps": 75, "reason": STARVED}]
    assert [lv["healthy"] for lv in mode["levels"]] == [True, True, False]
    assert [lv["set_aside"] for lv in mode["levels"]] == [None, None, STARVED]
    # never a collapse at the level set aside: the highest rate the trusted levels held, said as a bound
    assert mode["collapsed"] is False and mode["knee_interval_rps"] is None and mode["sustained_rps"] == 50
    assert mode["knee_bound"] == (
        "healthy up to 50 rps on the levels that can be trusted, so the knee lies at or above 50 rps (a lower bound, "
        "not a collapse): the levels above it were set aside, the instrument saturated there (level 3 (75 rps), "
        "unhealthy as measured: the injector fell behind)"
    )
    assert (
        f"level 3 (75 rps) was set aside, its instrument saturated: {STARVED}; the knee is placed on the other "
        "levels" in mode["notes"]
    )


def test_refine_looks_for_the_knee_between_the_last_trusted_healthy_level_and_the_one_set_aside(tmp_path):
    step = next_pass(copy(tmp_path, 0))
    assert step.set_aside and not step.climb and step.bracket == Bracket(50, 75)
    assert step.rates == refine.fine_rates(Bracket(50, 75)) == [50, 53.2, 56.4, 59.6, 62.8, 66, 69.2, 72.4, 75.6]
    # what the run then ran: the same rates
    meta = json.loads((DATA / "platform/refine-1/raw/injector-0/meta.json").read_text())
    assert [round(lv["target_rps"], 1) for lv in meta["levels"]] == step.rates


def test_a_fine_pass_that_held_the_rate_set_aside_leaves_a_bound_and_the_stairs_climb_on(tmp_path):
    run = copy(tmp_path, 1)
    mode = summarised(run)["modes"]["platform"]
    assert mode["valid"] is True and mode["collapsed"] is False and mode["sustained_rps"] == 75.6
    assert mode["knee_bound"].startswith("the rate set aside was held healthy on trusted levels when measured again")
    step = next_pass(run)
    assert step.climb and step.set_aside and step.rates == [100, 125, 150]


def test_the_knee_is_placed_on_the_trusted_levels_of_every_pass(whole):
    _, mode = whole
    assert mode["valid"] is True and mode["collapsed"] is True and mode["knee_bound"] is None
    assert mode["knee_interval_rps"] == [94.1, 97.8] and mode["sustained_rps"] == 94.1
    assert [p["used"] for p in mode["refine"]["passes"]] == [True, True, True]
    assert [(e["pass"], e["target_rps"]) for e in mode["set_aside_levels"]] == [("coarse", 75)]
    # the knee meets Little's law within the health rule's resolution (the prediction's own check)
    assert mode["predicted_by"] == "little" and mode["prediction_agrees"] is True


FIRST = Path(__file__).parents[1] / "data" / "set_aside_first_level"


def test_a_real_first_level_set_aside_gives_its_p50_as_the_baseline_and_leaves_too_little_for_an_answer(tmp_path):
    """data/set_aside_first_level: `make bench SERVICE_CPUS=1 PLATFORM_THREADS=30 DELAY_MS=100 START_RPS=150
    PEAK_RPS=3000 MODES=platform STEPS=8 STEP_SECONDS=8 WARMUP_SECONDS=10` (run 20261127-061459, this branch): right
    after a 10 s warm-up the injector and the delay-service, on the one core SERVICE_CPUS left them, used 91% of it at
    150 rps (their JIT still compiling); at 557 rps the platform mode collapsed (p50 1.5 s) and the simulation stopped.
    Level 1 is set aside; its p50 (113 ms) stays the baseline, not the collapsing level's 1,546 ms (a saturated
    instrument adds latency, never takes any away), so Little's law reads 265 rps, not 19. One trusted rate is no
    answer: the mode is invalid, says what was saturated first and how to avoid it, and claims no knee below 557."""
    run = shutil.copytree(FIRST, tmp_path / "run")
    mode = summarised(run)["modes"]["platform"]
    (entry,) = mode["set_aside_levels"]
    assert (entry["pass"], entry["level"], entry["target_rps"]) == ("coarse", 1, 150)
    assert entry["reason"].startswith("the other roles' cores were saturated: the delay-service and the injectors used")
    assert mode["baseline_p50_ms"] == 113 and mode["predicted_by"] == "little" and 250 <= mode["predicted_rps"] <= 280
    assert mode["valid"] is False
    assert mode["invalid_reasons"] == [
        entry["reason"] + " at level 1 (150 rps)",
        "only 1 rate measured on levels that can be trusted; a knee needs at least 2: the instrument was saturated on "
        "1 level, set aside",
    ]
    assert any("raise WARMUP_SECONDS or lower START_RPS" in n for n in mode["notes"])
    # its first trusted level is already unhealthy: no healthy rate to refine from, and nothing is claimed
    assert mode["knee_bound"] is None and next_pass(run).rates == []
