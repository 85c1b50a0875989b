"""A SCENARIO mix's prediction on numbers: Little's law on the kinds' weighted mean hold, the database pool reached by
the db share only, the CPU line on the mix's mean computation; the lowest names the knee."""

import pytest

from loadlab.analysis import models
from loadlab.analysis.holds import HoldTime, KindHold


def kind(name, share, ms, shortest=None, longest=None):
    return KindHold(name, share, HoldTime(ms, f"{name} baseline p50", shortest or ms, longest or ms, 3, (50.0, 150.0)))


MIX = (kind("http", 0.7, 200.0, 199.0, 204.0), kind("db", 0.2, 205.0, 203.0, 210.0), kind("cpu", 0.1, 21.0, 20.0, 23.0))


def inputs(mode="platform", kinds=MIX, **more):
    base = dict(mode=mode, scenario="http:70 db:20 cpu:10", threads=200, db_pool=10, cpu_ms=20, cores=2)
    return models.Inputs(**{**base, **more}, kinds=kinds)


def by(found, name):
    return next(p for p in found if p.predicted_by == name)


def test_little_holds_a_thread_for_the_kinds_weighted_mean():
    little = by(models.applicable(inputs()), "little")
    hold_s = 0.7 * 0.200 + 0.2 * 0.205 + 0.1 * 0.021  # 0.1831 s
    assert little.rps == pytest.approx(200 / hold_s)
    longest_s = 0.7 * 0.204 + 0.2 * 0.210 + 0.1 * 0.023
    shortest_s = 0.7 * 0.199 + 0.2 * 0.203 + 0.1 * 0.020
    assert little.interval == pytest.approx((200 / longest_s, 200 / shortest_s))
    assert "little: 200 threads / 0.183 s weighted mean hold (70% http 0.200 s, 20% db 0.205 s, 10% cpu 0.021 s)" in (
        little.formula
    )


def test_the_pool_is_reached_by_the_db_share_only():
    pool = by(models.applicable(inputs(mode="virtual")), "pool")
    assert pool.rps == pytest.approx(10 / (0.2 * 0.205))  # 244 rps, where db alone would give 49
    assert pool.interval == pytest.approx((10 / (0.2 * 0.210), 10 / (0.2 * 0.203)))
    assert "10 connections / 0.041 s (20% of requests db × 0.205 s)" in pool.formula


def test_the_cpu_line_is_on_the_mix_mean_computation():
    cpu = by(models.applicable(inputs(others_cpu_ms_per_request=0.5)), "cpu")
    bound = 2 * 1000 / (0.1 * 20 + 0.5)  # 800 rps with every core busy
    assert cpu.rps == pytest.approx(0.9 * bound) and cpu.interval == pytest.approx((0.9 * bound, bound))
    assert "2 ms (10% of requests cpu × 20 ms)" in cpu.formula


def test_the_lowest_limit_is_the_prediction_and_names_itself():
    assert models.predict(inputs()).predicted_by == "pool"  # 244 < cpu 900 < little 1,092
    no_db = (kind("http", 0.9, 200.0), kind("cpu", 0.1, 21.0))
    found = models.predict(inputs(kinds=no_db, threads=100, cpu_ms=20))
    assert found.predicted_by == "little" and found.rps == pytest.approx(100 / (0.9 * 0.2 + 0.1 * 0.021))
    assert found.interval is None  # no kind's hold had a spread: a point, never written as an interval
    cpu_heavy = (kind("http", 0.5, 200.0), kind("cpu", 0.5, 30.0))
    assert models.predict(inputs(mode="virtual", kinds=cpu_heavy, cpu_ms=30)).predicted_by == "cpu"


def test_a_single_scenario_is_predicted_as_before():
    single = models.Inputs(mode="virtual", scenario="db", db_pool=10, baseline_ms=205.0)
    assert models.predict(single).rps == pytest.approx(10 / 0.205)
