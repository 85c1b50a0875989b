"""The fine pass's rates, on known answers."""

import pytest

from loadlab.analysis.knee import KNEE_RESOLUTION, Bracket
from loadlab.analysis.refine import (
    MAX_LEVELS_PER_PASS,
    MAX_PASSES,
    fine_rates,
    most_fine_levels,
    warmup_rate,
    warmup_seconds,
)


def test_the_default_runs_bracket_is_cut_into_steps_of_at_most_five_percent():
    rates = fine_rates(Bracket(900, 1200))
    assert rates[0] == 900 and max(rates) < 1200
    steps = [b - a for a, b in zip(rates, rates[1:] + [1200])]
    assert all(s <= 0.05 * 900 + 1e-6 for s in steps)
    assert len(rates) == 7  # 300 / 45 → 7 steps of 42.9


@pytest.mark.parametrize("bracket", [Bracket(1000, 1040), Bracket(0, 300), Bracket(500, 500)])
def test_nothing_to_refine(bracket):
    assert fine_rates(bracket) == []


def test_steps_are_whole_rps_within_the_resolution_and_fractional_for_small_rates():
    assert fine_rates(Bracket(900, 1200)) == [900, 945, 990, 1035, 1080, 1125, 1170]
    assert fine_rates(Bracket(35, 45)) == [35, 36.7, 38.4, 40.1, 41.8, 43.5]  # 5% of 35 = 1.75 → 1.7


def test_a_bracket_too_wide_for_one_pass_is_cut_into_the_most_levels_a_pass_may_have():
    rates = fine_rates(Bracket(300, 600))
    assert len(rates) == MAX_LEVELS_PER_PASS and rates[0] == 300 and rates[-1] < 600
    step = rates[1] - rates[0]
    assert 600 - rates[-1] <= step and step > 0.05 * 300  # the next pass narrows that step further
    # three passes of eight levels reach 5% from a bracket 25 times its lower rate
    assert (MAX_LEVELS_PER_PASS**MAX_PASSES) * KNEE_RESOLUTION >= 25


def test_the_fine_pass_warms_up_at_half_its_first_rate_as_long_as_the_coarse_pass_within_bounds():
    assert warmup_rate(900) == 450
    assert [warmup_seconds(s) for s in (0, 4, 12, 30)] == [5, 5, 12, 15]


def test_the_most_a_collapsed_mode_s_fine_passes_can_offer():
    # 300 → 3,000 rps in 10 levels: the bracket 600-900 takes the most (8 levels of 38 rps, then 600-638 in 2).
    coarse = [300 + 300 * i for i in range(10)]
    assert most_fine_levels(coarse) == [(8, 900), (2, 900)]
    # a bracket already within 5% needs no pass; nor does a single level
    assert most_fine_levels([1000, 1040]) == [] and most_fine_levels([500]) == []
    # at most MAX_PASSES passes, however wide the bracket
    assert len(most_fine_levels([1, 100_000])) == MAX_PASSES
