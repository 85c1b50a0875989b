"""What a user reads about a CPU-bound mode's prediction, on synthetic run folders shaped like the runs that showed
the problem: a fit far beyond the rates measured, a knee near the CPU ceiling that moved between passes, the
default run whose knee came before the cores were full, and a mode that held above its own ceiling."""

import json
import re

import synthrun
from synthrun import SLOW_TAIL, START_EPOCH, LevelSpec, ModeSpec

from loadlab import report
from loadlab.run import console
from loadlab.summary.verdicts.records import RunSummary

# Deterministic scatter (% of one core) around the thread-service's line: R² 0.57, a poor fit as at 20–200 rps.
SCATTER = (10.2, -8.5, 6.8, -11.9, 8.5, -5.1, 11.9, -10.2, 5.1, -6.8)


def cpu_level(rate, thread_ms, host_factor, bad=False, host=None, **extra):
    """Roles on one 2-core machine: thread-service thread_ms, delay-service 0.1 ms, the injector 0.18 ms of CPU per
    request over fixed loads of 8%, 2% and 3% of a core (ceiling: 1.87 cores / (thread_ms + 0.28 ms)); the host's
    CPU is the roles' × host_factor (the kernel's network work and the samplers on top), unless given."""
    thread, delay, injector = 8 + rate * thread_ms / 10, 2 + rate * 0.1 / 10, 3 + rate * 0.18 / 10
    roles_pct_of_machine = (thread + delay + injector) / 2
    return LevelSpec(
        rate,
        thread_cpu=thread,
        delay_cpu=delay,
        injector_cpu=injector,
        host_cpu=host if host is not None else min(100.0, host_factor * roles_pct_of_machine),
        **({"latency": SLOW_TAIL} if bad else {}),
        **extra,
    )


def rebuild(run):
    result = report.rebuild(run).as_json()
    return result, (run / "index.html").read_text()


def console_text(result, run, capsys):
    console.table(RunSummary.from_mapping(result), run)
    return capsys.readouterr().out


def test_a_fit_far_beyond_the_rates_measured_says_rough_and_claims_nothing(tmp_path, capsys):
    synthrun.write_params(
        tmp_path, modes=("virtual",), platform_threads=17, delay_ms=230, START_RPS=20, PEAK_RPS=200, STEPS=10
    )
    levels = [LevelSpec(r, thread_cpu=10 + r * 0.2 + noise) for r, noise in zip(range(20, 201, 20), SCATTER)]
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(levels))
    result, html = rebuild(tmp_path)
    m = result["modes"]["virtual"]
    assert m["collapsed"] is False and m["sustained_rps"] == 200
    assert m["predicted_by"] == "cpu" and m["predicted_rps"] > 3 * 200
    assert m["prediction_quality"].startswith("rough: fitted on 20–200 rps, R² 0.5")
    assert "beyond the highest rate fitted" in m["prediction_quality"]
    low, high = m["predicted_interval_rps"]
    assert high is None or high - low > 0.5 * m["predicted_rps"]
    # the run never reached it: neither agreement nor disagreement is claimed
    assert m["prediction_agrees"] is None and m["prediction_verdict"] == "not reached"
    assert "rough: fitted on 20–200 rps, R² 0.5" in html
    out = console_text(result, tmp_path, capsys)
    assert "rough: fitted on 20–200 rps, R² 0.5" in out
    row = next(line for line in out.splitlines() if line.startswith("virtual "))
    assert " rough " in row and "not reached" in row and " NO" not in row


def fine_pass(rates, thread_ms, host_factor, bad_from):
    return ModeSpec(
        [cpu_level(r, thread_ms, host_factor, bad=r >= bad_from, host=97 if r >= bad_from else None) for r in rates],
        start_epoch=START_EPOCH + 1000,
    )


def test_both_modes_at_the_cpu_with_a_contradicting_fine_pass_have_a_fuzzy_knee_not_a_no(tmp_path, capsys):
    """PLATFORM_THREADS=3000 on the default stairs: both modes fill the machine at 2,100 rps, far below their
    ceilings of ~2,490 and ~2,700, and each fine pass finds 2,100 unhealthy where the coarse pass found it healthy."""
    synthrun.write_params(tmp_path, platform_threads=3000, REFINE=1, START_RPS=300, PEAK_RPS=3000, STEPS=10)
    for mode, thread_ms, host_factor in (("platform", 0.472, 1.1), ("virtual", 0.412, 1.19)):
        coarse = [
            cpu_level(r, thread_ms, host_factor, bad=r >= 2400, host=99 if r >= 2400 else None)
            for r in range(300, 3001, 300)
        ]
        synthrun.write_mode(tmp_path, mode, ModeSpec(coarse))
        synthrun.write_fine_pass(tmp_path, mode, "refine-1", fine_pass([2100, 2205], thread_ms, host_factor, 2100))
    result, html = rebuild(tmp_path)
    for mode, ceiling in (("platform", 2486), ("virtual", 2703)):
        m = result["modes"][mode]
        assert m["valid"] and m["knee_interval_rps"] == [2100, 2400], (mode, m["invalid_reasons"])
        assert abs(m["cpu_ceiling_rps"] / ceiling - 1) < 0.01, m["cpu_ceiling_rps"]
        assert m["predicted_by"] == "cpu" and m["predicted_rps"] < m["cpu_ceiling_rps"]
        assert m["prediction_agrees"] is not False, m["prediction_check"]
        assert "the knee itself is fuzzy" in m["prediction_check"]
        assert "refine-1 found 2,100 rps unhealthy with the host's CPU at 97%" in m["prediction_check"]
    assert "the knee itself is fuzzy" in html
    out = console_text(result, tmp_path, capsys)
    assert "does NOT agree" not in out and "the knee itself is fuzzy" in out
    for mode in ("platform", "virtual"):
        row = next(line for line in out.splitlines() if line.startswith(mode + " "))
        assert " NO" not in row


def test_the_default_run_knee_before_the_ceiling_agrees_with_the_cpu_knee(tmp_path, capsys):
    """The default run: virtual knee 2,100 (2,100–2,205) with the host at 90% CPU, the roles' ceiling ~2,670."""
    synthrun.write_params(tmp_path, modes=("virtual",), REFINE=1, START_RPS=300, PEAK_RPS=3000, STEPS=10)
    coarse = [cpu_level(r, 0.42, 1.12, bad=r >= 2400) for r in range(300, 3001, 300)]
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(coarse))
    fine = [cpu_level(r, 0.42, 1.12, bad=r >= 2205) for r in (2100, 2205)]
    synthrun.write_fine_pass(tmp_path, "virtual", "refine-1", ModeSpec(fine, start_epoch=START_EPOCH + 1000))
    result, html = rebuild(tmp_path)
    m = result["modes"]["virtual"]
    assert m["valid"] and m["knee_interval_rps"] == [2100, 2205]
    assert abs(m["cpu_ceiling_rps"] / 2668 - 1) < 0.01
    low, high = m["predicted_interval_rps"]
    assert low <= 2205 and high >= 2100 and high <= m["cpu_ceiling_rps"]
    assert m["prediction_agrees"] is True and m["prediction_verdict"] == "agrees"
    assert m["prediction_quality"] is None
    assert m["cpu_ceiling"]["knee_read_off"] == "host CPU"
    assert "host CPU reaches 90% of 2 cores" in m["prediction"] and "every core busy at 2,6" in m["prediction"]
    assert m["limit_met_first"].startswith("CPU (utilization law): the knee 2,100 rps meets its predicted")
    # both shown: the bound with its interval, and the knee read off the same samples
    assert re.search(r"2,6\d\d <span class=\"muted\">every core busy \(the bound\)", html)
    assert "knee: host CPU at 90% of the cores" in html
    out = console_text(result, tmp_path, capsys)
    assert "virtual: the knee agrees: the knee 2,100–2,205 rps meets the predicted" in out
    assert "±15%" not in out and "±15%" not in html
    assert json.loads((tmp_path / "summary.json").read_text())["modes"]["virtual"]["predicted_interval_rps"] == [
        low,
        high,
    ]


def test_a_mode_holding_far_above_its_own_ceiling_is_named(tmp_path, capsys):
    """The CPU samples stop after three levels (a sampler died): the ceiling fitted on them is far below what the
    mode then held, and the verdict says so instead of passing over it."""
    synthrun.write_params(tmp_path, modes=("virtual",), START_RPS=50, PEAK_RPS=400, STEPS=8)
    levels = [
        LevelSpec(r, thread_cpu=r * 0.8 if r <= 150 else None, delay_cpu=2, injector_cpu=3, host_cpu=None)
        for r in range(50, 401, 50)
    ]
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(levels))
    result, html = rebuild(tmp_path)
    m = result["modes"]["virtual"]
    assert m["collapsed"] is False and m["cpu_ceiling_rps"] < 300
    assert m["prediction_agrees"] is False and m["prediction_verdict"] == "contradicted"
    assert m["prediction_check"].startswith("this run held 400 rps without collapsing, above the whole of the")
    assert m["limit_met_first"].startswith(
        "none within this run: it held 400 rps; refuted by the run: it held above the whole interval of CPU"
    )
    assert "the limits ahead" not in m["limit_met_first"]
    assert [p["run_verdict"] for p in m["predictions"] if p["predicted_by"] == "cpu"] == ["refuted by the run"]
    assert "NO: contradicted" in html and "this run held 400 rps without collapsing" in html
    out = console_text(result, tmp_path, capsys)
    row = next(line for line in out.splitlines() if line.startswith("virtual "))
    assert "NO: contradicted" in row
