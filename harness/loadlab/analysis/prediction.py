"""A prediction of a mode's knee as a typed record that says how sure it is, and the one rule that judges a measured
knee against it. Every model (models.py) returns a Prediction: the rate, which limit it is (`predicted_by`), the
formula with its numbers, and — the part a reader needs to weigh it — the interval the model's own inputs allow, the
rates those inputs were measured at, and, for a fitted line, how well it fitted. A measured knee agrees when its
bracket (last healthy, first unhealthy rate) meets that interval; there is no fixed tolerance around a point."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# A fit is "rough" — said in words next to its number — when any of these holds:
# its line explains less than this share of the measured variation (R²) ...
ROUGH_R2 = 0.8
# ... it predicts beyond this multiple of the highest rate it was fitted on ...
FAR_BEYOND = 1.5
# ... or its interval is wider than this share of the predicted rate (or has no upper end).
WIDE = 0.5
# ... or its inputs were read at one healthy level only: its interval is that level's, not the run's.
ONE_LEVEL = "from one level only"
# A model whose interval starts above this multiple of the highest rate the run offered bounds nothing the run could
# see (Tomcat's 8,192 connections over a 0.1 s hold: 76,232 rps, where the run offered a few hundred): it is said as
# "no limit below N" (N its low end), never as the mode's prediction, never judged against the knee, never the limit
# met first. Why 10: the span of the default stairs (START_RPS 300 to PEAK_RPS 3,000), the range a run is laid out
# to bracket a knee in. Within one such span above the top a model is still this run's to judge: a knee far below it
# "disagrees", by how much (a wrong hold, a limit in front of the model: news to act on), a fit beyond its rates is
# called rough, a run that never collapsed says "not reached" and the PEAK_RPS to try next. Beyond it, seeing the
# limit takes a whole new set of stairs above this one, where other limits (the cores, the injectors) stand first.
FAR_ABOVE_RUN = 10.0


@dataclass(frozen=True)
class Prediction:
    rps: float
    predicted_by: str  # little | pool | cpu | pinned (models.py); other limits add their own name
    formula: str  # e.g. "pool: 10 connections / 0.203 s (baseline p50) = 49 rps"
    # (lowest, highest) rate the model's own inputs allow; highest None = no upper end. None: a bare point.
    interval: tuple[float, float | None] | None = None
    # (lowest, highest) OK rate of the levels the inputs were measured at (one rate for a baseline).
    fitted_on: tuple[float, float] | None = None
    r2: float | None = None  # a fitted line's R²; None for a formula on measured inputs
    levels: int | None = None  # how many levels a fitted line used; None when it is not a fit
    # how many healthy levels a formula's inputs were read at (models.HoldTime.levels); None when not read at levels
    measured_levels: int | None = None

    @property
    def bounded(self) -> bool:
        """Whether the interval has an upper end: one without (`≥ 413 rps`) agrees with every knee above its low
        end, so it excludes nothing and never counts as agreement."""
        return self.band()[1] is not None

    @property
    def is_fit(self) -> bool:
        return self.levels is not None

    def band(self) -> tuple[float, float | None]:
        """The interval, or the point itself for a model that gives none."""
        return self.interval if self.interval is not None else (self.rps, self.rps)

    def overlaps(self, low: float | None, high: float | None) -> bool:
        """Whether the interval meets [low, high] (a knee's bracket; a missing low side is 0)."""
        lo, hi = self.band()
        return lo <= (high if high is not None else float("inf")) and (hi is None or hi >= (low or 0.0))

    def rough_reasons(self) -> list[str]:
        reasons = []
        if self.is_fit:
            if self.r2 is not None and self.r2 < ROUGH_R2:
                reasons.append(f"R² {self.r2:.2f}")
            if self.interval is None:
                reasons.append(f"{self.levels} levels leave no scatter to judge the line by")
            if self.fitted_on and self.fitted_on[1] and self.rps > FAR_BEYOND * self.fitted_on[1]:
                reasons.append(f"{self.rps / self.fitted_on[1]:.1f}× beyond the highest rate fitted")
        if self.measured_levels == 1:
            reasons.append(ONE_LEVEL)
        if self.interval is None and not self.is_fit and self.measured_levels:
            reasons.append("its inputs show no spread to give an interval")
        lo, hi = self.band()
        if hi is None:
            reasons.append("no upper end")
        elif self.rps and (hi - lo) > WIDE * self.rps:
            reasons.append(f"its interval spans {(hi - lo) / self.rps:.0%} of it")
        return reasons

    def quality(self) -> str | None:
        """The plain word shown next to the number when the prediction is rough, else None:
        `rough: fitted on 20–200 rps, R² 0.56, 3.6× beyond the highest rate fitted`."""
        reasons = self.rough_reasons()
        if not reasons:
            return None
        facts = []
        if self.fitted_on:
            lo, hi = self.fitted_on
            facts.append(
                f"fitted on {range_text(lo, hi)} rps" if self.is_fit else f"measured at {interval_text(lo, hi)}"
            )
        if self.is_fit and self.r2 is not None and f"R² {self.r2:.2f}" not in reasons:
            facts.append(f"R² {self.r2:.2f}")
        return "rough: " + ", ".join(facts + reasons)

    def as_dict(self) -> dict[str, object]:
        return {
            "predicted_by": self.predicted_by,
            "rps": round(self.rps),
            "interval_rps": interval_list(self.interval),
            "fitted_on_rps": range_list(self.fitted_on),
            "r2": None if self.r2 is None else round(self.r2, 3),
            "levels": self.levels,
            "measured_levels": self.measured_levels,
            "quality": self.quality(),
            "formula": self.formula,
        }


def resolution_floor(healthy: float | None, ok_ratio: float) -> float | None:
    """The lowest rate a knee whose last healthy level is `healthy` may lie at: a healthy level delivers at least
    ok_ratio of its rate (the health rule's resolution). None without a healthy level."""
    return healthy * ok_ratio if healthy else None


def met_by_knee(p: Prediction, healthy: float | None, unhealthy: float, ok_ratio: float) -> bool:
    """Whether a knee bracketed by (healthy, unhealthy) meets the prediction's interval, within the health rule's
    resolution: the one test behind "agrees" and "the limit met first"."""
    return p.overlaps(resolution_floor(healthy, ok_ratio), unhealthy)


@dataclass(frozen=True)
class MeasuredKnee:
    """What the run measured, as the agreement rule needs it."""

    collapsed: bool
    bracket: tuple[float | None, float] | None = None  # (last healthy, first unhealthy) when it collapsed
    peak: float | None = None  # the highest rate it held, when it never collapsed
    # Evidence, in words, that the knee itself moved between passes (a pass found unhealthy a rate an earlier pass
    # measured healthy): near such a knee a prediction cannot be told wrong by a few percent.
    fuzzy: str | None = None
    # The health rule's OK ratio: a level is healthy when it delivers at least this share of what it was offered, so
    # the last healthy level's rate overstates what the service sustains by up to 1 / ok_ratio, and the knee's low
    # end is known only to that factor.
    ok_ratio: float = 1.0


@dataclass(frozen=True)
class Agreement:
    agrees: bool | None  # summary.json's prediction_agrees: None when the run cannot tell
    verdict: str  # agrees | disagrees | contradicted | fuzzy | not reached | not placed | no model
    words: str  # summary.json's prediction_check


AGREES, DISAGREES, CONTRADICTED, FUZZY, NOT_REACHED, NOT_PLACED, NO_MODEL, UNBOUNDED, BEYOND = (
    "agrees",
    "disagrees",
    "contradicted",
    "fuzzy",
    "not reached",
    "not placed",
    "no model",
    "no upper end",
    "beyond the run",
)


def beyond_run(p: Prediction, top_offered: float | None) -> bool:
    """Whether the model's interval starts above FAR_ABOVE_RUN × the highest rate the run offered."""
    return top_offered is not None and top_offered != 0 and p.band()[0] > FAR_ABOVE_RUN * top_offered


def lowest(found: list[Prediction], top_offered: float | None = None) -> Prediction | None:
    """The mode's prediction: the lowest limit within the run's reach (beyond_run), one with an upper end first (a
    limit with none, `≥ 413 rps`, excludes no knee); None when no model is within reach."""
    within = [p for p in found if not beyond_run(p, top_offered)]
    bounded = [p for p in within if p.bounded] or within
    return min(bounded, key=lambda p: p.rps) if bounded else None


# How every sentence names a model's limit (limit_met_first, "no limit below", the terminal and the page): one name
# per model, and no two alike — Tomcat's pool (Little's law) and the host's thread limit both count threads, and a
# reader seeing "threads" with one figure as the knee's limit and another beyond the run took them for one model.
LIMIT_NAMES = {
    "little": "threads (Tomcat's pool, Little's law)",
    "threads": "OS threads (the host's thread limit)",
    "memory": "memory (the service's memory bound)",
    "cpu": "CPU (utilization law)",
    "pool": "the database pool",
    "pinned": "pinned carriers",
    "connections": "Tomcat's max-connections",
    "limit": "the concurrency limit (VIRTUAL_LIMIT)",
    "client_pool": "the HTTP client's connection pool",
    "executor": "the fan-out's executor (FANOUT_POOL)",
    "measured_pool": "a pool the wait profile measured (its size and hold time read at its site)",
}


def limit_name(predicted_by: str | None) -> str:
    """A model's name in words (LIMIT_NAMES), its id where none is given."""
    return LIMIT_NAMES.get(predicted_by or "", predicted_by or "a model")


def no_limit_text(p: Prediction) -> str:
    """`Tomcat's max-connections: no limit below 76,232 rps`: a model beyond the run, said as what it shows."""
    return f"{limit_name(p.predicted_by)}: no limit below {rate_text(p.band()[0])} rps"


def beyond(found: list[Prediction], top_offered: float) -> Agreement:
    """The verdict of a mode whose every model lies beyond the run: not judged, with each model's floor."""
    floors = "; ".join(no_limit_text(p) for p in sorted(found, key=lambda p: p.band()[0]))
    return Agreement(
        None,
        BEYOND,
        f"no model limits this mode within the run ({floors}): each starts above {FAR_ABOVE_RUN:g}× the highest "
        f"rate it offered, {rate_text(top_offered)} rps, so it bounds nothing the run could see",
    )


# What the rates a mode held (it never collapsed) say of each model within the run (summary.json's
# `predictions[].run_verdict`): only a limit above the highest rate held is still ahead. A figure below a rate the run
# held healthy is no limit ahead: the run held past it, and when it held above the whole interval (beyond the health
# rule's resolution, as `agreement` says `contradicted`) the run refuted it.
AHEAD, HELD_PAST, REFUTED = "ahead", "held past its figure", "refuted by the run"


def held_verdict(p: Prediction, peak: float, ok_ratio: float) -> str:
    """AHEAD, HELD_PAST or REFUTED for a model of a mode that held `peak` healthy without collapsing. A healthy level
    delivers at least ok_ratio of its rate, so holding `peak` refutes an interval only below peak x ok_ratio."""
    high = p.band()[1]
    if high is not None and peak * ok_ratio > high:
        return REFUTED
    return HELD_PAST if p.rps < peak else AHEAD


def agreement(p: Prediction | None, knee: MeasuredKnee) -> Agreement:
    """Whether the measured knee agrees with the prediction's interval, in one of a few plain verdicts. How rough
    the prediction is (Prediction.quality) is shown beside it, not repeated here."""
    if p is None:
        return Agreement(None, NO_MODEL, "no model limits this mode")
    lo, hi = p.band()
    predicted = f"the predicted {interval_text(lo, hi)}"
    if not knee.collapsed:
        peak = knee.peak
        if peak is None:
            return Agreement(
                None, NOT_PLACED, f"no level it held can be trusted, which tells nothing about {predicted}"
            )
        # A healthy level delivers at least ok_ratio of its rate: holding `peak` proves only peak x ok_ratio.
        held = peak * knee.ok_ratio
        if held_verdict(p, peak, knee.ok_ratio) == REFUTED:
            return Agreement(
                False,
                CONTRADICTED,
                f"this run held {rate_text(peak)} rps without collapsing, above the whole of {predicted}",
            )
        if hi is not None and peak > hi:
            return Agreement(
                None,
                NOT_REACHED,
                f"it never collapsed up to {rate_text(peak)} rps, above {predicted} but within the health rule's "
                f"resolution: a healthy level delivers at least {knee.ok_ratio:.0%} of its rate, so it may have "
                f"served only {rate_text(held)} rps",
            )
        return Agreement(
            None, NOT_REACHED, f"it never collapsed up to {rate_text(peak)} rps: its knee was not reached ({predicted})"
        )
    k_lo, k_hi = knee.bracket or (None, 0.0)
    if not k_lo and lo <= k_hi:
        # The first level was already unhealthy: the knee is somewhere below it, which any lower interval meets.
        return Agreement(
            None,
            NOT_PLACED,
            f"the first level, {rate_text(k_hi)} rps, was already unhealthy: the knee lies somewhere below it, "
            f"which tells nothing about {predicted}",
        )
    measured = f"the knee {range_text(k_lo or 0.0, k_hi)} rps"
    fuzzy = f"; the knee itself is fuzzy here: {knee.fuzzy}" if knee.fuzzy else ""
    if hi is None and lo <= k_hi:
        return Agreement(
            None,
            UNBOUNDED,
            f"{measured} is above the low end of {predicted}, but a prediction with no upper end excludes no knee "
            "above it, so it neither agrees nor disagrees",
        )
    if p.overlaps(k_lo, k_hi):
        return Agreement(True, AGREES, f"{measured} meets {predicted}{fuzzy}")
    if k_lo and met_by_knee(p, k_lo, k_hi, knee.ok_ratio):
        floor = resolution_floor(k_lo, knee.ok_ratio) or 0.0
        return Agreement(
            True,
            AGREES,
            f"{measured} meets {predicted} within the health rule's resolution: a healthy level delivers at least "
            f"{knee.ok_ratio:.0%} of its rate, so the knee may lie down to {rate_text(floor)} rps{fuzzy}",
        )
    if knee.fuzzy:
        return Agreement(None, FUZZY, f"{measured} is outside {predicted}, but the knee itself is fuzzy: {knee.fuzzy}")
    if k_hi < lo:
        where = f"{(lo - k_hi) / lo:.0%} below"
    else:
        assert k_lo is not None and hi is not None  # no healthy level, or no upper end: said above
        where = f"{(k_lo - hi) / hi:.0%} above"
    return Agreement(False, DISAGREES, f"{measured} is {where} {predicted}")


def interval_text(lo: float, hi: float | None) -> str:
    """`2,100–2,370 rps`, `≥ 400 rps` (no upper end), `990 rps` (a point)."""
    if hi is None:
        return f"≥ {rate_text(lo)} rps"
    if rate_text(lo) == rate_text(hi):
        return f"{rate_text(lo)} rps"
    return f"{range_text(lo, hi)} rps"


def range_text(lo: float, hi: float) -> str:
    return f"{rate_text(lo)}–{rate_text(hi)}"


def rate_text(x: float) -> str:
    """Rates as a reader compares them: whole rps from 100 up, three significant digits below (pinned: 9.95)."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def interval_list(pair: tuple[float, float | None] | None) -> list[float | None] | None:
    if pair is None:
        return None
    return [None if v is None else _plain(v) for v in pair]


def range_list(pair: tuple[float, float] | None) -> list[float] | None:
    """A range with both ends known (the rates a line was fitted on) as interval_list writes it."""
    return None if pair is None else [_plain(v) for v in pair]


def _plain(v: float) -> float:
    return round(v) if abs(v) >= 100 else round(v, 2)


def figure(rps: float, interval: Sequence[float | None] | None) -> str:
    """A predicted rate as far as its interval carries it: the point when the interval is bounded on both sides,
    `≥ 2,358` (the low end only) when it has no upper end, words when it reaches 0 rps (the data allows the limit at
    no load at all)."""
    lo, hi = (interval[0], interval[1]) if interval else (None, rps)
    if lo is not None and lo <= 0:
        return "no figure (its interval reaches 0 rps)"
    if lo is not None and hi is None:
        return f"≥ {rate_text(lo)}"
    return rate_text(rps)


def carried(interval: Sequence[float | None] | None) -> bool:
    """Whether a point of this interval may be printed (figure() gives the point)."""
    return not interval or (interval[0] is not None and interval[0] > 0 and interval[1] is not None)
