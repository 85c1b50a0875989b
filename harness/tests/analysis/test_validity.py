"""The validity verdict on level lists with known evidence: each way a load test lies, and what is not a lie.

The same rules on real runs that cause each problem are in test_e2e_repeat_sweep.py.
"""

from dataclasses import replace

import synthrun
from builders import stairs
from conftest import summarised
from synthrun import SLOW_TAIL, LevelSpec, ModeSpec

from loadlab import report
from loadlab.analysis import knee, set_aside, validity
from loadlab.analysis.hlog import LatencyStats
from loadlab.analysis.levels import Evidence, Level, LevelBuilder
from loadlab.analysis.validity import ValidityContext
from loadlab.core.thresholds import Thresholds

TH = Thresholds()
LOCAL = ValidityContext(delay_ms=200, shared_machine=True)
AWS = ValidityContext(delay_ms=200, shared_machine=False)


def reasons(levels, ctx=LOCAL):
    """What makes the whole pass untrustworthy, once the levels whose instrument was saturated are set aside."""
    return validity.validity(levels, set_aside.judge_trusted(levels, TH, ctx), ctx)


def aside(levels, ctx=LOCAL):
    """The levels set aside, by position, with why."""
    return set_aside.judge_trusted(levels, TH, ctx).set_aside


def notes(levels, ctx=LOCAL):
    return validity.notes(levels, set_aside.judge_trusted(levels, TH, ctx), ctx)


def test_a_clean_run_is_valid():
    assert reasons(stairs((4, dict(p99=900)))) == []
    assert reasons(stairs(), AWS) == []
    assert notes(stairs((4, dict(p99=900)))) == []


def test_fewer_than_two_levels():
    assert reasons(stairs(n=1)) == ["only 1 level measured; a knee needs at least 2"]


def test_injector_fell_behind_sets_that_level_aside_not_the_pass():
    levels = stairs((2, dict(sent_share=0.9, ok_share=0.9)))
    assert aside(levels) == {2: "the injector fell behind: it sent 270 requests/s, 90% of the target (needs 95%)"}
    assert reasons(levels) == []


def test_injector_process_cpu_saturated():
    levels = stairs((1, dict(injector_cpu_pct=185)), (2, dict(injector_cpu_pct=190)))
    assert aside(levels)[1] == (
        "the injector's CPU was saturated: its process averaged 185% of one core, 92% of its 2 cores (limit 90%)"
    )
    assert sorted(aside(levels)) == [1, 2] and reasons(levels) == []


def test_injector_host_cpu_saturated_on_its_own_host():
    assert aside(stairs((3, dict(injector_host_cpu_pct=93))), AWS) == {
        3: "the injector's host CPU was saturated: 93% (limit 90%)"
    }


def test_shared_machine_host_cpu_is_not_blamed_on_the_injector():
    assert reasons(stairs((3, dict(injector_host_cpu_pct=93, host_cpu_pct=93)))) == []


def test_delay_service_cpu_saturated():
    r = aside(stairs((2, dict(delay_cpu_pct=181))), AWS)[2]
    assert r.startswith("the delay-service was saturated: its process averaged 181% of one core, 90% of its 2 cores")


def test_delay_service_own_latency_rose():
    # the lightest level answered in 203 ms (the probe's own cost included): more than 20 ms above that is a rise
    assert aside(stairs((2, dict(delay_probe_ms=224, downstream_ms_mean=227)))) == {
        2: "the delay-service was saturated: probed on its own host, it answered in 224 ms (median), more than 20 ms "
        "above its 203 ms at the lightest level; the thread-service's calls took 227 ms"
    }
    assert aside(stairs((2, dict(delay_probe_ms=223)))) == {}


def test_the_probes_own_cost_on_a_slow_machine_is_not_a_saturation():
    # Seen on a fresh CI machine: 220 ms at 10 rps with DELAY_MS=200 (the probe and a young JVM), no rise with load.
    slow = {i: dict(delay_probe_ms=221 + i) for i in range(6)}
    assert aside(stairs(*slow.items())) == {}
    (r,) = aside(stairs(*{**slow, 3: dict(delay_probe_ms=242)}.items())).values()
    assert "more than 20 ms above its 221 ms at the lightest level" in r


def test_a_delay_service_slow_from_the_lightest_level():
    # No load to blame yet, so twice the allowance; and the reference above it is capped at DELAY_MS + 2 x 20 ms.
    assert aside(stairs((0, dict(delay_probe_ms=240)))) == {}
    # every level set aside: nothing is left to carry an answer, and the reasons say why, counted from level 1
    r, last = reasons(stairs(*{i: dict(delay_probe_ms=300) for i in range(6)}.items()))
    assert last == (
        "no level measured on levels that can be trusted; a knee needs at least 2: the instrument was saturated on "
        "6 levels, set aside"
    )
    assert r.startswith(
        "the delay-service was saturated: probed on its own host, it answered in 300 ms (median), more than "
        "200 + 40 ms even at the lightest level"
    )
    assert r.endswith("at level 1 (100 rps) (and 5 more levels)")


def test_a_slow_probe_does_not_stand_against_the_stand_ins_own_record_on_time():
    # Seen in CI: the lightest level's probe at 250 ms (DELAY_MS=200) while the delay-service served every answer of
    # those seconds, the probe's among them, within 226 ms: the probing sampler waited for a CPU on a busy host.
    slow = stairs((0, dict(delay_probe_ms=250)))
    on_time = {"answers": 290, "p50": 201, "p90": 210, "p99": 226, "p99.9": 226}
    assert aside(slow)[0].startswith("the delay-service was saturated: probed on its own host, it answered in 250 ms")
    slow[0] = replace(slow[0], served_ms=on_time)
    assert aside(slow) == {}
    # the probe stands where the record says the stand-in was late, or holds too few answers to say
    slow[0] = replace(slow[0], served_late="the delay-service served its answers slower than configured: …")
    assert "probed on its own host, it answered in 250 ms" in aside(slow)[0]
    slow[0] = replace(slow[0], served_late=None, served_ms={**on_time, "answers": 9})
    assert "probed on its own host, it answered in 250 ms" in aside(slow)[0]


def test_delay_service_probe_failures():
    levels = stairs((1, dict(delay_probe_ms=None, delay_probe_failed=0.4, downstream_ms_mean=None)))
    assert aside(levels, AWS) == {
        1: "the delay-service was saturated: probed on its own host, it gave no answer within 2.2 s in 40% of the "
        "seconds"
    }


def test_a_starved_thread_service_is_not_blamed_on_the_delay_service():
    # The case that used to be misjudged: the thread-service waited for a CPU, so its downstream time rose, but the
    # delay-service itself answered on time.
    assert reasons(stairs((2, dict(downstream_ms_mean=303, delay_probe_ms=204)))) == []


def test_a_run_without_probe_is_not_judged_on_downstream_time():
    assert reasons(stairs((2, dict(downstream_ms_mean=303, delay_probe_ms=None, delay_probe_failed=None)))) == []


def test_delay_allowance_is_ten_percent_for_long_delays():
    assert validity.delay_allowance_ms(1000) == 100
    assert validity.delay_allowance_ms(50) == 20


def test_machine_saturated_before_the_knee():
    (r,) = reasons(stairs((2, dict(host_cpu_pct=97)), (4, dict(p99=900))))
    assert r == (
        "the machine itself was saturated: host CPU averaged 97% (limit 95%) before the knee at level 3 (300 rps)"
    )


def test_a_saturated_machine_is_named_instead_of_the_roles_it_slowed():
    (r,) = reasons(stairs((2, dict(host_cpu_pct=99, delay_probe_ms=290, downstream_ms_mean=300)), (4, dict(p99=900))))
    assert r.startswith(
        "the machine itself was saturated: host CPU averaged 99% (limit 95%) before the knee (what "
        "rose with it is not blamed on a single role — delay-service: probed on its own host, it "
        "answered in 290 ms (median)"
    )
    assert "the delay-service was saturated" not in r


def test_machine_saturated_only_at_the_knee_is_the_limit_being_measured():
    levels = stairs((4, dict(host_cpu_pct=99, p99=900, delay_probe_ms=260, downstream_ms_mean=303)))
    assert reasons(levels) == []
    (n,) = notes(levels)
    assert n.startswith(
        "the machine was saturated at the first unhealthy level 5 (500 rps): host CPU averaged 99%, "
        "so this knee is where this machine ran out of CPU"
    )
    assert "delay-service: probed on its own host, it answered in 260 ms (median)" in n


def test_an_injector_behind_on_a_saturated_machine_sets_its_level_aside_and_leaves_a_bound_not_a_collapse():
    """The default bench's virtual mode, seen on a quiet machine: clean levels, then the one where the service ran
    out of CPU and the injector, on the same cores, sent 94% of the target. That level costs itself, not the answer;
    and, its only unhealthy level set aside, the mode's answer is the highest rate held, said as a bound."""
    levels = stairs((4, dict(host_cpu_pct=99, p99=900, sent_share=0.8, ok_share=0.8)), n=5)
    assert aside(levels) == {
        4: "the injector fell behind: it sent 400 requests/s, 80% of the target (needs 95%) while the machine was "
        "saturated (host CPU 99%)"
    }
    assert reasons(levels) == []
    verdict = set_aside.judge_trusted(levels, TH, LOCAL)
    got = knee.coarse_knee(levels, verdict)
    assert not verdict.collapsed and got.interval is None and got.sustained_rps == 400 and got.suspect == 500
    assert got.bound.startswith(
        "healthy up to 400 rps on the levels that can be trusted, so the knee lies at or above 400 rps (a lower "
        "bound, not a collapse): the levels above it were set aside, the instrument saturated there (level 5 (500 "
        "rps), unhealthy as measured: the injector fell behind)"
    )


def test_machine_rule_applies_only_when_roles_share_a_machine():
    assert reasons(stairs((2, dict(host_cpu_pct=97))), AWS) == []
    assert aside(stairs((2, dict(host_cpu_pct=99, delay_probe_ms=290))), AWS)[2].startswith(
        "the delay-service was saturated"
    )


def test_what_happens_after_the_first_unhealthy_level_is_ignored():
    levels = stairs((3, dict(p99=900)), (4, dict(sent_share=0.5, injector_cpu_pct=199, delay_probe_ms=900)))
    assert reasons(levels) == [] and aside(levels) == {}


def test_every_reason_is_reported_together():
    found = reasons(stairs((0, dict(sent_share=0.9, ok_share=0.9, delay_probe_ms=300)), n=1))
    assert [r.split(":")[0].split(";")[0] for r in found] == [
        "the injector fell behind",
        "no level measured on levels that can be trusted",
    ]
    assert "; the delay-service was saturated: probed on its own host" in found[0]
    assert reasons(stairs(n=1)) == ["only 1 level measured; a knee needs at least 2"]


# --- from raw files (report.rebuild) ---------------------------------------------------------------------------------


def test_an_older_run_without_probe_says_the_delay_service_was_not_judged(tmp_path):
    synthrun.write_params(tmp_path, modes=["virtual"])
    synthrun.write_mode(
        tmp_path, "virtual", ModeSpec([LevelSpec(100 * (i + 1), downstream_ms=300.0) for i in range(3)], probe=False)
    )
    mode = summarised(tmp_path)["modes"]["virtual"]
    assert mode["valid"], mode["invalid_reasons"]
    assert (
        "virtual/raw/delay/samples.csv has no probe_ms (an older run): the delay-service's own latency was not "
        "measured, so it was not judged"
    ) in mode["missing"]


def test_a_machine_saturated_at_the_knee_is_a_note_in_the_summary(tmp_path):
    synthrun.write_params(tmp_path, modes=["virtual"])
    # At the knee the roles themselves fill the machine (140 + 20 + 30 % of one core on 2 cores ≈ host 99%).
    levels = [
        LevelSpec(100),
        LevelSpec(200),
        LevelSpec(300, latency=SLOW_TAIL, host_cpu=99.0, probe_ms=280.0, thread_cpu=140.0),
    ]
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(levels))
    mode = report.rebuild(tmp_path).as_json()["modes"]["virtual"]
    assert mode["valid"] and mode["sustained_rps"] == 200
    (note,) = mode["notes"]
    assert note.startswith("the machine was saturated at the first unhealthy level 3 (300 rps): host CPU averaged 99%")
    assert "the machine was saturated" in (tmp_path / "index.html").read_text()


def test_one_slow_probe_in_a_level_is_noise_not_saturation():
    builder = LevelBuilder(0, 100)
    for second, probe in enumerate([205.0, 206.0, 300.0, 207.0]):
        builder.add_second(second, 100, 100, 0, None, {"delay_probe_ms": probe, "delay_cpu_pct": 10.0 * second})
    evidence = builder.build().evidence
    assert (evidence.delay_probe_ms, evidence.delay_cpu_pct) == (206.5, 15.0)  # median; other evidence: mean


def test_in_the_cpu_scenario_a_busy_machine_before_the_knee_is_a_note_not_a_reason():
    levels = stairs((1, dict(host_cpu_pct=97)), (2, dict(host_cpu_pct=99)))
    cpu = ValidityContext(delay_ms=200, shared_machine=True, cpu_is_the_limit=True)
    assert reasons(levels, cpu) == []
    assert any("machine itself was saturated" in r for r in reasons(levels, LOCAL))


def test_cpu_taken_by_something_outside_the_run_sets_its_levels_aside():
    """Measured here: a cpu-scenario run while a Maven build ran beside it — host 100%, the roles 21% of it."""

    def level(index, rps, thread, others, host):
        ev = Evidence(
            thread_cpu_pct=thread,
            other_roles_cpu_pct=others,
            host_cpu_pct=host,
            delay_cores=2,
            injector_cores=2,
            delay_cpu_pct=1.0,
            injector_cpu_pct=others - 1.0,
        )
        lat = LatencyStats(count=rps * 4, p50_ms=30, p95_ms=40, p99_ms=50, max_ms=60)
        return Level(index, rps, 4, rps * 4, rps * 4, 0, lat, evidence=ev)

    ctx = ValidityContext(delay_ms=100, shared_machine=True, cpu_is_the_limit=True)
    busy = [level(0, 20, 29.9, 11.8, 99.7), level(1, 40, 53.2, 18.0, 99.9)]
    verdict = set_aside.judge_trusted(busy, Thresholds(), ctx)
    assert verdict.set_aside[0].startswith(
        "something outside the run used the CPU: the machine was 100% busy but the run's own processes explain only "
        "21% of it"
    )
    # both levels set aside: nothing left to answer with, and the reasons say why
    reasons = validity.validity(busy, verdict, ctx)
    assert reasons[0].startswith("something outside the run used the CPU") and reasons[0].endswith(
        "at level 1 (20 rps) (and 1 more level)"
    )
    quiet = [level(0, 20, 29.9, 11.8, 22.0), level(1, 40, 53.2, 18.0, 37.0)]
    assert set_aside.judge_trusted(quiet, Thresholds(), ctx).set_aside == {}


def test_one_request_short_at_a_few_requests_per_second_is_not_an_injector_falling_behind():
    from loadlab.analysis.validity import injector_fell_behind

    lat = LatencyStats(count=15, p50_ms=200, p95_ms=210, p99_ms=220, max_ms=230)
    assert not injector_fell_behind(Level(1, 4, 4, 15, 15, 0, lat))  # 15 of 16: 94%, one request short
    assert injector_fell_behind(Level(1, 4, 4, 14, 14, 0, lat))  # two short
    assert injector_fell_behind(Level(1, 100, 4, 370, 370, 0, lat))  # 93% at 100 rps


def test_one_rate_held_by_design_is_enough_and_a_set_aside_one_still_voids_it():
    # PROFILE=brownout holds one rate: no knee is placed, so one trusted rate is an answer (judging.validity_context)
    from loadlab.analysis.validity import too_few_levels

    assert too_few_levels(1, [], needed=1) == []
    assert too_few_levels(1, []) == ["only 1 level measured; a knee needs at least 2"]
    (first, last) = too_few_levels(0, [("level 1 (215 rps)", "the injector fell behind: sent 20%")], needed=1)
    assert first.startswith("the injector fell behind") and "no level measured on levels that can be trusted" in last
    assert "an answer needs at least 1" in last and "knee" not in last, last  # it has no knee to need levels for
