"""The page's cells for a mode's predictions: each number with its interval, how it was fitted, a plain "rough" when
it is fitted poorly or far from the rates measured, and the agreement verdict — words from prediction_text, so the
page says what the terminal says."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from loadlab.analysis.prediction import carried, figure, interval_text, limit_name, range_text, rate_text
from loadlab.report.formats import small as _small
from loadlab.summary.schema.fit_records import PredictionRecord
from loadlab.summary.verdicts import prediction_text
from loadlab.summary.verdicts.records import ModeRecord

# The verdict table's rows this module fills: (label, cell).
AGREEMENT_LABEL = "knee meets the prediction's interval"


def headline_phrase(m: ModeRecord) -> str:
    """` (cpu predicted 2,110, 2,100–2,370 rps; knee agrees)` for the headline; "" without a prediction."""
    if m.predicted.rps is None:
        return ""
    text = f" ({m.predicted.predicted_by or 'model'} predicted {figure(m.predicted.rps, m.predicted.interval_rps)}"
    interval = prediction_text.interval_of(m)
    if interval and carried(m.predicted.interval_rps):
        text += f", {interval}"
    if m.predicted.quality:
        text += ", rough"
    word = {"agrees": "knee agrees", "disagrees": "knee does not agree", "contradicted": "contradicted by the run"}
    verdict = m.predicted.verdict
    if verdict is None:
        verdict = None if m.predicted.agrees is None else "agrees" if m.predicted.agrees else "disagrees"
    other = {"fuzzy": "the knee is fuzzy", "no upper end": "no upper end, so it excludes nothing"}
    extra = (word.get(verdict) or other.get(verdict, "")) if verdict else ""
    return text + (f"; {extra}" if extra else "") + ")"


def predicted_cell(m: ModeRecord) -> str:
    if m.predicted.rps is None:
        beyond = prediction_text.beyond_run(m)  # no prediction: each model beyond the run, said as a floor
        return '<span class="muted">none within the run</span>' + _small("; ".join(beyond)) if beyond else "—"
    interval = prediction_text.interval_of(m)
    return (
        escape(figure(m.predicted.rps, m.predicted.interval_rps))
        + _small(f"interval {interval}{_fit(m.predicted.fitted_on_rps, m.predicted.r2)}" if interval else None)
        + _rough(m.predicted.quality)
    )


def agreement_cell(m: ModeRecord) -> str:
    word = prediction_text.verdict_word(m)  # the terminal's words (summary/verdicts/prediction_text.py)
    cls = {"yes": "yes", "NO": "no", "NO: contradicted": "no"}.get(word, "muted")
    evidence = m.limit.evidence_at_knee if m.predicted.agrees is False else None
    return (
        f'<span class="{cls}">{escape(word)}</span>'
        + _small(m.predicted.check)
        + _small(evidence and f"evidence {evidence}")
    )


def predictions_cell(m: ModeRecord) -> str:
    found = m.predictions or []
    if not found:
        return "—"
    return "<br>".join(_one(p) for p in found)


def ceiling_cell(m: ModeRecord) -> str:
    """The utilization law's bound (every core busy) and the knee read off the same fit, both with intervals."""
    ceiling = m.cpu_ceiling
    if not ceiling or ceiling.rps is None:
        return '<span class="muted">not fitted (fewer than two healthy levels far enough apart)</span>'
    roles = ", ".join(
        f"{r.role} {r.ms_per_request:.3f} ms" + (f" (R² {r.r2:.2f})" if r.r2 is not None else " (fixed load)")
        for r in ceiling.roles or []
    )
    bound = ceiling.interval_rps
    knee = ceiling.knee_rps
    knee_interval = ceiling.knee_interval_rps
    utilization = ceiling.knee_utilization if ceiling.knee_utilization is not None else 0.9
    return (
        f'{escape(figure(ceiling.rps, bound))} <span class="muted">every core busy (the bound)</span>'
        + _small(
            f"interval {words}"
            if (words := prediction_text.interval_words(bound))
            else "no interval: too few levels to judge the line"
        )
        + (
            _small(
                f"knee: {ceiling.knee_read_off} at {utilization:.0%} of the cores "
                f"at {figure(knee, knee_interval)} rps"
                + (
                    f" ({prediction_text.interval_words(knee_interval)})"
                    if carried(knee_interval) and knee_interval
                    else ""
                )
            )
            if knee is not None
            else ""
        )
        + _small(
            f"{ceiling.cores:g} cores on {ceiling.host}; CPU per request from {ceiling.levels} "
            f"healthy levels{_fit(ceiling.fitted_on_rps, ceiling.r2)}: {roles}"
        )
    )


def _one(p: PredictionRecord) -> str:
    interval = p.interval_rps
    if p.beyond_run and interval and interval[0] is not None:
        floor = f"no limit below {rate_text(interval[0])}"
        return escape(floor) + f' <span class="muted">{escape(limit_name(p.predicted_by))}: beyond the run</span>'

    text = escape(figure(p.rps, interval)) if p.rps is not None else "—"
    if interval and interval[0] is not None and carried(interval):
        text += f' <span class="muted">({escape(interval_text(interval[0], interval[1]))})</span>'
    return text + f' <span class="muted">{escape(str(p.predicted_by))}</span>' + _rough(p.quality)


def _fit(fitted_on: Sequence[float] | None, r2: float | None) -> str:
    """`; fitted on 300–2,093 rps, R² 0.94` (a line), `; measured at 300–990 rps` (a formula's inputs, read at
    those healthy levels)."""
    if not fitted_on:
        return ""
    if r2 is None:
        return f"; measured at {interval_text(fitted_on[0], fitted_on[1])}"
    return f"; fitted on {range_text(fitted_on[0], fitted_on[1])} rps, R² {r2:.2f}"


def _rough(quality: str | None) -> str:
    return f'<br><span class="no">{escape(quality)}</span>' if quality else ""
