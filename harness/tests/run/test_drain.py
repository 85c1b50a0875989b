"""APP's drain before a fine pass: the app has no count of requests in flight, so its own answer time to APP_PATH
says when the collapse's backlog is served. Judged against the run's real limits (timeouts.derive), the way a bench
builds them: a fine pass with the default REFINE=1 reaches this on every APP run."""

from types import SimpleNamespace

from bench_run import service_of
from builders import run_params

from loadlab.core import timeouts
from loadlab.run import appservice, drain


def app_run():
    return SimpleNamespace(
        service=service_of(run_params(app="/apps/orders.jar", app_path="/orders/1", delay_ms=200)),
        topo=SimpleNamespace(thread=SimpleNamespace(address="127.0.0.1")),
        limits=timeouts.derive(run_params(delay_ms=200)),
        meta={},
    )


def test_an_app_that_answers_fast_again_is_drained(monkeypatch):
    asked = []
    answers = iter([("200", "3.0"), ("200", "0.21"), ("503", "0.01"), ("200", "0.21"), ("200", "0.20")])
    monkeypatch.setattr(appservice, "http_status", lambda h, target, timeout_s: asked.append(target) or next(answers))
    monkeypatch.setattr(drain.time, "sleep", lambda s: None)
    assert drain.drain(app_run()) is None
    # a fast error is not an answer: two fast answers in a row after it end the drain
    assert len(asked) == 5 and asked[0].endswith("/orders/1")


def test_an_app_still_slow_is_not_refined_and_the_reason_names_the_healthy_latency(monkeypatch):
    run = app_run()
    monkeypatch.setattr(appservice, "http_status", lambda h, target, timeout_s: ("200", "5.0"))
    monkeypatch.setattr(drain.time, "sleep", lambda s: None)
    clock = iter(range(0, 10_000, 7))
    monkeypatch.setattr(drain.time, "monotonic", lambda: next(clock))
    why = drain.drain(run)
    assert why is not None and "healthy: within 0.40 s" in why and "answered HTTP 200 in 5.0 s" in why, why
    assert f"{drain.DRAIN_TIMEOUT_S} s after the last pass" in why
