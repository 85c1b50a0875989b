"""Reading a mode's raw files (what the injectors, samplers and JFR wrote) into memory, without judging them.

Anything absent or unreadable is listed in `missing`, never raised: a half-finished folder is normal input.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from loadlab.analysis import hlog, threadlimits
from loadlab.core import upgrade
from loadlab.core.upgrade import Doc
from loadlab.summary.reading import flight
from loadlab.summary.reading.flight import RecordingCounts
from loadlab.summary.reading.injector_meta import InjectorMeta
from loadlab.summary.reading.raw_rows import (
    Cells,
    HostSample,
    InjectorSecond,
    MetricSample,
    RequestPoolSample,
    read_error_counts,
    read_table,
)
from loadlab.summary.reading.values import natural
from loadlab.summary.schema.detail_records import StopCapRecord

# Failed requests' kinds are the simulation's (gatling/src/test/java/loadlab/gatling/recorder/ErrorKind.java, the one
# list), published in each injector's meta.json as `error_kinds` (ids, in order) and `error_kind_meanings` {id: one
# line}: read as they come. These two are the only ones the harness names, for the limits of its own that can cut a
# request (summary/verdicts/verdict.py); test_error_kinds.py holds them, and the synthetic runs' list, to
# ErrorKind.java.
TIMEOUT_INJECTOR = "timeout_injector"
STATUS_504 = "status_504"

# A raw CSV's typed rows (raw_rows.py) keyed by their epoch second.
Samples = dict[int, HostSample]
Metrics = dict[int, MetricSample]
R = TypeVar("R")

# --- Reading the raw files -----------------------------------------------------------------------------------------


@dataclass
class Injector:
    name: str
    seconds: dict[int, InjectorSecond]
    meta: InjectorMeta
    ok_payloads: dict[int, list[str]]
    samples: Samples
    # Failed requests' latencies per completion second: failures that all end at one limit were cut by it.
    ko_payloads: dict[int, list[str]] = field(default_factory=dict)
    # Failed requests per completion second and kind (errors.csv); empty for runs before it was written.
    errors_by_kind: dict[int, dict[str, int]] = field(default_factory=dict)


@dataclass
class RawMode:
    injectors: list[Injector]
    thread_samples: Samples
    jvm: Metrics
    delay_samples: Samples
    pinned: int | None
    missing: list[str] = field(default_factory=list)
    # What the thread-service said it runs with (liveconfig.record_live_config); empty for older runs.
    live_config: Doc = field(default_factory=dict)
    # The service's flight recording per second (flight.py; None: none written) and the thread host's limits it ran
    # under (threadlimits.py; None for older runs).
    flight: dict[int, flight.FlightSecond] | None = None
    host_limits: threadlimits.HostLimits | None = None
    # An application under test (APP, summary/judge/appcheck.py): Tomcat's platform request threads as the host saw
    # them, its own Actuator gauges when it exposes them, and its flight recording's counts (pinned.json); empty when
    # not recorded.
    request_pool: dict[int, RequestPoolSample] = field(default_factory=dict)
    actuator: Metrics = field(default_factory=dict)
    recording: RecordingCounts = field(default_factory=RecordingCounts)


def load_mode(mode_dir: Path, fine_pass: str | None = None) -> RawMode:
    """fine_pass: the name of a refinement pass (`refine-1`): its injectors' files are under `<mode>/refine-1/raw/`
    and their Gatling reports under `<mode>/gatling/refine-1-injector-<i>/`; the service samplers ran through every
    pass of the mode, so their files are the mode's own."""
    missing: list[str] = []
    raw_dir = mode_dir / "raw"
    injectors_dir = mode_dir / fine_pass / "raw" if fine_pass else raw_dir
    report_prefix = f"{fine_pass}-" if fine_pass else ""

    def rows(path: Path, parse: Callable[[Cells], R]) -> tuple[tuple[str, ...], dict[int, R]]:
        found = read_table(path, parse)
        if found is None:
            missing.append(str(path.relative_to(mode_dir.parent)))
            return (), {}
        return found.header, found.rows

    injectors = []
    for inj_dir in sorted(injectors_dir.glob("injector-*"), key=natural):
        meta = read_json(inj_dir / "meta.json")
        if not meta:
            missing.append(str((inj_dir / "meta.json").relative_to(mode_dir.parent)))
        typed = InjectorMeta.parse(upgrade.injector_meta(meta))
        injectors.append(read_injector(inj_dir, inj_dir.name, typed, mode_dir.parent, missing))
    if not injectors:
        missing.append(str((injectors_dir / "injector-*").relative_to(mode_dir.parent)))
    for inj in injectors:
        if not list((mode_dir / "gatling" / f"{report_prefix}{inj.name}").glob("*/index.html")):
            missing.append(f"{mode_dir.name}/gatling/{report_prefix}{inj.name}/…/index.html (Gatling's report)")

    delay_header, delay_samples = rows(raw_dir / "delay" / "samples.csv", HostSample.parse)
    if delay_samples and "probe_ms" not in delay_header:
        missing.append(
            f"{mode_dir.name}/raw/delay/samples.csv has no probe_ms (an older run): the delay-service's "
            "own latency was not measured, so it was not judged"
        )
    recording = RecordingCounts.parse(read_json(raw_dir / "thread" / "pinned.json"))
    return RawMode(
        injectors=injectors,
        thread_samples=rows(raw_dir / "thread" / "samples.csv", HostSample.parse)[1],
        jvm=rows(raw_dir / "thread" / "jvm.csv", MetricSample.parse)[1],
        delay_samples=delay_samples,
        pinned=recording.pinned_events,
        live_config=read_json(raw_dir / "thread" / "config.json"),
        flight=flight.load(raw_dir / "thread"),
        host_limits=threadlimits.read(raw_dir / "thread"),
        missing=missing,
        # Written only where the service's threads are counted by name or an APP has Actuator: absent is normal
        request_pool=_optional_rows(raw_dir / "thread" / "request_pool.csv", RequestPoolSample.parse),
        actuator=_optional_rows(raw_dir / "thread" / "actuator.csv", MetricSample.parse),
        recording=recording,
    )


def read_injector(
    folder: Path, name: str, meta: InjectorMeta, shown_from: Path, missing: list[str], sampled: bool = True
) -> Injector:
    """An injector's per-second files (seconds.csv, latency.hlog, errors.csv, samples.csv): its own folder, or the
    folder of one kind of APP_REQUESTS's mix inside it (kinds/<name>/, which has the same files and the injector's
    meta, but no samples: sampled=False). What is absent or unreadable is added to `missing`, named from
    shown_from."""
    seconds = read_table(folder / "seconds.csv", InjectorSecond.parse)
    if seconds is None:
        missing.append(str((folder / "seconds.csv").relative_to(shown_from)))
    payloads: dict[int, list[str]] = {}
    ko_payloads: dict[int, list[str]] = {}
    log_path = folder / "latency.hlog"
    if log_path.is_file():
        log = hlog.read_log(log_path)
        for interval in log.intervals:
            # Untagged lines predate the ok/ko split; they held successful requests only.
            if interval.tag in ("ok", None):
                payloads.setdefault(interval.second, []).append(interval.payload)
            elif interval.tag == "ko":
                ko_payloads.setdefault(interval.second, []).append(interval.payload)
        if log.malformed_lines:
            missing.append(
                f"{log_path.relative_to(shown_from)}: {log.malformed_lines} unreadable "
                f"line{'s' if log.malformed_lines > 1 else ''} skipped"
            )
    else:
        missing.append(str(log_path.relative_to(shown_from)))
    samples = read_table(folder / "samples.csv", HostSample.parse) if sampled else None
    if sampled and samples is None:
        missing.append(str((folder / "samples.csv").relative_to(shown_from)))
    return Injector(
        name,
        seconds.rows if seconds else {},
        meta,
        payloads,
        samples.rows if samples else {},
        ko_payloads,
        read_error_counts(folder / "errors.csv"),
    )


def error_kind_order(injectors: list[Injector]) -> list[str]:
    """The kinds in the simulation's own order (meta.json `error_kinds`), for a stable table and legend."""
    return list(next((inj.meta.error_kinds for inj in injectors if inj.meta.error_kinds), ()))


def error_kind_meanings(injectors: list[Injector]) -> dict[str, str]:
    """What each kind means, in the simulation's words (meta.json `error_kind_meanings`); {} for runs before it."""
    return dict(next((inj.meta.error_kind_meanings for inj in injectors if inj.meta.error_kind_meanings), {}))


def inflight_cap_stop(injectors: list[Injector]) -> StopCapRecord | None:
    """{inflight, max_inflight} when the simulation's in-flight cap stopped an injector's load (meta.json
    `stop_inflight_cap`; the most loaded one when several did), else None."""
    caps = [cap for inj in injectors if (cap := inj.meta.stop_inflight_cap) is not None]
    if not caps:
        return None
    worst = max(caps, key=lambda cap: cap.inflight)
    return StopCapRecord(inflight=int(worst.inflight), max_inflight=int(worst.max_inflight or 0))


def has_load_data(mode_dir: Path) -> bool:
    """Also true of a refinement pass's folder (`<mode>/refine-1`), whose layout is the same."""
    return any(p.is_file() for p in (mode_dir / "raw").glob("injector-*/seconds.csv"))


def fine_passes(mode_dir: Path) -> list[str]:
    """The refinement passes of a mode that left load data, in the order they ran (`refine-1`, `refine-2`, …)."""
    found = [p.name for p in mode_dir.glob("refine-*") if p.name.removeprefix("refine-").isdigit() and has_load_data(p)]
    return sorted(found, key=lambda name: int(name.removeprefix("refine-")))


def read_json(path: Path) -> Doc:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _optional_rows(path: Path, parse: Callable[[Cells], R]) -> dict[int, R]:
    found = read_table(path, parse)
    return found.rows if found else {}
