"""What a validated set of parameters plans and records: the columns of the comparison (a thread mode on a JDK,
platform once per pool size), the offered rate of each level, and the parameters as params.json shows them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from loadlab.core.modelabel import ModeLabel


@dataclass(frozen=True)
class ModeRun:
    """One column of the comparison: a thread mode on one JDK (a platform mode with its pool size), and the label
    its folder and summary use."""

    label: str
    mode: str
    jdk: int
    threads: int | None = None  # the platform pool's size; None for virtual threads


def mode_runs(modes: list[str], jdks: list[int], sizes: tuple[int, ...] = ()) -> list[ModeRun]:
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


def pool_sizes(recorded: object) -> tuple[int, ...]:
    """PLATFORM_THREADS in the one form every stage holds it, a tuple of sizes, from any form it was kept in:
    params.parse's tuple, params.json/summary.json (a number for one size, a list for a sweep), the JSON of
    checked-params.json (a list), or the text a user typed; () when it says none."""
    if isinstance(recorded, int):
        recorded = [recorded]
    words = recorded if isinstance(recorded, (list, tuple)) else str(recorded if recorded is not None else "").split()
    return tuple(int(w) for w in words if str(w).strip().isdigit())


def single_pool(recorded: object) -> int | None:
    """The one platform pool a run asked for, where one pool is meant; None for a sweep (each platform column has
    its own size: its label's, ModeRun.threads) or when it names none."""
    sizes = pool_sizes(recorded)
    return sizes[0] if len(sizes) == 1 else None


def service_pool(mode_run: ModeRun, sizes: tuple[int, ...]) -> int:
    """The Tomcat pool the service under test starts with: its column's own size; virtual threads ignore Tomcat's
    pool, but the host script and an APP's arguments still take one (the first size)."""
    return mode_run.threads or sizes[0]


def read_back(values: Mapping[str, object]) -> dict[str, object]:
    """checked-params.json's values as params.parse gave them (JSON turned the tuple of pool sizes into a list)."""
    return {**values, "PLATFORM_THREADS": pool_sizes(values.get("PLATFORM_THREADS"))}


def recorded(values: Mapping[str, object]) -> dict[str, object]:
    """The parameters as params.json and summary.json show them: one pool size stays a number
    (`"PLATFORM_THREADS": 200`, the contract), a sweep is the list of its sizes."""
    shown = dict(values)
    sizes = pool_sizes(shown.get("PLATFORM_THREADS"))
    if "PLATFORM_THREADS" in shown and sizes:
        shown["PLATFORM_THREADS"] = sizes[0] if len(sizes) == 1 else list(sizes)
    return shown


def levels(values: Mapping[str, object]) -> list[float]:
    """The offered rates of the measured levels, evenly spaced from START_RPS to PEAK_RPS inclusive."""
    n, start, peak = values["STEPS"], values["START_RPS"], values["PEAK_RPS"]
    if n == 1:
        return [float(start)]
    return [start + (peak - start) * i / (n - 1) for i in range(n)]
