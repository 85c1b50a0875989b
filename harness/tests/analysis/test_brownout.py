"""PROFILE=brownout on synthetic timelines: goodput during it, time to recover (or not), the models' predictions, the
delay-service's switch checked against its own served-delay record, and the parameters refused in one line."""

from __future__ import annotations

import pytest
from partial_records import partial

from loadlab.analysis import brownout_judge as judge
from loadlab.analysis import hlog
from loadlab.core import brownout_profile as brownout
from loadlab.core import params
from loadlab.core.param_parsers import ParamError

RATE, LIMIT, OK_RATIO = 60, 300.0, 0.95
START, END, STOP = 10, 20, 40


def timeline(brownout_ok: int, recovered_at: int | None) -> list[judge.Second]:
    """RATE offered throughout; inside the brownout `brownout_ok` OK a second at a slow p99; after it slow until
    `recovered_at` (never when None), healthy from there."""
    rows = []
    for s in range(STOP):
        healthy = s < START or (recovered_at is not None and s >= recovered_at)
        ok = RATE if healthy else brownout_ok if s < END else RATE // 2
        rows.append(second(s, ok, 0 if healthy else 1, 120 if healthy else 2500, 6 if healthy else 500))
    return rows


def second(s: int, ok: int, ko: int, ms: int, inflight: int | None = None) -> judge.Second:
    """A second whose OK answers all took `ms`."""
    h = hlog.new_histogram()
    h.record_value(ms, ok) if ok else None
    return judge.Second(s, RATE, ok, ko, float(ms) if ok else None, inflight, h)


def test_goodput_is_the_ok_rate_once_the_brownouts_answers_come_back():
    rows = timeline(brownout_ok=10, recovered_at=25)
    # The first second of the brownout still answers requests sent before it at full rate.
    rows[START] = second(START, RATE, 0, 120)
    assert judge.goodput_rps(rows, START, END, settle_s=1) == 10


def test_recovery_counts_from_the_brownouts_end_to_the_first_second_that_stays_healthy():
    assert judge.recovery_s(timeline(10, recovered_at=27), END, STOP, LIMIT, RATE, OK_RATIO) == 7


def test_a_healthy_second_followed_by_a_relapse_is_not_a_recovery():
    rows = timeline(10, recovered_at=30)
    rows[22] = second(22, RATE, 0, 120)  # one lucky second inside the slow stretch
    assert judge.recovery_s(rows, END, STOP, LIMIT, RATE, OK_RATIO) == 10


def test_one_late_answer_after_recovery_is_not_a_relapse():
    rows = timeline(10, recovered_at=25)
    h = hlog.new_histogram()
    h.record_value(120, RATE - 1)
    h.record_value(900)  # a second's p99 over 60 answers is its slowest: this one second's p99 is 900 ms
    rows[32] = judge.Second(32, RATE, RATE, 0, 900.0, 6, h)
    assert judge.recovery_s(rows, END, STOP, LIMIT, RATE, OK_RATIO) == 5


def test_no_recovery_within_the_run_or_too_late_to_tell_is_none():
    assert judge.recovery_s(timeline(10, recovered_at=None), END, STOP, LIMIT, RATE, OK_RATIO) is None
    assert judge.recovery_s(timeline(10, recovered_at=STOP - 1), END, STOP, LIMIT, RATE, OK_RATIO) is None


def test_the_error_share_and_the_peak_in_flight():
    rows = timeline(10, recovered_at=25)
    share = judge.error_share(rows, START, STOP)
    assert share == pytest.approx(15 / (10 * 11 + 5 * 31 + 15 * RATE))
    assert judge.peak_inflight(rows) == 500


def test_a_pool_is_held_to_its_ceiling_and_builds_a_backlog_that_drains_after():
    # 10 threads, 100 ms normally, 1 s in the brownout, 60 rps for 10 s.
    m = brownout.Model(rate=60, normal_s=0.1, brownout_s=1.0, seconds=10, pool=10)
    assert m.goodput_rps() == 10
    assert m.backlog() == 500
    assert m.peak_inflight() == 510
    assert m.drain_s() == pytest.approx(1.0 + 500 / (100 - 60))
    # Without a pool every request is admitted: Little's law, and only the slow answers to wait out.
    v = brownout.Model(rate=60, normal_s=0.1, brownout_s=1.0, seconds=10)
    assert (v.goodput_rps(), v.peak_inflight(), v.drain_s()) == (60, 60, 1.0)
    # A pool with no spare rate after the brownout never drains: no figure.
    assert brownout.Model(rate=99, normal_s=0.1, brownout_s=1.0, seconds=10, pool=9).drain_s() is None


def test_a_limit_that_sheds_answers_what_it_admits_and_rejects_the_rest_without_a_backlog():
    # virtual-limited at 20 permits, 100 ms normally, 1 s in the brownout, 60 rps for 10 s: it answers 20 rps,
    # rejects 40 a second, holds 20 at once, and is back when its last slow answers are.
    m = brownout.Model(rate=60, normal_s=0.1, brownout_s=1.0, seconds=10, pool=20, sheds=True)
    assert (m.goodput_rps(), m.rate - m.goodput_rps(), m.backlog(), m.peak_inflight(), m.drain_s()) == (
        20,
        40,
        0,
        20,
        1.0,
    )
    assert m.limit_for_all() == 60  # a limit of 60 would have admitted every request: Little's law at 1 s
    # a limit above what the brownout needs rejects nothing and holds Little's law
    wide = brownout.Model(rate=60, normal_s=0.1, brownout_s=1.0, seconds=10, pool=100, sheds=True)
    assert (wide.rate - wide.goodput_rps(), wide.peak_inflight()) == (0, 60)
    p = judge.predictions(m, measured_overhead_s=0.01)
    assert p["inflight_peak"].value == 20 and "the limit's 20 permits" in p["inflight_peak"].formula
    assert p["goodput_rps"].high == 20 and p["recovery_s"].value == 1.0
    # a pool of the same size queues what a limit would reject
    assert brownout.Model(rate=60, normal_s=0.1, brownout_s=1.0, seconds=10, pool=20).backlog() == 400


def test_predictions_carry_the_interval_the_services_own_overhead_allows():
    m = brownout.Model(rate=60, normal_s=0.1, brownout_s=1.0, seconds=10, pool=10)
    p = judge.predictions(m, measured_overhead_s=0.01)
    low, high = p["goodput_rps"].low, p["goodput_rps"].high
    assert low < 10 == p["goodput_rps"].value == high
    assert p["inflight_peak"].low == 510 < p["inflight_peak"].high
    assert p["recovery_s"].low == pytest.approx(13.5)
    assert "backlog" in p["recovery_s"].formula


def served_log(t0: int, seconds: dict[int, list[int]]) -> dict[int, list[str]]:
    """A served log by epoch second from each second's served delays (ms)."""
    out = {}
    for s, values in seconds.items():
        h = hlog.new_histogram()
        for v in values:
            h.record_value(v)
        encoded = h.encode()
        out[t0 + s] = [encoded.decode() if isinstance(encoded, bytes) else encoded]
    return out


T0 = 1_700_000_000


PLAN = brownout.Schedule(rate=RATE, before_s=START, ms=1000, seconds=END - START, after_s=STOP - END)


def test_a_delay_service_that_switched_on_time_passes_and_its_slow_seconds_are_recorded():
    # Requests arriving in [START, END) are answered a second later, tagged as the brownout's.
    tagged = {s: [1000] * 50 for s in range(START + 1, END + 1)}
    check = judge.switch_check(served_log(T0, tagged), T0, PLAN)
    assert check.problem is None
    assert (check.slow_from_s, check.slow_to_s) == (START + 1, END + 1)


def test_a_delay_service_that_never_switched_switched_late_or_served_late_is_named():
    assert "never switched" in judge.switch_check({}, T0, PLAN).problem
    late_on = judge.switch_check(served_log(T0, {s: [1000] * 50 for s in range(START + 4, END + 1)}), T0, PLAN)
    assert "switched on late" in late_on.problem
    late_off = judge.switch_check(served_log(T0, {s: [1000] * 50 for s in range(START + 1, END + 5)}), T0, PLAN)
    assert "switched back late" in late_off.problem
    slow = judge.switch_check(served_log(T0, {s: [1900] * 50 for s in range(START + 1, END + 1)}), T0, PLAN)
    assert "served the brownout late" in slow.problem


def test_another_modes_brownout_in_the_same_log_is_not_this_ones():
    tagged = {s: [1000] * 50 for s in range(START + 1, END + 1)}
    tagged.update({s: [1000] * 50 for s in range(STOP + 60, STOP + 70)})  # the next mode's
    assert judge.switch_check(served_log(T0, tagged), T0, PLAN).problem is None


def brownout_env(**extra: str) -> dict[str, str]:
    return {"PROFILE": "brownout", "PLATFORM_THREADS": "10", "DELAY_MS": "100", "BROWNOUT_MS": "1000", **extra}


def test_the_default_rate_is_a_share_of_the_pools_ceiling_kept_under_the_injectors_cap():
    v = params.parse(brownout_env(BROWNOUT_BEFORE="10", BROWNOUT_SECONDS="10", BROWNOUT_AFTER="20"))
    assert v.rate == 60  # 60% of 10 threads / 100 ms
    assert (v.start_rps, v.peak_rps, v.steps, v.step_seconds, v.refine) == (60, 60, 4, 10, 0)
    # The default 200 threads at 200 ms, 2 s for 20 s: 600 rps would queue 10,000 requests; the cap lowers it.
    d = params.parse({"PROFILE": "brownout"})
    assert d.rate < 600
    assert brownout.model(d, d.rate, 200).peak_inflight() <= 2500  # half the injectors' cap


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"RATE": "100"}, "RATE=100 is at or above the platform pool's ceiling"),
        ({"RATE": "99", "BROWNOUT_SECONDS": "600", "BROWNOUT_BEFORE": "600", "BROWNOUT_AFTER": "600"}, "cap"),
        ({"BROWNOUT_MS": "100"}, "BROWNOUT_MS=100 is not above DELAY_MS=100"),
        ({"BROWNOUT_BEFORE": "7"}, "no common length"),
        ({"SCENARIO": "cpu", "CPU_MS": "5"}, "SCENARIO=cpu does not call"),
        ({"BROWNOUT_BEFORE": "2"}, "BROWNOUT_BEFORE=2"),
    ],
)
def test_a_brownout_that_cannot_be_run_as_asked_is_refused_in_one_line(extra, named):
    with pytest.raises(ParamError) as refused:
        params.parse(brownout_env(**extra))
    assert named in str(refused.value)
    assert len(str(refused.value).splitlines()) == 1


def test_rate_without_a_brownout_is_refused():
    with pytest.raises(ParamError, match="RATE=50 has no effect with PROFILE=stairs"):
        params.parse({"RATE": "50"})


def test_the_timeouts_cover_the_brownouts_delay():
    from loadlab.core import timeouts

    limits = timeouts.derive(params.parse(brownout_env(BROWNOUT_MS="5000")))
    assert limits.thread_service_timeout_ms > 5000
    assert limits.injector_request_timeout_ms > limits.thread_service_timeout_ms


def test_the_injectors_wait_out_a_full_pools_predicted_queue():
    from loadlab.core import timeouts

    v = params.parse(brownout_env(RATE="40", BROWNOUT_BEFORE="5", BROWNOUT_SECONDS="5", BROWNOUT_AFTER="15"))
    # 10 threads: 10 rps in the brownout, 150 queued by its end, drained at 100 - 40 rps: 5 s + 1 s + 2.5 s.
    assert brownout.queue_wait_s(v) == pytest.approx(8.5)
    assert timeouts.derive(v).injector_request_timeout_ms >= 2 * 8.5 * 1000


def test_the_words_take_any_mode_name_and_say_a_missing_model_and_a_failed_instrument():
    from loadlab.report import brownout_words
    from loadlab.summary.schema.brownout_record import BrownoutPrediction, BrownoutRecord
    from loadlab.summary.verdicts.records import ModeRecord

    def record(recovered, problems, predicted):
        return BrownoutRecord(
            40, 1000, [5, 10], None, 10.0, 0.01, 160, 10.0, 150.0, 340.0, 50.0, recovered,
            "recovered 5 s after the brownout ended" if recovered is not None else "not judged: " + problems[0],
            predicted, "note", [6, 11], problems,
        )  # fmt: skip

    modes = {
        "platform": partial(
            ModeRecord, brownout=record(5, [], {"recovery_s": BrownoutPrediction(3.5, [3.5, 4.3], "f")})
        ),
        "virtual-limited": partial(ModeRecord, brownout=record(None, ["the injectors fell behind"], None)),
        "virtual": partial(ModeRecord),  # a mode without a brownout record has no column
    }  # fmt: skip
    rows = brownout_words.rows(modes)
    assert rows[0] == ["", "platform", "virtual-limited"]
    recovery = next(r for r in rows if r[0] == "time to recover")
    assert "predicted 3.5 s (3.5–4.3 s)" in recovery[1]
    assert "not judged: the injectors fell behind" == recovery[2]
    assert "virtual-limited: the injectors fell behind" in brownout_words.notes(modes)
    # summary.json's record survives the round trip as a typed record
    back = ModeRecord.from_mapping(modes["platform"].as_json())
    assert isinstance(back.brownout, BrownoutRecord) and back.brownout.recovery_seconds == 5
    assert back.brownout.predicted["recovery_s"] == BrownoutPrediction(3.5, [3.5, 4.3], "f")
    assert back.as_json() == modes["platform"].as_json()


def test_a_stretch_is_judged_as_one_level():
    rows = timeline(10, recovered_at=25)
    assert judge.stretch(rows, 0, START) == (120, RATE)
    p99, ok = judge.stretch(rows, START, END)
    assert p99 == pytest.approx(2500, rel=0.01) and ok == 10
