"""The notes a mode's levels give the reader beyond their health: each level set aside and why (the knee placed on
the others), the GC-bound levels counted with an out-of-memory death (summary/judge/gc_crash.py), and what the service's
own calls to the stand-in showed where they were slow before any load (analysis/downstream_calls.py). verdict.py
puts them in the mode's `notes`."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.downstream_calls import calls_note
from loadlab.analysis.gc_bound import counted_with_the_crash
from loadlab.analysis.knee_words import COARSE, level_words
from loadlab.analysis.levels import level_number
from loadlab.core.asked import Asked
from loadlab.summary.judge import jsonform, service_count
from loadlab.summary.judge.judging import JudgedMode
from loadlab.summary.schema.detail_records import SetAsideRecord


@dataclass(frozen=True)
class SetAside:
    """A level set aside: its entry of summary.json's `set_aside_levels`, and its name in words (`where`)."""

    record: SetAsideRecord
    where: str


def notes(judged: JudgedMode, aside: list[SetAside], asked: Asked) -> list[str]:
    """One note per level set aside (set_aside_levels), then the service's slow calls, if any."""
    said = [
        f"{entry.where} was set aside, its instrument saturated: {entry.record.reason}; the knee is placed on the "
        "other levels" + (FIRST_SET_ASIDE if (entry.record.pass_name, entry.record.level) == (COARSE, 1) else "")
        for entry in aside
        if not counted_with_the_crash(entry.record.reason or "")  # the crash's own note says it (judged.crash_notes)
    ]
    slow_calls = filter(None, [calls_note(judged.tables.levels, judged.ctx)])
    warm = [judged.warm_up.note] if judged.warm_up.note else []
    return [*warm, *said, *judged.crash_notes, *slow_calls, *service_count.notes(judged, asked)]


# What a first level set aside most often means on shared cores: the roles' JIT still compiling after the warm-up.
FIRST_SET_ASIDE = (
    " (the first level: the injector's and the delay-service's JVMs may still have been compiling after the warm-up; "
    "raise WARMUP_SECONDS or lower START_RPS)"
)


def set_aside_levels(judged: JudgedMode) -> list[SetAside]:
    """Every level set aside, coarse then each fine pass: its pass, its level counted from 1 (a fine level by its
    place in its pass), its rate and why; `where` names it in words (not written to summary.json)."""
    found = [(COARSE, judged.tables.levels, judged.verdict)]
    found += [(outcome.name, outcome.levels, outcome.verdict) for outcome in judged.knee.passes]
    return [
        SetAside(
            SetAsideRecord(
                pass_name=name,
                level=level_number(levels[i].position),
                target_rps=jsonform.plain_number(round(levels[i].target_rps, 1)),
                reason=why,
            ),
            level_words(levels[i], name),
        )
        for name, levels, verdict in found
        for i, why in sorted(verdict.set_aside.items())
    ]
