"""The verdict of one mode (knee, prediction, validity) and of the run (the ratio), as summary.json spells them."""

from __future__ import annotations

import math

from .. import analysis, limits
from .raw import RawMode, error_kind_order
from .seconds import Tables
from .values import as_float


def mode_summary(mode: str, raw: RawMode, tables: Tables, run: dict, params: dict,
                  thresholds: analysis.Thresholds, target: str | None) -> dict:
    levels = tables.levels
    verdict = analysis.judge(levels, thresholds)
    expected = expected_ms(params)
    healthy_max = max(verdict.p99_limit_ms or 0.0, thresholds.p99_limit_ms(expected) if expected else 0.0)
    ctx = analysis.ValidityContext(delay_ms=as_float(params.get("DELAY_MS")),
                                   shared_machine=analysis.shares_one_machine(target),
                                   limits=limits_in_force(raw, run, params), healthy_max_ms=healthy_max or None)
    crashed = crash_summary(crash_of(run, mode), tables)
    reasons = [crash_reason(crashed, tables)] if crashed else []
    reasons += analysis.validity(levels, verdict, ctx)
    notes = analysis.notes(levels, verdict, ctx)
    missing = list(raw.missing)
    completed = run.get("modes_completed")
    if isinstance(completed, list) and mode not in completed:
        reasons.append("this mode did not finish (the run was interrupted or failed)")
        missing.append(f"{mode}: the run of this mode did not finish")
    if not tables.timeline:
        missing.append(f"{mode}: no measured phase in seconds.csv")
    reasons.extend(live_config_mismatches(mode, raw.live_config, params))
    # The pool the service really had, when it said so; the requested one otherwise.
    threads = as_float(raw.live_config.get(LIVE_POOL)) or as_float(params.get("PLATFORM_THREADS"))
    predicted = analysis.predicted_rps(mode, threads, verdict.baseline_p50_ms)
    stops = [inj.meta for inj in raw.injectors]
    stop_reasons = sorted({str(m["stop_reason"]) for m in stops if m.get("stop_reason")})
    first_bad = levels[verdict.first_unhealthy].index if verdict.first_unhealthy is not None else None
    return {
        "sustained_rps": analysis.plain_number(verdict.sustained_rps),
        "collapsed": verdict.collapsed,
        "predicted_rps": None if predicted is None else round(predicted),
        "baseline_p50_ms": verdict.baseline_p50_ms,
        "p99_ms_at_sustained": verdict.p99_ms_at_sustained,
        "requests": tables.requests,
        "errors": tables.errors,
        "valid": not reasons,
        "invalid_reasons": reasons,
        "notes": notes,
        "levels": [analysis.level_dict(lv, healthy, why) for lv, (healthy, why) in zip(levels, verdict.health)],
        "first_unhealthy_level": first_bad,
        "p99_limit_ms": None if verdict.p99_limit_ms is None else round(verdict.p99_limit_ms),
        "pinned_virtual_threads": raw.pinned,
        "stopped_early": any(bool(m.get("stopped_early")) for m in stops),
        "stop_reason": "; ".join(stop_reasons) or None,
        "missing": missing,
        "live_config": raw.live_config or None,
        "error_kinds": raw_error_kinds(raw),
        "crashed": crashed,
        "levels_dropped_after_crash": tables.dropped_levels,
    }


def raw_error_kinds(raw: RawMode) -> list[str]:
    """Every kind the simulation can report, in its order (meta.json), so a reader sees which ones stayed at 0."""
    return error_kind_order(raw.injectors)


def expected_ms(params: dict) -> float:
    """What one request should take, from the run's parameters (0 when they do not say)."""
    try:
        return float(limits.expected_ms(params))
    except (KeyError, TypeError, ValueError):
        return 0.0


def run_limits(run: dict, params: dict) -> dict:
    """The limits a run recorded; for a run before they were recorded, the fixed defaults it ran with."""
    recorded = run.get("limits")
    if isinstance(recorded, dict) and recorded:
        return recorded
    return {"injector_request_timeout_ms": limits.LEGACY_INJECTOR_TIMEOUT_MS,
            "thread_service_timeout_ms": limits.LEGACY_SERVICE_TIMEOUT_MS}


def completion_lag_s(params: dict) -> int:
    return limits.completion_lag_s(expected_ms(params))


def limits_in_force(raw: RawMode, run: dict, params: dict) -> tuple[analysis.HarnessLimit, ...]:
    """Each limit that cuts a request, as it was in force: the injectors say their own timeout in meta.json."""
    recorded = run_limits(run, params)
    said = [as_float((inj.meta.get("timeouts") or {}).get("request_ms")
                     or (inj.meta.get("properties") or {}).get("loadlab.requestTimeoutMs")) for inj in raw.injectors]
    said = [x for x in said if x is not None]
    injector = max(said) if said else as_float(recorded.get("injector_request_timeout_ms"))
    found = []
    if injector is not None:
        found.append(analysis.HarnessLimit("the injector's request timeout (loadlab.requestTimeoutMs)", injector,
                                           "timeout_injector"))
    service = as_float(recorded.get("thread_service_timeout_ms"))
    if service is not None:
        found.append(analysis.HarnessLimit("the thread-service's downstream timeout (delay-service.timeout)",
                                           service, "status_504"))
    database = as_float(recorded.get("database_timeout_ms"))
    if database is not None and params.get("SCENARIO") == "db":
        found.append(analysis.HarnessLimit("the thread-service's database timeout", database, "status_504"))
    return tuple(found)


def crash_of(run: dict, mode: str) -> dict | None:
    crashes = run.get("crashes")
    crash = crashes.get(mode) if isinstance(crashes, dict) else None
    return crash if isinstance(crash, dict) and crash.get("role") else None


def crash_cutoff(crash: dict | None) -> int | None:
    """The epoch second from which nothing of a crashed mode counts: the one its role was last seen alive in."""
    alive = as_float((crash or {}).get("alive_until_epoch_ms"))
    return None if alive is None else math.floor(alive / 1000)


def crash_summary(crash: dict | None, tables: Tables) -> dict | None:
    """The contract's `crashed`: {role, host, second, exit, cause} (+ signal), the second counted from the start
    of the measured phase (negative: during the warm-up)."""
    if crash is None:
        return None
    cutoff = crash_cutoff(crash)
    second = None if cutoff is None or tables.t0 is None else cutoff - tables.t0
    return {"role": crash.get("role"), "host": crash.get("host"), "second": second, "exit": crash.get("exit"),
            "signal": crash.get("signal"), "cause": crash.get("cause")}


def crash_reason(crashed: dict, tables: Tables) -> str:
    return f"{crash_headline(crashed)}; {dropped_text(tables.dropped_levels)}"


def crash_headline(crashed: dict) -> str:
    """`the thread-service on local died at second 23 of the measured phase (exit 137, SIGKILL): <cause>`."""
    second = crashed.get("second")
    if second is None:
        when = "during this mode"
    elif second >= 0:
        when = f"at second {second} of the measured phase"
    else:
        when = f"during the warm-up, {-second} s before the measured phase"
    code = crashed.get("exit")
    how = "no exit code" if code is None else f"exit {code}" + (f", {crashed['signal']}" if crashed.get("signal")
                                                                 else "")
    return f"the {crashed.get('role')} on {crashed.get('host')} died {when} ({how}): {crashed.get('cause')}"


def dropped_text(dropped: list[int]) -> str:
    if not dropped:
        return "every level had ended before it"
    names = ", ".join(str(i) for i in dropped)
    return (f"level{'s' if len(dropped) > 1 else ''} {names}, under way, {'are' if len(dropped) > 1 else 'is'} "
            "not counted, nor anything after it: a dead process is not a collapse")


def base_mode(label: str) -> str:
    """`virtual-jdk21` → `virtual`: the thread mode of a mode label."""
    return label.split("-jdk", 1)[0]


# The live configuration's fields the verdict reads (metrics.tsv names; test_metric_names.py holds them to it).
LIVE_THREAD_MODE, LIVE_POOL = "thread_mode", "tomcat_threads_max"


def live_config_mismatches(mode: str, live: dict, params: dict) -> list[str]:
    """Reasons the mode did not run what was asked, from what the service itself reported at start."""
    reasons = []
    wanted_mode = base_mode(mode)
    if live.get(LIVE_THREAD_MODE) not in (None, wanted_mode):
        reasons.append(f"the thread-service ran in {live[LIVE_THREAD_MODE]} mode, not {wanted_mode}")
    asked, got = as_float(params.get("PLATFORM_THREADS")), as_float(live.get(LIVE_POOL))
    if wanted_mode == "platform" and asked is not None and got is not None and asked != got:
        reasons.append(f"the thread-service ran with {got:.0f} Tomcat threads, not PLATFORM_THREADS={asked:.0f}")
    return reasons


def failed_mode(reason: str) -> dict:
    return {
        "sustained_rps": 0, "collapsed": False, "predicted_rps": None, "baseline_p50_ms": None,
        "p99_ms_at_sustained": None, "requests": 0, "errors": 0, "valid": False, "invalid_reasons": [reason],
        "notes": [], "levels": [], "first_unhealthy_level": None, "p99_limit_ms": None, "pinned_virtual_threads": None,
        "stopped_early": False, "stop_reason": None, "missing": [reason],
    }


def ratio(virtual: dict | None, platform: dict | None) -> tuple[float | None, str | None]:
    """virtual / platform sustained throughput, or None with the reason no ratio can be claimed."""
    for name, mode in (("platform", platform), ("virtual", virtual)):
        if not mode:
            return None, f"{name} was not measured"
        if mode.get("crashed"):
            return None, f"{name} crashed: {crash_headline(mode['crashed'])}"
        if not mode.get("valid"):
            first = (mode.get("invalid_reasons") or ["see its reasons"])[0]
            return None, f"{name} is invalid: {first}"
        if not mode.get("sustained_rps"):
            return None, f"{name} sustained no level"
    return round(virtual["sustained_rps"] / platform["sustained_rps"], 2), None


def problems(run: dict) -> dict[str, list[str]]:
    """What bench saw go wrong per mode (a tool's exit code, a host error): shown as is, judged by nobody here."""
    found = run.get("mode_problems")
    if not isinstance(found, dict):
        return {}
    return {str(mode): [str(p) for p in (v if isinstance(v, list) else [v])] for mode, v in found.items() if v}

