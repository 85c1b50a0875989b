"""The prediction record's words and the agreement rule: a knee agrees when its bracket meets the predicted
interval; a run that holds above the whole interval contradicts it; a knee that moved between passes is fuzzy."""

from partial_records import partial

from loadlab.analysis.prediction import MeasuredKnee, Prediction, agreement
from loadlab.summary.schema.fit_records import PredictedRecord
from loadlab.summary.verdicts.records import ModeRecord

LITTLE = Prediction(995, "little", "little: …", interval=(978, 995), fitted_on=(100, 100))


def test_a_knee_whose_bracket_meets_the_interval_agrees():
    got = agreement(LITTLE, MeasuredKnee(True, (990, 1035)))
    assert (got.agrees, got.verdict) == (True, "agrees")
    assert got.words == "the knee 990–1,035 rps meets the predicted 978–995 rps"


def test_a_knee_outside_the_interval_disagrees_and_says_by_how_much():
    got = agreement(LITTLE, MeasuredKnee(True, (800, 850)))
    assert (got.agrees, got.verdict) == (False, "disagrees")
    assert got.words == "the knee 800–850 rps is 13% below the predicted 978–995 rps"


def test_a_first_level_already_unhealthy_disagrees_only_with_an_interval_above_it():
    got = agreement(LITTLE, MeasuredKnee(True, (None, 300)))
    assert got.agrees is False and "the knee 0–300 rps is 69% below" in got.words
    # below its rate, the knee could be anywhere: a low interval is neither confirmed nor refuted
    low = Prediction(60, "little", "little: …", interval=(60.3, 373), fitted_on=(17, 17))
    got = agreement(low, MeasuredKnee(True, (None, 300)))
    assert (got.agrees, got.verdict) == (None, "not placed")
    assert got.words == (
        "the first level, 300 rps, was already unhealthy: the knee lies somewhere below it, which tells nothing "
        "about the predicted 60.3–373 rps"
    )
    assert low.quality() == "rough: measured at 17 rps, its interval spans 521% of it"


def test_holding_above_the_whole_interval_contradicts_the_prediction_by_name():
    ceiling = Prediction(231, "cpu", "cpu: …", interval=(200, 260), fitted_on=(50, 200), r2=0.99, levels=3)
    got = agreement(ceiling, MeasuredKnee(False, peak=400))
    assert (got.agrees, got.verdict) == (False, "contradicted")
    assert got.words == "this run held 400 rps without collapsing, above the whole of the predicted 200–260 rps"


def test_holding_just_above_the_interval_within_the_health_rules_resolution_contradicts_nothing():
    """A 16-thread pool at 211 ms (Little: 75.7-77.3 rps) held an 80.4 rps level healthy: healthy means at least 95%
    delivered, so it may have served 76.4 rps, inside the interval (seen on a real run)."""
    little = Prediction(76, "little", "little: …", interval=(75.7, 77.3), fitted_on=(20, 20))
    got = agreement(little, MeasuredKnee(False, peak=80.4, ok_ratio=0.95))
    assert (got.agrees, got.verdict) == (None, "not reached")
    assert "within the health rule's resolution" in got.words and "76.4 rps" in got.words, got.words
    assert agreement(little, MeasuredKnee(False, peak=90, ok_ratio=0.95)).verdict == "contradicted"


def test_a_mode_that_stopped_below_the_interval_did_not_reach_its_knee():
    got = agreement(LITTLE, MeasuredKnee(False, peak=500))
    assert (got.agrees, got.verdict) == (None, "not reached")


def test_a_fuzzy_knee_is_not_called_a_disagreement():
    cpu = Prediction(2500, "cpu", "cpu: …", interval=(2450, 2700), fitted_on=(300, 2100), r2=0.99, levels=8)
    fuzzy = "refine-1 found 2,100 rps unhealthy with the host's CPU at 97%, which an earlier pass measured healthy"
    got = agreement(cpu, MeasuredKnee(True, (2100, 2400), fuzzy=fuzzy))
    assert (got.agrees, got.verdict) == (None, "fuzzy") and fuzzy in got.words
    # meeting the interval, it agrees, and still says the knee is fuzzy
    met = agreement(cpu, MeasuredKnee(True, (2100, 2500), fuzzy=fuzzy))
    assert met.agrees is True and "the knee itself is fuzzy here" in met.words


def test_rough_says_why_in_plain_words():
    rough = Prediction(713, "cpu", "cpu: …", interval=(420, None), fitted_on=(20, 200), r2=0.56, levels=10)
    assert rough.quality() == (
        "rough: fitted on 20–200 rps, R² 0.56, 3.6× beyond the highest rate fitted, no upper end"
    )
    firm = Prediction(2110, "cpu", "cpu: …", interval=(2100, 2370), fitted_on=(300, 2100), r2=0.99, levels=9)
    assert firm.quality() is None
    two_levels = Prediction(500, "cpu", "cpu: …", fitted_on=(100, 400), r2=1.0, levels=2)
    assert (
        two_levels.quality() == "rough: fitted on 100–400 rps, R² 1.00, 2 levels leave no scatter to judge the line by"
    )
    # Little's law on a baseline is no fit: a narrow interval is firm, however far the knee is from the baseline
    assert LITTLE.quality() is None


def test_a_prediction_without_an_interval_is_judged_as_a_point():
    point = Prediction(49, "pool", "pool: …")
    assert point.band() == (49, 49)
    assert agreement(point, MeasuredKnee(True, (45, 50))).agrees is True
    assert agreement(point, MeasuredKnee(True, (40, 45))).agrees is False
    assert agreement(None, MeasuredKnee(True, (40, 45))).words == "no model limits this mode"


def test_a_knee_just_above_the_interval_agrees_within_the_health_rules_resolution():
    """The tiny e2e run: 8 threads, Little 38-38.8 rps, healthy at 40.1 rps offered (39.0 delivered, 97%), unhealthy
    at 41.8. A healthy level may deliver 5% less than it was offered, so its rate is not a lower bound of the knee."""
    little = Prediction(38, "little", "little: 8 threads / 0.210 s", interval=(38.0, 38.8))
    got = agreement(little, MeasuredKnee(True, (40.1, 41.8), ok_ratio=0.95))
    assert got.agrees is True and "within the health rule's resolution" in got.words, got
    assert "down to 38.1 rps" in got.words, got
    # without the resolution (a rule that demands every request) the same knee is 3% above
    assert agreement(little, MeasuredKnee(True, (40.1, 41.8))).agrees is False
    # a knee beyond the resolution still disagrees, by how much the bracket itself misses
    far = agreement(little, MeasuredKnee(True, (43, 45), ok_ratio=0.95))
    assert far.agrees is False and "11% above" in far.words, far


def test_the_limit_met_first_and_agrees_use_one_test_of_the_knee_against_an_interval():
    """A real db run (20261126-015914): reactive's knee 96–100 rps, its pool predicted at 93.8–95.2. It agrees within
    the health rule's resolution, so the same pool is the limit met first, said with that resolution — not "meets none
    of the predicted intervals" beside an "agrees"."""
    from loadlab.analysis.bracket import Bracket
    from loadlab.analysis.knee import Knee
    from loadlab.summary.judge.knee_record import limit_met_first

    pool = Prediction(95, "pool", "pool: 10 connections / 0.105 s", interval=(93.8, 95.2))
    cpu = Prediction(650, "cpu", "cpu: …", interval=(330, None), fitted_on=(20, 96), r2=0.3, levels=9)
    knee = Knee(96, 105, 104, Bracket(96, 100, confirmed=True), Bracket(80, 100), [], None)
    assert agreement(pool, MeasuredKnee(True, (96, 100), ok_ratio=0.95)).agrees is True
    said = limit_met_first([cpu, pool], knee, True, None, None, ok_ratio=0.95)
    assert said.startswith("the database pool: the knee 96 rps meets its predicted 93.8–95.2 rps within the"), said
    # a rule that demands every request (ok_ratio 1) finds no limit met, in both places
    assert agreement(pool, MeasuredKnee(True, (96, 100))).agrees is False
    strict = limit_met_first([pool], knee, True, None, _no_machine(), ok_ratio=1.0)
    assert "meets none of the predicted intervals" in strict, strict


def _no_machine():
    from types import SimpleNamespace

    return SimpleNamespace(split=None, cores=2, host_saturated_ratio=0.9)


def test_a_prediction_is_printed_only_as_far_as_its_interval_carries_it():
    """A point is printed only for an interval bounded on both sides above zero: with no upper end the low end is
    all the data says (seen: `5,149 (≥ 2,358, cpu)` on a run with the service on one core); reaching 0 rps it is
    said in words."""
    from loadlab.analysis.prediction import figure
    from loadlab.summary.verdicts.prediction_text import predicted

    assert figure(2110, [2100, 2370]) == "2,110"
    assert figure(5149, [2358, None]) == "≥ 2,358"
    assert figure(341, [0, 770]) == "no figure (its interval reaches 0 rps)"
    assert figure(990, None) == "990"
    unbounded = partial(
        ModeRecord,
        predicted=partial(PredictedRecord, rps=5149, interval_rps=[2358, None], predicted_by="cpu"),
    )
    assert predicted(unbounded).startswith("≥ 2,358 (cpu)") and "5,149" not in predicted(unbounded)


def test_a_mode_with_no_level_it_can_trust_neither_agrees_nor_contradicts():
    """Every level set aside (seen: JDK 21's pinned carriers at 24 rps, unhealthy, on a machine busy with other work):
    no rate was held on a trusted level, so the 10 rps the pinned model predicts is neither met nor contradicted."""
    pinned = Prediction(10, "pinned", "pinned: …", interval=(9.5, 10), fitted_on=(8, 8))
    got = agreement(pinned, MeasuredKnee(False, peak=None))
    assert (got.agrees, got.verdict) == (None, "not placed")
    assert got.words == "no level it held can be trusted, which tells nothing about the predicted 9.5–10 rps"


def test_a_mode_that_held_lists_as_ahead_only_the_limits_above_the_rate_it_held():
    """Issue 51 §3, seen on a run: "held 250 rps; the limits ahead: CPU at 247 rps". A figure below a rate measured
    healthy is no limit ahead: held past it (its interval still reaching above), or refuted (its whole interval below
    what the run held, beyond the health rule's resolution) — each said in its own words and `run_verdict`."""
    from loadlab.analysis.knee import Knee
    from loadlab.analysis.prediction import AHEAD, HELD_PAST, REFUTED, held_verdict
    from loadlab.summary.judge.knee_record import limit_met_first
    from loadlab.summary.verdicts.mode_predictions import prediction_record

    cpu = Prediction(247, "cpu", "cpu: …", interval=(220, 280))
    little = Prediction(100, "little", "little: …", interval=(95, 105))
    connections = Prediction(4000, "connections", "connections: …", interval=(3900, 4100))
    held = Knee(250, 250, 250, None, None, [], None)
    said = limit_met_first([connections, cpu, little], held, False, 250, None, ok_ratio=0.95)
    assert said == (
        "none within this run: it held 250 rps; the limits ahead: Tomcat's max-connections at 4,000 rps; "
        "held past its figure: CPU (utilization law) at 247 rps (its interval, 220–280 rps, reaches above the rate "
        "held); refuted by the run: it held above the whole interval of threads (Tomcat's pool, Little's law) at "
        "100 rps (95–105 rps)"
    ), said
    assert [held_verdict(p, 250, 0.95) for p in (cpu, little, connections)] == [HELD_PAST, REFUTED, AHEAD]
    # within the health rule's resolution (250 × 0.95 = 237.5 is not above 240) the run held past it, no more
    assert held_verdict(Prediction(230, "cpu", "cpu: …", interval=(200, 240)), 250, 0.95) == HELD_PAST
    assert prediction_record(cpu, False, (250, 0.95)).run_verdict == HELD_PAST
    assert prediction_record(cpu, False).run_verdict is None  # a mode that collapsed: its knee judges it


def test_tomcats_pool_and_the_hosts_thread_limit_are_never_both_called_threads():
    """Issue 51 §3, seen on a platform run: "threads: the knee 25 rps meets its predicted 61.5–63.5" beside "beyond
    the run … threads: no limit below 100,131 rps" — two models (Little's law on Tomcat's pool, the host's thread
    limit) under one name with two figures. Every sentence names a model by LIMIT_NAMES, and no two names share the
    words before their parenthesis."""
    from loadlab.analysis.bracket import Bracket
    from loadlab.analysis.knee import Knee
    from loadlab.analysis.prediction import LIMIT_NAMES, no_limit_text
    from loadlab.summary.judge.knee_record import limit_met_first

    little = Prediction(62.5, "little", "little: 5 threads / …", interval=(61.5, 63.5))
    host = Prediction(100_131, "threads", "threads: 31,000 request threads (pids) / …", interval=(100_131, 101_000))
    knee = Knee(60, 70, 70, Bracket(60, 70, confirmed=True), Bracket(60, 70), [], None)
    met = limit_met_first([little], knee, True, None, _no_machine(), ok_ratio=0.95)
    beyond = no_limit_text(host)
    assert met.startswith("threads (Tomcat's pool, Little's law): the knee 60 rps meets its predicted 61.5"), met
    assert beyond == "OS threads (the host's thread limit): no limit below 100,131 rps"
    heads = [name.split(" (")[0] for name in LIMIT_NAMES.values()]
    assert len(set(heads)) == len(heads), heads
