"""Bench's question after each pass of a collapsed mode (REFINE=1): which rates should the next fine pass offer?

Answered from the raw files written so far by the same code the summary judges them with (judging.py), on its typed
values: the knee, its bracket, the coarse baseline and whether the coarse pass can be trusted are read, never
re-derived here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from loadlab.analysis import refine
from loadlab.analysis.bracket import Bracket
from loadlab.analysis.knee import Knee
from loadlab.core import runrecord, summary_inputs
from loadlab.core.thresholds import Thresholds
from loadlab.core.upgrade import Doc
from loadlab.summary.judge import appcheck
from loadlab.summary.judge.judging import judge_mode


@dataclass(frozen=True)
class FineStep:
    rates: list[float] = field(default_factory=list)  # empty: no further pass
    bracket: Bracket | None = None
    baseline_p50_ms: float | None = None
    warmup_rps: float | None = None  # refine.warmup_rate: a rate with headroom before the first fine level
    reason: str | None = None  # why there is no further pass, when it is not simply "localised" or "no collapse"
    climb: bool = False  # the coarse stairs go on above an unhealthy level that did not reproduce (knee.py)
    # the pass looks below a level set aside unhealthy (its instrument was saturated); with climb: the stairs go on
    # above a rate set aside that a fine pass held healthy
    set_aside: bool = False
    # the coarse stairs measured again from their first level: no coarse level was healthy (a service still cold at
    # the warm-up's end reads unhealthy at rates it holds once warm; two unhealthy readings place the knee below them)
    again: bool = False
    # with again: the coarse warm-up ended before the service had caught up (summary/judge/warmup.py), so the stairs are
    # measured again after the whole warm-up once more, at the first level's rate; run with REFINE=0 too
    rewarm: bool = False


def next_fine_pass(run_dir: Path, folder: str, run: Doc) -> FineStep:
    """folder: the mode's folder in the run (`platform`, `rep-2/virtual`); run: params.json's content so far."""
    record = runrecord.from_doc(run)
    thresholds = Thresholds.from_mapping(record.thresholds)
    # The mode is still running: it is not in modes_completed yet, which is not a reason to distrust it.
    view = replace(record, modes_completed=None)
    inputs = summary_inputs.of_run(record)
    judged = judge_mode(Path(run_dir) / folder, Path(folder).name, view, inputs, thresholds, view.target, False)
    knee = judged.knee
    # An app's flight recording is written when its JVM stops, after every pass: its absence now says nothing (the
    # final verdict still checks it). Too few trusted levels is no reason to stop while a level set aside unhealthy
    # lies above the highest rate held: the fine pass below it is what adds them.
    below_set_aside = knee.suspect is not None and knee.sustained_rps > 0
    ignored = {appcheck.RECORDING_NOT_READ, *(judged.too_few_trusted if below_set_aside else [])}
    untrusted = [r for r in judged.untrusted if r not in ignored]
    if knee.interval is None and knee.not_reproduced is None and knee.bound is None:
        if untrusted and judged.verdict.set_aside:  # every level set aside: say why nothing is refined
            return FineStep(reason=f"the coarse pass cannot be trusted ({'; '.join(untrusted)}): nothing to refine")
        return FineStep()  # it never collapsed, or a climb held to the stairs' top
    backlog = judged.warm_up.backlog
    stairs = inputs.load.rates  # the coarse stairs' rates
    if (
        inputs.load.stairs  # a ramp or a brownout has no stairs to measure again
        and backlog is not None
        and not knee.passes
        and set(untrusted) <= {backlog.reason(), *judged.too_few_trusted}
    ):
        return _again_from_the_first_level(knee, stairs, rewarm=True)
    if untrusted:
        return FineStep(reason=f"the coarse pass cannot be trusted ({'; '.join(untrusted)}): its knee is not refined")
    if knee.passes and not knee.passes[-1].used:
        last = knee.passes[-1]
        stands = (
            "the bracket stands as the earlier passes left it"
            if knee.interval is not None
            else f"the bound stands: {knee.bound}"
            if knee.bound is not None
            else "no knee was measured above the level that did not reproduce"
        )
        return FineStep(reason=f"{last.name} was not used ({last.why_not_used}): {stands}")
    if knee.interval is None and knee.suspect is not None:
        return _below_set_aside(knee, knee.suspect)
    if knee.interval is None and knee.bound is not None and not knee.passes:
        return FineStep()  # the levels set aside above the highest rate held were all healthy: nothing to look for
    if knee.interval is None:
        return _climb(knee, stairs)
    if not knee.interval.healthy:
        if not knee.passes:
            return _again_from_the_first_level(knee, stairs)
        return FineStep(reason=refine.why_not_refined(knee, requested=True, skipped=None))
    if knee.interval.localised():
        return FineStep(bracket=knee.interval)
    rates = refine.fine_rates(knee.interval)
    if not rates:
        return FineStep(
            bracket=knee.interval,
            reason=f"no fine rate lies between {knee.interval.healthy:g} and {knee.interval.unhealthy:g} rps",
        )
    return FineStep(rates, knee.interval, knee.baseline_p50_ms, round(refine.warmup_rate(rates[0]), 3))


def _below_set_aside(knee: Knee, suspect: float) -> FineStep:
    """A bound: no trusted level was unhealthy, but one set aside above the highest rate held was (its instrument was
    saturated). A fine pass between the two, judged level by level, places the knee or raises the bound."""
    bracket = Bracket(knee.sustained_rps, suspect)
    rates = refine.fine_rates(bracket)
    if not rates:
        return FineStep(reason=f"no fine pass below the level set aside: {knee.bound}")
    return FineStep(rates, bracket, knee.baseline_p50_ms, round(refine.warmup_rate(rates[0]), 3), set_aside=True)


def _climb(knee: Knee, stairs: tuple[float, ...]) -> FineStep:
    """After a knee that did not reproduce, the coarse stairs' rates above the highest rate measured healthy: the stairs
    go on where the coarse pass stopped on a transient. None left: no further pass."""
    rates = [round(r, 3) for r in stairs if r > knee.sustained_rps * (1 + 1e-9)]
    if not rates:
        return FineStep()
    after_set_aside = knee.bound is not None  # the rate set aside was held healthy, not a knee that did not reproduce
    return FineStep(
        rates, None, knee.baseline_p50_ms, round(refine.warmup_rate(rates[0]), 3), climb=True, set_aside=after_set_aside
    )


def _again_from_the_first_level(knee: Knee, stairs: tuple[float, ...], rewarm: bool = False) -> FineStep:
    """No coarse level was healthy: the stairs once more from their first level, on the same service, now warm. Its
    first level unhealthy again confirms the knee below it; healthy, the first reading did not reproduce and the
    pass climbs on (knee.py judges it as any pass of the bracket [0, the first unhealthy rate]).

    rewarm: the coarse warm-up ended with a backlog: the whole warm-up again at the first level's rate, and no
    baseline given (the coarse one was measured on the backlog): the pass finds its own."""
    rates = [round(r, 3) for r in stairs]
    if rewarm:
        return FineStep(rates, knee.interval, None, rates[0], again=True, rewarm=True)
    return FineStep(rates, knee.interval, knee.baseline_p50_ms, round(refine.warmup_rate(rates[0]), 3), again=True)
