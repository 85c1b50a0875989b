"""A mode whose unhealthy level did not reproduce (a fine pass measured it healthy) has no knee, but it did not hold
the top of the stairs either: spring-petclinic's platform mode (run 20261125-233715, default stairs 300..3,000 in 6
steps) failed at 840 rps right after a 2.8× step, held 844 when measured again and was never offered 1,380. The
ratio's bound said "platform held the top of the stairs", the page's first line gave 0.9× as a measure, and its
headline put platform's "knee" where the machine ran out of CPU."""

from builders import run_params
from partial_records import partial

from loadlab.core import summary_inputs
from loadlab.report.answer import answer
from loadlab.report.headline import headline
from loadlab.summary.verdicts import ratio
from loadlab.summary.verdicts.prediction_text import bound_words
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

NOT_REPRODUCED = "the level at 840.0 rps was unhealthy (p99 1197 ms) but healthy when measured again (844.0 rps)"
CPU_NOTE = "the machine was saturated at the first unhealthy level 1 (840 rps): host CPU averaged 96%, so this knee …"


def platform_unplaced() -> dict:
    return {
        "valid": True,
        "collapsed": False,
        "sustained_rps": 844,
        "refine": {"not_reproduced": NOT_REPRODUCED},
        "notes": [CPU_NOTE],
    }


def virtual_broke() -> dict:
    return {"valid": True, "collapsed": True, "sustained_rps": 778, "knee_interval_rps": [778, 840]}


def summary() -> RunSummary:
    modes = {"platform": platform_unplaced(), "virtual": virtual_broke()}
    records = {label: ModeRecord.from_mapping(m) for label, m in modes.items()}
    inputs = summary_inputs.of(run_params(modes=("platform", "virtual"), platform_threads=(200,)))
    fields = ratio.ratio_fields(records, inputs)
    return RunSummary.from_mapping(
        {"modes": modes, "params": {"PLATFORM_THREADS": 200, "APP": "/a/petclinic.jar"}, **fields}
    )


def test_the_bound_says_platforms_knee_did_not_reproduce_not_that_it_held_the_top():
    s = summary()
    assert (s.virtual_over_platform, s.virtual_over_platform_bound) == (1.0, "upper")  # the bound, not the point 0.92
    words = bound_words("upper", ModeRecord.from_mapping(platform_unplaced()))
    assert "held the top of the stairs" not in words
    assert words == (
        "an upper bound: platform's unhealthy level did not reproduce, its knee lies above 844 rps, the highest "
        "rate it measured healthy"
    )
    # a mode that did hold the top keeps the old words
    assert bound_words("lower", partial(ModeRecord, collapsed=False, sustained_rps=550)).endswith(
        "virtual held the top of the stairs"
    )


def test_the_pages_first_line_says_the_ratio_is_a_ceiling_and_the_headline_places_no_knee_for_platform():
    s = summary()
    first = answer(s)
    assert first.startswith("Virtual threads held at most 1.00× the load of a 200-thread pool"), first
    assert "the platform pool never broke, so the ratio is a ceiling" in first
    assert "platform's knee this machine ran out of CPU" not in headline(s)


def test_two_modes_whose_knees_did_not_reproduce_are_not_told_to_raise_peak_rps():
    both = ratio.ratio(ModeRecord.from_mapping(platform_unplaced()), ModeRecord.from_mapping(platform_unplaced()))
    assert both[0] is None
    assert "raise PEAK_RPS" not in both[1] and "top of the stairs" not in both[1]
    assert "reached a knee that reproduced" in both[1] and "smaller steps" in both[1]
