"""HdrHistogram's percentile distribution text (`.hgrm`), written as Java's `outputPercentileDistribution` writes it
and read back: the files HdrHistogram's plotter and HistogramLogAnalyzer load, and the one source of a level's
whole latency spectrum for the page and `make compare`.

The Python `hdrh` package's percentile iterator steps differently from Java's (0.19, 0.271, … instead of 0.1, 0.2,
…) and its footer differs, so Java's iteration and lines are reproduced here; tests/data/hgrm/java.hgrm, written by
the Java library, holds the two equal byte for byte.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy
from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog

# Java's default: percentile ticks double their density every halving of the distance to 100%.
TICKS_PER_HALF_DISTANCE = 5


def distribution_text(histogram: HdrHistogram) -> str:
    """The percentile distribution of a histogram in milliseconds (scaling ratio 1), byte for byte as Java writes it."""
    digits = histogram.significant_figures
    lines = [f"{'Value':>12} {'Percentile':>14} {'TotalCount':>10} {'1/(1-Percentile)':>14}\n\n"]
    if histogram.get_total_count():
        for value_ms, level, count in percentile_steps(histogram):
            value = f"{_java_f(value_ms, digits):>12} {_java_f(level / 100, 12):>2} {count:10d}"
            lines.append(f"{value} {_java_f(1 / (1 - level / 100), 2):>14}\n" if level != 100 else f"{value}\n")
    mean = hlog.mean(histogram)
    stddev = _stddev(histogram, mean)
    lines.append(f"#[Mean    = {_java_f(mean, digits):>12}, StdDeviation   = {_java_f(stddev, digits):>12}]\n")
    lines.append(
        f"#[Max     = {_java_f(histogram.get_max_value(), digits):>12}, "
        f"Total count    = {histogram.get_total_count():12d}]\n"
    )
    lines.append(f"#[Buckets = {histogram.bucket_count:12d}, SubBuckets     = {histogram.sub_bucket_count:12d}]\n")
    return "".join(lines)


def percentile_steps(histogram: HdrHistogram) -> Iterator[tuple[int, float, int]]:
    """(value, percentile level, count up to it) as Java's PercentileIterator steps: ticks of equal size within each
    half of the distance to 100%, each reported at the highest value of the first bucket that reaches it, then one
    last step at 100%. Empty buckets never reach a level, so only the non-empty ones are walked."""
    total = histogram.get_total_count()
    counts = numpy.ctypeslib.as_array(histogram.counts)[: histogram.counts_len]
    level, cumulative = 0.0, 0
    for i in numpy.nonzero(counts)[0]:
        cumulative += int(counts[i])
        value = histogram.get_highest_equivalent_value(histogram.get_value_from_index(int(i)))
        while (100.0 * cumulative) / total >= level:
            yield value, level, cumulative
            ticks = TICKS_PER_HALF_DISTANCE * int(2.0 ** (int(math.log(100.0 / (100.0 - level)) / math.log(2)) + 1))
            level += 100.0 / ticks
            if cumulative >= total:
                yield value, 100.0, cumulative
                return


def _java_f(number: float, digits: int) -> str:
    """Java's `%.Nf`: the shortest decimal that reads back as the double, rounded half up (Python's `%f` rounds the
    binary value half to even: 0.9997802734375 is ...437 here and ...438 in Java)."""
    exact = Decimal(repr(float(number)))
    return f"{exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP):f}"


def _stddev(histogram: HdrHistogram, mean: float) -> float:
    """HdrHistogram's standard deviation (each value at the middle of its bucket), over the non-empty buckets only."""
    total = histogram.get_total_count()
    if not total:
        return 0.0
    counts = numpy.ctypeslib.as_array(histogram.counts)[: histogram.counts_len]
    squares = 0.0
    for i in numpy.nonzero(counts)[0]:
        value = histogram._hdr_median_equiv_value(histogram.get_value_from_index(int(i)))
        squares += int(counts[i]) * (value - mean) ** 2
    return math.sqrt(squares / total)


@dataclass(frozen=True)
class Point:
    value_ms: float
    percentile: float  # 0..100
    total_count: int


@dataclass(frozen=True)
class Distribution:
    """A `.hgrm` read back: its rows (the curve HdrHistogram's plotter draws: a row is the highest value of the first
    bucket reaching its tick, so a percentile between ticks is not exact here: exact ones come from the histogram,
    hlog.percentiles), and the footer's figures."""

    points: tuple[Point, ...]
    mean_ms: float | None
    max_ms: float | None
    total_count: int


def parse(text: str) -> Distribution:
    """Reads a `.hgrm` (Java's or ours); ValueError when it is not one."""
    points = []
    mean = maximum = None
    total = 0
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("Value"):
            continue
        if line.startswith("#[Mean"):
            mean = float(line.split("=")[1].split(",")[0])
        elif line.startswith("#[Max"):
            maximum = float(line.split("=")[1].split(",")[0])
            total = int(line.split("=")[2].strip(" ]"))
        elif not line.startswith("#"):
            fields = line.split()
            if len(fields) not in (3, 4):
                raise ValueError(f"not a percentile distribution line: {line!r}")
            points.append(Point(float(fields[0]), float(fields[1]) * 100, int(fields[2])))
    if not points and not total and mean is None:
        raise ValueError("no percentile distribution found")
    return Distribution(tuple(points), mean, maximum, total or (points[-1].total_count if points else 0))


def read(path: Path) -> Distribution:
    return parse(path.read_text(encoding="utf-8"))
