"""A rung of the limit ladder judged: the mode measured again with its prescription applied (run/rungs.py), its knee
set beside the knee before and beside what the next limit predicted. Pure: summary/verdicts/ladder_record.py reads the
figures from the two runs' summaries.

- moved as predicted: the new knee meets the next limit's predicted interval (the rung's own prediction, by the same
  models the stairs are judged with);
- moved less: the knee rose, but another limit came first, below that interval: named, it is the next rung;
- moved more: the knee rose past the predicted interval (or the rung held the top of its stairs above it): the next
  limit lies higher than the lab predicted;
- did not move: the knee is where it was: the setting did not take effect, or the site was not the limit.
A rung whose run cannot be trusted (invalid, crashed, no knee measured and no top held) has no verdict: its reason
says why, and the ladder stops there."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.prediction import interval_text, rate_text

MOVED_AS_PREDICTED = "moved as predicted"
MOVED_LESS = "moved less"
MOVED_MORE = "moved more"
DID_NOT_MOVE = "did not move"
NOT_APPLIED = "not applied"
# The verdicts after which the ladder climbs on from the rung's own limit.
CLIMBS_ON = frozenset({MOVED_AS_PREDICTED, MOVED_LESS, MOVED_MORE})


@dataclass(frozen=True)
class Figures:
    """What a rung is judged on, from its run's summary (None where it was not measured)."""

    valid: bool
    why_not_valid: str | None
    sustained_rps: float
    collapsed: bool
    knee: tuple[float, float] | None  # [last healthy, first unhealthy]
    predicted: tuple[float, float | None] | None  # the next limit's predicted interval in the rung's run
    top_rps: float  # the highest rate the rung's stairs offered
    # no trusted level was unhealthy but levels above sustained_rps were set aside (their instrument saturated): the
    # rung held sustained_rps, a lower bound, not the top of its stairs
    bound: str | None = None
    # the rung's own run judged its knee against that prediction (the health rule's resolution included: a healthy
    # level delivers at least its share of the rate); one rule, so the rung never says "moved more" of a knee its
    # own page says agrees
    agrees: bool | None = None


@dataclass(frozen=True)
class Judged:
    verdict: str | None
    words: str


def judge(before: tuple[float, float] | None, held_before: float, rung: Figures) -> Judged:
    """before: the knee the rung lifts (its bracket; None: a bound), held_before: the rate held below it."""
    if not rung.valid:
        return Judged(None, f"the rung's run cannot be trusted ({rung.why_not_valid}): the ladder stops here")
    if rung.collapsed and rung.knee is None:
        return Judged(None, "the rung placed no knee: the ladder stops here")
    was_top = before[1] if before is not None else held_before
    if not rung.collapsed and rung.bound is not None:
        return _bound(rung, was_top)
    now = rung.knee[1] if rung.collapsed and rung.knee is not None else rung.top_rps
    if rung.collapsed and now <= was_top:
        where = interval_text(*rung.knee) if rung.knee else f"{rate_text(rung.sustained_rps)} rps"
        return Judged(
            DID_NOT_MOVE,
            f"the knee stayed at {where} (it was {rate_text(held_before)}–{rate_text(was_top)} rps): the setting did "
            f"not take effect, or the site was not the limit",
        )
    knee_words = (
        f"the knee {interval_text(*rung.knee)}"
        if rung.collapsed and rung.knee is not None
        else f"held the top of its stairs, {rate_text(rung.top_rps)} rps"
    )
    if rung.predicted is None:
        return Judged(MOVED_LESS if rung.collapsed else MOVED_MORE, f"{knee_words}; the lab predicts no next limit")
    lo, hi = rung.predicted
    predicted = f"the next limit's predicted {interval_text(lo, hi)}"
    if not rung.collapsed:
        if hi is not None and rung.top_rps > hi:
            return Judged(MOVED_MORE, f"{knee_words}, above {predicted}")
        return Judged(None, f"{knee_words}, short of {predicted}: its stairs did not reach the prediction")
    assert rung.knee is not None
    k_lo, k_hi = rung.knee
    apart = k_hi < lo or (hi is not None and k_lo > hi)
    if apart and rung.agrees:
        return Judged(MOVED_AS_PREDICTED, f"{knee_words} meets {predicted} within the health rule's resolution")
    if k_hi < lo:
        return Judged(MOVED_LESS, f"{knee_words}, below {predicted}: another limit came first")
    if hi is not None and k_lo > hi:
        return Judged(MOVED_MORE, f"{knee_words}, above {predicted}")
    return Judged(MOVED_AS_PREDICTED, f"{knee_words} meets {predicted}")


def _bound(rung: Figures, was_top: float) -> Judged:
    """A rung that answered with a lower bound: it held sustained_rps on trusted levels, the levels above were set
    aside. Past the predicted interval it moved more; anywhere else the data cannot say where its knee lies."""
    held = f"held {rate_text(rung.sustained_rps)} rps on the levels that can be trusted (a lower bound: {rung.bound})"
    if rung.predicted is not None and rung.predicted[1] is not None and rung.sustained_rps > rung.predicted[1]:
        return Judged(MOVED_MORE, f"{held}, above the next limit's predicted {interval_text(*rung.predicted)}")
    rose = "above" if rung.sustained_rps > was_top else "not above"
    return Judged(
        None,
        f"{held}, {rose} the knee before ({rate_text(was_top)} rps): where its own knee lies the run cannot say; "
        "the ladder stops here",
    )
