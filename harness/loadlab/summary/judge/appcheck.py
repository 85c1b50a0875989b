"""An application under test (APP): what it ran on, proved from what every JVM and Linux host gives, and what its
evidence says when its knee sits below every model.

It has no /actuator/loadlab, so the evidence is: the host's view of its process (Tomcat's platform request threads
by name, request_pool.csv), its flight recording (the counts in pinned.json: virtual threads started, pinning,
monitor waits, GC pauses) and, when it exposes them, its own Actuator gauges (actuator.csv). Its costs (memory,
threads, switches, allocation) are every service's (flight.py, costs.py). Reads raw files only; never raises on a
missing one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from loadlab.core import app
from loadlab.core.app import HIKARI_MAX, HIKARI_PENDING, TOMCAT_BUSY, TOMCAT_MAX
from loadlab.summary.judge import app_pool
from loadlab.summary.judge.jsonform import plain_number
from loadlab.summary.reading.labels import base_mode, mode_threads
from loadlab.summary.reading.raw import Metrics, RawMode
from loadlab.summary.reading.raw_rows import RequestPoolSample
from loadlab.summary.reading.values import as_float
from loadlab.summary.schema.detail_records import AppEvidenceRecord

# JFR event types the verdict reads from the recording's counts (infra/host/service.jfc enables them).
VIRTUAL_THREAD_START, MONITOR_ENTER, GC = "jdk.VirtualThreadStart", "jdk.JavaMonitorEnter", "jdk.GarbageCollection"
MONITOR_THRESHOLD_MS = 20  # pinned.jfc's threshold for jdk.JavaMonitorEnter
# Each request in virtual mode starts at least one virtual thread; the recording also covers the warm-up and the fine
# passes, so the measured requests are a lower bound of what ran. Below this share of them, requests did not run on
# virtual threads (an app that ignores the switch starts next to none).
VIRTUAL_STARTS_PER_REQUEST_MIN = 0.5
# A knee below this share of the lowest prediction is "well below every prediction": the models' own agreement band
# is ±15% and a CPU-bound knee falls at 80-90% of its ceiling on this machine (MACHINE-NOTES.md).
UNEXPLAINED_BELOW = 0.7
# Virtual mode without its recording (read after the app stops): nothing proves what its requests ran on.
RECORDING_NOT_READ = "the app's flight recording was not read, so nothing shows its requests ran on virtual threads"
# GC pauses worth naming: more than this share of the mode's wall time spent paused.
GC_PAUSE_SHARE = 0.02


def _max(values: Iterable[float | None]) -> float | None:
    return max((v for v in values if v is not None and v >= 0), default=None)


def _max_metric(rows: Metrics, name: str) -> float | None:
    return _max(r.metric(name) for r in rows.values())


def request_pool_max(rows: Mapping[int, RequestPoolSample]) -> float | None:
    """The most platform request threads Tomcat ran: its connector's threads less its own two (app.py)."""
    named = _max(r.named_threads for r in rows.values())
    return None if named is None else max(0.0, named - app.TOMCAT_NIO_OWN_THREADS)


def evidence(raw: RawMode) -> AppEvidenceRecord:
    """The whole-mode readings (None: not measured), whole numbers as summary.json writes them; what they point to
    is app_evidence's."""
    recording = raw.recording
    return AppEvidenceRecord(
        virtual_threads_started=recording.count(VIRTUAL_THREAD_START),
        pinned_events=raw.pinned,
        monitor_waits=recording.count(MONITOR_ENTER),
        gc_count=recording.count(GC),
        gc_pause_total_ms=_plain(recording.gc_pause_total_ms),
        gc_pause_max_ms=_plain(recording.gc_pause_max_ms),
        request_pool_threads_max=_plain(request_pool_max(raw.request_pool)),
        tomcat_threads_max=_plain(_max_metric(raw.actuator, TOMCAT_MAX)),
        tomcat_busy_max=_plain(_max_metric(raw.actuator, TOMCAT_BUSY)),
        hikari_pending_max=_plain(_max_metric(raw.actuator, HIKARI_PENDING)),
        hikari_max=_plain(_max_metric(raw.actuator, HIKARI_MAX)),
        points_to=None,  # app_evidence's, from the mode's judged limits
        unexplained_limit=None,
    )


def config_mismatches(label: str, ev: AppEvidenceRecord, requests: int, only_pool: int | None) -> list[str]:
    """Why the app did not run the mode asked for; the live-config check of an app without /actuator/loadlab.

    Virtual: its requests must have started virtual threads (the recording counts them) and none may have run on
    Tomcat's platform pool. Platform: Tomcat's pool must have served them (seen by name on the host) and never with
    more threads than PLATFORM_THREADS, nor may the app's own gauge say another size. only_pool: PLATFORM_THREADS's
    one size (asked.Asked.pool), for a label that names none."""
    reasons = []
    served = requests > 0
    started = ev.virtual_threads_started
    pool_seen = ev.request_pool_threads_max
    asked = as_float(mode_threads(label, only_pool))
    if base_mode(label) == "virtual":
        if started is None:
            reasons.append(RECORDING_NOT_READ)
        elif served and started < VIRTUAL_STARTS_PER_REQUEST_MIN * requests:
            reasons.append(
                f"the app did not switch to virtual threads: {started:,} virtual threads started for "
                f"{requests:,} requests (spring.threads.virtual.enabled=true had no effect on its request threads)"
            )
        if pool_seen:
            reasons.append(
                f"the app did not switch to virtual threads: up to {pool_seen:.0f} of Tomcat's platform request "
                f"threads served requests in virtual mode"
            )
        return reasons
    if served and pool_seen is not None and pool_seen == 0:
        reasons.append(
            "the pool size did not take effect: no request ran on Tomcat's request pool (no thread named "
            "http-nio-…-exec-…): the app serves requests on threads of its own, whatever "
            "server.tomcat.threads.max says"
        )
    if asked is not None and pool_seen is not None and pool_seen > asked:
        reasons.append(
            f"the pool size did not take effect: {pool_seen:.0f} Tomcat request threads ran, "
            f"more than PLATFORM_THREADS={asked:.0f}"
        )
    if asked is not None and ev.tomcat_threads_max is not None and ev.tomcat_threads_max != asked:
        reasons.append(
            f"the pool size did not take effect: the app's own tomcat.threads.config.max says "
            f"{ev.tomcat_threads_max:.0f}, not PLATFORM_THREADS={asked:.0f}"
        )
    if served and started is not None and started >= VIRTUAL_STARTS_PER_REQUEST_MIN * requests:
        reasons.append(
            f"the app ran on virtual threads in platform mode ({started:,} virtual threads started for "
            f"{requests:,} requests)"
        )
    return reasons


def pointers(ev: AppEvidenceRecord, asked: float | None, wall_s: float | None) -> list[str]:
    """What the evidence points to, each a short phrase (empty when nothing stands out); asked: the platform pool."""
    found = []
    if ev.tomcat_busy_max is not None and ev.tomcat_threads_max and ev.tomcat_busy_max >= ev.tomcat_threads_max:
        found.append(f"Tomcat's pool was full ({ev.tomcat_busy_max:.0f} of {ev.tomcat_threads_max:.0f} threads busy)")
    elif asked and ev.request_pool_threads_max is not None and ev.request_pool_threads_max >= asked:
        found.append(f"Tomcat's pool reached its {asked:.0f} threads")
    if ev.hikari_pending_max:
        size = f" of {ev.hikari_max:.0f} connections" if ev.hikari_max else ""
        found.append(
            f"requests waited for a database connection (HikariCP pool{size}: up to "
            f"{ev.hikari_pending_max:.0f} pending)"
        )
    if ev.pinned_events:
        found.append(f"{ev.pinned_events:,} pinned virtual threads (a carrier held inside synchronized or native code)")
    if ev.monitor_waits:
        found.append(
            f"{ev.monitor_waits:,} monitor waits of {MONITOR_THRESHOLD_MS} ms or more (a lock serialising requests)"
        )
    if ev.gc_pause_total_ms and wall_s and ev.gc_pause_total_ms / 1000 >= GC_PAUSE_SHARE * wall_s:
        found.append(
            f"GC pauses of {ev.gc_pause_total_ms / 1000:.1f} s in {wall_s:.0f} s (longest "
            f"{ev.gc_pause_max_ms or 0:.0f} ms)"
        )
    return found


def unexplained_limit(
    predicted: list[float],
    knee: float | None,
    collapsed: bool,
    met_first: str | None,
    seen: list[str],
    out_of_cpu: bool,
) -> str | None:
    """The page's plain sentence when a mode's knee sits well below every prediction (predicted: their rates), with
    what the evidence points to; None when a model explains the knee, when the CPU ran out at the knee (the CPU
    explains it, even where too few healthy levels gave no CPU line to predict it: spring-petclinic's one healthy level
    was read as a limit "none of the lab's models explains"), or when the mode did not collapse (its knee is not
    known). met_first: the mode's `limit_met_first`."""
    predictions = [rps for rps in predicted if rps]
    if not collapsed or not predictions or knee is None or knee >= UNEXPLAINED_BELOW * min(predictions):
        return None
    if out_of_cpu or not knee:
        return None  # not knee: the first level was already unhealthy, the knee lies somewhere below it
    if str(met_first or "").startswith(app_pool.NAMED):
        return None  # its own pool was the queue at the knee: named, with whether its prediction was met
    return (
        f"The knee ({knee:,.0f} rps) sits well below every prediction (the lowest: {min(predictions):,.0f} rps): "
        "a limit inside the application that none of the lab's models explains. "
        + (
            "The evidence points to: " + "; ".join(seen) + "."
            if seen
            else "None of the evidence recorded (pool, "
            "pinning, monitor waits, GC) stands out: look inside the application (a connection pool, a lock, a "
            "downstream of its own)."
        )
    )


def app_evidence(
    raw: RawMode,
    label: str,
    only_pool: int | None,
    predicted: list[float],
    knee: float | None,
    collapsed: bool,
    met_first: str | None,
    out_of_cpu: bool = False,
) -> AppEvidenceRecord:
    """The app's evidence in its mode's summary (`app_evidence`), with the plain sentence when no model explains its
    knee (the mode's notes say it too); out_of_cpu: the CPU ran out at the first unhealthy level. Its live-config
    check is judging.py's, with the thread-service's."""
    ev = evidence(raw)
    wall_s = float(len(raw.thread_samples)) or None  # the sampler's rows: one per second of the app's life
    seen = pointers(ev, as_float(mode_threads(label, only_pool)), wall_s)
    return replace(
        ev, points_to=seen, unexplained_limit=unexplained_limit(predicted, knee, collapsed, met_first, seen, out_of_cpu)
    )


def _plain(value: float | None) -> float | int | None:
    return None if value is None else plain_number(value)
