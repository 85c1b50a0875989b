"""The fitted line's band on points with a known answer: exact points pin a prediction, scatter and distance from
the measured rates widen it, a slope not told from flat leaves it open above."""

import pytest

from loadlab.analysis import linefit


def test_exact_points_give_the_point_itself():
    line = linefit.fit([100, 200, 300, 400], [0.2, 0.4, 0.6, 0.8])
    assert line.slope == pytest.approx(0.002) and line.r2 == pytest.approx(1.0)
    low, high = line.reaches_within_band(2.0)
    assert low == pytest.approx(1000) and high == pytest.approx(1000)


def test_scatter_widens_the_interval_around_the_point_and_distance_widens_it_more():
    line = linefit.fit([100, 200, 300, 400, 500], [0.22, 0.38, 0.63, 0.79, 1.01])
    point = line.reaches(1.2)
    low, high = line.reaches_within_band(1.2)
    assert low < point < high
    near = (high - low) / point
    far_point = line.reaches(2.0)
    far_low, far_high = line.reaches_within_band(2.0)
    assert far_low < far_point < far_high
    assert (far_high - far_low) / far_point > near


def test_a_slope_not_told_from_flat_has_no_upper_end():
    line = linefit.fit([20, 40, 60, 80, 100], [0.30, 0.10, 0.45, 0.15, 0.40])
    low, high = line.reaches_within_band(2.0)
    assert high is None and low > 0


def test_two_points_have_no_band_and_a_falling_line_never_reaches():
    assert linefit.fit([100, 200], [0.2, 0.4]).reaches_within_band(2.0) is None
    assert linefit.fit([100, 200, 300], [0.4, 0.3, 0.2]).reaches(2.0) is None
    assert linefit.fit([100, 100], [0.2, 0.4]) is None
