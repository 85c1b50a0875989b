"""A measured level as the analysis reads it (analysis.levels.Level), and stairs of them: healthy and quiet unless a
test says otherwise, every figure known in advance. (A synthetic run's levels, written to files as the bench writes
them, are synthrun.stairs.) And a run's parameters (run_params)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from loadlab.analysis import hlog
from loadlab.analysis.hlog import LatencyStats
from loadlab.analysis.levels import Evidence, Level
from loadlab.core import params
from loadlab.core.run_params import RunParams

# Any below: keyword arguments of a record's own fields (Level's, level()'s, RunParams'), each of its own type, which
# the record's constructor (or dataclasses.replace) checks when the test builds it.

# What the hosts sampled over a quiet level: every role well under its cores, the downstream and its probe on time.
QUIET = dict(
    thread_cpu_pct=60,
    delay_cpu_pct=20,
    delay_cores=2,
    injector_cpu_pct=30,
    injector_cores=2,
    injector_host_cpu_pct=50,
    host_cpu_pct=50,
    downstream_ms_mean=201,
    delay_probe_ms=203,
    delay_probe_failed=0.0,
)


def level(
    index: int,
    target: float,
    p50: int = 201,
    p99: int = 230,
    ok_share: float = 1.0,
    ko_share: float = 0.0,
    sent_share: float = 1.0,
    seconds: int = 10,
    **evidence: float | None,
) -> Level:
    """Level `index` offered `target` rps for `seconds`: shares of it sent, answered and failed, the answers' p50 and
    p99 (p95 = p99, max = p99 + 20 ms); evidence: Evidence fields over QUIET's."""
    ok, ko = round(target * ok_share * seconds), round(target * ko_share * seconds)
    stats = LatencyStats(ok, p50, p99, p99, p99 + 20) if ok else None
    sent = round(target * sent_share * seconds)
    return Level(index, target, seconds, sent, ok, ko, stats, index * seconds, Evidence(**{**QUIET, **evidence}))


def measured(
    index: int, target: float, latencies: Iterable[tuple[int, int]], seconds: int = 10, ko: int = 0, **fields: Any
) -> Level:
    """Level `index` offered `target` rps whose successful answers are `latencies` ([ms, count] pairs), in its merged
    histogram as a run's files give it (so its tail can be judged on its count); fields: Level's others."""
    histogram = hlog.new_histogram()
    for value, count in latencies:
        histogram.record_value(value, count)
    ok = histogram.get_total_count()
    return Level(index, target, seconds, ok + ko, ok, ko, hlog.stats(histogram), histogram=histogram, **fields)


def stairs(*changes: tuple[int, dict[str, Any]], n: int = 6, step: int = 100) -> list[Level]:
    """n healthy levels at step, 2 x step, ...; changes: (position, overrides) pairs, each level()'s keywords for the
    level at that position."""
    overrides = dict(changes)
    return [level(i, step * (i + 1), **overrides.get(i, {})) for i in range(n)]


def run_params(**overrides: Any) -> RunParams:
    """Every parameter at its default but the fields given (lower-case names: delay_ms=100, modes=("virtual",)),
    not checked against one another: a test of one rule sets just what that rule reads."""
    return replace(params.defaults(), **overrides)
