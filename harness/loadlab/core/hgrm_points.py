"""DELAY_DIST=hgrm:FILE: a recorded latency distribution read from HdrHistogram's percentile text (.hgrm) as the
(quantile, ms) points core/downstream.py draws and figures from (stdlib only: parameters are checked before .venv)."""

from __future__ import annotations

import math
from pathlib import Path

from loadlab.core.errors import DownstreamError

# A recorded distribution reaches the delay-service as one property: at most this many points are kept.
HGRM_MAX_POINTS = 2000


def read(path: Path, allowed: str) -> tuple[tuple[float, float], ...]:
    """The (quantile, ms) points of an HdrHistogram percentile file, from quantile 0 to 1; DownstreamError when
    unreadable or empty. Lines that are not `value percentile count ...` (the header, `#[Mean ...`) are skipped."""
    shown = f"DELAY_DIST='hgrm:{path}'"
    try:
        text = path.read_text(errors="replace")
    except OSError as e:
        raise DownstreamError(f"{shown} cannot be read ({e.strerror or e}); allowed: {allowed}") from None
    points: list[tuple[float, float]] = []
    for line in text.splitlines():
        words = line.split()
        if len(words) < 3 or line.lstrip().startswith("#"):
            continue
        try:
            value, quantile = float(words[0]), float(words[1])
        except ValueError:
            continue
        if not (0 <= quantile <= 1 and value >= 0 and math.isfinite(value)):
            raise DownstreamError(f"{shown} has a line that is not `value percentile count`: {line.strip()!r}")
        if points and (quantile < points[-1][0] or value < points[-1][1]):
            raise DownstreamError(
                f"{shown} does not ascend at {line.strip()!r}; allowed: HdrHistogram's percentile text"
            )
        points.append((quantile, value))
    if len(points) < 2 or points[-1][1] <= 0:
        raise DownstreamError(
            f"{shown} holds no percentile distribution (fewer than two `value percentile count` lines); allowed: "
            "HdrHistogram's percentile text (.hgrm, e.g. a run's <mode>/hgrm/*.hgrm)"
        )
    points[0] = (0.0, points[0][1])
    if points[-1][0] < 1.0:
        points.append((1.0, points[-1][1]))
    return tuple(_thinned(points))


def _thinned(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """At most HGRM_MAX_POINTS, the first and the last kept (a long file's tail is dense in points, not in answers)."""
    if len(points) <= HGRM_MAX_POINTS:
        return points
    step = len(points) / (HGRM_MAX_POINTS - 1)
    return [points[min(round(i * step), len(points) - 1)] for i in range(HGRM_MAX_POINTS - 1)] + [points[-1]]
