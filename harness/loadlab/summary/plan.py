"""Bench's question after each pass of a collapsed mode (REFINE=1): which rates should the next fine pass offer?

Answered from the raw files written so far, by the same code that writes summary.json (mode_result), so the pass
bench runs is the one `make report` later judges: the bracket, the baseline and the trust in the coarse pass are
read, never re-derived here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import analysis, refine, runrecord
from . import mode_result


@dataclass(frozen=True)
class FineStep:
    rates: list[float] = field(default_factory=list)  # empty: no further pass
    bracket: refine.Bracket | None = None
    baseline_p50_ms: float | None = None
    warmup_rps: float | None = None  # refine.warmup_rate: a rate with headroom before the first fine level
    reason: str | None = None  # why there is no further pass, when it is not simply "localised" or "no collapse"


def next_fine_pass(run_dir: Path, folder: str, run: dict) -> FineStep:
    """folder: the mode's folder in the run (`platform`, `rep-2/virtual`); run: params.json's content so far."""
    record = runrecord.from_doc(run)
    thresholds = analysis.Thresholds.from_mapping(record.thresholds)
    # The mode is still running: it is not in modes_completed yet, which is not a reason to distrust it.
    view = replace(record, modes_completed=None)
    mode = mode_result(
        Path(run_dir) / folder, Path(folder).name, view, record.params, thresholds, record.target, write=False
    )
    if not mode.get("collapsed"):
        return FineStep()
    if not mode.get("valid"):
        return FineStep(
            reason="the coarse pass cannot be trusted ("
            + "; ".join(mode.get("invalid_reasons") or [])
            + "): its knee is not refined"
        )
    refined = mode.get("refine") or {}
    passes = refined.get("passes") or []
    if passes and not passes[-1].get("used"):
        return FineStep(
            reason=f"{passes[-1]['name']} was not used ({passes[-1].get('why_not_used')}): "
            f"the bracket stands as the earlier passes left it"
        )
    interval = mode.get("knee_interval_rps")
    if not interval or not interval[0]:
        return FineStep(reason=refined.get("not_refined"))
    bracket = refine.Bracket(float(interval[0]), float(interval[1]))
    if bracket.localised():
        return FineStep(bracket=bracket)
    rates = refine.fine_rates(bracket)
    return FineStep(
        rates, bracket, mode.get("baseline_p50_ms"), round(refine.warmup_rate(rates[0]), 3) if rates else None
    )
