"""PROFILE=brownout on the page: what each mode is judged on beside the predictions (brownout_words.py), and one
figure over time with every mode on the same axes and the brownout shaded."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from loadlab.report import brownout_words
from loadlab.report.charts.chart_style import MODE_COLORS, PANEL_SIZE, STYLE
from loadlab.report.charts.marks import brownout, log_y
from loadlab.report.charts.svg import to_svg
from loadlab.report.series import gaps, read_series
from loadlab.summary.verdicts.brownout_figures import SERIES
from loadlab.summary.verdicts.records import RunSummary

NAME = "brownout"
CAPTION = (
    "Per second of the measured phase, every mode on the same axes: the p99 of its OK responses (log), its OK "
    "responses a second against the offered rate, and the requests in flight as the injectors saw them (sent, not yet "
    "answered: a pool's queue included). Shaded: the brownout, as scheduled on the delay-service."
)
PANELS = (("p99_ms", "p99 (ms, log)"), ("ok", "OK responses/s"), ("inflight", "requests in flight"))


def section(run_dir: Path, summary: RunSummary, folders: dict[str, str]) -> str:
    table = brownout_words.rows(summary.modes)
    if not table:
        return ""
    head = "".join(f"<th>{escape(c)}</th>" for c in table[0])
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in table[1:])
    notes = "".join(f"<li>{escape(n)}</li>" for n in brownout_words.notes(summary.modes))
    series = {label: read_series(run_dir / folders.get(label, label) / SERIES) for label in table[0][1:]}
    window = next(iter(brownout_words.records(summary.modes).values())).window_s
    return (
        f'<section id="brownout"><h2>Through the brownout</h2><p>{escape(brownout_words.headline(summary.modes))}</p>'
        f'<table class="brownout"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
        f"<ul>{notes}</ul>"
        f'<figure class="chart" data-chart="{NAME}">{chart(series, window)}'
        f"<figcaption>{escape(CAPTION)}</figcaption></figure></section>"
    )


def chart(series: dict[str, dict[str, list[float | None]]], window: Sequence[float] | None) -> str:
    with matplotlib.rc_context({**STYLE, "svg.hashsalt": f"loadlab-{NAME}"}):
        fig = Figure(figsize=(PANEL_SIZE[0] * 1.6, PANEL_SIZE[1] * 2.2))
        axes = fig.subplots(len(PANELS), 1, sharex=True)
        for ax, (column, label) in zip(axes, PANELS):
            for i, (mode, data) in enumerate(series.items()):
                values = gaps(data.get(column) or [])
                ax.plot(gaps(data.get("second") or []), values, color=MODE_COLORS[i % len(MODE_COLORS)], label=mode)
            brownout(ax, window, label="brownout" if ax is axes[0] else None)
            ax.set_ylabel(label)
        offered = next(iter(series.values()), {})
        axes[1].plot(
            offered.get("second") or [],
            offered.get("offered_rps") or [],
            color="#999999",
            lw=1,
            ls="--",
            label="offered",
        )
        if any(v for data in series.values() for v in data.get("p99_ms") or [] if v):
            log_y(axes[0])
        axes[0].legend(loc="upper right", ncols=4)
        axes[1].legend(loc="upper right")
        axes[-1].set_xlabel("second of the measured phase")
        fig.tight_layout()
        return to_svg(fig, NAME)
