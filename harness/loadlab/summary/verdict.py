"""The verdict of one mode (knee, prediction, validity) and of the run (the ratio), as summary.json spells them."""

from __future__ import annotations

from .. import analysis
from .raw import RawMode
from .seconds import Tables
from .values import as_float


def mode_summary(mode: str, raw: RawMode, tables: Tables, run: dict, params: dict,
                  thresholds: analysis.Thresholds, target: str | None) -> dict:
    levels = tables.levels
    verdict = analysis.judge(levels, thresholds)
    ctx = analysis.ValidityContext(delay_ms=as_float(params.get("DELAY_MS")),
                                   shared_machine=analysis.shares_one_machine(target))
    reasons = analysis.validity(levels, verdict, ctx)
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
    threads = as_float(raw.live_config.get("tomcat_threads_max")) or as_float(params.get("PLATFORM_THREADS"))
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
    }


def base_mode(label: str) -> str:
    """`virtual-jdk21` → `virtual`: the thread mode of a mode label."""
    return label.split("-jdk", 1)[0]


def live_config_mismatches(mode: str, live: dict, params: dict) -> list[str]:
    """Reasons the mode did not run what was asked, from what the service itself reported at start."""
    reasons = []
    wanted_mode = base_mode(mode)
    if live.get("thread_mode") not in (None, wanted_mode):
        reasons.append(f"the thread-service ran in {live['thread_mode']} mode, not {wanted_mode}")
    asked, got = as_float(params.get("PLATFORM_THREADS")), as_float(live.get("tomcat_threads_max"))
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


def ratio(virtual: dict | None, platform: dict | None) -> float | None:
    if not virtual or not platform or not virtual.get("sustained_rps") or not platform.get("sustained_rps"):
        return None
    return round(virtual["sustained_rps"] / platform["sustained_rps"], 2)


def problems(run: dict) -> dict[str, list[str]]:
    """What bench saw go wrong per mode (a tool's exit code, a host error): shown as is, judged by nobody here."""
    found = run.get("mode_problems")
    if not isinstance(found, dict):
        return {}
    return {str(mode): [str(p) for p in (v if isinstance(v, list) else [v])] for mode, v in found.items() if v}

