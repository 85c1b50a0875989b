"""An injector's meta.json read once into InjectorMeta (summary/reading/injector_meta.py): what is absent or of the
wrong type reads as absent, never as an error or a zero that was not written."""

from loadlab.summary.reading.injector_meta import InflightCapStop, InjectorMeta, MixKind, ScheduledLevel


def test_an_empty_or_odd_file_reads_as_nothing_said():
    odd = {"levels": "x", "timeouts": 5, "error_kinds": {}, "error_kind_meanings": [], "kinds": None, "stop_reason": ""}
    assert InjectorMeta.parse({}) == InjectorMeta.parse(odd) == InjectorMeta()


def test_the_schedule_keeps_the_levels_it_can_place():
    meta = InjectorMeta.parse(
        {
            "start_epoch_ms": 1000,
            "measure_start_epoch_ms": "3000.5",
            "levels": [
                {"index": 0, "target_rps": 12.5, "start_epoch_ms": 3000, "end_epoch_ms": 8000},
                {"index": 1, "start_epoch_ms": 8000},  # cut by a crash: no end, no rate written
                {"index": None, "start_epoch_ms": 9000},
                {"index": 2},
                "junk",
            ],
        }
    )
    assert (meta.start_epoch_ms, meta.measure_start_epoch_ms) == (1000.0, 3000.5)
    assert meta.levels == (ScheduledLevel(0, 12.5, 3000.0, 8000.0), ScheduledLevel(1, 0.0, 8000.0, None))


def test_stops_timeouts_and_kinds():
    meta = InjectorMeta.parse(
        {
            "stopped_early": True,
            "stop_reason": "p99 over the limit",
            "timeouts": {"request_ms": 2000},
            "error_kinds": ["status_504", "timeout_injector"],
            "error_kind_meanings": {"status_504": "the service gave up"},
            "stop_inflight_cap": {"inflight": 5000},
            "kinds": [{"name": "carts", "line": 2, "hundredths": 2500}, {"label": "no name"}, "junk"],
        }
    )
    assert meta.stopped_early and meta.stop_reason == "p99 over the limit" and meta.request_timeout_ms == 2000.0
    assert meta.error_kinds == ("status_504", "timeout_injector")
    assert meta.error_kind_meanings == {"status_504": "the service gave up"}
    assert meta.stop_inflight_cap == InflightCapStop(5000.0, None)
    assert meta.kinds == (MixKind("carts", 2, "carts", 2500.0),)
    assert InjectorMeta.parse({"stop_inflight_cap": {"max_inflight": 10}}).stop_inflight_cap is None
