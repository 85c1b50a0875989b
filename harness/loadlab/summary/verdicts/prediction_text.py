"""What a reader sees of a mode's prediction, read from its record (records.ModeRecord): the same words in the
terminal and on the page, so "agrees", "fuzzy" and "rough" mean one thing wherever they are shown."""

from __future__ import annotations

from loadlab.analysis.prediction import carried, figure, interval_text, limit_name, range_text, rate_text
from loadlab.summary.schema.record_fields import Interval
from loadlab.summary.verdicts.records import ModeRecord

# prediction_verdict → (the console's "agrees" column and the page's cell, the start of the sentence that explains it).
VERDICT_WORDS = {
    "agrees": ("yes", "the knee agrees"),
    "disagrees": ("NO", "the knee does NOT agree"),
    "contradicted": ("NO: contradicted", "the prediction is contradicted"),
    "fuzzy": ("fuzzy knee", "not judged, the knee is fuzzy"),
    "not reached": ("not reached", "not judged"),
    "not placed": ("not placed", "not judged"),
    "no model": ("-", "not judged"),
    "no upper end": ("no upper end", "not judged, the prediction excludes nothing"),
    "beyond the run": ("beyond the run", "not judged"),
}


def verdict_word(m: ModeRecord) -> str:
    return _words(m)[0]


def verdict_sentence(m: ModeRecord) -> str:
    """`the knee agrees: the knee 2,100–2,205 rps meets the predicted 2,100–2,370 rps`."""
    return f"{_words(m)[1]}: {m.predicted.check or 'no model limits this mode'}"


def _words(m: ModeRecord) -> tuple[str, str]:
    verdict = m.predicted.verdict
    if verdict in VERDICT_WORDS:
        return VERDICT_WORDS[verdict]
    # A summary written before prediction_verdict existed: its yes/no only.
    agrees = m.predicted.agrees
    return VERDICT_WORDS["no model" if agrees is None else "agrees" if agrees else "disagrees"]


def interval_of(m: ModeRecord) -> str | None:
    """`2,100–2,370 rps` from predicted_interval_rps; None without one."""
    return interval_words(m.predicted.interval_rps)


def interval_words(interval: Interval | None) -> str | None:
    """`2,100–2,370 rps`, `≥ 400 rps` (no upper end); None without an interval or its low end."""
    if not interval or interval[0] is None:
        return None
    return interval_text(interval[0], interval[1])


def predicted(m: ModeRecord) -> str:
    """The prediction in the console's column: `995 (978–995, little)`, `≥ 400 (cpu) rough` (no upper end: the low
    end only); "-" without one."""
    if m.predicted.rps is None:
        return "-"
    inside = [m.predicted.predicted_by] if m.predicted.predicted_by else []
    interval = m.predicted.interval_rps
    if interval and (low := interval[0]) is not None and (high := interval[1]) is not None and carried(interval):
        inside.insert(0, range_text(low, high))
    text = figure(m.predicted.rps, interval) + (f" ({', '.join(inside)})" if inside else "")
    return text + (" rough" if m.predicted.quality else "")


def beyond_run(m: ModeRecord) -> list[str]:
    """`Tomcat's max-connections: no limit below 76,232 rps (…formula…)` for each model far above every rate the run
    offered (summary.json's `beyond_run`): what it shows, never a prediction of the knee."""
    found = [p for p in m.predictions or [] if p.beyond_run]
    return [
        f"{limit_name(p.predicted_by)}: no limit below {rate_text((p.interval_rps or [p.rps])[0] or p.rps or 0)} rps "
        f"({p.formula})"
        for p in found
    ]


def lines(mode: str, m: ModeRecord) -> list[str]:
    """The terminal's lines under the table for one mode's prediction, then each model beyond the run."""
    beyond = [f"{mode}: beyond the run, not a prediction: {text}" for text in beyond_run(m)]
    if not m.predicted.formula:
        return beyond + ([f"{mode}: {verdict_sentence(m)}"] if beyond else [])
    found = [f"{mode}: {m.predicted.formula}"]
    interval = interval_of(m)
    if interval:
        found.append(f"{mode}: predicted {interval}" + _fitted(m))
    if m.predicted.quality:
        found.append(f"{mode}: {m.predicted.quality}")
    found.append(f"{mode}: {verdict_sentence(m)}")
    return found + beyond


def _fitted(m: ModeRecord) -> str:
    """`, measured at 300–990 rps` (a formula on inputs read at those levels), `, fitted on 300–2,093 rps, R² 0.94`."""
    on, r2 = m.predicted.fitted_on_rps, m.predicted.r2
    if not on:
        return ""
    if r2 is None:
        where = f"measured at {interval_text(on[0], on[1])}"
    else:
        where = f"fitted on {range_text(on[0], on[1])} rps"
    return f", {where}" + (f", R² {r2:.2f}" if r2 is not None else "")


def bound_words(kind: str, held_mode: ModeRecord | None = None, divisor: str = "platform") -> str:
    """`a lower bound: virtual held the top of the stairs`: a ratio where one mode never reached its knee
    (summary/verdicts/ratio.bound), in the terminal and on the page; held_mode: that mode's summary, whose unhealthy
    level may instead not have reproduced (its knee lies above the highest rate it measured healthy, short of the top);
    divisor: the mode virtual is divided by (`reactive` for virtual / reactive)."""
    held = "virtual" if kind == "lower" else divisor
    start = f"{'an' if kind == 'upper' else 'a'} {kind} bound: "
    if held_mode and held_mode.knee.bound:
        return start + (
            f"{held}'s knee lies at or above {rate_text(held_mode.sustained_rps or 0)} rps, the highest rate it "
            f"held on levels that can be trusted (the levels above were set aside, their instrument saturated)"
        )
    if held_mode and held_mode.knee.refine and held_mode.knee.refine.not_reproduced:
        return start + (
            f"{held}'s unhealthy level did not reproduce, its knee lies above "
            f"{rate_text(held_mode.sustained_rps or 0)} rps, the highest rate it measured healthy"
        )
    return start + f"{held} held the top of the stairs"
