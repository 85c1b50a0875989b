"""The client_pool model: a pooled CLIENT's connections per route, each held for the downstream call."""

import pytest

from loadlab.analysis import models
from loadlab.analysis.holds import HoldTime, KindHold
from loadlab.analysis.models import Inputs
from loadlab.core.client import Pool


def test_apaches_default_pool_is_five_connections_over_the_downstream_call():
    x = Inputs("platform", threads=200, baseline_ms=202, delay_ms=200, downstream_ms=201, client_pool=Pool(5, "apache"))
    p = next(p for p in models.applicable(x) if p.predicted_by == "client_pool")
    assert p.rps == pytest.approx(25.0)
    assert p.formula == "client_pool: 5 connections (apache) × 1000 / 0.200 s (DELAY_MS) = 25 rps"
    assert p.interval == pytest.approx((5000 / 201, 25.0))
    # the lowest limit: far below Little's law on 200 threads
    assert models.predict(x).predicted_by == "client_pool"


def test_it_applies_in_virtual_modes_not_in_reactive_nor_without_a_downstream_call():
    pool = Pool(16, "reactor")
    assert models.predict(Inputs("virtual", delay_ms=100, client_pool=pool)).rps == pytest.approx(160)
    assert models.applicable(Inputs("reactive", delay_ms=100, client_pool=pool)) == []
    assert models.applicable(Inputs("virtual", scenario="db", delay_ms=100, client_pool=pool)) == []
    assert models.applicable(Inputs("virtual", delay_ms=100)) == []


def test_a_mix_reaches_the_pool_by_its_http_share():
    http = KindHold("http", 0.5, HoldTime(200, "baseline p50", 200, 200))
    cpu = KindHold("cpu", 0.5, HoldTime(20, "baseline p50", 20, 20))
    x = Inputs("virtual", scenario="http:50 cpu:50", kinds=(http, cpu), client_pool=Pool(5, "apache"))
    p = next(p for p in models.applicable(x) if p.predicted_by == "client_pool")
    assert p.rps == pytest.approx(50.0)
