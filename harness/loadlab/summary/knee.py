"""The knee after the refinement passes (REFINE=1, refine.py), and which limit a mode met first.

Every fine pass is judged with the coarse pass's rule and baseline, and its levels narrow the bracket the earlier
passes left (refine.combine). A fine pass that cannot be trusted (its injector fell behind, the delay-service was
saturated, no level was measured) stays on the page but is not used: the bracket is what the earlier passes gave. A
machine busy near the knee is no such reason: within a coarse step of a knee the coarse pass already reached, the
machine running out of CPU is the knee itself (a note says so), not a distortion below it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .. import analysis, refine
from ..prediction import Prediction, interval_text
from . import crash as crashes
from .raw import RawMode
from .seconds import Tables

# How the page names each model's limit.
LIMIT_NAMES = {
    "little": "threads (Little's law)",
    "cpu": "CPU (utilization law)",
    "pool": "the database pool",
    "pinned": "pinned carriers",
}


@dataclass
class FinePass:
    name: str  # the pass's folder under the mode: refine-1, refine-2, …
    raw: RawMode
    tables: Tables


@dataclass
class Knee:
    sustained_rps: float
    p99_ms_at_sustained: int | None
    interval: refine.Bracket | None  # None when the mode never collapsed
    coarse: refine.Bracket | None
    fit_levels: list[analysis.Level]  # the healthy levels, coarse and fine, a CPU fit may use
    closing: analysis.Level | None  # the unhealthy level that closed the bracket (coarse or fine)
    passes: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    not_refined: str | None = None
    requested: bool = True  # REFINE of the run

    def fields(self) -> dict:
        return {
            "knee_interval_rps": _interval(self.interval),
            "refine": {
                "requested": self.requested,
                "resolution": refine.KNEE_RESOLUTION,
                "localised": None if self.interval is None else self.interval.localised(),
                "width_ratio": (
                    None if self.interval is None or not self.interval.healthy else round(self.interval.width_ratio, 4)
                ),
                "coarse_interval_rps": _interval(self.coarse),
                "passes": self.passes,
                "not_refined": self.not_refined,
            },
        }


def refined_knee(
    levels: list[analysis.Level],
    verdict: analysis.Verdict,
    passes: list[FinePass],
    thresholds: analysis.Thresholds,
    ctx: analysis.ValidityContext,
    requested: bool = True,
    skipped: str | None = None,
    crashed: dict | None = None,
) -> Knee:
    """The mode's knee from its coarse levels and its fine passes (in the order they ran).

    skipped: why bench did not refine this mode, when it said so (params.json `refine_skipped`); crashed: where a
    role died (crash.summary), whose pass narrows nothing."""
    coarse_healthy = levels if verdict.first_unhealthy is None else levels[: verdict.first_unhealthy]
    if verdict.first_unhealthy is None:
        return Knee(
            verdict.sustained_rps,
            verdict.p99_ms_at_sustained,
            None,
            None,
            list(coarse_healthy),
            None,
            requested=requested,
        )
    closing = levels[verdict.first_unhealthy]
    healthy_rate = verdict.sustained_rps if verdict.sustained_position is not None else 0.0
    coarse = refine.Bracket(healthy_rate, closing.target_rps)
    knee = Knee(
        verdict.sustained_rps,
        verdict.p99_ms_at_sustained,
        coarse,
        coarse,
        list(coarse_healthy),
        closing,
        requested=requested,
    )
    # The delay-service's probe is judged on a rise from the coarse pass's lightest level (analysis.delay_probe_limit).
    fine_ctx = replace(ctx, lightest=levels[0] if levels else None, cpu_is_the_limit=True)
    for fine in passes:
        died = crashes.why_pass_not_used(crashed, fine.name)
        knee.passes.append(_apply_pass(knee, fine, thresholds, verdict.baseline_p50_ms, fine_ctx, died))
    knee.not_refined = _why_not_refined(knee, requested, skipped)
    note = _closing_note(knee, ctx)
    if note:
        knee.notes.append(note)
    return knee


def _apply_pass(
    knee: Knee,
    fine: FinePass,
    thresholds: analysis.Thresholds,
    baseline: float | None,
    ctx: analysis.ValidityContext,
    died: str | None = None,
) -> dict:
    levels = fine.tables.levels
    verdict = analysis.judge(levels, thresholds, baseline)
    before = knee.interval
    reasons = analysis.validity(levels, verdict, ctx)
    if len(levels) < analysis.MIN_LEVELS:
        # validity's first reason: "a knee needs two levels". A fine pass stopped at its first level is still
        # evidence (it contradicts the earlier pass, or closes the bracket): it has the coarse levels below it.
        reasons = reasons[1:]
    why_not = died
    if died:
        pass
    elif not levels:
        why_not = "no fine level was measured"
    elif reasons:
        why_not = "this pass cannot be trusted: " + "; ".join(reasons)
    else:
        after, why_not = refine.combine(before, [(lv.target_rps, ok) for lv, (ok, _) in zip(levels, verdict.health)])
        if why_not is None:
            counted = levels if verdict.first_unhealthy is None else levels[: verdict.first_unhealthy]
            knee.fit_levels.extend(lv for lv in counted if lv.target_rps < after.unhealthy)
            if after.healthy != before.healthy:
                top = next(lv for lv in counted if lv.target_rps == after.healthy)
                knee.sustained_rps, knee.p99_ms_at_sustained = top.target_rps, top.p99_ms
            if after.unhealthy != before.unhealthy and verdict.first_unhealthy is not None:
                knee.closing = levels[verdict.first_unhealthy]
            knee.interval = after
    stops = [inj.meta for inj in fine.raw.injectors]
    return {
        "name": fine.name,
        "rates": [analysis.plain_number(round(lv.target_rps, 1)) for lv in levels],
        "interval_before_rps": _interval(before),
        "interval_after_rps": _interval(knee.interval),
        "used": why_not is None,
        "why_not_used": why_not,
        "levels": [analysis.level_dict(lv, ok, why) for lv, (ok, why) in zip(levels, verdict.health)],
        "first_unhealthy_level": (
            levels[verdict.first_unhealthy].index if verdict.first_unhealthy is not None else None
        ),
        "requests": fine.tables.requests,
        "errors": fine.tables.errors,
        "stopped_early": any(bool(m.get("stopped_early")) for m in stops),
        "stop_reason": "; ".join(sorted({str(m["stop_reason"]) for m in stops if m.get("stop_reason")})) or None,
        "missing": [m for m in fine.raw.missing if fine.name in m],
    }


def _why_not_refined(knee: Knee, requested: bool, skipped: str | None) -> str | None:
    interval = knee.interval
    if interval is None or interval.localised():
        return None
    if not requested:
        return skipped or "REFINE=0: the knee is placed on the coarse levels only"
    if not interval.healthy:
        return "the first level was already unhealthy: there is no healthy rate to refine from"
    if skipped:
        return skipped
    if not knee.passes:
        return "no refinement pass was run"
    return (
        f"after {len(knee.passes)} pass{'es' if len(knee.passes) > 1 else ''} the bracket is still "
        f"{interval.width_ratio:.0%} of its lower rate wide"
    )


def _closing_note(knee: Knee, ctx: analysis.ValidityContext) -> str | None:
    """A fine level that closed the bracket on a saturated machine: the coarse pass's note (analysis.notes) covers
    only a coarse closing level."""
    lv = knee.closing
    if lv is None or knee.coarse is None or lv.target_rps == knee.coarse.unhealthy:
        return None
    if not analysis.machine_saturated(lv, ctx):
        return None
    return (
        f"the machine was saturated at the first unhealthy fine level ({lv.target_rps:,.0f} rps): host CPU "
        f"averaged {lv.evidence.host_cpu_pct:.0f}%, so this knee is where this machine ran out of CPU, with "
        f"every role on the same cores"
    )


def evidence_at(level: analysis.Level | None) -> str:
    """What the machine and the roles did at a level, in words (the CPU figures a reader checks a knee against)."""
    if level is None:
        return "no level to show"
    ev = level.evidence
    parts = []
    if ev.host_cpu_pct is not None:
        parts.append(f"host CPU {ev.host_cpu_pct:.0f}%")
    for name, value in (
        ("thread-service", ev.thread_cpu_pct),
        ("delay-service", ev.delay_cpu_pct),
        ("injector", ev.injector_cpu_pct),
    ):
        if value is not None:
            parts.append(f"{name} {value:.0f}% of one core")
    return f"at {level.target_rps:,.0f} rps: " + (", ".join(parts) if parts else "no CPU was sampled")


def limit_met_first(
    predictions: list[Prediction],
    knee: Knee,
    collapsed: bool,
    peak: float | None,
    ctx: analysis.ValidityContext,
) -> str:
    """Which limit the mode met first, in a sentence: the model whose interval its knee meets, or, when none does,
    what the machine showed at the knee."""
    if not predictions:
        return "no model gives this mode a limit"
    ordered = sorted(predictions, key=lambda p: p.rps)
    ahead = ", ".join(f"{LIMIT_NAMES.get(p.predicted_by, p.predicted_by)} at {p.rps:,.0f} rps" for p in ordered)
    if not collapsed:
        passed = [p for p in ordered if p.band()[1] is not None and (peak or 0) > p.band()[1]]
        if passed:
            names = ", ".join(f"{LIMIT_NAMES.get(p.predicted_by, p.predicted_by)} at {p.rps:,.0f} rps" for p in passed)
            return f"none within this run: it held {peak or 0:,.0f} rps, beyond the whole interval of {names}"
        return f"none within this run: it held {peak or 0:,.0f} rps; the limits ahead: {ahead}"
    sustained = knee.sustained_rps
    bracket = knee.interval
    matching = [p for p in ordered if bracket is not None and p.overlaps(bracket.healthy or None, bracket.unhealthy)]
    if matching:
        first = matching[0]
        text = (
            f"{LIMIT_NAMES.get(first.predicted_by, first.predicted_by)}: the knee {sustained:,.0f} rps meets its "
            f"predicted {interval_text(*first.band())}"
        )
        if first is not ordered[0]:
            text += (
                f" (a lower prediction, {LIMIT_NAMES.get(ordered[0].predicted_by, ordered[0].predicted_by)} "
                f"at {ordered[0].rps:,.0f} rps, was not met first)"
            )
        return text
    machine = ""
    if knee.closing is not None and knee.closing.evidence.host_cpu_pct is not None:
        machine = (
            "; the machine ran out of CPU there"
            if analysis.machine_saturated(knee.closing, ctx)
            else "; the machine still had CPU to spare there"
        )
    return (
        f"the knee {sustained:,.0f} rps meets none of the predicted intervals ({ahead}); "
        f"the first unhealthy level: {evidence_at(knee.closing)}{machine}"
    )


def _interval(bracket: refine.Bracket | None) -> list | None:
    if bracket is None:
        return None
    healthy = analysis.plain_number(round(bracket.healthy, 1)) if bracket.healthy else None
    return [healthy, analysis.plain_number(round(bracket.unhealthy, 1))]
