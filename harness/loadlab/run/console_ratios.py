"""The console's closing lines about ratios and repetitions: virtual / platform (per JDK, with its interval and a
bound said in words), virtual / reactive, and each mode's median over REPEAT. Built as lines; console.py prints them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from loadlab.analysis import ratio_interval
from loadlab.core.reactive import REACTIVE

if TYPE_CHECKING:
    from loadlab.summary.schema.detail_records import RatioSpreadRecord, RepeatsRecord
    from loadlab.summary.verdicts.records import RunSummary


def repeat_notes(agg: RepeatsRecord | None) -> list[str]:
    lines: list[str] = []
    for mode, s in (agg.modes or {} if agg else {}).items():
        # the table shows the median repetition; a run fails when ANY repetition is invalid (bench.conclude): name it
        for rep in s.repetitions or []:
            if not rep.valid:
                why = "; ".join(rep.invalid_reasons or []) or "not valid"
                lines.append(f"  {mode}: repetition {rep.repetition} INVALID (rep-{rep.repetition}/{mode}): {why}")
        if s.median is None:
            lines.append(f"  {mode}: no valid repetition")
            continue
        # no spread of a median of 0 (no repetition had a healthy level): the range says it
        spread = "" if s.spread_ratio is None else f", spread {s.spread_ratio:.0%}"
        lines.append(
            f"  {mode}: median {fmt(s.median)} rps of {s.repetitions_used} repetitions "
            f"({fmt(s.min)}–{fmt(s.max)}{spread})" + (" — NOISE: above 10% of the median" if s.noise else "")
        )
    return lines


def ratio_lines(summary: RunSummary, agg: RepeatsRecord | None) -> list[str]:
    from loadlab.summary.verdicts import prediction_text

    lines: list[str] = []
    intervals = summary.ratios_intervals or {}
    for jdk, r in (summary.ratios or {}).items():
        if r:
            lines.append(
                f"JDK {jdk}: virtual / platform sustained throughput: {ratio_interval.text(r, intervals.get(jdk))}"
            )
            lines += _rough_line(intervals.get(jdk))
    ratio = summary.virtual_over_platform
    if ratio:
        span = summary.virtual_over_platform_interval
        kind = summary.virtual_over_platform_bound
        extra = ""
        if kind:
            held = summary.modes.get("virtual" if kind == "lower" else summary.virtual_over_platform_basis or "")
            extra += f" ({prediction_text.bound_words(kind, held)})"
        spread = agg.ratio if agg else None
        if agg is not None and spread is not None and spread.median is not None:
            extra += (
                f"; across {agg.n} repetitions {spread.min:.2f}–{spread.max:.2f}× "
                f"(median {spread.median:.2f}×{_bounds_among(spread)})"
            )
        lines.append(f"virtual / platform sustained throughput: {ratio_interval.text(ratio, span, kind)}{extra}")
        lines += _rough_line(span)
    elif len(summary.modes) > 1 and summary.virtual_over_platform_reason:
        lines.append(f"no virtual / platform ratio: {summary.virtual_over_platform_reason}")
    if "virtual_over_reactive" not in summary.absent:  # MODES named reactive
        lines.append(_reactive_ratio_line(summary))
        if summary.virtual_over_reactive:
            lines += _rough_line(summary.virtual_over_reactive_interval)
    return lines


def _bounds_among(spread: RatioSpreadRecord) -> str:
    """`; 2 of them lower bounds`: repetitions whose ratio is a bound, so the spread is not all measures."""
    kinds = list((spread.bounds or {}).values())
    if not kinds:
        return ""
    said = " or ".join(sorted(set(kinds)))
    return f"; {len(kinds)} of them {said} bound{'s' if len(kinds) > 1 else ''}"


def _rough_line(span: Sequence[float | None] | None) -> list[str]:
    words = ratio_interval.rough(span)
    return [f"  {words}"] if words else []


def _reactive_ratio_line(summary: RunSummary) -> str:
    reactive = summary.virtual_over_reactive
    if not reactive:
        return f"no virtual / reactive ratio: {summary.virtual_over_reactive_reason}"
    kind = summary.virtual_over_reactive_bound
    figure = ratio_interval.text(reactive, summary.virtual_over_reactive_interval, kind)
    if not kind:
        return f"virtual / reactive sustained throughput: {figure}"
    from loadlab.summary.verdicts import prediction_text

    held = summary.modes.get("virtual" if kind == "lower" else REACTIVE)
    words = prediction_text.bound_words(kind, held, REACTIVE)
    return f"virtual / reactive sustained throughput: {figure} ({words})"


def fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        value = round(value)
    return f"{value}{unit}"
