"""The page's "One request, N calls" (SCENARIO=fanout): per mode, the shape that ran (as the service reported it), the
tail of the slowest of N calls predicted against the measured one at each healthy level, and the calls the
delay-service saw left behind (orphaned: answered after the caller stopped waiting; cancelled by the caller).
A percentile the level's count cannot place is said so, never printed as a figure or counted as agreement."""

from __future__ import annotations

from html import escape

from loadlab.analysis.knee_words import rate_words
from loadlab.summary.verdicts.fanout_record import FanoutLevelRecord, FanoutRecord, TailRecord
from loadlab.summary.verdicts.records import RunSummary

TITLE = "One request, N calls"
UNPLACED = "too few answers to place it"
CUT = "cut at the deadline (its answers are the deadline's, not the calls')"
CAPTION = (
    "Measured: the percentile with its 95% interval from the level's count. Predicted: the slowest of N draws of the "
    "downstream's distribution (its q-quantile is one call's q^(1/N)-quantile) plus the service's own time, read off "
    "the level's median; the median calibrates, p90 and p99 are the checks. Left behind: the calls the delay-service "
    "answered after their request had stopped waiting (orphaned) or saw cancelled, its own count in the level's "
    "seconds."
)


def section(summary: RunSummary) -> str:
    shown = {mode: m.fanout for mode, m in summary.modes.items() if m.fanout is not None}
    if not shown:
        return ""
    parts = [f'<section id="fanout"><h2>{escape(TITLE)}</h2>']
    for mode, record in shown.items():
        parts.append(f'<h3>{escape(mode)}</h3><p class="fanout-shape" data-mode="{escape(mode)}">')
        parts.append(f"{escape(shape_sentence(record))}</p>{table(mode, record)}")
    parts.append(f'<p class="muted">{escape(CAPTION)}</p></section>')
    return "".join(parts)


def shape_sentence(r: FanoutRecord) -> str:
    shape = r.shape_words or "a shape the service did not report"
    words = f"{r.calls} calls per request at once, on {shape}"
    if r.executor_threads:
        words += f" ({r.executor_threads:,.0f} threads)"
    if r.deadline_ms is not None:
        words += (
            f"; a deadline of {r.deadline_ms:,} ms, then {'a partial answer' if r.on_timeout == 'partial' else 'a 504'}"
        )
    words += f". A request waits for {r.request_wait}."
    if r.deadline_ms is not None and r.on_timeout != "partial":
        words += " The tail is not predicted: past the deadline a request is a 504, not a slow answer."
    elif r.tail_checked:
        words += f" The tail agreed with the prediction at {r.tail_agreed} of {r.tail_checked} percentiles judged."
    if r.orphaned_calls is None:
        words += " The calls left behind were not counted (no served log)."
    else:
        words += f" Left behind over the run: {r.orphaned_calls:,} orphaned, {r.cancelled_calls:,} cancelled."
    return words


def table(mode: str, r: FanoutRecord) -> str:
    head = "<tr><th>level</th><th>answered</th><th>p50</th><th>p90 measured / predicted</th>"
    head += "<th>p99 measured / predicted</th><th>orphaned</th><th>cancelled</th></tr>"
    rows = "".join(_row(lv) for lv in r.levels or [])
    return f'<table class="fanout" data-mode="{escape(mode)}">{head}{rows}</table>'


def _row(lv: FanoutLevelRecord) -> str:
    tails = {t.percentile: t for t in lv.tail or []}
    cells = [
        f"{lv.level} ({rate_words(lv.target_rps or 0)} rps)",
        f"{lv.answered:,}" if lv.answered is not None else "",
        _ms(lv.p50_ms) if lv.p50_ms is not None else "",
        tail_cell(tails.get(90.0)),
        tail_cell(tails.get(99.0)),
        "" if lv.orphaned_calls is None else f"{lv.orphaned_calls:,}",
        "" if lv.cancelled_calls is None else f"{lv.cancelled_calls:,}",
    ]
    return "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>"


def tail_cell(t: TailRecord | None) -> str:
    """`612 ms (548–740) / 568–599 ms, agrees`; a percentile the count cannot place is said so."""
    if t is None:
        return ""
    low, high = t.predicted_interval_ms or (None, None)
    predicted = f"{_ms(low)}–{_ms(high)}" if low is not None and high is not None else "not predicted"
    if t.cut_by_deadline:
        return CUT
    if t.measured_ms is None:
        return f"{UNPLACED} / {predicted}"
    lo, hi = t.measured_interval_ms or (t.measured_ms, t.measured_ms)
    verdict = "" if t.agrees is None else (", agrees" if t.agrees else ", disagrees")
    return f"{_ms(t.measured_ms)} ({lo:,.0f}–{hi:,.0f}) / {predicted}{verdict}"


def _ms(ms: float) -> str:
    return f"{ms:,.0f} ms"
