"""A pass judged level by level (issue 33, section 3), on synthetic runs with known answers: a level whose instrument
was saturated is set aside, named with its reason, and the knee is placed on the others; a pass whose only unhealthy
level was set aside answers with a lower bound and still gets its fine pass below that level; a mode stays invalid
only when what is left cannot carry an answer. The same on real raw files: test_set_aside_real.py."""

import json

import synthrun
from conftest import summarised
from synthrun import SLOW_TAIL, START_EPOCH, LevelSpec, ModeSpec

from loadlab.analysis import refine
from loadlab.analysis.bracket import Bracket
from loadlab.summary.judge import fine_plan

# An injector that sent 80% of its schedule: its level says nothing about the service.
BEHIND = {"sent_share": 0.8, "ok_share": 0.8}
# p50 400 ms: a first level that sets a baseline twice the service's (its p99 limit would be 800 ms).
SLOW_START = ((400, 0.5), (420, 0.45), (450, 0.04), (460, 0.01))


def pass_of(*levels: LevelSpec, k: int = 0) -> ModeSpec:
    """A pass of these levels: the coarse one (k = 0), or fine pass k, started k × 1,000 s after it."""
    return ModeSpec(list(levels), start_epoch=START_EPOCH + 1000 * k)


def behind_and_unhealthy(rate: int) -> LevelSpec:
    return LevelSpec(rate, latency=SLOW_TAIL, **BEHIND)


def judged(tmp_path, specs: dict[str, ModeSpec], passes=(), **params) -> dict:
    synthrun.write_params(tmp_path, modes=tuple(specs), **{"REFINE": 1, **params})
    for mode, spec in specs.items():
        synthrun.write_mode(tmp_path, mode, spec)
    for k, spec in enumerate(passes, start=1):
        synthrun.write_fine_pass(tmp_path, "platform", f"refine-{k}", spec)
    return summarised(tmp_path)


def next_pass(run_dir, mode="platform") -> fine_plan.FineStep:
    """What bench would run next, from the raw files so far (as test_refine_summary's _plan)."""
    return fine_plan.next_fine_pass(run_dir, mode, json.loads((run_dir / "params.json").read_text()))


def coarse_with_its_only_unhealthy_level_set_aside() -> ModeSpec:
    return pass_of(LevelSpec(100), LevelSpec(200), LevelSpec(300), behind_and_unhealthy(400))


def test_a_level_whose_injector_fell_behind_is_set_aside_and_named_not_the_pass(tmp_path):
    mode = judged(tmp_path, {"platform": coarse_with_its_only_unhealthy_level_set_aside()})["modes"]["platform"]
    assert mode["valid"] is True, mode["invalid_reasons"]
    (entry,) = mode["set_aside_levels"]
    assert entry == {
        "pass": "coarse",
        "level": 4,  # counted from 1
        "target_rps": 400,
        "reason": "the injector fell behind: it sent 320 requests/s, 80% of the target (needs 95%)",
    }
    assert [lv["set_aside"] for lv in mode["levels"]] == [None, None, None, entry["reason"]]
    assert any(
        n.startswith("level 4 (400 rps) was set aside, its instrument saturated: the injector") for n in mode["notes"]
    )


def test_its_only_unhealthy_level_set_aside_the_answer_is_a_lower_bound_never_a_collapse(tmp_path):
    mode = judged(tmp_path, {"platform": coarse_with_its_only_unhealthy_level_set_aside()}, REFINE=0)["modes"][
        "platform"
    ]
    assert mode["collapsed"] is False and mode["knee_interval_rps"] is None and mode["sustained_rps"] == 300
    assert mode["knee_bound"].startswith(
        "healthy up to 300 rps on the levels that can be trusted, so the knee lies at or above 300 rps (a lower bound, "
        "not a collapse)"
    )
    assert mode["first_unhealthy_level"] is None


def test_refine_plans_a_fine_pass_between_the_last_trusted_healthy_level_and_the_one_set_aside(tmp_path):
    judged(tmp_path, {"platform": coarse_with_its_only_unhealthy_level_set_aside()})
    step = next_pass(tmp_path)
    assert step.set_aside and step.bracket == Bracket(300, 400)
    assert step.rates == refine.fine_rates(Bracket(300, 400)) == [300, 315, 330, 345, 360, 375, 390, 405]
    assert step.baseline_p50_ms == 201


def test_the_fine_pass_below_a_level_set_aside_places_the_knee_on_its_trusted_levels(tmp_path):
    rates = [300, 315, 330, 345, 360]
    fine = pass_of(*(LevelSpec(r, **({"latency": SLOW_TAIL} if r == 360 else {})) for r in rates), k=1)
    mode = judged(tmp_path, {"platform": coarse_with_its_only_unhealthy_level_set_aside()}, [fine])["modes"]["platform"]
    assert mode["valid"] is True and mode["collapsed"] is True
    assert mode["knee_interval_rps"] == [345, 360] and mode["knee_bound"] is None
    assert mode["refine"]["passes"][0]["used"] is True
    # measured once: the next pass measures 360 again
    assert next_pass(tmp_path).rates == refine.fine_rates(Bracket(345, 360))


def test_a_fine_pass_is_judged_level_by_level_too(tmp_path):
    """The fine pass's own injector falls behind at 390: that level is set aside, the pass keeps the others, the
    bound rises to 375 and the next pass looks between 375 and 390."""
    rates = [300, 315, 330, 345, 360, 375]
    fine = pass_of(*(LevelSpec(r) for r in rates), behind_and_unhealthy(390), k=1)
    mode = judged(tmp_path, {"platform": coarse_with_its_only_unhealthy_level_set_aside()}, [fine])["modes"]["platform"]
    assert mode["valid"] is True and mode["collapsed"] is False and mode["sustained_rps"] == 375
    assert mode["knee_bound"].startswith("healthy up to 375 rps on the levels that can be trusted")
    assert [(e["pass"], e["level"], e["target_rps"]) for e in mode["set_aside_levels"]] == [
        ("coarse", 4, 400),
        ("refine-1", 7, 390),
    ]
    (fine_record,) = mode["refine"]["passes"]
    assert fine_record["used"] is True and fine_record["levels"][-1]["set_aside"].startswith("the injector fell behind")
    step = next_pass(tmp_path)
    assert step.set_aside and step.bracket == Bracket(375, 390)


def test_a_trusted_unhealthy_level_above_one_set_aside_is_still_the_knee(tmp_path):
    spec = pass_of(LevelSpec(100), LevelSpec(200), LevelSpec(300, **BEHIND), LevelSpec(400, latency=SLOW_TAIL))
    mode = judged(tmp_path, {"platform": spec}, REFINE=0)["modes"]["platform"]
    assert mode["valid"] is True and mode["collapsed"] is True
    assert mode["knee_interval_rps"] == [200, 400] and mode["sustained_rps"] == 200
    assert [e["level"] for e in mode["set_aside_levels"]] == [3]


def test_a_first_level_set_aside_gives_no_baseline_and_the_knee_stands_on_the_others(tmp_path):
    """The first level's injector fell behind (and its latency doubled): its p50 would have doubled the p99 limit
    every other level is judged by. The baseline is the first trusted level's instead, and that level is named."""
    spec = pass_of(
        LevelSpec(100, latency=SLOW_START, **BEHIND),
        LevelSpec(200),
        LevelSpec(300),
        LevelSpec(400, latency=SLOW_TAIL),  # p99 900 ms: healthy against a 400 ms baseline, not against 201 ms
    )
    mode = judged(tmp_path, {"platform": spec}, REFINE=0)["modes"]["platform"]
    assert mode["valid"] is True, mode["invalid_reasons"]
    assert mode["baseline_p50_ms"] == 201 and mode["knee_interval_rps"] == [300, 400]
    assert [(e["level"], e["target_rps"]) for e in mode["set_aside_levels"]] == [(1, 100)]
    assert any(n.startswith("level 1 (100 rps) was set aside") for n in mode["notes"])


def test_every_level_after_the_first_set_aside_leaves_too_little_for_an_answer_but_its_fine_pass_is_planned(
    tmp_path,
):
    """The SERVICE_CPUS=1 case: 150 rps held, then the collapsing mode's backlog pushed the injector past its core.
    One trusted rate cannot carry an answer, so the mode is invalid and says why; REFINE=1 still looks between the
    two levels, where the knee lies."""
    spec = pass_of(LevelSpec(150), behind_and_unhealthy(557), behind_and_unhealthy(964))
    mode = judged(tmp_path, {"platform": spec})["modes"]["platform"]
    assert mode["valid"] is False and mode["collapsed"] is False
    behind, last = mode["invalid_reasons"]
    assert last == (
        "only 1 rate measured on levels that can be trusted; a knee needs at least 2: the instrument was saturated "
        "on 2 levels, set aside"
    )
    assert behind.startswith("the injector fell behind: it sent") and behind.endswith(
        "at level 2 (557 rps) (and 1 more level)"
    )
    step = next_pass(tmp_path)
    assert step.set_aside and step.bracket == Bracket(150, 557) and step.rates[0] == 150
    # the fine pass it plans adds the trusted levels: the mode then answers
    fine = pass_of(*(LevelSpec(r, **({"latency": SLOW_TAIL} if r >= 300 else {})) for r in step.rates[:4]), k=1)
    again = judged(tmp_path, {"platform": spec}, [fine])["modes"]["platform"]
    assert again["valid"] is True and again["collapsed"] is True
    assert step.rates[:4] == [150, 200.9, 251.8, 302.7]
    assert again["knee_interval_rps"] == [251.8, 302.7] and again["knee_bound"] is None


def test_every_level_set_aside_is_no_answer_and_no_fine_pass(tmp_path):
    spec = pass_of(*(behind_and_unhealthy(r) for r in (100, 200, 300)))
    mode = judged(tmp_path, {"platform": spec})["modes"]["platform"]
    assert mode["valid"] is False and mode["invalid_reasons"][-1].startswith(
        "no level measured on levels that can be trusted"
    )
    assert mode["knee_bound"] is None  # nothing trusted held: no bound to claim
    step = next_pass(tmp_path)
    assert step.rates == [] and "cannot be trusted" in step.reason


def test_a_ratio_from_a_bound_is_a_bound(tmp_path):
    platform = pass_of(LevelSpec(100), LevelSpec(200), LevelSpec(300, latency=SLOW_TAIL))
    virtual = coarse_with_its_only_unhealthy_level_set_aside()
    result = judged(tmp_path, {"platform": platform, "virtual": virtual}, REFINE=0)
    assert result["modes"]["virtual"]["knee_bound"] is not None
    assert result["virtual_over_platform"] == 1.0 and result["virtual_over_platform_bound"] == "lower"


def test_a_fine_pass_below_a_level_set_aside_that_contradicts_the_coarse_pass_is_not_used(tmp_path):
    """Its first level, the rate the coarse pass held, read unhealthy: the service was not in the state the coarse
    pass measured (a backlog not drained). That pass moves nothing: the bound stands."""
    fine = pass_of(LevelSpec(300, latency=SLOW_TAIL), k=1)
    mode = judged(tmp_path, {"platform": coarse_with_its_only_unhealthy_level_set_aside()}, [fine])["modes"]["platform"]
    (record,) = mode["refine"]["passes"]
    assert record["used"] is False and "which was measured healthy before" in record["why_not_used"]
    assert mode["sustained_rps"] == 300 and mode["knee_bound"].startswith("healthy up to 300 rps")
    assert next_pass(tmp_path).reason.startswith("refine-1 was not used (")
