"""The percentiles-over-time chart's data: each mode's passes one after another on one time axis, read from each
pass's percentiles.csv (the summary's exact per-second percentiles) and summary.json's levels."""

from __future__ import annotations

from pathlib import Path

from loadlab.report.charts.marks import brownout_window
from loadlab.report.charts.percentile_charts import Segment, over_time
from loadlab.report.series import read_series
from loadlab.summary.verdicts.records import RunSummary

NAME = "percentiles-over-time"
TITLE = "Percentiles over time"
CAPTION = (
    "Per second of the measured phase, the p50, p90, p99, p99.9 and max of that second's successful responses, "
    "every injector's requests in one exact histogram (never an average of percentiles), both modes on one log "
    "scale; errors per second beneath. Bands are the levels, labelled with their offered rate (red: unhealthy); "
    "fine passes follow the coarse one after a line. Gatling's own chart shows one injector, with estimated "
    "percentiles."
)
GAP_S = 5  # seconds left empty between passes on the time axis


def figure(run_dir: Path, summary: RunSummary, folders: dict[str, str]) -> tuple[str, str, str, str] | None:
    modes = {}
    for mode, result in summary.modes.items():
        folder = run_dir / folders.get(mode, mode)
        # (name, folder, levels, first unhealthy level, stopped early): the coarse pass, then each fine pass
        passes = [("coarse", folder, result.levels or [], result.first_unhealthy_level, bool(result.stop.early))]
        window = brownout_window(result)
        for fine in result.knee.refine.passes or [] if result.knee.refine else []:
            name, unhealthy, stopped = fine.name or "", fine.first_unhealthy_level, bool(fine.stopped_early)
            passes.append((name, folder / name, fine.levels or [], unhealthy, stopped))
        segments, offset = [], 0
        for name, pass_dir, levels, unhealthy, stopped in passes:
            series = read_series(pass_dir / "percentiles.csv")
            seconds = [s for s in series.get("second", []) if s is not None]
            if not seconds:
                continue
            shaded = window if name == "coarse" else None
            segments.append(Segment(name, series, levels, offset, unhealthy, stopped, shaded))
            offset += int(max(seconds)) + 1 + GAP_S
        modes[mode] = segments
    if not modes:
        return None
    return TITLE, NAME, over_time(NAME, modes), CAPTION
