"""The page's first sentence, the one a reader repeats: the ratio against the pool it beat, and the limit each mode
met, said only as far as summary.json backs it."""

from loadlab.report.answer import answer
from loadlab.summary.verdicts.records import RunSummary


def summary(virtual, platform=None, **top):
    platform = platform or {
        "sustained_rps": 990,
        "collapsed": True,
        "limit_met_first": "threads (Tomcat's pool, Little's law): the knee 990 rps meets its predicted 978–995 rps",
    }
    return RunSummary.from_mapping(
        {"modes": {"platform": platform, "virtual": virtual}, "params": {"PLATFORM_THREADS": 200}, **top}
    )


def test_a_ratio_with_both_limits():
    virtual = {
        "sustained_rps": 2100,
        "collapsed": True,
        "limit_met_first": "CPU (utilization law): the knee 2,100 rps meets its predicted 1,900–2,700 rps",
    }
    said = answer(summary(virtual, virtual_over_platform=2.12, virtual_over_platform_interval=[2.03, 2.42]))
    assert said == (
        "Virtual threads held 2.12× (2.03–2.42) the load of a 200-thread pool here (2,100 against 990 requests a "
        "second); the limit was this machine's CPU, the platform pool's was its threads (Little's law: pool size / "
        "time per request)."
    )


def test_a_virtual_mode_that_never_broke_gives_a_floor():
    virtual = {"sustained_rps": 3000, "collapsed": False, "limit_met_first": "none within this run: it held 3,000"}
    text = answer(summary(virtual, virtual_over_platform=3.03, virtual_over_platform_interval=[2.9, None]))
    # a bound stays a bound: "at least", and beside it what the brackets allow, never a closed interval
    assert text.startswith("Virtual threads held at least 2.90× the load of a 200-thread pool"), text
    assert "never broke, so the ratio is a floor" in text


def test_a_limit_no_model_met_is_not_named():
    virtual = {
        "sustained_rps": 1500,
        "collapsed": True,
        "limit_met_first": "the knee 1,500 rps meets none of the predicted intervals (CPU (utilization law) at 2,600)",
    }
    text = answer(summary(virtual, virtual_over_platform=1.52))
    assert "the limit was" not in text and "the platform pool's was its threads" in text


def test_no_ratio_says_why_in_words():
    text = answer(
        summary({"sustained_rps": 2100}, virtual_over_platform=None, virtual_over_platform_reason="platform crashed: …")
    )
    assert text == "No ratio of virtual over platform threads can be claimed from this run: platform crashed."


def test_a_pool_sweep_names_the_best_pool():
    modes = {
        "platform-t200": {"sustained_rps": 990, "collapsed": True},
        "platform-t1000": {"sustained_rps": 2000, "collapsed": True},
        "virtual": {"sustained_rps": 2100, "collapsed": True},
    }
    text = answer(
        RunSummary.from_mapping(
            {
                "modes": modes,
                "virtual_over_platform": 1.05,
                "virtual_over_platform_basis": "platform-t1000",
                "ratios_by_pool": {"platform-t200": 2.12, "platform-t1000": 1.05},
            }
        )
    )
    # a summary written before intervals: the figure alone
    assert text.startswith("Virtual threads held 1.05× the load of a 1,000-thread pool here (2,100 against 2,000")
    assert "the best of the 2 pools tried" in text


def test_one_mode_has_no_answer():
    assert answer(RunSummary.from_mapping({"modes": {"platform": {"sustained_rps": 990}}})) is None


def test_a_ratio_whose_brackets_allow_more_than_a_factor_of_two_is_called_rough_with_what_to_do():
    """REFINE=0 and a coarse step: platform bracketed 25–70, virtual 160–205 (issue 33): 6.4× where the brackets
    allow 2.3× to 8.2×."""
    platform = {"sustained_rps": 25, "collapsed": True, "knee_interval_rps": [25, 70]}
    virtual = {"sustained_rps": 160, "collapsed": True, "knee_interval_rps": [160, 205]}
    text = answer(summary(virtual, platform, virtual_over_platform=6.4, virtual_over_platform_interval=[2.29, 8.2]))
    assert text.startswith("Virtual threads held 6.40× (2.29–8.20) the load"), text
    assert text.endswith(
        "The ratio is rough: the knees' brackets allow anything from 2.29× to 8.20×, more than a factor of 2 "
        "apart; localise the knees (REFINE=1) or climb in smaller steps (more STEPS)."
    ), text
