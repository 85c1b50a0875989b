"""A pass judged level by level: each level whose instrument was saturated (an injector behind or out of CPU, a
saturated or late delay-service, the cores SERVICE_CPUS left to the other roles, another program on the shared
machine) is set aside with why, and the knee is placed on the others (knee.judge). The symptoms themselves are
validity.py's; what cannot be trusted about a whole pass stays there too."""

from __future__ import annotations

from collections.abc import Mapping

from loadlab.analysis import split_checks
from loadlab.analysis.knee import Verdict, judge
from loadlab.analysis.levels import Level
from loadlab.analysis.validity import (
    CPU_SATURATED_RATIO,
    INJECTOR_MIN_SENT_RATIO,
    ValidityContext,
    delay_symptom,
    injector_cpu_symptom,
    injector_fell_behind,
    machine_saturated,
    outside_competition,
    with_delay_reference,
)
from loadlab.core.thresholds import Thresholds


def instrument_saturated(level: Level, ctx: ValidityContext) -> str | None:
    """Why the instrument could not measure the service at this level, every symptom in a sentence with its numbers
    (`; ` between them); None when it could. The instrument is what stands around the service: an injector that fell
    behind or ran out of CPU, a saturated delay-service, the cores SERVICE_CPUS left to them, and, on a shared
    machine, another program taking its CPU. Such a level is set aside (knee.judge): it costs that level, not the
    pass. On a machine every role shares and that was saturated, a
    role's symptoms are the machine's (see `pass_reasons`): only what the injector sent, counted, is then still held
    against the level."""
    found = []
    if injector_fell_behind(level):
        found.append(
            f"the injector fell behind: it sent {level.offered_rps:.0f} requests/s, "
            f"{level.offered_rps / level.target_rps:.0%} of the target (needs {INJECTOR_MIN_SENT_RATIO:.0%})"
            + (
                f" while the machine was saturated (host CPU {level.evidence.host_cpu_pct:.0f}%)"
                if machine_saturated(level, ctx)
                else ""
            )
        )
    own = not machine_saturated(level, ctx)
    if own and (text := injector_cpu_symptom(level)):
        found.append(f"the injector's CPU was saturated: {text}")
    host = level.evidence.injector_host_cpu_pct
    if not ctx.shared_machine and (host or 0) >= CPU_SATURATED_RATIO * 100:
        found.append(f"the injector's host CPU was saturated: {host:.0f}% (limit {CPU_SATURATED_RATIO * 100:.0f}%)")
    # The stand-in is blamed on its own evidence only (its CPU, its probe, its served record): the service's own view
    # of its calls holds the service's waits too (downstream_calls.py says what they showed, in a note).
    if own and (text := delay_symptom(level, ctx)):
        found.append(f"the delay-service was saturated: {text}")
    if own and level.served_late:
        found.append(level.served_late)
    if ctx.shared_machine and (text := outside_competition(level)):
        found.append(text)
    if text := split_checks.others_saturated(level, ctx.split, CPU_SATURATED_RATIO):
        found.append(text)
    return "; ".join(found) or None


def judge_trusted(
    levels: list[Level],
    thresholds: Thresholds,
    ctx: ValidityContext,
    baseline_p50_ms: float | None = None,
    coarse: bool = False,
    with_crash: Mapping[int, str] | None = None,
) -> Verdict:
    """A pass judged level by level: every level whose instrument was saturated set aside with why, the knee placed
    on the others (knee.judge). with_crash: levels (by position) counted with a crash that followed them
    (summary/judge/gc_crash.py), with why: set aside too, the crash's reason first."""
    ctx = with_delay_reference(levels, ctx)
    aside = {i: why for i, lv in enumerate(levels) if (why := instrument_saturated(lv, ctx))}
    for i, why in (with_crash or {}).items():
        aside[i] = "; ".join(filter(None, [why, aside.get(i)]))
    return judge(levels, thresholds, baseline_p50_ms, aside, first_may_not_reproduce=coarse)
