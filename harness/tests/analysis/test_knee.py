from dataclasses import replace

import pytest
from builders import level, stairs

from loadlab.analysis import bracket, health, knee, validity
from loadlab.core.thresholds import Thresholds

TH = Thresholds()


# --- health and knee ---------------------------------------------------------------------------------------------


def test_healthy_throughout_never_collapses_and_reports_the_peak():
    v = knee.judge(stairs(), TH)
    assert (v.collapsed, v.sustained_rps, v.first_unhealthy, v.p99_ms_at_sustained) == (False, 600, None, 230)
    assert all(healthy for healthy, _ in v.health)


def test_latency_collapse_in_the_middle():
    v = knee.judge(stairs((3, dict(p99=900)), (4, dict(p99=2000)), (5, dict(p99=5000))), TH)
    assert (v.collapsed, v.sustained_rps, v.first_unhealthy) == (True, 300, 3)
    assert v.health[3] == (False, ["p99 900 ms is above the 402 ms limit"])


def test_errors_alone_make_a_level_unhealthy():
    v = knee.judge(stairs((2, dict(ko_share=0.02))), TH)
    assert (v.collapsed, v.sustained_rps) == (True, 200)
    assert v.health[2][1] == ["error ratio 2.0% is above 1.0% (60 errors)"]


def test_throughput_alone_makes_a_level_unhealthy():
    v = knee.judge(stairs((4, dict(ok_share=0.94))), TH)
    assert (v.collapsed, v.sustained_rps) == (True, 400)
    assert v.health[4][1] == ["OK throughput 470 rps is below 95% of the 500 rps target"]


def test_exactly_at_the_thresholds_is_still_healthy():
    limit = TH.p99_limit_ms(201)
    v = knee.judge(stairs((1, dict(ok_share=0.95, ko_share=0.0095, p99=int(limit)))), TH)
    assert not v.collapsed


def test_first_level_unhealthy_sustains_nothing():
    v = knee.judge(stairs((0, dict(ko_share=0.5))), TH)
    assert (v.collapsed, v.sustained_rps, v.sustained_position, v.p99_ms_at_sustained) == (True, 0, None, None)


def test_a_later_healthy_level_does_not_move_the_knee_back_up():
    v = knee.judge(stairs((2, dict(p99=900))), TH)
    assert v.sustained_rps == 200


def test_a_level_without_any_ok_response_is_unhealthy():
    v = knee.judge(stairs((3, dict(ok_share=0.0, ko_share=1.0))), TH)
    assert "no successful response, so no latency" in v.health[3][1]


@pytest.mark.parametrize("baseline, limit", [(201, 402), (50, 150), (100, 200)])
def test_p99_limit_is_the_larger_of_factor_and_slack(baseline, limit):
    v = knee.judge(stairs((0, dict(p50=baseline))), TH)
    assert (v.baseline_p50_ms, v.p99_limit_ms) == (baseline, limit)


def test_thresholds_come_from_params_json_with_contract_defaults():
    th = Thresholds.from_mapping({"ok_ratio": 0.9, "p99_slack_ms": "oops"})
    assert th == Thresholds(ok_ratio=0.9, max_error_ratio=0.01, p99_factor=2.0, p99_slack_ms=100.0)
    assert Thresholds.from_mapping(None) == TH


def test_shared_machine_targets():
    assert validity.shares_one_machine("local") and validity.shares_one_machine("netns")
    assert validity.shares_one_machine(None)
    assert not validity.shares_one_machine("aws")


def test_the_first_unhealthy_fine_level_closes_the_bracket_measured_once():
    fine = [(900, True), (943, True), (986, True), (1029, False), (1071, True)]
    got, why = bracket.combine(bracket.Bracket(900, 1200), fine)
    assert got == bracket.Bracket(986, 1029) and why is None
    # narrow, but 1,029 rps was measured unhealthy once: not yet a knee (the next pass measures it again)
    assert got.narrow() and not got.confirmed and not got.localised()


def test_the_unhealthy_rate_measured_unhealthy_again_confirms_the_knee():
    got, why = bracket.combine(bracket.Bracket(986, 1029), [(986, True), (1029, False)])
    assert got == bracket.Bracket(986, 1029, confirmed=True) and why is None and got.localised()
    # or a step beyond it (a fine pass's last rate may overshoot U)
    got, _ = bracket.combine(bracket.Bracket(900, 1200), [(900, True), (1157, True), (1214, False)])
    assert got == bracket.Bracket(1157, 1200, confirmed=True)


def test_a_fine_pass_that_holds_the_unhealthy_rate_healthy_places_no_knee():
    got, why = bracket.combine(bracket.Bracket(900, 1200), [(900, True), (1000, True), (1157, True), (1200, True)])
    assert got is None and why is None
    # and a rate unhealthy beyond the one that did not reproduce is a new first unhealthy rate, measured once
    got, _ = bracket.combine(bracket.Bracket(900, 1200), [(900, True), (1200, True), (1250, False)])
    assert got == bracket.Bracket(1200, 1250) and not got.confirmed


def test_a_fine_pass_that_stays_healthy_below_the_unhealthy_rate_keeps_it():
    got, _ = bracket.combine(bracket.Bracket(900, 1200), [(900, True), (1000, True), (1157, True)])
    assert got == bracket.Bracket(1157, 1200) and got.narrow() and not got.localised()


def test_a_fine_pass_that_contradicts_the_coarse_one_leaves_the_coarse_bracket_with_a_reason():
    # The drain did not suffice or the machine got slower: the coarse evidence stays, the bracket is not narrowed.
    got, why = bracket.combine(bracket.Bracket(900, 1200), [(900, False), (943, False)])
    assert got == bracket.Bracket(900, 1200)
    assert "900 rps unhealthy" in why


def test_only_the_levels_up_to_the_first_unhealthy_one_count():
    got, why = bracket.combine(bracket.Bracket(900, 1200), [(900, True), (945, False), (990, True)])
    assert got == bracket.Bracket(900, 945) and why is None


def test_an_unhealthy_fine_level_below_a_healthy_one_of_an_earlier_pass_is_a_contradiction():
    got, why = bracket.combine(bracket.Bracket(990, 1035), [(990, True), (985, False)])
    assert got == bracket.Bracket(990, 1035) and "985 rps unhealthy" in why


def test_a_coarse_first_level_that_a_higher_rate_held_is_a_transient_and_the_knee_is_sought_above_it():
    # Seen on a real app (cat-fact, the defaults): 300 rps unhealthy at the warm-up's end (p99 930 ms against 600),
    # 600 healthy, 900 unhealthy. The knee is not "below 300".
    levels = [level(0, 300, p99=930), level(1, 600), level(2, 900, p99=709), level(3, 1200, p99=800)]
    v = knee.judge(levels, TH, first_may_not_reproduce=True)
    assert (v.transient_first, v.first_unhealthy, v.sustained_rps, v.collapsed) == (0, 2, 600, True)
    assert v.counted(levels) == [levels[1]]
    k = knee.coarse_knee(levels, v)
    assert k.interval == bracket.Bracket(600, 900) and k.sustained_rps == 600
    assert k.transients == [
        "the first level, 300.0 rps, was unhealthy (p99 930 ms is above the 402 ms limit) but a higher rate measured "
        "after it, 600.0 rps, was healthy: it did not reproduce — the service was still growing into the load (the "
        "warm-up's end, a JIT still compiling), not the knee"
    ]
    # a fine pass (judged with the coarse baseline) is never read this way, nor a first level no higher rate held
    assert knee.judge(levels, TH, baseline_p50_ms=201).first_unhealthy == 0
    broken = [level(0, 300, p99=930), level(1, 600, p99=950)]
    assert knee.judge(broken, TH, first_may_not_reproduce=True).transient_first is None


def test_a_step_up_is_not_short_by_the_requests_still_in_flight_at_its_end():
    """8 then 24 rps over 4 s of 214 ms requests: a service answering every one completes 91 to 93 of the level's 96
    in its seconds (CI saw 91, 94.8%), the rest still in flight at its end. The rule expects 24 - 16 x 0.214 / 4 =
    23.1 rps of it, so 91 is healthy; 86 is short beyond what is in flight."""
    steps = [level(0, 8, p50=214, seconds=4), level(1, 24, p50=214, seconds=4, ok_share=91 / 96)]
    steps[1] = replace(steps[1], previous_target_rps=8)
    assert not knee.judge(steps, TH).collapsed
    steps[1] = replace(steps[1], ok=86)
    v = knee.judge(steps, TH)
    assert v.collapsed and v.health[1][1] == [
        "OK throughput 21.5 rps is below 95% of the 23.1 rps that keeping up with the 24 rps target completes in "
        "its seconds"
    ]


def test_a_lag_shifted_window_leaves_only_the_rest_of_the_latency_in_flight():
    """Requests of 1.2 s are read one whole second later (seconds.py's lag): 0.2 s of them is still in flight."""
    steps = [level(0, 10, p50=1200, p99=1300, seconds=4), level(1, 30, p50=1200, p99=1300, seconds=4)]
    steps[1] = replace(steps[1], previous_target_rps=10, window_shift_s=1)
    assert health.expected_answers_rps(steps[1], 1200) == pytest.approx(30 - 20 * 0.2 / 4)
    steps[1] = replace(steps[1], previous_target_rps=40)  # a step down: judged on its target, never stricter
    assert health.expected_answers_rps(steps[1], 1200) == 30
