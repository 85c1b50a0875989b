"""The knee, decided here and only here: a level's health, the knee of one pass, and the bracket every pass of a mode
leaves. The summary and bench's planning of the next fine pass both read a mode's knee from this module; the
simulation's early stop applies the same health rule with the thresholds a run passes it (thresholds.py).

A level is healthy when it keeps up with its offered rate, few of its requests fail and its p99 stays within the
limit built on the baseline p50 (thresholds.Thresholds). A pass's knee is its last healthy level before its first
unhealthy one: they bracket the knee [healthy, unhealthy].

A fine pass (refine.py plans its rates) is judged with the coarse pass's rule and baseline, and its levels count up
to and including its first unhealthy one, which closes the bracket. One unhealthy level is not yet a knee: a GC
pause, another process or the first seconds after a large step up (more threads, a larger young generation) can make
a single level unhealthy. So a knee is CONFIRMED only when its first unhealthy rate was measured unhealthy twice: a
fine pass runs through the bracket's unhealthy rate (or one step beyond it), and finding it unhealthy again confirms
it; a fine level unhealthy below it is a new first unhealthy rate, measured once, that the next pass measures again.
A pass that holds the bracket's unhealthy rate healthy shows the earlier unhealthy level did not reproduce: a
transient, not the knee — the knee is not placed there (the mode's bracket is gone; the highest rate measured
healthy is what it held, and the verdict says the unhealthy level did not reproduce). A fine level unhealthy at or
below a rate already measured healthy contradicts the earlier pass: the service or the machine was not in the state
it measured (a backlog not drained, a slower minute), so that pass proves nothing and the earlier bracket stands.
A knee that did not reproduce is not a knee, and the stairs go on above it: the next pass CLIMBS the coarse stairs on
from the highest rate measured healthy (plan.py); its first unhealthy level, measured once, is a new bracket's top
that the pass after it measures again, and a climb that holds to the stairs' top leaves a mode that never collapsed. A
pass that cannot be trusted (validity.py) or that a dead process ended (summary/judge/crash.py) is kept on the page, not
used.

A pass is judged level by level: a level whose instrument was saturated (set_aside.instrument_saturated) is SET ASIDE,
its health read but the knee placed on the other levels (the baseline: baseline.first_steady, on the trusted ones).
When a pass's only unhealthy levels were set aside no knee is placed: the answer is the highest rate the trusted
levels held, a lower bound (Knee.bound), and the next pass looks between it and the lowest rate set aside unhealthy
(Knee.suspect), judged the same way: its first trusted unhealthy level, measured once, opens a bracket; a pass that
holds the rate set aside leaves a bound, and the next pass climbs the coarse stairs above it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from loadlab.analysis.baseline import Baseline, first_steady
from loadlab.analysis.bracket import Bracket, combine
from loadlab.analysis.gc_bound import counted_with_the_crash
from loadlab.analysis.health import level_health
from loadlab.analysis.knee_words import COARSE, bound_words, first_level_transient, level_words, rate_words
from loadlab.core.thresholds import Thresholds

if TYPE_CHECKING:  # the level model needs hdrh; refine.py (and the preflight) import this module without it
    from loadlab.analysis.levels import Level

# A step up between two levels at least this large (the next rate over the one before) is named when the level after
# it does not reproduce: its first seconds measure the service growing to the new rate (docs/RESULTS.md).
LARGE_STEP = 1.5


@dataclass
class Verdict:
    """One pass judged: each level's health, and its knee."""

    baseline_p50_ms: float | None
    p99_limit_ms: float | None
    health: list[tuple[bool, list[str]]]
    first_unhealthy: int | None  # position in the level list (from 0), not the level number (levels.level_number)
    sustained_rps: float
    sustained_position: int | None
    collapsed: bool
    p99_ms_at_sustained: int | None
    # Levels set aside, by position: the instrument was saturated there (set_aside.instrument_saturated), so the level
    # says nothing about the service. Only levels before the first unhealthy one are listed (none after it is judged).
    set_aside: dict[int, str] = field(default_factory=dict)
    transient_first: int | None = None  # a coarse first level the next, higher one contradicted (judge), by position
    transient_held: int | None = None  # ... and that next level, by position
    baseline: Baseline | None = None  # where the baseline came from (baseline.py); None when the pass was given one

    def counted(self, levels: list[Level]) -> list[Level]:
        """The healthy levels before the first unhealthy one (not one set aside, nor a first level transient)."""
        before = levels if self.first_unhealthy is None else levels[: self.first_unhealthy]
        return [lv for i, lv in enumerate(before) if i not in self.set_aside and i != self.transient_first]

    def trusted(self, levels: list[Level]) -> list[Level]:
        """Every level not set aside."""
        return [lv for i, lv in enumerate(levels) if i not in self.set_aside]


def judge(
    levels: list[Level],
    thresholds: Thresholds,
    baseline_p50_ms: float | None = None,
    set_aside: Mapping[int, str] | None = None,
    first_may_not_reproduce: bool = False,
) -> Verdict:
    """Health of every level, then the knee: the last healthy level before the first unhealthy one.

    baseline_p50_ms: the p50 the p99 limit is built on; by default the first trusted level's that kept up
    (baseline.first_steady). A fine pass near the knee is judged against its coarse pass's baseline (the one rule
    for both passes). set_aside: levels (by position) whose instrument was saturated, with why: their health is
    still read, but the knee is placed on the other levels only.

    first_may_not_reproduce (a coarse pass): an unhealthy first trusted level that the next, higher one held did not
    reproduce (the warm-up's end, not the knee): nothing is measured below it, so the knee is sought above it."""
    aside = dict(set_aside or {})
    kept = [i for i in range(len(levels)) if i not in aside]
    found = first_steady(levels, kept, thresholds) if baseline_p50_ms is None else None
    baseline = found.p50_ms if found else baseline_p50_ms
    limit = thresholds.p99_limit_ms(baseline) if baseline is not None else None
    health = [level_health(level, thresholds, limit, baseline) for level in levels]
    first_unhealthy = next((i for i in kept if not health[i][0]), None)
    transient = held = None
    if first_may_not_reproduce and len(kept) > 1 and first_unhealthy == kept[0]:
        nxt = kept[1]  # the very next trusted level: two unhealthy in a row are a knee below the first level
        if health[nxt][0] and levels[nxt].target_rps > levels[first_unhealthy].target_rps:
            transient, held = first_unhealthy, nxt
            first_unhealthy = next((i for i in kept if i > held and not health[i][0]), None)
    before = [i for i in kept if (first_unhealthy is None or i < first_unhealthy) and i != transient]
    sustained_position = max(before, key=lambda i: levels[i].target_rps) if before else None
    sustained = levels[sustained_position].target_rps if sustained_position is not None else 0.0
    return Verdict(
        baseline,
        limit,
        health,
        first_unhealthy,
        sustained,
        sustained_position,
        collapsed=first_unhealthy is not None,
        p99_ms_at_sustained=levels[sustained_position].p99_ms if sustained_position is not None else None,
        set_aside={i: why for i, why in aside.items() if first_unhealthy is None or i < first_unhealthy},
        transient_first=transient,
        transient_held=held,
        baseline=found,
    )


@dataclass
class PassOutcome:
    """What one fine pass did to the knee."""

    name: str  # its folder under the mode: refine-1, refine-2, …
    levels: list[Level]
    verdict: Verdict
    before: Bracket | None
    after: Bracket | None
    why_not_used: str | None

    @property
    def used(self) -> bool:
        return self.why_not_used is None


@dataclass
class Knee:
    """A mode's knee after its coarse pass and the fine passes so far."""

    sustained_rps: float
    p99_ms_at_sustained: int | None
    baseline_p50_ms: float | None  # the coarse pass's, every fine pass is judged against it
    interval: Bracket | None  # None when the mode never collapsed
    coarse: Bracket | None
    fit_levels: list[Level]  # the healthy levels, coarse and fine, a CPU fit may use
    closing: Level | None  # the unhealthy level that closed the bracket (coarse or fine)
    passes: list[PassOutcome] = field(default_factory=list)
    # A fine pass measured the bracket's unhealthy rate healthy: that level was a transient, the knee is not there.
    # When no earlier unhealthy reading lies above it, no knee is placed at all, and this says why.
    not_reproduced: str | None = None
    transients: list[str] = field(default_factory=list)  # every unhealthy level that did not reproduce, in words
    # every level measured unhealthy (coarse or fine), by rate: what the bracket falls back on
    unhealthy_levels: dict[float, Level] = field(default_factory=dict)
    # why each of them was unhealthy, in the health rule's words: what a transient's sentence quotes (its p99 alone can
    # read healthy when the level fell short on throughput, its slowest requests never answered)
    unhealthy_why: dict[float, list[str]] = field(default_factory=dict)
    climbed: bool = False  # a pass climbed the coarse stairs on above an unhealthy level that did not reproduce
    # No trusted level was unhealthy, but levels above the highest rate held were set aside (their instrument was
    # saturated): the mode's answer is a lower bound, the highest rate held on trusted levels, said here in words.
    bound: str | None = None
    # The lowest rate above that bound whose level was set aside unhealthy: where the next fine pass looks (plan.py).
    suspect: float | None = None

    @property
    def collapsed(self) -> bool:
        return self.interval is not None

    def add_pass(self, name: str, levels: list[Level], verdict: Verdict, distrust: str | None = None) -> PassOutcome:
        """Narrows the bracket with a fine pass judged against the coarse baseline (judge), unless distrust says why
        the pass cannot be used."""
        before = self.interval
        why_not = distrust or (None if levels else "no fine level was measured")
        # A climb whose every level was set aside still says where to look: below its lowest rate set aside unhealthy
        # (a bound and its suspect, as on the coarse stairs), so a machine that cannot drive the stairs' next rate
        # does not end the mode at the rate the transient left it. A pass already looking below a level set aside
        # that is set aside again is not used: the next pass would ask the same question.
        climbing = before is None and self.suspect is None and (self.not_reproduced or self.bound) is not None
        if why_not is None and not verdict.trusted(levels) and not climbing:
            i, why = min(verdict.set_aside.items())
            why_not = (
                f"every level of this pass was set aside, its instrument saturated at each (the first, "
                f"{level_words(levels[i], name)}: {why})"
            )
        if why_not is None and before is None:
            first_bad = levels[verdict.first_unhealthy].target_rps if verdict.first_unhealthy is not None else None
            if self.not_reproduced is None and self.bound is None:
                why_not = "the mode never collapsed: there is no knee to refine"
            elif first_bad is not None and first_bad <= self.sustained_rps:
                why_not = (
                    f"the pass found {first_bad:,.0f} rps unhealthy, which was measured healthy before: the bound "
                    f"was not moved"
                )
            else:
                self._climb(name, levels, verdict)
        elif why_not is None and before is not None:
            judged = [(lv.target_rps, ok) for lv, (ok, _) in zip(levels, verdict.health)]
            after, why_not = combine(before, [pair for i, pair in enumerate(judged) if i not in verdict.set_aside])
            if why_not is None and after is None:
                self._not_reproduced(before, levels, verdict)
            elif why_not is None and after is not None:
                self._narrow(before, after, levels, verdict)
        outcome = PassOutcome(name, levels, verdict, before, self.interval, why_not)
        self.passes.append(outcome)
        return outcome

    def _narrow(self, before: Bracket, after: Bracket, levels: list[Level], verdict: Verdict) -> None:
        counted = verdict.counted(levels)
        self.fit_levels.extend(lv for lv in counted if lv.target_rps < after.unhealthy)
        if after.healthy != before.healthy:
            top = next(lv for lv in counted if lv.target_rps == after.healthy)
            self.sustained_rps, self.p99_ms_at_sustained = top.target_rps, top.p99_ms
        if after.unhealthy != before.unhealthy and verdict.first_unhealthy is not None:
            self._close_on(levels, verdict, verdict.first_unhealthy)
        self.interval = after

    def _close_on(self, levels: list[Level], verdict: Verdict, first_unhealthy: int) -> Level:
        """The pass's first unhealthy level (verdict.first_unhealthy) closes the bracket: kept with why it was
        unhealthy."""
        closing = self.closing = levels[first_unhealthy]
        self.unhealthy_levels.setdefault(closing.target_rps, closing)
        self.unhealthy_why.setdefault(closing.target_rps, verdict.health[first_unhealthy][1])
        return closing

    def _not_reproduced(self, before: Bracket, levels: list[Level], verdict: Verdict) -> None:
        """Every level of the pass was healthy, through the bracket's unhealthy rate: that rate is no knee. The
        bracket falls back on the next rate measured unhealthy above the pass (measured once: the next pass measures
        it again); with none, no knee is placed."""
        kept = verdict.trusted(levels)
        top = max(kept, key=lambda lv: lv.target_rps)
        again = min((lv for lv in kept if lv.target_rps >= before.unhealthy), key=lambda lv: lv.target_rps)
        was, why = self.closing, self.unhealthy_why.get(before.unhealthy)
        earlier = f" ({'; '.join(why)})" if why else f" (p99 {was.p99_ms} ms)" if was and was.p99_ms is not None else ""
        said = (
            f"the level at {before.unhealthy:,.1f} rps was unhealthy{earlier} but healthy when measured again "
            f"({again.target_rps:,.1f} rps, p99 {again.p99_ms} ms): it did not reproduce — a transient, not the knee"
        )
        step = before.unhealthy / before.healthy if before.healthy else 0.0
        if step >= LARGE_STEP:
            said += (
                f"; it came right after a {step:.1f}× step up from {before.healthy:,.1f} rps: a level's first seconds "
                f"after a large step measure the service growing to the new rate (more requests in flight, garbage "
                f"made {step:.1f}× faster, the first collection at that rate), not the rate it sustains"
            )
        self.transients.append(said)
        above = sorted(rate for rate in self.unhealthy_levels if rate > top.target_rps)
        if above:
            self._narrow(before, Bracket(top.target_rps, above[0]), levels, verdict)
            self.closing = self.unhealthy_levels[above[0]]
            return
        self.not_reproduced = (
            f"{said}; the knee, if any, lies above {top.target_rps:,.1f} rps, the highest rate measured healthy"
        )
        self.fit_levels.extend(kept)
        self.sustained_rps, self.p99_ms_at_sustained = top.target_rps, top.p99_ms
        self.interval, self.closing = None, None

    def _climb(self, name: str, levels: list[Level], verdict: Verdict) -> None:
        """A pass above the highest rate held, with no bracket to narrow: the coarse stairs climbed on above an
        unhealthy level that did not reproduce, or a fine pass below a level set aside (a bound). Its first unhealthy
        trusted level, measured once, closes a new bracket from the highest rate held below it (the next pass
        measures it again). With none, levels it set aside above what it held leave a bound again; a fine pass that
        held the rate set aside on trusted levels leaves a bound with nothing suspect below the stairs above it (the
        next pass climbs them); a climb healthy to its top leaves a mode that held every rate it was offered."""
        toward_suspect = self.suspect is not None
        self.climbed = self.climbed or not toward_suspect
        self.not_reproduced, self.bound, self.suspect = None, None, None
        counted = verdict.counted(levels)
        self.fit_levels.extend(counted)
        if counted:
            top = max(counted, key=lambda lv: lv.target_rps)
            self.sustained_rps, self.p99_ms_at_sustained = top.target_rps, top.p99_ms
        if verdict.first_unhealthy is not None:
            closing = self._close_on(levels, verdict, verdict.first_unhealthy)
            self.interval = Bracket(self.sustained_rps, closing.target_rps)
            return
        self.bound, self.suspect = bound_of(levels, verdict, self.sustained_rps, name)
        if self.bound is None and toward_suspect:
            self.bound = (
                f"the rate set aside was held healthy on trusted levels when measured again ({name}): the knee lies "
                f"at or above {rate_words(self.sustained_rps)} rps, the highest rate measured healthy (a lower bound)"
            )


def bound_of(levels: list[Level], verdict: Verdict, held: float, pass_name: str) -> tuple[str | None, float | None]:
    """(the bound in words, the lowest rate set aside unhealthy above it) when no trusted level of the pass was
    unhealthy but some above the highest rate held were set aside; (None, None) otherwise. A level set aside is
    never the service's collapse: the answer is what the trusted levels carry, the highest rate they held."""
    # a level counted with a crash is no bound either: the crash is the mode's verdict (gc_bound.py)
    aside = [(i, why) for i, why in sorted(verdict.set_aside.items()) if not counted_with_the_crash(why)]
    above = [(levels[i], verdict.health[i][0], why) for i, why in aside if levels[i].target_rps > held]
    # nothing trusted held (the mode is invalid: validity.too_few_levels says why), or a knee was placed: no bound
    if verdict.first_unhealthy is not None or not above or not held:
        return None, None
    unhealthy = [level.target_rps for level, healthy, _ in above if not healthy]
    return bound_words(held, above, pass_name), min(unhealthy, default=None)


def coarse_knee(levels: list[Level], verdict: Verdict) -> Knee:
    """The knee the coarse stairs give, before any fine pass."""
    counted = verdict.counted(levels)
    transients = []
    if verdict.transient_first is not None and verdict.transient_held is not None:  # set together
        transients.append(
            first_level_transient(
                levels[verdict.transient_first],
                levels[verdict.transient_held],
                verdict.health[verdict.transient_first][1],
            )
        )
    if verdict.first_unhealthy is None:
        knee = Knee(
            verdict.sustained_rps, verdict.p99_ms_at_sustained, verdict.baseline_p50_ms, None, None, counted, None
        )
        knee.bound, knee.suspect = bound_of(levels, verdict, verdict.sustained_rps, COARSE)
        knee.transients = transients
        return knee
    closing = levels[verdict.first_unhealthy]
    healthy_rate = verdict.sustained_rps if verdict.sustained_position is not None else 0.0
    bracket = Bracket(healthy_rate, closing.target_rps)
    return Knee(
        verdict.sustained_rps,
        verdict.p99_ms_at_sustained,
        verdict.baseline_p50_ms,
        bracket,
        bracket,
        list(counted),
        closing,
        unhealthy_levels={closing.target_rps: closing},
        unhealthy_why={closing.target_rps: verdict.health[verdict.first_unhealthy][1]},
        transients=transients,
    )
