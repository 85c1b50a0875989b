"""Writes synthetic run folders in the exact layout the bench produces, for tests.

Latencies are encoded with the Python hdrh encoder, whose V2 compressed base64 is the format Java's
HistogramLogWriter writes, and laid out as Java writes its lines (tag, %.3f start, the max column scaled by 1e6).
Each level's latency is a small table of (ms, share) pairs so every percentile is known exactly in advance.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hdrh.histogram import HdrHistogram

from loadlab.core import metrics
from loadlab.core.thresholds import Thresholds
from loadlab.core.upgrade import FORMAT, FORMAT_0_LIMITS

START_EPOCH = 1_763_730_000
# The simulation anchors its schedule at the millisecond injection started, rarely on a whole second.
ANCHOR_MS = 800
# A level's latencies: (ms, share of its answers) pairs.
Latency = tuple[tuple[int, float], ...]
# p50 201, p95 205, p99 230, max 260 for any count that is a multiple of 100.
HEALTHY: Latency = ((201, 0.50), (205, 0.45), (230, 0.04), (260, 0.01))
# p50 201, p95 700, p99 900: the tail of a thread pool that has run out of threads.
SLOW_TAIL: Latency = ((201, 0.50), (700, 0.45), (900, 0.04), (950, 0.01))
WARMUP_MS = 5000  # far from every measured value, so a leak into a level shows at once
KO_MS = 10_000
# What the simulation lists in meta.json as `error_kinds` (gatling/…/ErrorKind.java); test data, in its order.
ERROR_KINDS = [
    "connect_refused",
    "connect_reset",
    "connect_timeout",
    "timeout_injector",
    "status_502",
    "status_503",
    "status_504",
    "status_4xx",
    "status_5xx",
    "other",
]
# ... and as `error_kind_meanings` (in ErrorKind's words there; placeholders here, so a page shows they are passed on).
ERROR_KIND_MEANINGS = {kind: f"what {kind} means, as the simulation says" for kind in ERROR_KINDS}


@dataclass
class LevelSpec:
    target_rps: int
    latency: Latency = HEALTHY
    ok_share: float = 1.0  # ok completions per second / target
    ko_share: float = 0.0
    sent_share: float = 1.0
    thread_cpu: float | None = 60.0  # None: no figure sampled (an empty cell)
    delay_cpu: float | None = 20.0
    injector_cpu: float | None = 30.0
    host_cpu: float | None = 50.0
    downstream_ms: float = 201.0
    probe_ms: float | None = 202.0  # the delay-service's own latency, probed on its host; None = probe failed
    db_active: float | None = None  # HikariCP connections in use (db scenario); None: no pool columns
    db_pending: float | None = None
    gc_ms_per_s: int = 5  # the JVM's GC pause counter's rise per second (jvm.csv gc_pause_ms_total)


@dataclass
class ModeSpec:
    levels: list[LevelSpec]
    injectors: int = 1
    seconds_per_level: int = 3
    warmup_seconds: int = 2
    drain_seconds: int = 1  # measured seconds after the last level, completions only
    cores: int = 2
    omit: set[str] = field(default_factory=set)  # relative paths under the mode folder not to write
    stopped_early: bool = False
    stop_reason: str | None = None
    stop_inflight_cap: dict[str, int] | None = None  # {inflight, max_inflight} when the in-flight cap stopped the load
    # (level position, whole seconds into it): the early stop; the schedule keeps labelling later seconds, but
    # nothing is sent any more and meta.json lists levels only up to the one cut short.
    stop_at: tuple[int, int] | None = None
    pinned: int | None = None
    probe: bool = True  # False: the delay sampler of an older run, without probe columns
    lag_s: int = 0
    ko_ms: int = 0  # how long the failed requests took (0: KO_MS)
    ko_kind: str | None = None  # the kind every failed request is classified as in errors.csv (None: no errors.csv)
    live_config: dict[str, object] | None = None  # what the service reported at start (raw/thread/config.json)
    db_pool_size: int | None = None  # db_pool_max in jvm.csv (with the levels' db_active/db_pending)
    start_epoch: int = START_EPOCH  # a refinement pass starts later, on the same samplers' files
    # THREADLOCAL_KB's counter in jvm.csv: None writes none; 0 builds once per request (virtual threads); N > 0
    # builds once per thread of a pool of N (all of them as soon as N requests have started).
    threadlocal_pool: int | None = None
    warmup_inflight: int = 0  # requests in flight through the warm-up's seconds (a service behind at its end)


def stairs(
    rates: Sequence[int] | None = None,
    slow_from: int | None = None,
    *,
    n: int = 5,
    step: int = 100,
    failing_above: int | None = None,
    **fields: Any,
) -> list[LevelSpec]:
    """LevelSpecs at `rates` (by default n levels: step, 2 x step, ...), healthy unless said: from `slow_from` rps on
    with SLOW_TAIL's latency (a pool out of threads), above `failing_above` rps answering 40% of the rate and failing
    60% (the knee by errors). `l<i>=dict(...)`: LevelSpec fields of the level at position i (over the rest); any other
    keyword: a LevelSpec field of every level, or a function of the level's rate giving it (a CPU line). Any: those
    fields, each of its own type, which LevelSpec takes as given."""
    at = {k: v for k, v in fields.items() if k[0] == "l" and k[1:].isdigit()}
    every = {k: v for k, v in fields.items() if k not in at}
    specs = []
    for i, rate in enumerate(rates if rates is not None else [step * (i + 1) for i in range(n)]):
        spec = {k: v(rate) if callable(v) else v for k, v in every.items()}
        if slow_from is not None and rate >= slow_from:
            spec["latency"] = SLOW_TAIL
        if failing_above is not None and rate > failing_above:
            spec.update(ok_share=0.4, ko_share=0.6)
        specs.append(LevelSpec(rate, **{**spec, **at.get(f"l{i}", {})}))
    return specs


def write_params(
    run_dir: Path,
    modes: Sequence[str] = ("platform", "virtual"),
    completed: Sequence[str] | None = None,
    target: str = "local",
    delay_ms: int = 200,
    platform_threads: int | list[int] = 200,
    mode_problems: dict[str, list[str]] | None = None,
    crashes: dict[str, list[dict[str, object]]] | None = None,
    limits: dict[str, object] | None = None,
    evidence_lost: dict[str, list[dict[str, object]]] | None = None,
    record_format: int = FORMAT,
    **extra_params: object,
) -> None:
    """record_format: params.json's `format`; 0 writes a record as bench did before it had one (no `format`,
    `limits`, SCENARIO or REFINE, unless given)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    current = record_format >= 1
    params: dict[str, object] = {
        "TARGET": target,
        "MODES": list(modes),
        "DELAY_MS": delay_ms,
        "PLATFORM_THREADS": platform_threads,
        "PROFILE": "stairs",
        "START_RPS": 100,
        "PEAK_RPS": 500,
        "STEPS": 5,
        "STEP_SECONDS": 3,
        "WARMUP_SECONDS": 2,
        "INJECTORS": 1,
        **({"SCENARIO": "http", "REFINE": 0} if current else {}),
        **extra_params,
    }
    doc: dict[str, object] = {
        "run_id": run_dir.name,
        "target": target,
        "started_utc": "2026-11-21T13:05:01Z",
        "params": params,
        "thresholds": Thresholds().as_dict(),
        "hosts": {
            "thread": {"address": "127.0.0.1", "description": "this machine"},
            "delay": {"address": "127.0.0.1", "description": "this machine"},
            "injector-0": {"address": "127.0.0.1", "description": "this machine"},
        },
        "machine": "Test CPU @ 2.0GHz, 2 cores, 4 GiB, Debian 12, Temurin 25",
        "modes_completed": list(modes if completed is None else completed),
    }
    if mode_problems:
        doc["mode_problems"] = mode_problems
    if crashes:
        doc["crashes"] = crashes
    if current:
        # The timeouts these synthetic runs were built around (a failed request takes KO_MS, under both).
        doc = {"format": record_format, **doc, "limits": limits or dict(FORMAT_0_LIMITS)}
    elif limits:
        doc["limits"] = limits
    if evidence_lost:
        doc["evidence_lost"] = evidence_lost
    (run_dir / "params.json").write_text(json.dumps(doc, indent=2))


def write_mode(run_dir: Path, mode: str, spec: ModeSpec) -> None:
    mode_dir = run_dir / mode
    measure_start = spec.start_epoch + spec.warmup_seconds
    schedule = _schedule(spec, measure_start)
    for i in range(spec.injectors):
        _write_injector(mode_dir, f"injector-{i}", spec, schedule, measure_start, i)
    _write_thread(mode_dir, spec, schedule)
    _write_samples(mode_dir, "raw/delay/samples.csv", spec, schedule, lambda lv: lv.delay_cpu, probe=spec.probe)
    if spec.pinned is not None:
        _write(mode_dir, spec, "raw/thread/pinned.json", json.dumps({"virtual_thread_pinned_events": spec.pinned}))
    if spec.live_config is not None:
        _write(mode_dir, spec, "raw/thread/config.json", json.dumps(spec.live_config))


def write_fine_pass(run_dir: Path, mode: str, name: str, spec: ModeSpec) -> None:
    """A refinement pass (`refine-1`) of a mode already written: its injectors under `<mode>/<name>/raw/`, its
    Gatling reports under `<mode>/gatling/<name>-injector-<i>/`, and the service samplers' rows for its seconds
    appended to the mode's own files (they ran through every pass). spec.start_epoch must follow the mode's."""
    mode_dir = run_dir / mode
    measure_start = spec.start_epoch + spec.warmup_seconds
    schedule = _schedule(spec, measure_start)
    for i in range(spec.injectors):
        _write_injector(mode_dir, f"injector-{i}", spec, schedule, measure_start, i, pass_name=name)
    _write_thread(mode_dir, spec, schedule, append=True)
    _write_samples(
        mode_dir, "raw/delay/samples.csv", spec, schedule, lambda lv: lv.delay_cpu, probe=spec.probe, append=True
    )


def crash(
    role: str,
    spec: ModeSpec,
    level: int,
    second: int,
    exit: int | None = 137,
    signal: str = "SIGKILL",
    cause: str = "ended by SIGKILL, nothing in its log says why",
    host: str = "local",
) -> dict[str, object]:
    """params.json's record of a role that died `second` whole seconds into the level at position `level`."""
    alive = (spec.start_epoch + spec.warmup_seconds + level * spec.seconds_per_level + second) * 1000 + 500
    return {
        "role": role,
        "host": host,
        "exit": exit,
        "signal": signal,
        "cause": cause,
        "alive_until_epoch_ms": alive,
        "detected_epoch_ms": alive + 1000,
    }


def encode(values: list[tuple[int, int]]) -> str:
    histogram = HdrHistogram(1, 3_600_000, 3)
    for value, count in values:
        histogram.record_value(value, count)
    return str(histogram.encode().decode())  # hdrhistogram is untyped (pyproject.toml)


def java_line(tag: str, second: int, values: list[tuple[int, int]]) -> str:
    top = max(v for v, c in values if c)
    return f"Tag={tag},{second:.3f},1.000,{top / 1e6:.3f},{encode(values)}"


def split(count: int, shares: Latency) -> list[tuple[int, int]]:
    """Counts per value, exact by largest remainder, so the totals always add up."""
    raw = [(value, count * share) for value, share in shares]
    counts = [(value, int(c)) for value, c in raw]
    left = count - sum(c for _, c in counts)
    order = sorted(range(len(raw)), key=lambda i: raw[i][1] - int(raw[i][1]), reverse=True)
    for i in order[:left]:
        counts[i] = (counts[i][0], counts[i][1] + 1)
    return [(v, c) for v, c in counts if c]


# --- internals -----------------------------------------------------------------------------------------------------


# (epoch second, phase, level index, level spec) for every second the simulation writes
Schedule = list[tuple[int, str, int, LevelSpec | None]]


def _schedule(spec: ModeSpec, measure_start: int) -> Schedule:
    """(epoch second, phase, level index, level spec) for every second the simulation writes."""
    rows: Schedule = [(spec.start_epoch + s, "warmup", -1, None) for s in range(spec.warmup_seconds)]
    second = measure_start
    for index, level in enumerate(spec.levels):
        for _ in range(spec.seconds_per_level):
            rows.append((second, "measure", index, level))
            second += 1
    for _ in range(spec.drain_seconds):
        rows.append((second, "measure", -1, None))
        second += 1
    return rows


def _write_injector(
    mode_dir: Path,
    name: str,
    spec: ModeSpec,
    schedule: Schedule,
    measure_start: int,
    i: int,
    pass_name: str | None = None,
) -> None:
    n = spec.injectors
    raw = f"{pass_name}/raw" if pass_name else "raw"
    report = f"{pass_name}-{name}" if pass_name else name
    seconds = ["second,phase,level,target_rps,sent,ok,ko,inflight"]
    errors = ["second,kind,count"]
    log = [
        "#[Histogram log format version 1.3]",
        f"#[StartTime: {spec.start_epoch}.000 (seconds since epoch)]",
        "#[BaseTime: 0.000 (seconds since epoch)]",
        '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
    ]
    last = spec.levels[-1] if spec.levels else None
    stop = None
    if spec.stop_at:
        stop = measure_start + spec.stop_at[0] * spec.seconds_per_level + spec.stop_at[1]
    for position, (second, phase, index, level) in enumerate(schedule):
        if spec.lag_s:
            target, sent, ok, ko, latency = _lagged_second(spec, schedule, position, n)
            seconds.append(f"{second},{phase},{index},{target},{sent},{ok},{ko},0")
            if ok:
                log.append(java_line("ok", second, split(ok, latency)))
            if ko:
                log.append(java_line("ko", second, [(spec.ko_ms or KO_MS, ko)]))
                errors.append(f"{second},{spec.ko_kind},{ko}")
            continue
        if stop is not None and second >= stop:
            seconds.append(f"{second},{phase},{index},{(level.target_rps // n) if level else 0},0,0,0,0")
            continue
        if phase == "warmup":
            target, sent, ok, ko, latency = 10 // n, 10 // n, 10 // n, 0, ((WARMUP_MS, 1.0),)
            log.append(java_line("ok", second, split(ok, latency)))
            seconds.append(f"{second},{phase},{index},{target},{sent},{ok},{ko},{spec.warmup_inflight // n}")
            continue
        if level is None:  # drain: late completions of the last level
            assert last is not None  # the drain's seconds follow a level
            target, sent, ok, ko, latency = 0, 0, 10 // n, 0, last.latency
        else:
            target = level.target_rps // n
            sent = round(target * level.sent_share)
            ok, ko, latency = round(target * level.ok_share), round(target * level.ko_share), level.latency
        seconds.append(f"{second},{phase},{index},{target},{sent},{ok},{ko},{max(0, sent - ok - ko)}")
        if ok:
            log.append(java_line("ok", second, split(ok, latency)))
        if ko:
            log.append(java_line("ko", second, [(spec.ko_ms or KO_MS, ko)]))
            errors.append(f"{second},{spec.ko_kind},{ko}")
    levels: list[dict[str, object]] = [
        {
            "index": k,
            "target_rps": lv.target_rps / n,
            "start_epoch_ms": (measure_start + k * spec.seconds_per_level) * 1000 + ANCHOR_MS,
            "end_epoch_ms": (measure_start + (k + 1) * spec.seconds_per_level) * 1000 + ANCHOR_MS,
            "cut_short": False,
        }
        for k, lv in enumerate(spec.levels)
    ]
    stop_ms = None if stop is None else stop * 1000 + ANCHOR_MS
    if spec.stop_at and stop_ms is not None:  # meta.json lists levels up to the one cut short
        levels = levels[: spec.stop_at[0] + 1]
        levels[-1].update(end_epoch_ms=stop_ms, cut_short=True)
    meta: dict[str, object] = {
        "levels": levels,
        "measure_start_epoch_ms": measure_start * 1000 + ANCHOR_MS,
        "stop_epoch_ms": stop_ms,
        "stopped_early": spec.stopped_early,
        "stop_reason": spec.stop_reason,
        "stop_inflight_cap": spec.stop_inflight_cap,
        "totals": {"sent": 0, "ok": 0, "ko": 0},
    }
    if spec.ko_kind:
        meta["error_kinds"] = ERROR_KINDS
        meta["error_kind_meanings"] = ERROR_KIND_MEANINGS
        _write(mode_dir, spec, f"raw/{name}/errors.csv", "\n".join(errors) + "\n")
    _write(mode_dir, spec, f"{raw}/{name}/seconds.csv", "\n".join(seconds) + "\n")
    _write(mode_dir, spec, f"{raw}/{name}/latency.hlog", "\n".join(log) + "\n")
    _write(mode_dir, spec, f"{raw}/{name}/meta.json", json.dumps(meta))
    _write_samples(mode_dir, f"{raw}/{name}/samples.csv", spec, schedule, lambda lv: lv.injector_cpu)
    _write(mode_dir, spec, f"gatling/{report}/forwardsimulation-20261121130501{i}/index.html", "<html>gatling</html>")


def _lagged_second(spec: ModeSpec, schedule: Schedule, position: int, n: int) -> tuple[int, int, int, int, Latency]:
    """(target, sent, ok, ko, ok latencies) of one second of a run of long requests, per injector. Sends as scheduled;
    each completion is that of a send as many whole seconds earlier as its latency (rounded): the successes lag_s, the
    failures their ko_ms. A warm-up request takes lag_s and 400 ms, a value no level has, so one counted in a level
    shows."""
    _, phase, _, level = schedule[position]
    target = (level.target_rps // n) if level else (10 // n if phase == "warmup" else 0)
    sent = round(target * level.sent_share) if level else target
    ko_lag = round((spec.ko_ms or KO_MS) / 1000)
    source = schedule[position - spec.lag_s] if position >= spec.lag_s else None
    ko_source = schedule[position - ko_lag] if position >= ko_lag else None
    ok = ko = 0
    latency: Latency = ((spec.lag_s * 1000 + 400, 1.0),)
    if source is not None and source[3] is not None:
        ok = round(source[3].target_rps // n * source[3].ok_share)
        latency = source[3].latency
    elif source is not None and source[1] == "warmup":
        ok = 10 // n
    if ko_source is not None and ko_source[3] is not None:
        ko = round(ko_source[3].target_rps // n * ko_source[3].ko_share)
    return target, sent, ok, ko, latency


def _write_samples(
    mode_dir: Path,
    rel: str,
    spec: ModeSpec,
    schedule: Schedule,
    proc: Callable[[LevelSpec], float | None],
    probe: bool = False,
    append: bool = False,
) -> None:
    lines = ["second,proc_cpu_pct,host_cpu_pct,host_cores" + (",probe_ms,probe_failed" if probe else "")]
    for second, _, _, level in schedule:
        level = level or LevelSpec(0)
        line = f"{second},{_pct(proc(level))},{_pct(level.host_cpu)},{spec.cores}"
        if probe:
            line += ",,1" if level.probe_ms is None else f",{level.probe_ms:.1f},0"
        lines.append(line)
    _write(mode_dir, spec, rel, "\n".join(lines) + "\n", append)


def _pct(value: float | None) -> str:
    """A CPU cell: empty when the sampler had no figure for that second."""
    return "" if value is None else f"{value:.1f}"


def _write_thread(mode_dir: Path, spec: ModeSpec, schedule: Schedule, append: bool = False) -> None:
    _write_samples(mode_dir, "raw/thread/samples.csv", spec, schedule, lambda lv: lv.thread_cpu, append=append)
    # jvm.csv as the sampler writes it: every field of metrics.tsv it records, -1 where a value is not made up here.
    names = metrics.names(*metrics.SAMPLED_KINDS)
    lines = ["second," + ",".join(names)]
    calls = gc = requests = 0
    time_ms = 0.0
    for second, _, _, level in schedule:
        level = level or LevelSpec(10)
        rps = level.target_rps
        calls += rps
        time_ms += rps * level.downstream_ms
        gc += level.gc_ms_per_s
        requests += rps
        values = jvm_values(rps, requests, gc, calls, time_ms)
        if spec.db_pool_size:
            values.update(_pool_values(level, spec.db_pool_size))
        if spec.threadlocal_pool is not None:
            values["threadlocal_builds_total"] = min(requests, spec.threadlocal_pool or requests)
        lines.append(f"{second}," + ",".join(str(values.get(name, -1)) for name in names))
    _write(mode_dir, spec, "raw/thread/jvm.csv", "\n".join(lines) + "\n", append)


def jvm_values(rps: int, requests: int, gc: int, calls: int, time_ms: float) -> dict[str, object]:
    """One jvm.csv row's values by field name (test_metrics.py checks each name is in metrics.tsv)."""
    return {
        "jvm_threads_live": 40 + rps // 10,
        "jvm_threads_daemon": 20,
        "jvm_threads_peak": 60 + rps // 10,
        "tomcat_threads_busy": min(200, rps // 5),
        "tomcat_threads_max": 200,
        "inflight_requests": rps // 5,
        "requests_total": requests,
        "heap_used_bytes": 100 * 1024 * 1024,
        "heap_committed_bytes": 256 * 1024 * 1024,
        "gc_pause_ms_total": gc,
        "gc_count_total": gc // 5,
        "process_cpu_seconds": 1.0,
        "downstream_calls_total": calls,
        "downstream_time_ms_total": f"{time_ms:.0f}",
    }


def _pool_values(level: LevelSpec, size: int) -> dict[str, object]:
    active, pending = level.db_active or 0, level.db_pending or 0
    return {
        "db_pool_active": f"{active:g}",
        "db_pool_idle": f"{size - active:g}",
        "db_pool_pending": f"{pending:g}",
        "db_pool_max": size,
    }


def _write(mode_dir: Path, spec: ModeSpec, rel: str, text: str, append: bool = False) -> None:
    """append: add the rows (not the header line) to a file a pass before wrote."""
    if rel in spec.omit:
        return
    path = mode_dir / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if append and path.exists():
        with open(path, "a") as f:
            f.write(text.split("\n", 1)[1])
        return
    path.write_text(text)
