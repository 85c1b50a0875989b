"""A level judged healthy that the service itself did not keep up with, by its own counter.

A level of requests of a second or more is judged by the second each request was sent in
(summary/reading/send_seconds.py), so a request queued behind a full pool still counts as answered for its level when it
comes back later. Against a heavy-tailed downstream the health rule's p99 limit follows the distribution's own p99
(seconds), and a queue of seconds hides inside it for a level or two: measured with SCENARIO=fanout, FANOUT=16 on a
lognormal downstream, platform's 200 threads started 90 requests a second, Tomcat's queue grew to 1,731, and the level
at 140 rps was still read healthy. The service's own counter of the requests its threads started (`requests_total`) says
it at once: a pool that is full starts requests only as fast as it finishes them. A level where that rate stayed below
BEHIND_RATIO of the level's rate is named in the mode's notes; its health, the knee and the prediction's check are
left as the rule placed them (the contract's rule), and the note says the knee may lie lower.
"""

from __future__ import annotations

from loadlab.analysis.knee_words import COARSE, level_words
from loadlab.analysis.levels import Level
from loadlab.core import fanout, metrics, scenario_mix
from loadlab.core.asked import Asked
from loadlab.summary.judge.judging import JudgedMode
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.raw_rows import NO_METRICS

# Below this share of its rate started by the service, a level did not keep up, whatever its latency says: a step's
# own allowance (health.expected_answers_rps) is at most a few percent, a pool that is full far more.
BEHIND_RATIO = 0.9


def started_rps(raw: RawMode, t0: int | None, level: Level, name: str = metrics.REQUESTS_TOTAL) -> float | None:
    """A counter's rate over the level's seconds (None: no counter there): the requests a second the service's threads
    started, or (DOWNSTREAM_CALLS_TOTAL) the downstream calls it completed."""
    if t0 is None or level.first_second is None or level.seconds < 2:
        return None
    start, end = t0 + level.first_second, t0 + level.first_second + level.seconds
    first, last = _counter(raw, start, name), _counter(raw, end, name)
    if first is None or last is None:
        return None
    return (last - first) / (end - start)


def _counter(raw: RawMode, second: int, name: str) -> float | None:
    return raw.jvm.get(second, NO_METRICS).metric(name)


def calls_per_request(asked: Asked) -> int | None:
    """The downstream calls each request of the lab's own service makes (None: an APP, or a scenario that makes none
    or a mix of kinds)."""
    if asked.app or asked.scenario not in scenario_mix.CALLING:
        return None
    return fanout.calls(asked)


def behind(raw: RawMode, t0: int | None, level: Level, calls: int | None) -> str | None:
    """Why the service did not keep up with a level, by its own counters; None when it did (or cannot tell)."""
    started = started_rps(raw, t0, level)
    if started is not None and started < BEHIND_RATIO * level.target_rps:
        return (
            f"the service's threads started only {started:,.0f} requests a second there "
            f"({started / level.target_rps:.0%} of its rate; its own counter, requests_total): requests queued before "
            "a thread took them"
        )
    done = started_rps(raw, t0, level, metrics.DOWNSTREAM_CALLS_TOTAL) if calls else None
    needed = (calls or 0) * level.target_rps
    if done is not None and needed and done < BEHIND_RATIO * needed:
        return (
            f"the service completed only {done:,.0f} downstream calls a second there, {done / needed:.0%}"
            f" of the {calls} per request its rate needs (its own counter, downstream_calls_total): calls queued for "
            "what makes them (an executor's threads, a client's connections)"
        )
    return None


def notes(judged: JudgedMode, asked: Asked) -> list[str]:
    """One note per healthy level, coarse or fine, that the service's own counters say it did not keep up with."""
    fine = {f.name: f for f in judged.fine}
    passes = [(COARSE, judged.raw, judged.tables.t0, judged.tables.levels, judged.verdict)]
    passes += [
        (o.name, fine[o.name].raw, fine[o.name].tables.t0, o.levels, o.verdict)
        for o in judged.knee.passes
        if o.name in fine
    ]
    calls = calls_per_request(asked)
    found = []
    for name, raw, t0, levels, verdict in passes:
        for level in verdict.counted(levels):
            why = behind(raw, t0, level, calls)
            if why:
                found.append((level.target_rps, level_words(level, name), why))
    return said_by_rate(found)


def said_by_rate(found: list[tuple[float, str, str]]) -> list[str]:
    """The notes for the levels found behind ((rate, the level in words, why)): one per rate, since fine passes climb
    through the same rates again, naming every level read there and the first one's figures."""
    by_rate: dict[float, list[tuple[str, str]]] = {}
    for rate, words, why in found:
        by_rate.setdefault(rate, []).append((words, why))
    said = []
    for found_at in by_rate.values():
        (words, why), others = found_at[0], [w for w, _ in found_at[1:]]
        again = f"; {_listed(others)}, at the same rate, read the same way" if others else ""
        said.append(
            f"{words} was read healthy, but {why}, inside the health rule's latency limit; the knee may lie at or "
            f"below this rate{again}"
        )
    return said


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
