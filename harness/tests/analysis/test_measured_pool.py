"""A pool no model knows (an app's own Semaphore), sized and timed from the wait profile alone (issue 52): its holders
are the request threads inside the code that took it and not waiting there; its size the most of them seen where
requests waited; its hold holders ÷ throughput at the healthy levels; its prediction size ÷ hold, with the interval
the levels' holds span; its prescription the size Little's law asks for, in code (no setting sizes it)."""

from dataclasses import replace

import pytest
from builders import level
from test_wait_sites import PARK, VIRTUAL

from loadlab.analysis import measured_pool, prescription
from loadlab.analysis.wait_profile import LevelWaits, SecondSamples, Site, profile, takers
from loadlab.analysis.wait_sites import DOWNSTREAM, POOL, Sample

SITE = "a Semaphore in app.Limiter.call"
WAITER = Sample(
    "virtual",
    "WAITING",
    "java.util.concurrent.Semaphore$NonfairSync",
    f"{VIRTUAL};app.Limiter.call;java.util.concurrent.Semaphore.acquire;{PARK}",
)
HOLDER = Sample("virtual", "WAITING", "-", f"{VIRTUAL};app.Limiter.call;app.Client.fetch;sun.nio.ch.NioSocketImpl.read")
ELSEWHERE = Sample("virtual", "WAITING", "-", f"{VIRTUAL};app.Other.fetch;sun.nio.ch.NioSocketImpl.read")


def second(at: int, waiting: int, holding: int, other: int = 1) -> SecondSamples:
    return SecondSamples(at, 2, 1.0, ((2 * waiting, WAITER), (2 * holding, HOLDER), (2 * other, ELSEWHERE)))


def test_the_holders_are_the_threads_inside_the_code_that_took_it_at_every_level_the_uncontended_too():
    contended, quiet = [second(100, 6, 4)], [second(50, 0, 2)]
    pools = takers([*quiet, *contended])
    assert pools == {SITE: "app.Limiter.call"}
    at_knee = profile(contended, pools=pools)
    assert at_knee.at(POOL, SITE) == 6 and at_knee.holders == {SITE: 4}
    assert at_knee.at(DOWNSTREAM, "app.Client.fetch") == 4  # the holders wait on their own call, named as before
    below = profile(quiet, pools=pools)
    assert below.at(POOL, SITE) == 0 and below.holders == {SITE: 2}
    assert profile(quiet).holders == {}  # no pool known: nothing counted


def waits(waiting: float, holding: float) -> LevelWaits:
    sites = (Site(POOL, SITE, waiting, 0.5), Site(DOWNSTREAM, "app.Client.fetch", holding, 0.5))
    return LevelWaits(8, 80, None, sites, holders={SITE: holding})


def levels():
    """4 permits held 0.2 s each: 20 rps at most. Healthy at 10 and 15 rps (2 and 3.1 held), full at 25."""
    return [
        replace(level(0, 10), waits=waits(0.0, 2.0)),
        replace(level(1, 15), waits=waits(0.1, 3.1)),
        replace(level(2, 25, ok_share=0.8), waits=waits(12.0, 4.2)),
    ]


def test_its_size_is_the_most_held_where_requests_waited_and_its_hold_holders_over_throughput():
    found = measured_pool.of_levels(levels(), levels()[:2])
    assert found.site == SITE and found.size == 4
    assert found.hold.ms == pytest.approx((200 + 3.1 / 15 * 1000) / 2)
    assert (found.hold.shortest_ms, found.hold.longest_ms) == pytest.approx((200, 3.1 / 15 * 1000))
    predicted = measured_pool.predict(found)
    assert predicted.predicted_by == "measured_pool" and predicted.rps == pytest.approx(4000 / found.hold.ms)
    low, high = predicted.interval
    assert low == pytest.approx(4000 / (3.1 / 15 * 1000)) and high == pytest.approx(20)
    assert "4 held at once at most (a Semaphore in app.Limiter.call)" in predicted.formula


def test_a_pool_nobody_waited_on_is_no_limit():
    quiet = [replace(lv, waits=waits(0.0, 1.0)) for lv in levels()]
    assert measured_pool.of_levels(quiet, quiet) is None


def test_its_prescription_is_the_size_littles_law_asks_for_in_code_and_the_ladder_stops():
    found = measured_pool.of_levels(levels(), levels()[:2])
    model = measured_pool.predict(found)
    case = prescription.Case(
        "virtual", True, 15.0, model, (model,), {"measured_pool": 4.0}, target_rps=40.0, at_knee=levels()[2].waits
    )
    said = prescription.prescribe(case)
    assert not said.applicable and said.current == 4 and said.to == 9, said  # 40 rps x 0.203 s = 8.1 -> 9
    assert said.words.startswith(f"{said.limit}: its size in code 4 → 9"), said.words
    assert "No setting sizes it; what does: the size the code gives it (new Semaphore(N))" in said.words
    assert said.words.endswith("The ladder stops here."), said.words
