"""Aligning seconds to levels: the per-second tables (timeline.csv, server.csv) and each level's counts, merged
histogram and sampled evidence, from the raw files of every injector and host.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog
from loadlab.analysis.levels import Level, LevelBuilder
from loadlab.core import metrics
from loadlab.summary.reading import send_seconds, settle
from loadlab.summary.reading.gaps import Gap
from loadlab.summary.reading.raw import Injector, Metrics, RawMode
from loadlab.summary.reading.raw_rows import NO_METRICS, NO_SAMPLE, InjectorSecond
from loadlab.summary.reading.values import max_known
from loadlab.summary.writing import server_columns as col

# A sampler that skipped a few seconds still gives a usable per-second rate; a longer gap is a restart.
MAX_COUNTER_GAP_S = 5

# A second of timeline.csv, percentiles.csv or server.csv, or a level's sampled evidence: each column's number or None.
SecondRow = dict[str, float | None]


@dataclass
class Tables:
    timeline: list[SecondRow] = field(default_factory=list)
    percentiles: list[SecondRow] = field(default_factory=list)  # percentiles.csv: hlog.OVER_TIME per second, and max
    server: list[SecondRow] = field(default_factory=list)
    levels: list[Level] = field(default_factory=list)
    requests: int = 0
    errors: int = 0
    t0: int | None = None  # the epoch second the measured phase began
    dropped_levels: list[int] = field(default_factory=list)  # positions of levels a crash cut (begun, not ended)
    targets: dict[int, float] = field(default_factory=dict)  # each level's offered rate, by position
    evidence_gaps: list[Gap] = field(default_factory=list)  # seconds without a sampler's rows (evidence.py)


@dataclass(frozen=True)
class Bound:
    position: int  # meta.json's `index`: counted from 0, as the simulation numbers its levels
    target_rps: float
    start_ms: float
    end_ms: float


def build_tables(raw: RawMode, lag_s: int = 0, cutoff: int | None = None, settle_s: int = 0) -> Tables:
    """The per-second tables and the levels.

    lag_s: whole seconds a healthy request takes (limits.completion_lag_s). With lag_s > 0 each level is judged on
    its steady part, each request counted in the second it was sent in by its own latency (send_seconds.py); a run
    without a schedule in meta.json (older runs) reads a level's completions from its window shifted by lag_s.
    settle_s: the whole seconds after each level's step that are not its own (thresholds.settle_seconds): kept in the
    per-second tables, left out of the level (its requests sent then, and what completed then).
    cutoff: the epoch second from which nothing counts (a role died): levels that had not ended by then are dropped,
    and the requests and errors totals stop there; the per-second tables keep every second, so what happened after
    it stays visible.
    """
    tables = Tables()
    window = _measured_window(raw.injectors)
    if window is None:
        return tables
    t0, t_end = window
    tables.t0 = t0
    bounds = _level_bounds(raw.injectors)
    targets = {b.position: b.target_rps for b in bounds} or _targets_from_seconds(raw.injectors)
    tables.targets = targets
    builders: dict[int, LevelBuilder] = {}
    last_send = max(
        (s for inj in raw.injectors for s, r in inj.seconds.items() if t0 <= s <= t_end and r.sent > 0),
        default=t_end,
    )

    def builder(position: int) -> LevelBuilder:
        if position not in builders:
            builders[position] = LevelBuilder(position, targets.get(position, 0.0))
        return builders[position]

    def rows_at(s: int) -> list[InjectorSecond]:
        return [inj.seconds[s] for inj in raw.injectors if s in inj.seconds]

    whole = [(b.position, _whole_second(b.start_ms), _whole_second(b.end_ms)) for b in bounds]
    settled = settle.settled(whole, settle_s)
    steady = send_seconds.steady(settled, lag_s) if lag_s and bounds else None

    for s in range(t0, t_end + 1):
        rows = rows_at(s)
        sent, ok, ko = sum(r.sent for r in rows), sum(r.ok for r in rows), sum(r.ko for r in rows)
        latency = hlog.merge_payloads(p for inj in raw.injectors for p in inj.ok_payloads.get(s, ()))
        stats = hlog.stats(latency)
        tables.timeline.append(
            {
                "second": s - t0,
                "offered_rps": sent,
                "ok": ok,
                "ko": ko,
                "p50_ms": stats.p50_ms if stats else None,
                "p95_ms": stats.p95_ms if stats else None,
                "p99_ms": stats.p99_ms if stats else None,
                "max_ms": stats.max_ms if stats else None,
            }
        )
        tables.percentiles.append(percentile_row(s - t0, ok, ko, latency))
        server, evidence, downstream = _server_second(raw, s)
        tables.server.append({col.SECOND: s - t0, **server})
        if cutoff is not None and s >= cutoff:
            continue
        tables.requests += ok + ko
        tables.errors += ko

        ko_latency = hlog.merge_payloads(p for inj in raw.injectors for p in inj.ko_payloads.get(s, ()))
        kinds = _kinds_at(raw, s)
        if steady is not None:
            # Requests of a second or more: each level judged on its steady part (send_seconds.py), each request
            # given to the second it was sent in by its own latency.
            steady.add_second(s, s - t0, sent, (ok, ko, latency, ko_latency, kinds), evidence, downstream, builder)
            continue
        sent_level = settle.counts_to(_level_of(s, bounds, rows, draining=s > last_send), s, settled)
        done_level = (
            sent_level
            if lag_s == 0
            else settle.counts_to(
                _level_of(s - lag_s, bounds, rows_at(s - lag_s), draining=s - lag_s > last_send), s - lag_s, settled
            )
        )
        if sent_level is not None and lag_s:
            builder(sent_level).add_sent(sent)
        if done_level is None:
            continue
        level = builder(done_level)
        level.add_second(s - t0, 0 if lag_s else sent, ok, ko, latency, evidence, downstream)
        level.add_ko_latency(ko_latency)
        level.add_error_kinds(kinds)

    warmup_rps = float(sum(r.sent for r in rows_at(t0 - 1)))  # the warm-up's last second (0: none)
    settles = settle.seconds_left_out(whole, settled)
    # The rate offered before each level: the allowance for requests in flight at its end (health.py), or, counted by
    # send second (none are in flight then), the rate its first evidence seconds still complete answers of.
    levels = [
        builders[i].build(
            lag_s,
            targets.get(i - 1) if i > 0 else warmup_rps,
            by_send_second=steady is not None,
            settle_s=settles.get(i, 0),
        )
        for i in sorted(builders)
        if builders[i].seconds
    ]
    if cutoff is not None:
        kept = [lv for lv in levels if _ended_before(lv.position, bounds, lag_s, cutoff, levels)]
        # The levels the crash interrupted: begun by it (a level begins on a whole second, so one whose first second
        # is the cutoff had begun while the role was still seen alive), not ended. Levels never begun are simply not
        # run, nor is a level an early stop cut before its first whole second (meta.json lists it, it has no second).
        begun = {b.position for b in bounds if _began_by(b, cutoff)} | {lv.position for lv in levels}
        tables.dropped_levels = sorted(begun - {lv.position for lv in kept})
        levels = kept
    tables.levels = levels
    return tables


def _kinds_at(raw: RawMode, s: int) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for inj in raw.injectors:
        for kind, count in inj.errors_by_kind.get(s, {}).items():
            kinds[kind] = kinds.get(kind, 0) + count
    return kinds


def _began_by(bound: Bound, cutoff: int) -> bool:
    start = _whole_second(bound.start_ms)
    return start <= cutoff and start < _whole_second(bound.end_ms)


def percentile_column(percentile: float) -> str:
    """percentiles.csv's name for a percentile: p50_ms, p99_9_ms."""
    return f"p{percentile:g}_ms".replace(".", "_")


PERCENTILE_COLUMNS = ["second", "ok", "ko", *(percentile_column(p) for p in hlog.OVER_TIME), "max_ms"]


def percentile_row(second: int, ok: int, ko: int, latency: HdrHistogram) -> SecondRow:
    """One second of percentiles.csv: the exact percentiles of that second's merged histogram (blank without one)."""
    values = hlog.percentiles(latency, hlog.OVER_TIME) or {}
    return {
        "second": second,
        "ok": ok,
        "ko": ko,
        **{percentile_column(p): v for p, v in values.items()},
        "max_ms": int(latency.get_max_value()) if values else None,
    }


def _ended_before(position: int, bounds: list[Bound], lag_s: int, cutoff: int, levels: list[Level]) -> bool:
    """Whether every second of a level (its completions included) came before the cutoff second."""
    bound = next((b for b in bounds if b.position == position), None)
    if bound is not None:
        return _whole_second(bound.end_ms) + lag_s <= cutoff
    # Without a schedule, a level has ended when a later one began before the cutoff.
    return any(lv.position > position for lv in levels)


def _measured_window(injectors: list[Injector]) -> tuple[int, int] | None:
    starts = [m for m in (inj.meta.measure_start_epoch_ms for inj in injectors) if m is not None]
    measured = [s for inj in injectors for s, r in inj.seconds.items() if r.measured]
    # The simulation labels epoch second S with the schedule second S - floor(start); flooring here keeps its
    # seconds.csv labels and these tables in step, whatever the millisecond the injection started at.
    t0 = math.floor(min(starts) / 1000) if starts else (min(measured) if measured else None)
    if t0 is None:
        return None
    ends = [s for s in measured if s >= t0]
    if not ends:
        return None
    return t0, max(ends)


def _level_bounds(injectors: list[Injector]) -> list[Bound]:
    merged: dict[int, list[float]] = {}
    for inj in injectors:
        for level in inj.meta.levels:
            entry = merged.setdefault(level.index, [0.0, math.inf, -math.inf])
            entry[0] += level.target_rps
            entry[1] = min(entry[1], level.start_epoch_ms)
            entry[2] = max(entry[2], level.end_epoch_ms if level.end_epoch_ms is not None else math.inf)
    # Each injector's share is total / n as a double; rounding gives back the total the user asked for.
    return [Bound(i, round(t, 3), s, e) for i, (t, s, e) in sorted(merged.items())]


def _targets_from_seconds(injectors: list[Injector]) -> dict[int, float]:
    targets: dict[int, float] = {}
    for inj in injectors:
        mine: dict[int, float] = {}
        for r in inj.seconds.values():
            level = r.level
            if level is not None and level >= 0:
                mine[level] = max(mine.get(level, 0.0), r.target_rps or 0.0)
        for level, rps in mine.items():
            targets[level] = targets.get(level, 0.0) + rps
    return {level: round(rps, 3) for level, rps in targets.items()}


def _level_of(second: int, bounds: list[Bound], rows: list[InjectorSecond], draining: bool) -> int | None:
    """The level of meta.json's schedule that holds this second; the seconds.csv column only without a schedule.

    Bounds are floored to whole seconds as the simulation does for its own labels, so both agree. The schedule also
    drops levels never reached and ends a level cut short by an early stop at the stop. Seconds after the last level
    (requests still completing) belong to no level, so they cannot dilute its rates; without a schedule they are
    recognised as the seconds after the last one that sent anything.
    """
    if bounds:
        return next((b.position for b in bounds if _whole_second(b.start_ms) <= second < _whole_second(b.end_ms)), None)
    if draining:
        return None
    given = [r.level for r in rows if r.measured]
    levels = [lv for lv in given if lv is not None and lv >= 0]
    return max(levels) if levels else None


def _whole_second(epoch_ms: float) -> float:
    return epoch_ms if math.isinf(epoch_ms) else math.floor(epoch_ms / 1000)


def _server_second(raw: RawMode, s: int) -> tuple[SecondRow, SecondRow, tuple[float, float] | None]:
    thread = raw.thread_samples.get(s, NO_SAMPLE)
    delay = raw.delay_samples.get(s, NO_SAMPLE)
    jvm = raw.jvm.get(s, NO_METRICS)
    injector = [inj.samples[s] for inj in raw.injectors if s in inj.samples]
    busiest = max(injector, key=lambda r: r.cpu_per_core(), default=NO_SAMPLE)

    gc_elapsed = _counter_delta(raw.jvm, s, metrics.GC_PAUSE_MS_TOTAL)
    calls = _counter_delta(raw.jvm, s, metrics.DOWNSTREAM_CALLS_TOTAL)
    time_ms = _counter_delta(raw.jvm, s, metrics.DOWNSTREAM_TIME_MS_TOTAL)
    downstream = None
    if calls and time_ms and calls[1] == time_ms[1]:
        downstream = (calls[0], time_ms[0])
    heap = jvm.metric(metrics.HEAP_USED_BYTES)

    host_cpus = [r.host_cpu_pct for r in [thread, delay, *injector]]
    injector_host = max_known(r.host_cpu_pct for r in injector)
    server: SecondRow = {
        col.THREAD_CPU_PCT: thread.proc_cpu_pct,
        **{name: jvm.metric(name) for name in col.copied_gauges()},
        **{name + col.RATE_SUFFIX: _rate(raw.jvm, s, name) for name in col.rated_counters()},
        col.HEAP_USED_MB: None if heap is None else heap / (1024 * 1024),
        col.GC_PAUSE_MS: gc_elapsed and gc_elapsed[0] / gc_elapsed[1],
        col.DOWNSTREAM_MS_MEAN: downstream[1] / downstream[0] if downstream and downstream[0] > 0 else None,
        col.DELAY_CPU_PCT: delay.proc_cpu_pct,
        col.INJECTOR_CPU_PCT: max_known(r.proc_cpu_pct for r in injector),
        col.THREAD_HOST_CPU_PCT: thread.host_cpu_pct,
        col.DELAY_HOST_CPU_PCT: delay.host_cpu_pct,
        col.INJECTOR_HOST_CPU_PCT: injector_host,
        col.DELAY_PROBE_MS: delay.probe_ms,
    }
    probe_failed = delay.probe_failed
    evidence: SecondRow = {
        "thread_cpu_pct": server[col.THREAD_CPU_PCT],
        "delay_cpu_pct": server[col.DELAY_CPU_PCT],
        "delay_cores": delay.host_cores,
        "injector_cpu_pct": busiest.proc_cpu_pct,
        "injector_cores": busiest.host_cores,
        "injector_host_cpu_pct": injector_host,
        "host_cpu_pct": max_known(host_cpus),
        "delay_probe_ms": server[col.DELAY_PROBE_MS],
        "delay_probe_failed": None if probe_failed is None else float(probe_failed > 0),
        # What the other roles' processes spent, for the cpu model's share of the machine (models.cpu).
        "other_roles_cpu_pct": _sum_known([delay.proc_cpu_pct, *(r.proc_cpu_pct for r in injector)]),
        metrics.DB_POOL_ACTIVE: server[metrics.DB_POOL_ACTIVE],
        metrics.DB_POOL_PENDING: server[metrics.DB_POOL_PENDING],
    }
    return server, evidence, downstream


def _rate(rows: Metrics, s: int, column: str) -> float | None:
    delta = _counter_delta(rows, s, column)
    return delta[0] / delta[1] if delta else None


def _sum_known(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _counter_delta(rows: Metrics, s: int, column: str) -> tuple[float, int] | None:
    """(increase, seconds elapsed) of a cumulative counter since its previous reading; None across a restart."""
    now = rows.get(s, NO_METRICS).metric(column)
    if now is None:
        return None
    for back in range(1, MAX_COUNTER_GAP_S + 1):
        before = rows.get(s - back, NO_METRICS).metric(column)
        if before is not None:
            return (now - before, back) if now >= before else None
    return None
