"""One chart: a panel per mode on shared axes, so equal heights mean equal values."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from loadlab.report.charts.chart_style import PANEL_SIZE, STYLE
from loadlab.report.charts.svg import to_svg
from loadlab.summary.verdicts.records import ModeRecord

# More modes than this per row (several JDKs) wrap onto a second row, so each panel stays readable.
MAX_PANELS_PER_ROW = 2


def panels(
    name: str,
    title: str,
    axis_labels: tuple[str, str],
    modes: dict[str, ModeRecord],
    draw: Callable[[Axes, str, ModeRecord], bool],
) -> str:
    """draw(ax, mode, its record) fills one mode's panel and says whether it had anything to draw."""
    with matplotlib.rc_context({**STYLE, "svg.hashsalt": f"loadlab-{name}"}):
        columns = min(max(len(modes), 1), MAX_PANELS_PER_ROW)
        rows = -(-max(len(modes), 1) // columns)
        fig = Figure(figsize=(PANEL_SIZE[0] * columns, PANEL_SIZE[1] * rows))
        # Fixed margins: constrained layout doubles the drawing time and the panels are all alike.
        width, height = fig.get_figwidth(), fig.get_figheight()
        fig.subplots_adjust(
            left=0.75 / width,
            right=1 - 0.1 / width,
            bottom=0.53 / height,
            top=1 - 0.3 / height,
            wspace=0.22,
            hspace=0.55 if rows > 1 else 0.2,
        )
        grid = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
        axes = [ax for row in grid for ax in row]
        for ax in axes[len(modes) :]:
            ax.set_visible(False)  # an odd mode count leaves the last cell of the grid empty
        for ax, (mode, result) in zip(axes, modes.items()):
            ax.set_title(f"{title} — {mode}")
            drawn = draw(ax, mode, result)
            ax.set_xlabel(axis_labels[0])
            ax.set_ylabel(axis_labels[1])
            if drawn:
                # Every chart here rises to the right, so the upper left corner is the free one.
                ax.legend(loc="upper left")
            else:
                ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center", va="center", color="#888888")
        for ax in axes:
            ax.tick_params(labelleft=True, labelbottom=True)  # shared axes, but each panel keeps its own labels
        if axes[0].get_yscale() == "linear":
            # Once every panel is drawn: the shared range then holds every mode's data, from zero.
            axes[0].set_ylim(bottom=0)
        return to_svg(fig, name)
