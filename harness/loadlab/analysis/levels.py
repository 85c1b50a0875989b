"""A measured level: its counts, latency and the evidence the hosts sampled over its seconds, merged across
injectors (summary/reading/seconds.py assigns the seconds; nothing here judges)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field

from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog
from loadlab.analysis.wait_profile import LevelWaits

# Evidence read as the level's median rather than its mean. A probe is one request a second: on a machine shared with
# other work one of them can wait for a CPU, while a saturated delay-service slows most of them.
MEDIAN_EVIDENCE = frozenset({"delay_probe_ms"})


@dataclass
class Evidence:
    """Means over a level of what the hosts sampled; None when nothing was sampled."""

    thread_cpu_pct: float | None = None
    delay_cpu_pct: float | None = None
    delay_cores: float | None = None
    injector_cpu_pct: float | None = None
    injector_cores: float | None = None
    injector_host_cpu_pct: float | None = None
    host_cpu_pct: float | None = None
    downstream_ms_mean: float | None = None
    delay_probe_ms: float | None = None  # median of the level's probes (MEDIAN_EVIDENCE)
    delay_probe_failed: float | None = None  # share of the level's seconds in which a probe failed
    other_roles_cpu_pct: float | None = None  # delay-service + injectors' processes, % of one core
    db_pool_active: float | None = None  # HikariCP connections in use (db scenario)
    db_pool_pending: float | None = None  # requests waiting for a connection (db scenario)


def level_number(position: int) -> int:
    """A level's number, counted from 1, from its position in its pass, counted from 0: the one conversion. The
    number is what a person or a file name sees (summary.json's `index`, `first_unhealthy_level`, a crash's and a
    set-aside's `level`, `level-01-900rps.hgrm`, `level-01.folded`, the page, the console, as the simulation's progress
    lines count); the position is what Python lists and the simulation's raw files (seconds.csv's `level`, meta.json's
    `levels[].index`) hold."""
    return position + 1


@dataclass(frozen=True)
class Level:
    # Where the level stands in its pass, counted from 0 as the simulation's raw files count it; what a person or a
    # file name sees is its number, level_number(position), counted from 1.
    position: int
    target_rps: float
    seconds: int
    sent: int
    ok: int
    ko: int
    latency: hlog.LatencyStats | None
    first_second: int | None = None
    evidence: Evidence = field(default_factory=Evidence)
    # How long the failed requests took: failures that all end at one limit were cut there (see _cut_by_harness).
    ko_latency: hlog.LatencyStats | None = None
    # Failed requests by kind (the simulation's ErrorKind ids); empty when the run did not classify them.
    errors_by_kind: dict[str, int] = field(default_factory=dict)
    # Why a sampler's rows are missing for part of the level (summary/judge/evidence.py): its evidence is then empty.
    no_server_evidence: str | None = None
    # The merged histogram of the level's successful requests: the whole spectrum (its .hgrm file, the page's charts).
    histogram: HdrHistogram | None = field(default=None, compare=False, repr=False)
    # The delay-service's injected failures in the level's seconds (DOWNSTREAM_ERRORS/RESETS, its own count): each
    # is a request the service answered as it should (its error mapping), not a failure of its own.
    downstream_injected: int = 0
    # SCENARIO=fanout: the calls the delay-service saw left behind in the level's seconds, its own count (served.py's
    # orphan and cancelled tags): answered after their caller stopped waiting, or cancelled by it. None: not counted.
    orphaned_calls: int | None = None
    cancelled_calls: int | None = None
    # The delay the delay-service served in the level's seconds, its own record (analysis/served.py): answers, p50,
    # p90, p99, p99.9 in ms; None when the run has no served log.
    served_ms: dict[str, float] | None = None
    # Why the delay-service served this level slower than its configured distribution (analysis/served.py), or
    # None: the stand-in's own record says the instrument, not the service, was slow here (the level is set aside).
    served_late: str | None = None
    # The rate offered just before the level (the previous level's target, or the warm-up's for the first; None:
    # unknown, or not needed: a level counted by the seconds its requests were sent in has none in flight) and the
    # whole seconds its completions are read later than it was sent (summary/reading/seconds.py's lag): together they
    # say how many of its requests a service keeping up still has in flight at its end (health.py).
    previous_target_rps: float | None = None
    window_shift_s: int = 0
    # The whole seconds after the level's step that were left out of it (thresholds.settle_seconds): what a service
    # keeping up still completes of the previous rate's requests falls in them first.
    settle_s: int = 0
    # A level counted by the seconds its requests were sent in and longer than the lag
    # (summary/reading/send_seconds.py): the OK answers that completed in its evidence seconds, whoever sent them, and
    # the rate offered before it, whose answers still complete in its first evidence seconds
    # (health.expected_completions_rps: whether the service answered at its rate, not only eventually).
    # previous_target_rps stays None for it: counted by send second, none of its own requests are in flight at its end.
    # None: counted by the second its requests completed in.
    completed_ok: int | None = None
    completed_from_rps: float | None = None
    # Where its requests waited, from the wait agent's samples over its seconds (summary/reading/waits.py); None: no
    # profile.
    waits: LevelWaits | None = field(default=None, compare=False)

    @property
    def offered_rps(self) -> float:
        return self.sent / self.seconds if self.seconds else 0.0

    @property
    def ok_rps(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0

    @property
    def error_ratio(self) -> float:
        done = self.ok + self.ko
        return self.ko / done if done else 0.0

    @property
    def own_ko(self) -> int:
        """The failed requests the downstream's injected failures do not explain."""
        return max(0, self.ko - self.downstream_injected)

    @property
    def own_error_ratio(self) -> float:
        done = self.ok + self.ko
        return self.own_ko / done if done else 0.0

    @property
    def answered_rps(self) -> float:
        """OK answers and the injected failures the service mapped to an error: what it answered as it should."""
        return (self.ok + self.ko - self.own_ko) / self.seconds if self.seconds else 0.0

    @property
    def p99_ms(self) -> int | None:
        return self.latency.p99_ms if self.latency else None


class LevelBuilder:
    """Accumulates the seconds assigned to one level: counts, the ok histogram, and the sampled evidence."""

    def __init__(self, position: int, target_rps: float):
        self.position, self.target_rps = position, target_rps
        self.seconds = self.sent = self.ok = self.ko = 0
        self.completed_ok: int | None = None
        self.first_second: int | None = None
        self._latency: HdrHistogram | None = None
        self._ko_latency: HdrHistogram | None = None
        self._kinds: dict[str, int] = {}
        self._samples: dict[str, list[float]] = {}
        self._downstream_calls = 0.0
        self._downstream_ms = 0.0

    def add_second(
        self,
        second: int,
        sent: int,
        ok: int,
        ko: int,
        ok_latency: HdrHistogram | None,
        evidence: Mapping[str, float | None],
        downstream: tuple[float, float] | None = None,
    ) -> None:
        self.seconds += 1
        self.sent += sent
        self.ok += ok
        self.ko += ko
        if self.first_second is None or second < self.first_second:
            self.first_second = second
        if ok_latency is not None and ok_latency.get_total_count():
            self._latency = hlog.merge([ok_latency], self._latency)
        for name, value in evidence.items():
            if value is not None:
                self._samples.setdefault(name, []).append(value)
        if downstream is not None:
            self._downstream_calls += downstream[0]
            self._downstream_ms += downstream[1]

    def add_completions(
        self,
        ok: int,
        ko: int,
        ok_latency: HdrHistogram | None,
        ko_latency: HdrHistogram | None,
        kinds: Mapping[str, int],
    ) -> None:
        """Requests sent in the level, completed in any second (summary/reading/send_seconds.py): their counts,
        latencies and failures' kinds, apart from the seconds whose evidence the level is read over."""
        self.ok += ok
        self.ko += ko
        if ok_latency is not None and ok_latency.get_total_count():
            self._latency = hlog.merge([ok_latency], self._latency)
        self.add_ko_latency(ko_latency)
        self.add_error_kinds(kinds)

    def add_completed(self, ok: int) -> None:
        """OK answers that completed in one of the level's evidence seconds, whichever level sent them."""
        self.completed_ok = (self.completed_ok or 0) + ok

    def add_sent(self, sent: int) -> None:
        """Requests sent in one of the level's seconds, when its completions are read from other seconds (a lag)."""
        self.sent += sent

    def add_ko_latency(self, ko_latency: HdrHistogram | None) -> None:
        if ko_latency is not None and ko_latency.get_total_count():
            self._ko_latency = hlog.merge([ko_latency], self._ko_latency)

    def add_error_kinds(self, kinds: Mapping[str, int]) -> None:
        for kind, count in kinds.items():
            self._kinds[kind] = self._kinds.get(kind, 0) + count

    def build(
        self,
        window_shift_s: int = 0,
        previous_rps: float | None = None,
        by_send_second: bool = False,
        settle_s: int = 0,
    ) -> Level:
        """The level whole. previous_rps is the rate offered just before it: counted by the second its requests
        completed in, its previous_target_rps; counted by the second they were sent in (by_send_second), the
        completed_from_rps of a level that read its completions (Level says why each)."""
        means = {
            name: statistics.median(v) if name in MEDIAN_EVIDENCE else sum(v) / len(v)
            for name, v in self._samples.items()
            if v
        }
        known = {k: v for k, v in means.items() if k in Evidence.__dataclass_fields__}
        if self._downstream_calls > 0:
            # Weighted by calls: the level's true mean downstream time, not a mean of per-second means.
            known["downstream_ms_mean"] = self._downstream_ms / self._downstream_calls
        evidence = Evidence(**known)
        latency = hlog.stats(self._latency) if self._latency is not None else None
        ko_latency = hlog.stats(self._ko_latency) if self._ko_latency is not None else None
        return Level(
            self.position,
            self.target_rps,
            self.seconds,
            self.sent,
            self.ok,
            self.ko,
            latency,
            self.first_second,
            evidence,
            ko_latency,
            dict(self._kinds),
            histogram=self._latency,
            previous_target_rps=None if by_send_second else previous_rps,
            window_shift_s=window_shift_s,
            settle_s=settle_s,
            completed_ok=self.completed_ok,
            completed_from_rps=previous_rps if by_send_second and self.completed_ok is not None else None,
        )


def cpu_ms_per_request(cpu_pct: float | None, ok_rps: float) -> float | None:
    """A process's CPU per OK request: % of one core x 10 = ms of CPU per second, spread over the requests."""
    if cpu_pct is None or not ok_rps:
        return None
    return cpu_pct * 10.0 / ok_rps
