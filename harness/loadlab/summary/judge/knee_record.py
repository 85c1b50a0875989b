"""A mode's knee as summary.json and the page give it: each fine pass judged (knee.py decides the knee; validity.py
and summary/judge/crash.py say which passes cannot be used), the record of every pass, and which limit the mode met
first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from loadlab.analysis.bracket import KNEE_RESOLUTION
from loadlab.analysis.knee import Knee, PassOutcome, Verdict, coarse_knee
from loadlab.analysis.levels import Level
from loadlab.analysis.prediction import (
    AHEAD,
    HELD_PAST,
    REFUTED,
    Prediction,
    held_verdict,
    interval_text,
    limit_name,
    met_by_knee,
)
from loadlab.analysis.set_aside import judge_trusted
from loadlab.analysis.validity import ValidityContext, machine_saturated, pass_reasons
from loadlab.core.app import THREAD_SERVICE
from loadlab.core.thresholds import Thresholds
from loadlab.summary.judge import crash as crashes
from loadlab.summary.judge import jsonform
from loadlab.summary.judge.app_pool import PoolAtKnee
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.seconds import Tables
from loadlab.summary.schema.level_records import PassRecord, RefineRecord

# Error kinds that are an HTTP answer of the service's own (the simulation's ErrorKind ids: status_503, status_4xx, …),
# and the share of a level's errors they must be for the level to have failed on the service's answers.
ANSWER_KIND_PREFIX = "status_"
ANSWERED_SHARE = 0.5


@dataclass
class FinePass:
    name: str  # the pass's folder under the mode: refine-1, refine-2, …
    raw: RawMode
    tables: Tables


def refined_knee(
    levels: list[Level],
    verdict: Verdict,
    passes: list[FinePass],
    thresholds: Thresholds,
    ctx: ValidityContext,
    crashed: dict[str, object] | None = None,
    rewarmed: bool = False,
) -> Knee:
    """The mode's knee from its coarse levels and its fine passes (in the order they ran), each judged with the
    coarse pass's rule and baseline. crashed: where a role died (crash.summary); its pass narrows nothing.
    rewarmed: the first fine pass measured the stairs again after a second warm-up (summary/judge/warmup.py), the coarse
    levels having measured a backlog: it finds its own baseline, and the passes after it are judged against that."""
    knee = coarse_knee(levels, verdict)
    if knee.interval is None and knee.bound is None:
        return knee  # it never collapsed: no fine pass was run (a bound below levels set aside gets one)
    # The delay-service's probe is judged on a rise from the coarse pass's lightest level (validity.delay_probe_limit).
    # A machine busy near the knee is no reason to distrust a fine pass: within a coarse step of a knee the coarse pass
    # already reached, the machine running out of CPU is the knee itself (a note says so).
    fine_ctx = replace(ctx, lightest=levels[0] if levels else None, cpu_is_the_limit=True)
    baseline = verdict.baseline_p50_ms
    for k, fine in enumerate(passes):
        fine_levels = fine.tables.levels
        # judged level by level as the coarse pass is: a level whose instrument was saturated is set aside
        fine_verdict = judge_trusted(fine_levels, thresholds, fine_ctx, None if rewarmed and k == 0 else baseline)
        if rewarmed and k == 0:
            baseline = knee.baseline_p50_ms = fine_verdict.baseline_p50_ms
        knee.add_pass(fine.name, fine_levels, fine_verdict, _distrust(fine, fine_verdict, fine_ctx, crashed))
    return knee


def _distrust(fine: FinePass, verdict: Verdict, ctx: ValidityContext, crashed: dict[str, object] | None) -> str | None:
    """Why a fine pass cannot be used at all: a crash, or what is about the whole pass (validity.pass_reasons). Not
    its number of levels: a fine pass stopped at its first level is still evidence (it contradicts the earlier pass,
    or closes the bracket), it has the coarse levels below it."""
    died = crashes.why_pass_not_used(crashed, fine.name)
    if died or not fine.tables.levels:
        return died
    reasons = pass_reasons(fine.tables.levels, verdict, ctx)
    return "this pass cannot be trusted: " + "; ".join(reasons) if reasons else None


def refine_record(knee: Knee, passes: list[FinePass], requested: bool, not_refined: str | None) -> RefineRecord:
    """summary.json's `refine`: how narrow the knee's bracket got and every fine pass."""
    by_name = {fine.name: fine for fine in passes}
    interval = knee.interval
    return RefineRecord(
        requested=requested,
        resolution=KNEE_RESOLUTION,
        localised=None if interval is None else interval.localised(),
        width_ratio=None if interval is None or not interval.healthy else round(interval.width_ratio, 4),
        coarse_interval_rps=jsonform.interval(knee.coarse),
        # a fine pass held the bracket's unhealthy rate healthy: no knee is placed there (knee.py)
        not_reproduced=knee.not_reproduced,
        transients=knee.transients,  # every unhealthy level a later pass held healthy, in words
        confirmed=None if interval is None else interval.confirmed,
        passes=[pass_record(outcome, by_name[outcome.name]) for outcome in knee.passes],
        not_refined=not_refined,
    )


def pass_record(outcome: PassOutcome, fine: FinePass) -> PassRecord:
    levels, verdict = outcome.levels, outcome.verdict
    stops = [inj.meta for inj in fine.raw.injectors]
    return PassRecord(
        name=outcome.name,
        rates=[jsonform.plain_number(round(lv.target_rps, 1)) for lv in levels],
        interval_before_rps=jsonform.interval(outcome.before),
        interval_after_rps=jsonform.interval(outcome.after),
        used=outcome.used,
        why_not_used=outcome.why_not_used,
        levels=jsonform.level_records(levels, verdict),
        first_unhealthy_level=jsonform.first_unhealthy_level(levels, verdict),
        requests=fine.tables.requests,
        errors=fine.tables.errors,
        stopped_early=any(m.stopped_early for m in stops),
        stop_reason="; ".join(sorted({m.stop_reason for m in stops if m.stop_reason})) or None,
        missing=[m for m in fine.raw.missing if fine.name in m],
    )


def closing_note(knee: Knee, ctx: ValidityContext) -> str | None:
    """A fine level that closed the bracket on a saturated machine: the coarse pass's note (validity.notes) covers
    only a coarse closing level."""
    lv = knee.closing
    if lv is None or knee.coarse is None or lv.target_rps == knee.coarse.unhealthy:
        return None
    if not machine_saturated(lv, ctx):
        return None
    return (
        f"the machine was saturated at the first unhealthy fine level ({lv.target_rps:,.0f} rps): host CPU "
        f"averaged {lv.evidence.host_cpu_pct:.0f}%, so this knee is where this machine ran out of CPU, with "
        f"every role on the same cores"
    )


def evidence_at(level: Level | None, service: str = THREAD_SERVICE) -> str:
    """What the machine and the roles did at a level, in words (the CPU figures a reader checks a knee against);
    service: what prose calls the service under test (core/app.service_label)."""
    if level is None:
        return "no level to show"
    ev = level.evidence
    parts = []
    if ev.host_cpu_pct is not None:
        parts.append(f"host CPU {ev.host_cpu_pct:.0f}%")
    for name, value in (
        (service, ev.thread_cpu_pct),
        ("delay-service", ev.delay_cpu_pct),
        ("injector", ev.injector_cpu_pct),
    ):
        if value is not None:
            parts.append(f"{name} {value:.0f}% of one core")
    return f"at {level.target_rps:,.0f} rps: " + (", ".join(parts) if parts else "no CPU was sampled")


def answered_errors(level: Level | None, max_error_ratio: float, service: str = THREAD_SERVICE) -> str | None:
    """The first unhealthy level failed on errors that were mostly the service's own HTTP answers (5xx, 4xx): it said
    no, which the reader must hear before any model's limit (a fault, a failing dependency, a pool that answers 503);
    None otherwise."""
    if level is None or level.error_ratio <= max_error_ratio:
        return None
    answers = {k: n for k, n in level.errors_by_kind.items() if k.startswith(ANSWER_KIND_PREFIX) and n}
    if sum(answers.values()) < ANSWERED_SHARE * level.ko:
        return None
    kinds = ", ".join(f"{k} × {n:,}" for k, n in sorted(answers.items(), key=lambda kv: -kv[1]))
    return (
        f"the {service} answered errors: at {level.target_rps:,.0f} rps {level.error_ratio:.0%} of the requests got "
        f"an HTTP error answer from it ({kinds}): the knee is where it said no, not where requests went unanswered"
    )


def _behind_the_answers(ordered: list[Prediction], knee: Knee, ok_ratio: float) -> str:
    """The bounded model the knee meets, when the service's own error answers placed it (a deadline's 504s are
    answered where a pool behind it ran out): what the errors stand for."""
    bracket = knee.interval
    if bracket is None:
        return ""
    met = [p for p in ordered if p.bounded and met_by_knee(p, bracket.healthy, bracket.unhealthy, ok_ratio)]
    return (
        f"; behind them {_name(met[0])}: {the_knee(knee)} meets its predicted {interval_text(*met[0].band())}"
        if met
        else ""
    )


def limit_met_first(
    predictions: list[Prediction],
    knee: Knee,
    collapsed: bool,
    peak: float | None,
    ctx: ValidityContext,
    pool_at_knee: PoolAtKnee | None = None,
    service: str = THREAD_SERVICE,
    max_error_ratio: float = 0.01,
    ok_ratio: float = 1.0,
) -> str:
    """Which limit the mode met first, in a sentence: the service's own error answers or its connection pool full
    when the first unhealthy level shows them; else the bounded model whose interval its knee meets; a model with no
    upper end only when no bounded one exists (it excludes nothing); else what the machine showed at the knee."""
    ordered = sorted(predictions, key=lambda p: p.rps)
    if collapsed:
        answered = answered_errors(knee.closing, max_error_ratio, service)
        if answered:
            return answered + _behind_the_answers(ordered, knee, ok_ratio)
        if pool_at_knee is not None:
            return _pool_named(pool_at_knee, ordered, knee, ok_ratio)
    if not predictions:
        return "no model gives this mode a limit"
    if not collapsed:
        return _held(ordered, peak or 0.0, ok_ratio)
    ahead = ", ".join(f"{_name(p)} at {p.rps:,.0f} rps" for p in ordered)
    bracket = knee.interval
    met = _met(ordered, knee, ok_ratio)
    first = met_first(predictions, knee, ok_ratio)
    if first is not None and bracket is not None:  # a prediction met: the knee has its bracket
        text = f"{_name(first)}: {the_knee(knee)} meets its predicted {interval_text(*first.band())}"
        if not first.overlaps(bracket.healthy or None, bracket.unhealthy):
            text += (
                f" within the health rule's resolution (a healthy level delivers at least {ok_ratio:.0%} of its rate)"
            )
        if not first.bounded:
            text += " (a limit with no upper end, the only kind this mode has: it excludes no knee above its low end)"
        if first is not ordered[0]:
            text += f" (a lower prediction, {_name(ordered[0])} at {ordered[0].rps:,.0f} rps, was not met first)"
        return text
    unbounded = [p for p in met if not p.bounded]
    also = (
        "; "
        + ", ".join(f"{_name(p)}'s {interval_text(*p.band())}" for p in unbounded)
        + " has no upper end, so it excludes nothing and names no limit"
        if unbounded
        else ""
    )
    machine = ""
    if knee.closing is not None and knee.closing.evidence.host_cpu_pct is not None:
        machine = (
            "; the machine ran out of CPU there"
            if machine_saturated(knee.closing, ctx)
            else "; the machine still had CPU to spare there"
        )
    return (
        f"{the_knee(knee)} meets none of the predicted intervals ({ahead}){also}; "
        f"the first unhealthy level: {evidence_at(knee.closing, service)}{machine}"
    )


def _held(ordered: list[Prediction], peak: float, ok_ratio: float) -> str:
    """A mode that held its stairs: the limits still ahead of the rate it held, and apart, in their own words, the
    models it held past (prediction.held_verdict): a figure below a rate measured healthy is never said to be ahead."""
    said = f"none within this run: it held {peak:,.0f} rps"
    by = {v: [p for p in ordered if held_verdict(p, peak, ok_ratio) == v] for v in (AHEAD, HELD_PAST, REFUTED)}
    if by[AHEAD]:
        said += "; the limits ahead: " + ", ".join(f"{_name(p)} at {p.rps:,.0f} rps" for p in by[AHEAD])
    if by[HELD_PAST]:
        said += f"; {HELD_PAST}: " + ", ".join(
            f"{_name(p)} at {p.rps:,.0f} rps (its interval, {interval_text(*p.band())}, reaches above the rate held)"
            for p in by[HELD_PAST]
        )
    if by[REFUTED]:
        said += f"; {REFUTED}: it held above the whole interval of " + ", ".join(
            f"{_name(p)} at {p.rps:,.0f} rps ({interval_text(*p.band())})" for p in by[REFUTED]
        )
    return said


def _met(ordered: list[Prediction], knee: Knee, ok_ratio: float) -> list[Prediction]:
    """The models whose interval the knee meets: the same test as the prediction's "agrees" (prediction.met_by_knee),
    so the two never contradict each other."""
    bracket = knee.interval
    if bracket is None:
        return []
    return [p for p in ordered if met_by_knee(p, bracket.healthy, bracket.unhealthy, ok_ratio)]


def met_first(predictions: list[Prediction], knee: Knee, ok_ratio: float = 1.0) -> Prediction | None:
    """The model whose limit the knee met first: the lowest bounded one it meets (one with no upper end only when
    the mode has no bounded model); None when it meets none."""
    ordered = sorted(predictions, key=lambda p: p.rps)
    met = _met(ordered, knee, ok_ratio)
    matching = [p for p in met if p.bounded] if any(p.bounded for p in ordered) else met
    return matching[0] if matching else None


def _pool_named(pool: PoolAtKnee, ordered: list[Prediction], knee: Knee, ok_ratio: float) -> str:
    """The app's pool was the queue at the knee: named, with its model's prediction and whether the knee meets it."""
    model = next((p for p in ordered if p.predicted_by == "pool"), None)
    if model is None:
        return f"{pool.sentence()} (no prediction: the app's gauges gave no connection time per request)"
    bracket = knee.interval
    meets = bracket is not None and met_by_knee(model, bracket.healthy, bracket.unhealthy, ok_ratio)
    return f"{pool.sentence()}; its prediction {interval_text(*model.band())} ({model.formula}) " + (
        "is met by the knee" if meets else f"is not met by {the_knee(knee)}"
    )


def the_knee(knee: Knee) -> str:
    """The knee as a sentence names it: its last healthy rate, or, when the first level was already unhealthy (no
    healthy rate: 0), the rate it lies below."""
    if knee.sustained_rps or knee.interval is None:
        return f"the knee {knee.sustained_rps:,.0f} rps"
    return f"the knee (below {knee.interval.unhealthy:,.0f} rps: the first level was already unhealthy)"


def _name(p: Prediction) -> str:
    return limit_name(p.predicted_by)
