"""The tail of the slowest of N calls, predicted from the level's median and checked at p90 and p99 within the
intervals the level's count gives; a percentile the count cannot place is not judged."""

import random

from hdrh.histogram import HdrHistogram

from loadlab.analysis import fanout_model, fanout_tail
from loadlab.core import downstream, fanout

ONE = downstream.Distribution("lognormal", 100, p99_ms=800)


def level(requests: int, calls: int, own_ms, seed: int = 3) -> HdrHistogram:
    """A level's answered requests: the slowest of `calls` draws plus what the service added (own_ms(draw))."""
    draw = random.Random(seed)
    h = HdrHistogram(1, 3_600_000, 3)
    for _ in range(requests):
        h.record_value(round(max(ONE.quantile_ms(draw.random()) for _ in range(calls)) + own_ms(draw)))
    return h


def test_a_service_that_adds_a_few_ms_has_the_tail_the_slowest_call_predicts():
    tail = fanout_tail.check(level(5000, 4, lambda d: 3), fanout.SlowestOf(ONE, 4))
    assert [c.percentile for c in tail.checks] == [90.0, 99.0]
    assert all(c.agrees for c in tail.checks)


def test_a_service_that_queues_its_calls_has_a_tail_the_prediction_does_not_explain():
    # One request in ten waits 400 ms more (a pool it queued on): the median barely moves, the tail does.
    tail = fanout_tail.check(level(5000, 4, lambda d: 400 if d.random() < 0.1 else 3), fanout.SlowestOf(ONE, 4))
    assert tail.checks[0].agrees is False


def test_a_p99_the_levels_count_cannot_place_is_not_judged():
    tail = fanout_tail.check(level(300, 4, lambda d: 3), fanout.SlowestOf(ONE, 4))
    p99 = tail.checks[1]
    assert p99.measured is None and p99.agrees is None
    assert fanout_tail.check(HdrHistogram(1, 3_600_000, 3), fanout.SlowestOf(ONE, 4)) is None


def test_the_executor_holds_one_thread_per_call_for_one_calls_mean():
    shape = fanout_model.FanoutShape(calls=4, call=downstream.Distribution("constant", 200), executor_threads=100)
    p = fanout_model.executor(shape, measured_call_ms=[205.0, 210.0])
    assert p.predicted_by == "executor"
    assert round(p.rps) == 125  # 100 threads / (4 x 200 ms)
    assert p.interval == (100 * 1000 / (4 * 210), 125.0)
    assert fanout_model.executor(None, []) is None


def test_a_deadline_below_the_slowest_calls_median_calibrates_on_the_deadline():
    # 16 calls: the slowest's median (≈ 467 ms) is past a 300 ms deadline, so most answers come at the deadline
    capped = HdrHistogram(1, 3_600_000, 3)
    draw = random.Random(5)
    for _ in range(5000):
        capped.record_value(round(min(max(ONE.quantile_ms(draw.random()) for _ in range(16)), 300) + 4))
    tail = fanout_tail.check(capped, fanout.SlowestOf(ONE, 16), deadline_ms=300)
    assert 0 < tail.own_high_ms < 10
    assert [c.cut for c in tail.checks] == [True, True]  # p90 and p99 of 16 calls lie past 300 ms
    assert all(c.agrees is None for c in tail.checks)  # the deadline's, not judged as the calls' tail
