"""Which measured seconds have no server evidence, and why: the samplers' rows (samples.csv of the thread-service,
the delay-service and each injector) are what a level's trust rests on — the delay-service's own latency, each role's
and host's CPU. A run of SILENCE_S or more seconds without a row of one of them is a gap; its cause comes
from what the bench's watcher saw (params.json `evidence_lost`: the sampler died, or ran but stopped writing) or,
when it saw nothing, from the file itself (no row at all: it never started).

A level that overlaps a gap has no server evidence: its sampled means are dropped (a mean over the seconds that
still had rows would describe another part of the level, and the CPU fit must not use it), and the verdict names it
instead of judging it (validity.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from loadlab.analysis.levels import Evidence, Level
from loadlab.core.sampling import SILENCE_S
from loadlab.core.upgrade import Doc
from loadlab.summary.reading.gaps import Gap
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.seconds import Tables
from loadlab.summary.reading.values import as_float

# What each sampler's rows carry, for the sentence that says what a gap lost.
CARRIES = {
    "thread-service": "the thread-service's CPU and JVM metrics",
    "delay-service": "the delay-service's CPU and its own latency (the probe)",
    "injector": "the injector's CPU",
}


def apply(tables: Tables, raw: RawMode, events: list[Doc], fine_pass: str | None = None) -> None:
    """Finds the pass's gaps (tables.evidence_gaps) and takes the evidence away from the levels they touch."""
    if tables.t0 is None or not tables.timeline:
        return
    t_end = tables.t0 + len(tables.timeline) - 1
    tables.evidence_gaps = find_gaps(raw, tables.t0, t_end, events, fine_pass)
    tables.levels = [without_evidence(lv, tables.evidence_gaps) for lv in tables.levels]


def find_gaps(raw: RawMode, t0: int, t_end: int, events: list[Doc], fine_pass: str | None = None) -> list[Gap]:
    """Every run of at least SILENCE_S seconds in [t0, t_end] (epoch seconds) in which a sampler wrote no row."""
    sources = [("thread-service", raw.thread_samples), ("delay-service", raw.delay_samples)]
    sources += [(inj.name, inj.samples) for inj in raw.injectors]
    gaps = []
    for role, rows in sources:
        begun = None
        for s in range(t0, t_end + 2):
            silent = s <= t_end and s not in rows
            if silent and begun is None:
                begun = s
            elif not silent and begun is not None:
                if s - begun >= SILENCE_S:
                    cause, detail = _cause(role, rows, s - 1, events, fine_pass)
                    gaps.append(Gap(role, begun - t0, s - 1 - t0, cause, detail, fine_pass))
                begun = None
    return gaps


def without_evidence(level: Level, gaps: list[Gap]) -> Level:
    if level.first_second is None:
        return level
    last = level.first_second + level.seconds - 1
    hit = [g for g in gaps if g.first_second <= last and g.last_second >= level.first_second]
    if not hit:
        return level
    why = "; ".join(dict.fromkeys(f"the {g.role}'s sampler {g.cause}" for g in hit))
    return dataclasses.replace(level, evidence=Evidence(), no_server_evidence=why)


def _cause(
    role: str, rows: Mapping[int, object], last_epoch: int, events: list[Doc], fine_pass: str | None
) -> tuple[str, str]:
    carries = CARRIES["injector" if role.startswith("injector-") else role] + " and its host's CPU"
    seen = [
        e
        for e in events
        if e.get("role") == role
        # an injector's sampler is the pass's own; the services' samplers run through every pass
        and (not role.startswith("injector-") or e.get("pass") == (fine_pass or "coarse"))
        and (as_float(e.get("alive_until_epoch_ms")) or 0) / 1000 < last_epoch + 1
    ]
    died = [e for e in seen if e.get("what") == "died"]
    lost = f"so {carries} went unmeasured"
    if died:
        e = died[0]
        return "died", f"the {role}'s sampler on {e.get('host')} died ({_exit(e)}; {e.get('cause')}), {lost}"
    if seen:
        e = seen[-1]
        return "stalled", f"the {role}'s sampler on {e.get('host')} stalled ({e.get('cause')}), {lost}"
    if not rows:
        return "never started", f"the {role}'s sampler wrote no row at all (it never started), {lost}"
    return "stalled", f"the {role}'s sampler wrote no row and nothing was seen of it ending: it stalled, {lost}"


def _exit(event: Doc) -> str:
    if event.get("exit") is None:
        return "no exit code"
    return f"exit {event['exit']}" + (f", {event['signal']}" if event.get("signal") else "")
