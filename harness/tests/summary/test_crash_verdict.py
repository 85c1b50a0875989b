"""A dead process is never a collapse, a harness limit never the service's error, and no ratio comes from a mode
that cannot be trusted: the verdict on synthetic run folders (the same rules on real runs: test_e2e_crashes.py)."""

from pathlib import Path

import synthrun
from conftest import summarised
from partial_records import partial
from synthrun import SLOW_TAIL, LevelSpec, ModeSpec, stairs

from loadlab import report
from loadlab.report.headline import headline
from loadlab.summary.judge import crash
from loadlab.summary.verdicts import ratio
from loadlab.summary.verdicts.records import ModeRecord, RunSummary, ValidityRecord


def rebuild_with_crash(tmp_path, spec, mode="platform", role="thread-service", level=2, second=1, pages=False, **crash):
    """The summary of a run whose `mode` lost `role`; pages: the page drawn too (report.rebuild)."""
    record = synthrun.crash(role, spec, level, second, **crash)
    synthrun.write_params(tmp_path, crashes={mode: record})
    synthrun.write_mode(tmp_path, "platform", spec if mode == "platform" else ModeSpec(stairs()))
    synthrun.write_mode(tmp_path, "virtual", spec if mode == "virtual" else ModeSpec(stairs()))
    return report.rebuild(tmp_path).as_json() if pages else summarised(tmp_path)


def test_a_crash_is_not_a_collapse_and_nothing_after_it_counts(tmp_path):
    # Levels 2.. would read as a collapse (errors, slow tail): they came after the thread-service died.
    spec = ModeSpec(
        stairs(l2=dict(ok_share=0.3, ko_share=0.7), l3=dict(ok_share=0, ko_share=1), l4=dict(ok_share=0, ko_share=1))
    )
    result = rebuild_with_crash(tmp_path, spec, level=2, second=1)
    platform = result["modes"]["platform"]
    assert platform["crashed"] == {
        "role": "thread-service",
        "host": "local",
        "second": 7,
        "exit": 137,
        "signal": "SIGKILL",
        "cause": "ended by SIGKILL, nothing in its log says why",
        "pass": "coarse",
        "level": 3,  # counted from 1: the raw files' level 2
        "level_rps": 300,
        # the most the service held before it died (its own count, level 1's 200 rps / 5 in the synthetic samples)
        "peak_inflight": {"service": 60, "injectors": 0},
        "out_of_memory": False,
        "memory_limit_mb": None,
        "gc_bound": [],  # no GC-bound level before it (summary/judge/gc_crash.py): a kill nothing puts down to memory
    }
    assert platform["collapsed"] is False
    assert [lv["index"] for lv in platform["levels"]] == [1, 2]
    assert platform["levels_dropped_after_crash"] == [3]
    assert platform["sustained_rps"] == 200
    assert platform["valid"] is False
    assert platform["invalid_reasons"] == [
        "the thread-service on local died at second 7 of the measured phase (exit 137, SIGKILL): ended by SIGKILL, "
        "nothing in its log says why; level 3, under way, is not counted, nor anything after it: a dead process is "
        "not a collapse"
    ]
    # the per-second table still shows what happened after it; the totals stop at it
    assert (tmp_path / "platform" / "timeline.csv").read_text().count("\n") == 1 + 5 * 3 + 1
    assert (platform["requests"], platform["errors"]) == (100 * 3 + 200 * 3 + 300, 210)
    assert result["modes"]["virtual"]["crashed"] is None and result["modes"]["virtual"]["valid"] is True
    assert result["virtual_over_platform"] is None
    assert result["virtual_over_platform_reason"].startswith(
        "platform crashed: the thread-service on local died at second 7 of the measured phase"
    )


def test_an_out_of_memory_kill_is_a_named_crash_with_the_peak_in_flight_before_it(tmp_path):
    """SERVICE_MEMORY_MB: the kernel's OOM killer in the service's memory cgroup (loadlab-host log-cause names it):
    a crash said as out of memory, with how many requests the service held at the most before it; never a collapse,
    never a ratio, whatever the levels after it would have looked like."""
    spec = ModeSpec(stairs(l3=dict(ok_share=0, ko_share=1), l4=dict(ok_share=0, ko_share=1)))
    cause = "its log says: memory limit 300 MB: killed by the kernel's OOM killer"
    result = rebuild_with_crash(tmp_path, spec, mode="virtual", level=3, second=1, exit=None, cause=cause)
    virtual = result["modes"]["virtual"]
    crashed = virtual["crashed"]
    assert crashed["out_of_memory"] is True and crashed["peak_inflight"]["service"] == 400 // 5, crashed
    assert virtual["collapsed"] is False and virtual["valid"] is False, virtual
    assert virtual["invalid_reasons"][0].startswith(
        "the thread-service on local died at second 10 of the measured phase OUT OF MEMORY ("
    ), virtual["invalid_reasons"]
    # up to the second it was last seen alive in (level 3's 400 rps / 5 in the synthetic samples)
    assert "80 requests were in flight in the service at the most before it" in virtual["invalid_reasons"][0]
    assert result["virtual_over_platform"] is None
    assert result["virtual_over_platform_reason"].startswith("virtual crashed: the thread-service"), result


def test_a_service_that_fell_silent_and_then_ran_out_of_memory_is_named_by_its_log(tmp_path):
    """A JVM whose heap filled up stopped answering (GC back to back) before it gave up: the watcher named its
    silence; its log, read after the run, says what came next."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "rep-2-virtual-thread-service.log").write_text(
        "started\nTerminating due to java.lang.OutOfMemoryError: Java heap space\n"
    )
    log = crash.service_log(tmp_path / "rep-2" / "virtual")
    crashed = {"role": "thread-service", "cause": "it stopped answering: no answer to …/health for 3 s"}
    crash.log_afterwards(crashed, log)
    assert crashed["cause"].endswith(
        "; its log says afterwards: Terminating due to java.lang.OutOfMemoryError: Java heap space"
    )
    assert crash.out_of_memory(crashed)
    other = {"role": "delay-service", "cause": "it stopped answering"}
    crash.log_afterwards(other, log)
    assert other["cause"] == "it stopped answering"


def test_the_thread_limit_and_a_heap_error_are_told_apart_from_the_kernel_kill():
    assert not crash.out_of_memory({"cause": "unable to create native thread: pids limit 300 (OutOfMemoryError)"})
    assert crash.out_of_memory({"cause": "its log says: Terminating due to java.lang.OutOfMemoryError: Java heap"})
    # the watcher's words for a SIGKILL nothing explains name the OOM killer as a possibility, not as the cause (seen:
    # a test's kill -9 called "OUT OF MEMORY within its memory bound of 12,052 MB")
    unexplained = "ended by SIGKILL, nothing in its log says why (a kill -9, or the kernel's OOM killer)"
    assert not crash.out_of_memory({"cause": unexplained})
    assert crash.out_of_memory({"cause": f"its log says: memory limit 384 MB: {crash.OOM_KILLED}"})


def test_the_host_script_names_an_oom_kill_in_the_words_the_verdict_reads():
    cgroups = (Path(__file__).parents[3] / "infra" / "host" / "lib" / "cgroups.bash").read_text()
    assert f'MB: {crash.OOM_KILLED}")' in cgroups
    words = crash.peak_words(crash.of({"peak_inflight": {"service": None, "injectors": 1234}}))
    assert words == "1,234 requests were sent and unanswered at the most before it"


def test_a_crash_in_the_first_second_of_a_level_names_that_level(tmp_path):
    """Last seen alive in a level's first second (the watcher's poll came early in it): that level was under way."""
    platform = rebuild_with_crash(tmp_path, ModeSpec(stairs()), level=2, second=0)["modes"]["platform"]
    assert (platform["crashed"]["level"], platform["crashed"]["second"]) == (3, 6), platform["crashed"]
    assert platform["levels_dropped_after_crash"] == [3]
    assert [lv["index"] for lv in platform["levels"]] == [1, 2]


def test_a_collapse_before_the_crash_is_still_a_collapse(tmp_path):
    spec = ModeSpec(stairs(l1=dict(latency=SLOW_TAIL), l3=dict(ok_share=0, ko_share=1)))
    platform = rebuild_with_crash(tmp_path, spec, level=3, second=1)["modes"]["platform"]
    assert platform["collapsed"] is True and platform["sustained_rps"] == 100
    assert platform["levels_dropped_after_crash"] == [4]
    assert platform["crashed"]["second"] == 10


def test_a_crash_in_a_fine_pass_names_the_pass_and_its_level_and_keeps_the_coarse_result(tmp_path):
    """The thread-service killed 2 s into a fine pass: the coarse pass had collapsed and ended (the early stop cut
    its next level before its first whole second), so its collapse stands; the fine pass narrows nothing."""
    coarse = ModeSpec(stairs(l3=dict(latency=SLOW_TAIL)), stopped_early=True, stop_at=(4, 0))
    fine = ModeSpec(stairs((300, 315, 330, 345)), start_epoch=synthrun.START_EPOCH + 1000)
    record = synthrun.crash("thread-service", fine, level=1, second=2)
    synthrun.write_params(tmp_path, modes=["platform"], crashes={"platform": record}, REFINE=1)
    synthrun.write_mode(tmp_path, "platform", coarse)
    synthrun.write_fine_pass(tmp_path, "platform", "refine-1", fine)
    result = summarised(tmp_path)
    platform = result["modes"]["platform"]
    assert platform["crashed"] == {
        "role": "thread-service",
        "host": "local",
        "second": 5,
        "exit": 137,
        "signal": "SIGKILL",
        "cause": "ended by SIGKILL, nothing in its log says why",
        "pass": "refine-1",
        "level": 2,
        "level_rps": 315,
        "peak_inflight": {"service": 100, "injectors": 0},
        "out_of_memory": False,
        "memory_limit_mb": None,
        "gc_bound": [],
    }
    assert platform["collapsed"] is True and platform["sustained_rps"] == 300
    assert platform["knee_interval_rps"] == [300, 400]
    assert [lv["index"] for lv in platform["levels"]] == [1, 2, 3, 4]
    assert platform["levels_dropped_after_crash"] == [2]
    assert platform["invalid_reasons"] == [
        "the thread-service on local died in fine pass refine-1, at second 5 of its measured phase, in its level 2 "
        "(315 rps) (exit 137, SIGKILL): ended by SIGKILL, nothing in its log says why; refine-1's level 2, under "
        "way, is not counted, nor anything after it: a dead process is not a collapse; the passes before refine-1 "
        "had ended: what they measured stands"
    ]
    (fine_pass,) = platform["refine"]["passes"]
    assert fine_pass["used"] is False and fine_pass["rates"] == [300]
    assert fine_pass["why_not_used"] == (
        "the thread-service died at second 5 of its measured phase, in its level 2 (315 rps) of this pass: a dead "
        "process is not a collapse"
    )
    assert result["virtual_over_platform_reason"].startswith(
        "platform crashed: the thread-service on local died in fine pass refine-1, at second 5"
    )
    text = headline(RunSummary.from_mapping(result))
    assert "platform CRASHED: the thread-service on local died in fine pass refine-1, at second 5" in text


def test_a_coarse_level_an_early_stop_cut_before_its_first_second_was_never_under_way(tmp_path):
    spec = ModeSpec(stairs(l3=dict(latency=SLOW_TAIL)), stopped_early=True, stop_at=(4, 0))
    platform = rebuild_with_crash(tmp_path, spec, level=4, second=2)["modes"]["platform"]
    assert platform["levels_dropped_after_crash"] == []
    assert platform["collapsed"] is True and platform["sustained_rps"] == 300
    assert platform["invalid_reasons"][0].endswith("every level had ended before it")


def test_a_crash_in_the_warm_up_and_without_an_exit_code(tmp_path):
    spec = ModeSpec(stairs())
    crash = synthrun.crash(
        "thread-service",
        spec,
        0,
        -2,
        exit=None,
        signal=None,
        cause="it stopped answering: no answer to http://127.0.0.1:8090/actuator/health for 2 s",
    )
    synthrun.write_params(tmp_path, modes=["virtual"], crashes={"virtual": crash})
    synthrun.write_mode(tmp_path, "virtual", spec)
    result = summarised(tmp_path)
    virtual = result["modes"]["virtual"]
    assert virtual["levels"] == [] and virtual["crashed"]["second"] == -2
    assert virtual["invalid_reasons"][0].startswith(
        "the thread-service on local died during the warm-up, 2 s before the measured phase (no exit code): it "
        "stopped answering"
    )
    assert "virtual CRASHED: the thread-service on local died during the warm-up, 2 s before the measured phase" in (
        headline(RunSummary.from_mapping(result))
    )


def test_the_page_says_what_died_and_when(tmp_path):
    spec = ModeSpec(stairs())
    result = rebuild_with_crash(tmp_path, spec, mode="virtual", role="injector-0", level=1, second=2, pages=True)
    text = headline(RunSummary.from_mapping(result))
    assert text.startswith(
        "http scenario: platform sustained 500 rps (the peak; it never collapsed) (little "
        "predicted 995, 978–995 rps), virtual CRASHED: the "
        "injector-0 on local died at second 5 of the measured phase (SIGKILL); before it, virtual "
        "sustained 100 rps"
    ), text
    assert "no virtual/platform ratio (virtual crashed)" in text
    html = (tmp_path / "index.html").read_text()
    assert 'id="headline">' + text.replace("'", "&#x27;") in html
    assert '<span class="no">the injector-0 on local died at second 5' in html


def test_the_ratio_needs_two_valid_modes(tmp_path):
    trusted = ValidityRecord(valid=True, invalid_reasons=[], notes=[])
    valid, invalid = (
        partial(ModeRecord, validity=trusted, sustained_rps=300, collapsed=True),
        partial(ModeRecord, validity=ValidityRecord(False, ["the injector fell behind"], []), sustained_rps=900),
    )
    assert ratio.ratio(partial(ModeRecord, validity=trusted, sustained_rps=900), valid) == (3.0, None)
    assert ratio.ratio(invalid, valid) == (None, "virtual is invalid: the injector fell behind")
    assert ratio.ratio(valid, invalid) == (None, "platform is invalid: the injector fell behind")
    assert ratio.ratio(valid, None) == (None, "platform was not measured")
    assert ratio.ratio(valid, partial(ModeRecord, validity=trusted, sustained_rps=0)) == (
        None,
        "platform sustained no level",
    )


LONG = ((11012, 0.50), (11020, 0.45), (11031, 0.04), (11040, 0.01))


def test_long_requests_are_judged_on_their_own_level(tmp_path):
    """11 s requests complete 11 s after they were sent: a level's completions are read from its shifted window,
    so the rate step between levels is not mistaken for missing answers."""
    spec = ModeSpec(
        [LevelSpec(2, latency=LONG), LevelSpec(4, latency=LONG)],
        seconds_per_level=20,
        warmup_seconds=12,
        drain_seconds=12,
        lag_s=11,
    )
    synthrun.write_params(tmp_path, modes=["virtual"], delay_ms=11000)
    synthrun.write_mode(tmp_path, "virtual", spec)
    virtual = summarised(tmp_path)["modes"]["virtual"]
    assert [(lv["offered_rps"], lv["ok_rps"], lv["healthy"]) for lv in virtual["levels"]] == [
        (2, 2, True),
        (4, 4, True),
    ]
    assert virtual["valid"] is True and virtual["collapsed"] is False
    assert 11000 <= virtual["p99_ms_at_sustained"] <= 11050


def test_errors_at_a_harness_limit_inside_the_healthy_band_make_the_run_invalid(tmp_path):
    """The issue's run: 11 s requests cut by a fixed 10 s injector timeout read as a collapse; it is the harness's."""
    spec = ModeSpec(
        [LevelSpec(2, ok_share=0, ko_share=1), LevelSpec(4, ok_share=0, ko_share=1)],
        seconds_per_level=20,
        warmup_seconds=12,
        drain_seconds=12,
        lag_s=11,
        ko_ms=10007,
    )
    synthrun.write_params(tmp_path, modes=["virtual"], delay_ms=11000)  # no limits recorded: the old defaults
    synthrun.write_mode(tmp_path, "virtual", spec)
    virtual = summarised(tmp_path)["modes"]["virtual"]
    assert virtual["valid"] is False
    assert virtual["invalid_reasons"] == [
        "requests were cut by the injector's request timeout (loadlab.requestTimeoutMs) = 10000 ms, below the "
        "22000 ms a healthy request may take, so their errors are the harness's, not the service's: 18 failed "
        "requests took 10007 ms (median) at level 1 (2 rps)"  # sent in its steady part, its first 20 - 11 s
    ]


def test_timeouts_above_the_healthy_band_are_the_services(tmp_path):
    """The same 10 s failures with 200 ms requests: anything that slow is too slow for the health rule anyway."""
    spec = ModeSpec(stairs(l3=dict(ok_share=0.5, ko_share=0.5)), ko_ms=10007)
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(tmp_path, "platform", spec)
    platform = summarised(tmp_path)["modes"]["platform"]
    assert platform["valid"] is True and platform["collapsed"] is True and platform["sustained_rps"] == 300


def test_the_limits_recorded_by_the_run_are_the_ones_judged(tmp_path):
    spec = ModeSpec(stairs(l3=dict(ok_share=0.5, ko_share=0.5)), ko_ms=1400)
    # a thread-service timeout below the healthy band (as if misconfigured): its 504s are the harness's
    limits = {"injector_request_timeout_ms": 3400, "thread_service_timeout_ms": 1400}
    synthrun.write_params(tmp_path, modes=["platform"], delay_ms=1000, limits=limits)
    synthrun.write_mode(tmp_path, "platform", spec)
    result = summarised(tmp_path)
    assert result["limits"] == limits
    (reason,) = result["modes"]["platform"]["invalid_reasons"]
    assert reason.startswith(
        "requests were cut by the thread-service's downstream timeout (delay-service.timeout) "
        "= 1400 ms, below the 2000 ms a healthy request may take"
    ), reason


def test_errors_by_kind_per_level(tmp_path):
    spec = ModeSpec(
        stairs(l3=dict(ok_share=0.9, ko_share=0.1), l4=dict(ok_share=0.5, ko_share=0.5)),
        injectors=2,
        ko_kind="status_504",
        ko_ms=1400,
    )
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(tmp_path, "platform", spec)
    platform = report.rebuild(tmp_path).as_json()["modes"]["platform"]
    assert [lv["errors_by_kind"] for lv in platform["levels"]] == [
        {},
        {},
        {},
        {"status_504": 2 * 3 * 20},
        {"status_504": 2 * 3 * 125},
    ]
    assert platform["error_kinds"] == synthrun.ERROR_KINDS
    html = (tmp_path / "index.html").read_text()
    assert 'id="errors-by-kind"' in html and "status_504" in html


def test_the_kind_tells_a_harness_cut_from_the_services_answer(tmp_path):
    """With errors.csv, the kind decides: the same 10 s failures are the harness's when they are its own timeout
    and inside the healthy band, the service's when they are its own answer."""
    for kind, flagged in (("timeout_injector", True), ("status_502", False)):
        run = tmp_path / kind
        spec = ModeSpec(
            [LevelSpec(2, ok_share=0, ko_share=1), LevelSpec(4, ok_share=0, ko_share=1)],
            seconds_per_level=20,
            warmup_seconds=12,
            drain_seconds=12,
            lag_s=11,
            ko_ms=10007,
            ko_kind=kind,
        )
        synthrun.write_params(run, modes=["virtual"], delay_ms=11000)
        synthrun.write_mode(run, "virtual", spec)
        reasons = summarised(run)["modes"]["virtual"]["invalid_reasons"]
        assert any(r.startswith("requests were cut by the injector's request timeout") for r in reasons) == flagged
        if flagged:
            assert reasons[0].endswith("18 failed requests were timeout_injector at level 1 (2 rps)"), reasons


def test_the_crash_second_is_the_second_the_role_was_last_seen_alive_in():
    """One computation for the verdict and bench's console line: the whole second it was last alive in, counted
    from the measured phase's first second; negative in the warm-up."""
    alive = {"alive_until_epoch_ms": 1_763_730_012_999}
    assert crash.second_of_phase(alive, 1_763_730_010) == 2
    assert crash.second_of_phase(alive, 1_763_730_015) == -3
    assert crash.second_of_phase(alive, None) is None and crash.second_of_phase({}, 1_763_730_010) is None
