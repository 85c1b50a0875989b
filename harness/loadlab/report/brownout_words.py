"""PROFILE=brownout in words: each mode's figures through the brownout beside what the models predict, as rows of a
table (figure, then a cell per mode) that the page (brownout_section.py) and the console (run/console.py) both show."""

from __future__ import annotations

from collections.abc import Mapping

from loadlab.summary.schema.brownout_record import BrownoutRecord
from loadlab.summary.verdicts.records import ModeRecord


def _n(x: float | None, unit: str = "", digits: int = 0) -> str:
    if x is None:
        return "-"
    return f"{x:,.{digits}f}{unit}"


def _predicted(record: BrownoutRecord, name: str, unit: str, digits: int = 0) -> str:
    p = (record.predicted or {}).get(name)
    if not p:
        return ""
    low, high = p.interval or [None, None]
    if p.value is None:
        return f" · predicted: none ({p.formula}: the pool cannot drain at this rate)"
    span = "" if low is None or low == high else f" ({_n(low, '', digits)}–{_n(high, '', digits)}{unit})"
    return f" · predicted {_n(p.value, '', digits)}{unit}{span}"


ROWS = (
    ("goodput during the brownout", lambda b: _n(b.goodput_rps, " rps", 1) + _predicted(b, "goodput_rps", " rps")),
    (
        "errors or timeouts from its start on",
        lambda b: _n(None if b.error_share is None else 100 * b.error_share, "%", 2),
    ),
    ("peak requests in flight", lambda b: _n(b.peak_inflight) + _predicted(b, "inflight_peak", "")),
    ("peak in the service's handlers", lambda b: _n(b.peak_service_inflight)),
    ("peak heap used / RSS", lambda b: f"{_n(b.peak_heap_mb, ' MB')} / {_n(b.peak_rss_mb, ' MB')}"),
    ("peak live JVM threads", lambda b: _n(b.peak_threads)),
    ("time to recover", lambda b: b.recovery + _predicted(b, "recovery_s", " s", 1)),
)


def records(modes: Mapping[str, ModeRecord]) -> dict[str, BrownoutRecord]:
    return {label: m.brownout for label, m in modes.items() if m.brownout is not None}


def rows(modes: Mapping[str, ModeRecord]) -> list[list[str]]:
    """[figure, a cell per mode]: the header row first; [] for a run without a brownout."""
    found = records(modes)
    if not found:
        return []
    table = [["", *found]]
    table += [[name, *(cell(b) for b in found.values())] for name, cell in ROWS]
    return table


def headline(modes: Mapping[str, ModeRecord]) -> str:
    """The brownout as one sentence: its delay, length and rate."""
    first = next(iter(records(modes).values()), None)
    if first is None:
        return ""
    start, end = first.window_s
    return (
        f"Brownout: {first.rate_rps:g} rps held, the downstream at {first.brownout_ms:,} ms from second {start} to "
        f"{end} of the measured phase."
    )


def notes(modes: Mapping[str, ModeRecord]) -> list[str]:
    """What the models leave out, and every instrument that failed (named, never the mode's failure)."""
    out = []
    for label, b in records(modes).items():
        out += [f"{label}: {p}" for p in b.instrument_problems]
    first = next(iter(records(modes).values()), None)
    if first is not None:
        out.append("predictions: " + first.prediction_note)
    return out


def mode_phrase(b: BrownoutRecord) -> str:
    """One mode's clause of the page's first line: what a brownout run judges it on (a brownout holds one rate, so a
    knee, a sustained rate or a prediction of one would say nothing true)."""
    return (
        f"{_n(b.goodput_rps, ' rps', 1)} answered during the brownout of {b.rate_rps:g} offered, "
        f"{_n(b.peak_inflight)} in flight at the most, {b.recovery}"
    )
