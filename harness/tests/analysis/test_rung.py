"""A rung of the limit ladder judged against the knee below it and the next limit's predicted interval."""

from loadlab.analysis import rung
from loadlab.analysis.rung import Figures

BEFORE = (990.0, 1035.0)  # the default run's platform knee: Tomcat's 200 threads


def figures(**kw) -> Figures:
    base = dict(
        valid=True,
        why_not_valid=None,
        sustained_rps=2100.0,
        collapsed=True,
        knee=(2100.0, 2200.0),
        predicted=(2000.0, 2300.0),
        top_rps=3500.0,
    )
    return Figures(**{**base, **kw})


def test_a_knee_inside_the_next_limits_interval_moved_as_predicted():
    judged = rung.judge(BEFORE, 990.0, figures())
    assert judged.verdict == rung.MOVED_AS_PREDICTED
    assert "2,100–2,200 rps" in judged.words and "2,000–2,300 rps" in judged.words


def test_a_knee_below_the_interval_moved_less_and_one_above_moved_more():
    assert rung.judge(BEFORE, 990.0, figures(knee=(1500.0, 1600.0))).verdict == rung.MOVED_LESS
    assert rung.judge(BEFORE, 990.0, figures(knee=(2500.0, 2600.0))).verdict == rung.MOVED_MORE


def test_a_knee_its_own_run_says_agrees_within_the_health_rule_s_resolution_moved_as_predicted():
    # run 20261202-074207: the sample app's HikariCP pool raised 2 → 5; virtual's rung placed its knee at 33.5–34.5
    # against the pool's predicted 31.7–33, and its own page said "agrees" (a healthy level may deliver 95% of its
    # rate, so the knee may lie down to 31.8): the rung says the same, never "moved more"
    rung_run = figures(knee=(33.5, 34.5), sustained_rps=33.5, predicted=(31.66, 33.04), top_rps=42.0, agrees=True)
    judged = rung.judge((13.8, 14.4), 13.8, rung_run)
    assert judged.verdict == rung.MOVED_AS_PREDICTED and "within the health rule's resolution" in judged.words
    assert rung.judge((13.8, 14.4), 13.8, figures(**{**rung_run.__dict__, "agrees": False})).verdict == rung.MOVED_MORE


def test_a_knee_where_it_was_did_not_move_and_says_what_that_means():
    judged = rung.judge(BEFORE, 990.0, figures(knee=(990.0, 1035.0), sustained_rps=990.0))
    assert judged.verdict == rung.DID_NOT_MOVE and "did not take effect" in judged.words


def test_a_rung_that_cannot_be_trusted_has_no_verdict():
    judged = rung.judge(BEFORE, 990.0, figures(valid=False, why_not_valid="the injector fell behind"))
    assert judged.verdict is None and "the injector fell behind" in judged.words


def test_a_rung_that_held_its_stairs_past_the_prediction_moved_more_and_short_of_it_says_so():
    held = figures(collapsed=False, knee=None, sustained_rps=3500.0)
    assert rung.judge(BEFORE, 990.0, held).verdict == rung.MOVED_MORE
    short = figures(collapsed=False, knee=None, sustained_rps=1800.0, top_rps=1800.0)
    judged = rung.judge(BEFORE, 990.0, short)
    assert judged.verdict is None and "did not reach the prediction" in judged.words


def test_a_rung_whose_levels_above_were_set_aside_held_a_bound_not_the_top_of_its_stairs():
    """A real rung (SCENARIO=db, DB_POOL 2 -> 8) held 49.5 rps on trusted levels; 66.75 rps, unhealthy, was set aside
    (the instrument saturated). It once read "moved more: held the top of its stairs, 84 rps"."""
    aside = "the levels above were set aside, their instrument saturated"
    judged = rung.judge(
        (17.0, 21.0),
        17.0,
        figures(collapsed=False, knee=None, sustained_rps=49.5, top_rps=84.0, bound=aside, predicted=(69.8, 72.7)),
    )
    assert judged.verdict is None and "held 49.5 rps on the levels that can be trusted" in judged.words
    assert "84" not in judged.words and "the ladder stops here" in judged.words
    above = rung.judge(
        (17.0, 21.0), 17.0, figures(collapsed=False, knee=None, sustained_rps=80.0, bound=aside, predicted=(69.8, 72.7))
    )
    assert above.verdict == rung.MOVED_MORE
