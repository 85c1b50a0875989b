"""What a validated set of parameters plans: the columns of the comparison (a thread mode on a JDK, platform once per
pool size) and the offered rate of each level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from loadlab.core.modelabel import ModeLabel


@dataclass(frozen=True)
class ModeRun:
    """One column of the comparison: a thread mode on one JDK (a platform mode with its pool size), and the label
    its folder and summary use."""

    label: str
    mode: str
    jdk: int
    threads: int | None = None  # the platform pool's size; None for virtual threads


def mode_runs(modes: Sequence[str], jdks: Sequence[int], sizes: Sequence[int] = ()) -> list[ModeRun]:
    """Every mode on every JDK, JDK by JDK in the order given, so one JDK's columns stand together; platform once
    per pool size in `sizes` (PLATFORM_THREADS), in its order, one column each when there are several. The label
    (modelabel.py) names the JDK only when there are several, the pool size only in a sweep."""
    several = len(jdks) > 1
    runs = []
    for jdk in jdks:
        for mode in modes:
            if mode == "platform" and len(sizes) > 1:
                runs += [ModeRun(str(ModeLabel(mode, jdk if several else None, n)), mode, jdk, n) for n in sizes]
            else:
                threads = sizes[0] if mode == "platform" and sizes else None
                runs.append(ModeRun(str(ModeLabel(mode, jdk if several else None)), mode, jdk, threads))
    return runs


def service_pool(mode_run: ModeRun, sizes: tuple[int, ...]) -> int:
    """The Tomcat pool the service under test starts with: its column's own size; virtual threads ignore Tomcat's
    pool, but the host script and an APP's arguments still take one (the first size)."""
    return mode_run.threads or sizes[0]


class Stairs(Protocol):
    """The coarse stairs' parameters, as RunParams and the record taken from it (core/stairs.Stairs) hold them."""

    @property
    def start_rps(self) -> int: ...

    @property
    def peak_rps(self) -> int: ...

    @property
    def steps(self) -> int: ...


def levels(values: Stairs) -> list[float]:
    """The offered rates of the measured levels, evenly spaced from START_RPS to PEAK_RPS inclusive."""
    n, start, peak = values.steps, values.start_rps, values.peak_rps
    if n == 1:
        return [float(start)]
    return [start + (peak - start) * i / (n - 1) for i in range(n)]
