"""Turns a run folder's raw files into timeline.csv, server.csv, summary.json and index.html.

`rebuild` is the one code path for both `make bench` (after each mode and at the end) and `make report`, so a
report rebuilt later is byte-for-byte what the bench wrote. A half-finished folder (Ctrl-C, a crashed host, an older
layout) is normal input: whatever is absent is listed under `missing`, never raised.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import analysis, hlog

TIMELINE_COLUMNS = ["second", "offered_rps", "ok", "ko", "p50_ms", "p95_ms", "p99_ms", "max_ms"]
SERVER_COLUMNS = ["second", "thread_cpu_pct", "jvm_threads_live", "virtual_threads_mounted",
                  "virtual_threads_queued", "tomcat_threads_busy", "inflight_requests", "heap_used_mb",
                  "gc_pause_ms", "downstream_ms_mean", "delay_cpu_pct", "injector_cpu_pct", "thread_host_cpu_pct",
                  "delay_host_cpu_pct", "injector_host_cpu_pct", "delay_probe_ms"]
KNOWN_MODES = ("platform", "virtual")
# A sampler that skipped a few seconds still gives a usable per-second rate; a longer gap is a restart.
MAX_COUNTER_GAP_S = 5
_JVM_GAUGES = ["jvm_threads_live", "virtual_threads_mounted", "virtual_threads_queued", "tomcat_threads_busy",
               "inflight_requests"]


def rebuild(run_dir: str | os.PathLike) -> dict:
    """Writes every derived file of a run folder and returns the summary (the shape of summary.json)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir} is not a run folder")
    run = _read_json(run_dir / "params.json")
    params = run.get("params") if isinstance(run.get("params"), dict) else {}
    thresholds = analysis.Thresholds.from_mapping(run.get("thresholds"))
    target = run.get("target") or params.get("TARGET")
    run_missing = [] if run else ["params.json"]

    wanted = _modes_wanted(params)
    present = [m for m in _ordered_modes(run_dir, wanted) if _has_load_data(run_dir / m)]
    modes = {}
    for mode in present:
        modes[mode] = _rebuild_mode(run_dir, mode, run, params, thresholds, target)

    summary = {
        "run_id": run.get("run_id") or run_dir.name,
        "target": target,
        "params": params,
        "modes": modes,
        "virtual_over_platform": _ratio(modes.get("virtual"), modes.get("platform")),
        "thresholds": thresholds.as_dict(),
        "machine": run.get("machine"),
        "hosts": run.get("hosts") if isinstance(run.get("hosts"), dict) else {},
        "missing_modes": [m for m in wanted if m not in modes],
        "missing": run_missing,
        "problems": _problems(run),
    }
    if run.get("test_fault"):
        summary["test_fault"] = str(run["test_fault"])
    _write_text(run_dir / "summary.json", json.dumps(summary, indent=2) + "\n")
    _render_page(run_dir, summary)
    return summary


def _rebuild_mode(run_dir: Path, mode: str, run: dict, params: dict, thresholds: analysis.Thresholds,
                  target: str | None) -> dict:
    try:
        raw = _load_mode(run_dir / mode)
        table = _build_tables(raw)
        _write_csv(run_dir / mode / "timeline.csv", TIMELINE_COLUMNS, table.timeline)
        _write_csv(run_dir / mode / "server.csv", SERVER_COLUMNS, table.server)
        return _mode_summary(mode, raw, table, run, params, thresholds, target)
    except Exception as e:  # noqa: BLE001 - one bad mode must not cost the other mode its report
        traceback.print_exc(file=sys.stderr)
        return _failed_mode(f"the analysis of this mode failed: {type(e).__name__}: {e}")


# --- Reading the raw files -----------------------------------------------------------------------------------------

@dataclass
class _Injector:
    name: str
    seconds: dict[int, dict]
    meta: dict
    ok_payloads: dict[int, list[str]]
    samples: dict[int, dict]


@dataclass
class _RawMode:
    injectors: list[_Injector]
    thread_samples: dict[int, dict]
    jvm: dict[int, dict]
    delay_samples: dict[int, dict]
    pinned: int | None
    missing: list[str] = field(default_factory=list)


def _load_mode(mode_dir: Path) -> _RawMode:
    missing: list[str] = []
    raw_dir = mode_dir / "raw"

    def rows(path: Path) -> dict[int, dict]:
        found = _read_rows(path)
        if found is None:
            missing.append(str(path.relative_to(mode_dir.parent)))
        return found or {}

    injectors = []
    for inj_dir in sorted(raw_dir.glob("injector-*"), key=_natural):
        seconds = rows(inj_dir / "seconds.csv")
        meta = _read_json(inj_dir / "meta.json")
        if not meta:
            missing.append(str((inj_dir / "meta.json").relative_to(mode_dir.parent)))
        payloads: dict[int, list[str]] = {}
        log_path = inj_dir / "latency.hlog"
        if log_path.is_file():
            log = hlog.read_log(log_path)
            for interval in log.intervals:
                # Untagged lines predate the ok/ko split; they held successful requests only.
                if interval.tag in ("ok", None):
                    payloads.setdefault(interval.second, []).append(interval.payload)
            if log.malformed_lines:
                missing.append(f"{log_path.relative_to(mode_dir.parent)}: {log.malformed_lines} unreadable "
                               f"line{'s' if log.malformed_lines > 1 else ''} skipped")
        else:
            missing.append(str(log_path.relative_to(mode_dir.parent)))
        injectors.append(_Injector(inj_dir.name, seconds, meta, payloads, rows(inj_dir / "samples.csv")))
    if not injectors:
        missing.append(f"{mode_dir.name}/raw/injector-*")
    for inj in injectors:
        if not list((mode_dir / "gatling" / inj.name).glob("*/index.html")):
            missing.append(f"{mode_dir.name}/gatling/{inj.name}/…/index.html (Gatling's report)")

    delay_samples = rows(raw_dir / "delay" / "samples.csv")
    if delay_samples and not any("probe_ms" in r for r in delay_samples.values()):
        missing.append(f"{mode_dir.name}/raw/delay/samples.csv has no probe_ms (an older run): the delay-service's "
                       "own latency was not measured, so it was not judged")
    pinned_path = raw_dir / "thread" / "pinned.json"
    pinned = _read_json(pinned_path).get("virtual_thread_pinned_events")
    return _RawMode(
        injectors=injectors,
        thread_samples=rows(raw_dir / "thread" / "samples.csv"),
        jvm=rows(raw_dir / "thread" / "jvm.csv"),
        delay_samples=delay_samples,
        pinned=int(pinned) if isinstance(pinned, (int, float)) and not isinstance(pinned, bool) else None,
        missing=missing,
    )


def _has_load_data(mode_dir: Path) -> bool:
    return any(p.is_file() for p in (mode_dir / "raw").glob("injector-*/seconds.csv"))


# --- Per-second tables and levels ----------------------------------------------------------------------------------

@dataclass
class _Tables:
    timeline: list[dict] = field(default_factory=list)
    server: list[dict] = field(default_factory=list)
    levels: list[analysis.Level] = field(default_factory=list)
    requests: int = 0
    errors: int = 0


@dataclass(frozen=True)
class _Bound:
    index: int
    target_rps: float
    start_ms: float
    end_ms: float


def _build_tables(raw: _RawMode) -> _Tables:
    tables = _Tables()
    window = _measured_window(raw.injectors)
    if window is None:
        return tables
    t0, t_end = window
    bounds = _level_bounds(raw.injectors)
    targets = {b.index: b.target_rps for b in bounds} or _targets_from_seconds(raw.injectors)
    builders: dict[int, analysis.LevelBuilder] = {}
    last_send = max((s for inj in raw.injectors for s, r in inj.seconds.items()
                     if t0 <= s <= t_end and _int(r.get("sent")) > 0), default=t_end)

    for s in range(t0, t_end + 1):
        rows = [inj.seconds[s] for inj in raw.injectors if s in inj.seconds]
        sent, ok, ko = (sum(_int(r.get(col)) for r in rows) for col in ("sent", "ok", "ko"))
        latency = hlog.merge_payloads(p for inj in raw.injectors for p in inj.ok_payloads.get(s, ()))
        stats = hlog.stats(latency)
        tables.timeline.append({
            "second": s - t0, "offered_rps": sent, "ok": ok, "ko": ko,
            "p50_ms": stats and stats.p50_ms, "p95_ms": stats and stats.p95_ms,
            "p99_ms": stats and stats.p99_ms, "max_ms": stats and stats.max_ms,
        })
        server, evidence, downstream = _server_second(raw, s)
        tables.server.append({"second": s - t0, **server})
        tables.requests += ok + ko
        tables.errors += ko

        level = _level_of(s, bounds, rows, draining=s > last_send)
        if level is None:
            continue
        if level not in builders:
            builders[level] = analysis.LevelBuilder(level, targets.get(level, 0.0))
        builders[level].add_second(s - t0, sent, ok, ko, latency, evidence, downstream)

    tables.levels = [builders[i].build() for i in sorted(builders) if builders[i].seconds]
    return tables


def _measured_window(injectors: list[_Injector]) -> tuple[int, int] | None:
    starts = [m for m in (_float(inj.meta.get("measure_start_epoch_ms")) for inj in injectors) if m is not None]
    measured = [s for inj in injectors for s, r in inj.seconds.items() if r.get("phase") == "measure"]
    # The simulation labels epoch second S with the schedule second S - floor(start); flooring here keeps its
    # seconds.csv labels and these tables in step, whatever the millisecond the injection started at.
    t0 = math.floor(min(starts) / 1000) if starts else (min(measured) if measured else None)
    if t0 is None:
        return None
    ends = [s for s in measured if s >= t0]
    if not ends:
        return None
    return t0, max(ends)


def _level_bounds(injectors: list[_Injector]) -> list[_Bound]:
    merged: dict[int, list[float]] = {}
    for inj in injectors:
        for level in inj.meta.get("levels") or []:
            if not isinstance(level, dict) or _int_or_none(level.get("index")) is None:
                continue
            start = _float(level.get("start_epoch_ms"))
            if start is None:
                continue
            end = _float(level.get("end_epoch_ms"))
            entry = merged.setdefault(int(level["index"]), [0.0, math.inf, -math.inf])
            entry[0] += _float(level.get("target_rps")) or 0.0
            entry[1] = min(entry[1], start)
            entry[2] = max(entry[2], end if end is not None else math.inf)
    # Each injector's share is total / n as a double; rounding gives back the total the user asked for.
    return [_Bound(i, round(t, 3), s, e) for i, (t, s, e) in sorted(merged.items())]


def _targets_from_seconds(injectors: list[_Injector]) -> dict[int, float]:
    targets: dict[int, float] = {}
    for inj in injectors:
        mine: dict[int, float] = {}
        for r in inj.seconds.values():
            level = _int_or_none(r.get("level"))
            if level is not None and level >= 0:
                mine[level] = max(mine.get(level, 0.0), _float(r.get("target_rps")) or 0.0)
        for level, rps in mine.items():
            targets[level] = targets.get(level, 0.0) + rps
    return {level: round(rps, 3) for level, rps in targets.items()}


def _level_of(second: int, bounds: list[_Bound], rows: list[dict], draining: bool) -> int | None:
    """The level of meta.json's schedule that holds this second; the seconds.csv column only without a schedule.

    Bounds are floored to whole seconds as the simulation does for its own labels, so both agree. The schedule also
    drops levels never reached and ends a level cut short by an early stop at the stop. Seconds after the last level
    (requests still completing) belong to no level, so they cannot dilute its rates; without a schedule they are
    recognised as the seconds after the last one that sent anything.
    """
    if bounds:
        return next((b.index for b in bounds if _whole_second(b.start_ms) <= second < _whole_second(b.end_ms)), None)
    if draining:
        return None
    levels = [_int_or_none(r.get("level")) for r in rows if r.get("phase") == "measure"]
    levels = [lv for lv in levels if lv is not None and lv >= 0]
    return max(levels) if levels else None


def _whole_second(epoch_ms: float) -> float:
    return epoch_ms if math.isinf(epoch_ms) else math.floor(epoch_ms / 1000)


def _server_second(raw: _RawMode, s: int) -> tuple[dict, dict, tuple[float, float] | None]:
    thread = raw.thread_samples.get(s, {})
    delay = raw.delay_samples.get(s, {})
    jvm = raw.jvm.get(s, {})
    injector = [inj.samples[s] for inj in raw.injectors if s in inj.samples]
    busiest = max(injector, key=lambda r: _ratio_of(r, "proc_cpu_pct", "host_cores"), default={})

    gc_elapsed = _counter_delta(raw.jvm, s, "gc_pause_ms_total")
    calls = _counter_delta(raw.jvm, s, "downstream_calls_total")
    time_ms = _counter_delta(raw.jvm, s, "downstream_time_ms_total")
    downstream = None
    if calls and time_ms and calls[1] == time_ms[1]:
        downstream = (calls[0], time_ms[0])
    heap = _float(jvm.get("heap_used_bytes"))

    host_cpus = [_float(r.get("host_cpu_pct")) for r in [thread, delay, *injector]]
    injector_host = _max(_float(r.get("host_cpu_pct")) for r in injector)
    server = {
        "thread_cpu_pct": _float(thread.get("proc_cpu_pct")),
        **{name: _float(jvm.get(name)) for name in _JVM_GAUGES},
        "heap_used_mb": None if heap is None else heap / (1024 * 1024),
        "gc_pause_ms": gc_elapsed and gc_elapsed[0] / gc_elapsed[1],
        "downstream_ms_mean": downstream[1] / downstream[0] if downstream and downstream[0] > 0 else None,
        "delay_cpu_pct": _float(delay.get("proc_cpu_pct")),
        "injector_cpu_pct": _max(_float(r.get("proc_cpu_pct")) for r in injector),
        "thread_host_cpu_pct": _float(thread.get("host_cpu_pct")),
        "delay_host_cpu_pct": _float(delay.get("host_cpu_pct")),
        "injector_host_cpu_pct": injector_host,
        "delay_probe_ms": _float(delay.get("probe_ms")),
    }
    probe_failed = _float(delay.get("probe_failed"))
    evidence = {
        "thread_cpu_pct": server["thread_cpu_pct"],
        "delay_cpu_pct": server["delay_cpu_pct"],
        "delay_cores": _float(delay.get("host_cores")),
        "injector_cpu_pct": _float(busiest.get("proc_cpu_pct")),
        "injector_cores": _float(busiest.get("host_cores")),
        "injector_host_cpu_pct": injector_host,
        "host_cpu_pct": _max(host_cpus),
        "delay_probe_ms": server["delay_probe_ms"],
        "delay_probe_failed": None if probe_failed is None else float(probe_failed > 0),
    }
    return server, evidence, downstream


def _counter_delta(rows: dict[int, dict], s: int, column: str) -> tuple[float, int] | None:
    """(increase, seconds elapsed) of a cumulative counter since its previous reading; None across a restart."""
    now = _float(rows.get(s, {}).get(column))
    if now is None:
        return None
    for back in range(1, MAX_COUNTER_GAP_S + 1):
        before = _float(rows.get(s - back, {}).get(column))
        if before is not None:
            return (now - before, back) if now >= before else None
    return None


# --- The mode's verdict --------------------------------------------------------------------------------------------

def _mode_summary(mode: str, raw: _RawMode, tables: _Tables, run: dict, params: dict,
                  thresholds: analysis.Thresholds, target: str | None) -> dict:
    levels = tables.levels
    verdict = analysis.judge(levels, thresholds)
    ctx = analysis.ValidityContext(delay_ms=_float(params.get("DELAY_MS")),
                                   shared_machine=analysis.shares_one_machine(target))
    reasons = analysis.validity(levels, verdict, ctx)
    notes = analysis.notes(levels, verdict, ctx)
    missing = list(raw.missing)
    completed = run.get("modes_completed")
    if isinstance(completed, list) and mode not in completed:
        reasons.append("this mode did not finish (the run was interrupted or failed)")
        missing.append(f"{mode}: the run of this mode did not finish")
    if not tables.timeline:
        missing.append(f"{mode}: no measured phase in seconds.csv")
    predicted = analysis.predicted_rps(mode, _float(params.get("PLATFORM_THREADS")), verdict.baseline_p50_ms)
    stops = [inj.meta for inj in raw.injectors]
    stop_reasons = sorted({str(m["stop_reason"]) for m in stops if m.get("stop_reason")})
    first_bad = levels[verdict.first_unhealthy].index if verdict.first_unhealthy is not None else None
    return {
        "sustained_rps": analysis.plain_number(verdict.sustained_rps),
        "collapsed": verdict.collapsed,
        "predicted_rps": None if predicted is None else round(predicted),
        "baseline_p50_ms": verdict.baseline_p50_ms,
        "p99_ms_at_sustained": verdict.p99_ms_at_sustained,
        "requests": tables.requests,
        "errors": tables.errors,
        "valid": not reasons,
        "invalid_reasons": reasons,
        "notes": notes,
        "levels": [analysis.level_dict(lv, healthy, why) for lv, (healthy, why) in zip(levels, verdict.health)],
        "first_unhealthy_level": first_bad,
        "p99_limit_ms": None if verdict.p99_limit_ms is None else round(verdict.p99_limit_ms),
        "pinned_virtual_threads": raw.pinned,
        "stopped_early": any(bool(m.get("stopped_early")) for m in stops),
        "stop_reason": "; ".join(stop_reasons) or None,
        "missing": missing,
    }


def _failed_mode(reason: str) -> dict:
    return {
        "sustained_rps": 0, "collapsed": False, "predicted_rps": None, "baseline_p50_ms": None,
        "p99_ms_at_sustained": None, "requests": 0, "errors": 0, "valid": False, "invalid_reasons": [reason],
        "notes": [], "levels": [], "first_unhealthy_level": None, "p99_limit_ms": None, "pinned_virtual_threads": None,
        "stopped_early": False, "stop_reason": None, "missing": [reason],
    }


def _ratio(virtual: dict | None, platform: dict | None) -> float | None:
    if not virtual or not platform or not virtual.get("sustained_rps") or not platform.get("sustained_rps"):
        return None
    return round(virtual["sustained_rps"] / platform["sustained_rps"], 2)


def _problems(run: dict) -> dict[str, list[str]]:
    """What bench saw go wrong per mode (a tool's exit code, a host error): shown as is, judged by nobody here."""
    found = run.get("mode_problems")
    if not isinstance(found, dict):
        return {}
    return {str(mode): [str(p) for p in (v if isinstance(v, list) else [v])] for mode, v in found.items() if v}


def _modes_wanted(params: dict) -> list[str]:
    modes = params.get("MODES")
    if isinstance(modes, str):
        modes = modes.replace(",", " ").split()
    return [str(m) for m in modes] if isinstance(modes, list) else []


def _ordered_modes(run_dir: Path, wanted: list[str]) -> list[str]:
    found = sorted(p.name for p in run_dir.iterdir() if (p / "raw").is_dir())
    return [m for m in wanted if m in found] + [m for m in found if m not in wanted]


def _render_page(run_dir: Path, summary: dict) -> None:
    from . import report  # the page is optional for callers that only want the numbers
    try:
        report.render(run_dir, summary)
    except Exception as e:  # noqa: BLE001 - summary.json is already written; say what broke instead of no page
        traceback.print_exc(file=sys.stderr)
        _write_text(run_dir / "index.html", report.fallback_page(summary, f"{type(e).__name__}: {e}"))


# --- Small readers and writers -------------------------------------------------------------------------------------

def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _read_rows(path: Path) -> dict[int, dict] | None:
    """Rows keyed by their epoch second; a row cut short by an interrupted writer is dropped."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    rows: dict[int, dict] = {}
    reader = csv.DictReader(io.StringIO(text))
    width = len(reader.fieldnames or [])
    for row in reader:
        if None in row.values() or None in row or len(row) != width:
            continue
        second = _float(row.get("second"))
        if second is not None:
            rows[int(second)] = row
    return rows


def _write_csv(path: Path, columns: list[str], rows: Iterable[dict]) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    _write_text(path, out.getvalue())


def _write_text(path: Path, text: str) -> None:
    # Replace, not overwrite: a page open in a browser or a concurrent `make report` never sees half a file.
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if not math.isfinite(value):
            return ""
        value = round(value, 1)
        return str(int(value)) if value.is_integer() else str(value)
    return str(value)


def _float(value: Any) -> float | None:
    """A number, or None for blanks, text and the -1 the samplers write for 'unavailable'."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) and number >= 0 else None


def _int(value: Any) -> int:
    number = _float(value)
    return int(number) if number is not None else 0


def _int_or_none(value: Any) -> int | None:
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def _max(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return max(known) if known else None


def _ratio_of(row: dict, numerator: str, denominator: str) -> float:
    top, bottom = _float(row.get(numerator)), _float(row.get(denominator))
    return top / bottom if top is not None and bottom else -1.0


def _natural(path: Path) -> tuple:
    head, _, tail = path.name.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (path.name, -1)
