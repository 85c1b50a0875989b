"""The fine pass's rates, on known answers."""

import pytest

from loadlab.analysis.bracket import KNEE_RESOLUTION, Bracket
from loadlab.analysis.refine import (
    MAX_LEVELS_PER_PASS,
    MAX_PASSES,
    fine_rates,
    most_fine_levels,
    warmup_rate,
    warmup_seconds,
)


def test_the_default_runs_bracket_is_cut_into_steps_of_at_most_five_percent_through_its_unhealthy_rate():
    rates = fine_rates(Bracket(900, 1200))
    assert rates[0] == 900 and rates[-2] < 1200 <= rates[-1]  # 1,200 rps, measured unhealthy once, again
    steps = [b - a for a, b in zip(rates, rates[1:])]
    assert all(s <= 0.05 * 900 + 1e-6 for s in steps) and len(set(steps)) == 1  # even stairs (the simulation's)
    assert len(rates) == 8  # 300 / 45 → 7 steps of 42.9 below 1,200, and one at or beyond it


@pytest.mark.parametrize("bracket", [Bracket(1000, 1040, confirmed=True), Bracket(0, 300), Bracket(500, 500)])
def test_nothing_to_refine(bracket):
    assert fine_rates(bracket) == []


def test_a_narrow_bracket_measured_once_gets_a_pass_that_measures_its_unhealthy_rate_again():
    assert fine_rates(Bracket(1000, 1040)) == [1000, 1050]  # the healthy side, then a step of 5% through 1,040
    assert fine_rates(Bracket(38.4, 40.1)) == [38.4, 40.3]


def test_steps_are_whole_rps_within_the_resolution_and_fractional_for_small_rates():
    assert fine_rates(Bracket(900, 1200)) == [900, 945, 990, 1035, 1080, 1125, 1170, 1215]
    assert fine_rates(Bracket(35, 45)) == [35, 36.7, 38.4, 40.1, 41.8, 43.5, 45.2]  # 5% of 35 = 1.75 → 1.7


def test_a_bracket_too_wide_for_one_pass_is_cut_into_the_most_levels_a_pass_may_have():
    rates = fine_rates(Bracket(300, 600))
    assert len(rates) == MAX_LEVELS_PER_PASS + 1 and rates[0] == 300 and rates[-2] < 600 <= rates[-1]
    step = rates[1] - rates[0]
    assert 600 - rates[-2] <= step and step > 0.05 * 300  # the next pass narrows that step further
    # three passes of eight levels reach 5% from a bracket 25 times its lower rate
    assert (MAX_LEVELS_PER_PASS**MAX_PASSES) * KNEE_RESOLUTION >= 25


def test_the_fine_pass_warms_up_at_half_its_first_rate_as_long_as_the_coarse_pass_within_bounds():
    assert warmup_rate(900) == 450
    assert [warmup_seconds(s) for s in (0, 4, 12, 30)] == [5, 5, 12, 15]


def test_the_most_a_collapsed_mode_s_fine_passes_can_offer():
    # 300 → 3,000 rps in 10 levels: within one bracket, 2,700-3,000 offers the most (4 levels through 3,105, then
    # twice 2,700 and 2,835: each pass assumed to find its first unhealthy rate measured once, never confirmed); more
    # still, a first bracket whose unhealthy rate did not reproduce (300-600, 9 levels through 604), a climb through
    # the 8 coarse rates above it, then the top bracket.
    coarse = [300 + 300 * i for i in range(10)]
    assert most_fine_levels(coarse) == [(9, 604), (8, 3000), (4, 3105)]
    # a bracket already within 5% needs a pass that measures its unhealthy rate again; a single level none
    assert most_fine_levels([1000, 1040]) == [(2, 1050)] * MAX_PASSES and most_fine_levels([500]) == []
    # at most MAX_PASSES passes, however wide the bracket
    assert len(most_fine_levels([1, 100_000])) == MAX_PASSES
