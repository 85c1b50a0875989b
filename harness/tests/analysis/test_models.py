"""Each scenario's model on synthetic numbers: the rate, its name and the formula with those numbers."""

import pytest

from loadlab.analysis import models
from loadlab.analysis.models import Inputs


def test_little_is_threads_over_the_baseline():
    p = models.little(200, 203)
    assert p.rps == pytest.approx(985.2, abs=0.1) and p.predicted_by == "little"
    assert p.formula == "little: 200 threads / 0.203 s (baseline p50) = 985 rps"
    assert models.little(None, 203) is None and models.little(200, None) is None


def test_pool_is_connections_over_the_hold_time_and_platform_takes_the_smaller_pool():
    virtual = models.pool(10, 203, "baseline p50")
    assert virtual.rps == pytest.approx(49.26, abs=0.01) and virtual.predicted_by == "pool"
    assert virtual.formula == "pool: 10 connections / 0.203 s (baseline p50) = 49 rps"
    platform = models.pool(10, 203, "baseline p50", threads=8)
    assert platform.rps == pytest.approx(8 / 0.203)
    assert platform.formula == "pool: min(8 threads, 10 connections) / 0.203 s (baseline p50) = 39 rps"


def test_a_hold_time_under_ten_ms_keeps_its_digits():
    """spring-petclinic on H2 held a connection 0.0225 ms per request: the formula read "10 connections / 0.000 s"."""
    app = models.pool(10, 0.0225, "hikaricp.connections.usage, per request")
    assert app.formula == "pool: 10 connections / 0.0225 ms (hikaricp.connections.usage, per request) = 444,444 rps"
    assert models.little(200, 3).formula == "little: 200 threads / 3 ms (baseline p50) = 66,667 rps"
    assert models.little(200, 2.6).formula == "little: 200 threads / 2.6 ms (baseline p50) = 76,923 rps"


def test_cpu_is_the_knee_at_90_percent_of_the_cores_and_runs_up_to_all_of_them_busy():
    alone = models.cpu(2, 20)
    assert alone.rps == pytest.approx(90) and alone.interval == pytest.approx((90, 100))
    assert alone.formula == "cpu: 90% of 2 cores × 1000 / 20 ms = 90 rps (every core busy at 100)"
    shared = models.cpu(2, 20, others_ms_per_request=5)
    assert shared.rps == pytest.approx(72) and shared.interval == pytest.approx((72, 80))
    assert shared.formula == (
        "cpu: 90% of 2 cores × 1000 / (20 ms + 5.0 ms of other roles' CPU per request) = 72 rps (every core busy at 80)"
    )
    assert models.cpu(2, 0) is None and models.cpu(None, 20) is None


def test_pinned_is_carriers_over_the_delay():
    p = models.pinned(2, "virtual scheduler parallelism", 200)
    assert p.rps == pytest.approx(10) and p.predicted_by == "pinned"
    assert p.formula == "pinned: 2 carriers (virtual scheduler parallelism) × 1000 / 200 ms = 10 rps"


def test_http_platform_is_little_and_virtual_has_no_model():
    assert models.predict(Inputs("platform", threads=200, baseline_ms=200)).predicted_by == "little"
    assert models.predict(Inputs("virtual", threads=200, baseline_ms=200)) is None


def test_db_predicts_the_pool_for_both_modes_from_the_baseline_or_the_delay():
    x = dict(scenario="db", threads=200, baseline_ms=101, delay_ms=100, db_pool=2)
    assert models.predict(Inputs("platform", **x)).rps == pytest.approx(2000 / 101)
    virtual = models.predict(Inputs("virtual", **x))
    assert virtual.predicted_by == "pool" and virtual.rps == pytest.approx(2000 / 101)
    no_baseline = models.predict(Inputs("virtual", **{**x, "baseline_ms": None}))
    assert no_baseline.formula == "pool: 2 connections / 0.100 s (DELAY_MS, no baseline) = 20 rps"
    # fewer threads than connections: the threads are the limit, and Little's law says so first
    assert models.predict(Inputs("platform", **{**x, "threads": 1})).predicted_by == "little"


def test_cpu_predicts_the_cores_for_both_modes_and_is_the_lowest_when_cpu_ms_is_added_elsewhere():
    for mode in ("platform", "virtual"):
        p = models.predict(Inputs(mode, scenario="cpu", threads=200, baseline_ms=22, cpu_ms=20, cores=2))
        assert p.predicted_by == "cpu" and p.rps == pytest.approx(90)
    # http with 200 ms of CPU per request: the cores (10 rps) come before the threads (200 / 0.4 s)
    p = models.predict(Inputs("platform", threads=200, baseline_ms=400, cpu_ms=200, cores=2))
    assert p.predicted_by == "cpu"


@pytest.mark.parametrize(
    "jdk, carriers, expected",
    [
        (21, 2, ("pinned", 10)),
        (21, None, ("pinned", 20)),  # no live value: the default parallelism, the cores (4 here)
        (25, 2, None),  # JEP 491: no pinning on synchronized
        (None, 2, None),
    ],
)
def test_pinned_applies_to_virtual_threads_before_jdk_24(jdk, carriers, expected):
    p = models.predict(Inputs("virtual", scenario="pinned", jdk=jdk, delay_ms=200, carriers=carriers, cores=4))
    assert (p and (p.predicted_by, p.rps)) == (expected and (expected[0], pytest.approx(expected[1])))
    assert (
        models.predict(
            Inputs("platform", scenario="pinned", jdk=21, threads=200, baseline_ms=200, delay_ms=200, carriers=2)
        ).predicted_by
        == "little"
    )


def test_a_measured_cpu_ceiling_wins_when_it_is_lower():
    ceiling = models.Prediction(700, "cpu", "cpu: 2 cores / 2.9 ms per request = 700 rps")
    assert models.predict(Inputs("platform", threads=200, baseline_ms=200, cpu_ceiling=ceiling)) == ceiling
    assert models.predict(Inputs("virtual", cpu_ceiling=ceiling)) == ceiling


def test_little_runs_from_the_longest_to_the_shortest_hold_the_baseline_allows():
    # p50 202 ms; the client waited 204 ms on average (the tail); the service's own downstream call took 200 ms
    x = Inputs("platform", threads=200, baseline_ms=202, baseline_mean_ms=204, downstream_ms=200, baseline_rps=300)
    p = models.predict(x)
    assert p.predicted_by == "little" and p.rps == pytest.approx(990.1, abs=0.1)
    assert p.interval == pytest.approx((200_000 / 204, 1000))
    assert p.fitted_on == (300, 300) and p.r2 is None
    # read at the first level alone: said in words
    assert p.quality() == "rough: measured at 300 rps, from one level only"
    # a baseline of one value: no interval at all, never the point written as one
    bare = models.little(200, 202)
    assert bare.interval is None and bare.rps == pytest.approx(990.1, abs=0.1)


def test_a_hold_time_interval_spans_every_healthy_level_not_the_first_alone():
    """The first level's p50 stays the formula's value (the contract's Little's law); the interval runs from the
    shortest to the longest hold any healthy level shows, and the rates they were read at are the fit range."""
    levels = (
        models.LevelHold(300, 202, 204, 200),
        models.LevelHold(600, 201, 203, 199),
        models.LevelHold(900, 202, 212, 200),
        models.LevelHold(990, 203, 230, 201),  # a fine level near the knee: the tail grows
    )
    x = Inputs(
        "platform",
        threads=200,
        baseline_ms=202,
        baseline_mean_ms=204,
        downstream_ms=200,
        baseline_rps=300,
        healthy_holds=levels,
    )
    p = models.predict(x)
    assert p.rps == pytest.approx(990.1, abs=0.1) and p.formula.endswith("= 990 rps")
    assert p.interval == pytest.approx((200_000 / 230, 200_000 / 199))
    assert p.fitted_on == (300, 990) and p.measured_levels == 4 and p.quality() is None
    assert p.as_dict()["interval_rps"] == [870, 1005] and p.as_dict()["measured_levels"] == 4


def test_pool_and_pinned_carry_their_hold_time_interval():
    x = dict(scenario="db", threads=200, baseline_ms=101, baseline_mean_ms=110, downstream_ms=None, db_pool=2)
    p = models.predict(Inputs("virtual", **x))
    assert p.predicted_by == "pool" and p.interval == pytest.approx((2000 / 110, 2000 / 101))
    pinned = models.predict(Inputs("virtual", scenario="pinned", jdk=21, delay_ms=200, downstream_ms=210, carriers=2))
    assert pinned.rps == pytest.approx(10) and pinned.interval == pytest.approx((2000 / 210, 10))


def test_a_new_limit_is_a_plain_function_on_the_same_record():
    """How another limit joins: N slots, each held for one request, with the baseline's hold interval."""
    hold = models.baseline_hold(Inputs("platform", baseline_ms=200, baseline_mean_ms=250, downstream_ms=190))
    p = models.slots_over_hold(8192, hold, "connections", "connections: 8192 / 0.200 s", measured_at=300)
    assert p.predicted_by == "connections" and p.formula == "connections: 8192 / 0.200 s = 40,960 rps"
    assert p.interval == pytest.approx((8192 * 4, 8192_000 / 190))
