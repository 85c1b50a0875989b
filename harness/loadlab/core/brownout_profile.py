"""PROFILE=brownout: a constant arrival rate (RATE) held while the downstream slows from its normal delay to
BROWNOUT_MS for BROWNOUT_SECONDS, BROWNOUT_BEFORE seconds into the measured phase, then held BROWNOUT_AFTER seconds
more. Its parameters, their checks (one line each), how the run's load is laid out (the stairs every stage already
reads: one rate, levels of the phases' common length, no fine pass) and the models the checks and the summary share:
Little's law for requests in flight, a pool's throughput ceiling, its backlog's drain.

Standard library only: params.py (run before the venv exists) checks the parameters with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from loadlab.core import downstream, fanout, scenario_mix
from loadlab.core.inflight import HEALTHY_INFLIGHT_MAX
from loadlab.core.param_parsers import int_in
from loadlab.core.run_params import RunParams

PROFILE = downstream.BROWNOUT_PROFILE
# RATE's default: this share of the platform pool's Little's-law ceiling at the normal delay (the lower mode's knee
# as the model gives it; measuring it would cost a whole stairs pass), lowered when the brownout's predicted backlog
# would reach the injectors' in-flight cap.
RATE_SHARE_OF_POOL = 0.6
# The harness schedules the delay-service's window once the injectors anchored their seconds, during the warm-up and
# these first seconds: fewer would leave the command no time to arrive.
BEFORE_MIN_S = 5
BROWNOUT_MS_MAX = 60_000  # the delay-service's own maximum wait (delay.max-ms)
PHASE_MAX_S = 3600


def _rate(name: str, raw: str) -> int | None:
    return None if raw == "" else int_in(1, 100_000)(name, raw)


# (name, default, help, parse, allowed): params.py makes each a Param.
PARAMS = (
    (
        "RATE",
        "",
        "PROFILE=brownout: the arrival rate held throughout (requests/s; empty: "
        f"{RATE_SHARE_OF_POOL:.0%} of the platform pool's Little's-law ceiling, lowered to keep the brownout's "
        "backlog under half the injectors' in-flight cap)",
        _rate,
        "empty, or 1..100000, below the platform pool's ceiling",
    ),
    (
        "BROWNOUT_BEFORE",
        "20",
        "PROFILE=brownout: seconds at RATE before the brownout",
        int_in(BEFORE_MIN_S, PHASE_MAX_S),
        f"{BEFORE_MIN_S}..{PHASE_MAX_S}",
    ),
    (
        "BROWNOUT_MS",
        "2000",
        "PROFILE=brownout: the downstream's delay during the brownout (ms)",
        int_in(1, BROWNOUT_MS_MAX),
        f"DELAY_MS+1..{BROWNOUT_MS_MAX}",
    ),
    (
        "BROWNOUT_SECONDS",
        "20",
        "PROFILE=brownout: how long the brownout lasts (s)",
        int_in(1, PHASE_MAX_S),
        f"1..{PHASE_MAX_S}",
    ),
    (
        "BROWNOUT_AFTER",
        "40",
        "PROFILE=brownout: seconds at RATE after the brownout (the time a mode has to recover)",
        int_in(1, PHASE_MAX_S),
        f"1..{PHASE_MAX_S}",
    ),
)
NAMES = tuple(p[0] for p in PARAMS)


@dataclass(frozen=True)
class Model:
    """The predictions for one column: `pool` threads each held for one request (platform), or None (no pool);
    with `sheds`, `pool` is a concurrency limit that rejects a request when full (virtual-limited) instead of queueing
    it, so nothing waits behind it: it answers min(rate, limit / delay) and rejects the rest."""

    rate: float
    normal_s: float  # what a request holds its thread for outside the brownout
    brownout_s: float  # ... and during it
    seconds: float
    pool: int | None = None
    sheds: bool = False

    def ceiling(self, hold_s: float) -> float | None:
        return None if self.pool is None else self.pool / hold_s

    def goodput_rps(self) -> float:
        """OK answers a second once the brownout's answers come back: the rate, or the pool's ceiling at its delay."""
        top = self.ceiling(self.brownout_s)
        return self.rate if top is None else min(self.rate, top)

    def backlog(self) -> float:
        """Requests queued behind a full pool when the brownout ends (0 without a pool, or below its ceiling)."""
        top = self.ceiling(self.brownout_s)
        return 0.0 if top is None or self.sheds else max(0.0, (self.rate - top) * self.seconds)

    def limit_for_all(self) -> float:
        """The concurrency a limit needs to admit every request through the brownout: Little's law at its delay."""
        return self.rate * self.brownout_s

    def peak_inflight(self) -> float:
        """Little's law at the brownout's delay; a full pool holds its threads plus the backlog queued behind it."""
        if self.pool is not None and self.backlog() > 0:
            return self.pool + self.backlog()
        if self.pool is not None and self.sheds:
            return min(float(self.pool), self.rate * self.brownout_s)
        return self.rate * self.brownout_s

    def drain_s(self) -> float | None:
        """Seconds after the brownout until its backlog is gone: the answers still under way at its delay, then the
        queue served at the pool's normal ceiling less the arrivals; None when the pool cannot drain at all."""
        top = self.ceiling(self.normal_s)
        if top is None or self.backlog() == 0:  # no pool: no backlog
            return self.brownout_s
        spare = top - self.rate
        return None if spare <= 0 else self.brownout_s + self.backlog() / spare


@dataclass(frozen=True)
class Schedule:
    """The run's phases in seconds from the start of the measured phase."""

    rate: int
    before_s: int
    ms: int
    seconds: int
    after_s: int

    @property
    def total_s(self) -> int:
        return self.before_s + self.seconds + self.after_s

    @property
    def start_s(self) -> int:
        return self.before_s

    @property
    def end_s(self) -> int:
        return self.before_s + self.seconds

    @property
    def settle_s(self) -> int:
        """Whole seconds from the brownout's start until its first slow answers come back (its delay, rounded up)."""
        return -(-self.ms // 1000)

    @property
    def level_s(self) -> int:
        """The levels the run is judged in like any stairs: the phases' common length, so each level is all one."""
        return math.gcd(self.before_s, self.seconds, self.after_s)


def is_brownout(values: RunParams) -> bool:
    return values.profile == PROFILE


def schedule(values: RunParams) -> Schedule:
    return Schedule(
        values.rate or 0,
        values.brownout_before,
        values.brownout_ms,
        values.brownout_seconds,
        values.brownout_after,
    )


def hold_s(values: RunParams) -> float:
    """What one request holds its thread for outside the brownout: the mean delay and any computation."""
    return (fanout.request_distribution(values).mean_ms() + values.cpu_ms) / 1000.0


def model(values: RunParams, rate: float, pool: int | None, sheds: bool = False) -> Model:
    return model_of(schedule(values), hold_s(values), values.cpu_ms, rate, pool, sheds)


def model_of(s: Schedule, hold: float, cpu_ms: int, rate: float, pool: int | None, sheds: bool = False) -> Model:
    """The model from the figures it reads (hold: hold_s's), for a stage that holds them and not the parameters."""
    cpu_s = cpu_ms / 1000.0
    return Model(rate, hold, s.ms / 1000.0 + cpu_s, s.seconds, pool, sheds)


def _pools(values: RunParams) -> list[int | None]:
    """The columns' pools as the models see them: each platform size, and None for every other mode."""
    sizes = list(values.platform_threads) if "platform" in values.modes else []
    return sizes + [None for m in values.modes if m != "platform"]


def lowest_ceiling(values: RunParams) -> int:
    """The platform pool's Little's-law ceiling at the normal delay (its smallest size), requests/s."""
    return int(min(values.platform_threads) / hold_s(values))


def cap(values: RunParams) -> int:
    """The most requests in flight a brownout may be predicted to hold: the lab's rule for any healthy load, half the
    injectors' safety cap (inflight.HEALTHY_INFLIGHT_MAX each). Measured: a brownout predicted at the cap itself
    (5,000) reached it, and the valve stopped the load."""
    return int(HEALTHY_INFLIGHT_MAX) * values.injectors


def largest_rate_under_cap(values: RunParams) -> int:
    """The highest whole rate every column's predicted peak in flight keeps under the injectors' cap."""
    low, high = 0, lowest_ceiling(values) if "platform" in values.modes else 100_000
    while low < high:
        mid = (low + high + 1) // 2
        if all(model(values, mid, pool).peak_inflight() <= cap(values) for pool in _pools(values)):
            low = mid
        else:
            high = mid - 1
    return low


def default_rate(values: RunParams) -> int:
    return min(int(RATE_SHARE_OF_POOL * lowest_ceiling(values)), largest_rate_under_cap(values))


def queue_wait_s(values: RunParams) -> float:
    """The longest a request is predicted to wait in a full pool's queue before it is served: queued at the
    brownout's start, it waits out the brownout and the backlog's drain (0 when no column queues)."""
    if not is_brownout(values):
        return 0.0
    rate = values.rate or default_rate(values)
    waits = [m.seconds + (m.drain_s() or 0.0) for m in (model(values, rate, p) for p in _pools(values)) if m.backlog()]
    return max(waits, default=0.0)


def checks(v: RunParams) -> list[str]:
    """One line per brownout setting that cannot be run as asked."""
    if not is_brownout(v):
        if v.rate is None:
            return []
        return [f"RATE={v.rate} has no effect with PROFILE={v.profile}; allowed: empty, or PROFILE={PROFILE}"]
    s = schedule(replace(v, rate=v.rate or 1))
    errors = []
    if s.ms <= v.delay_ms:
        allowed = f"{v.delay_ms + 1}..{BROWNOUT_MS_MAX}"
        errors.append(f"BROWNOUT_MS={s.ms} is not above DELAY_MS={v.delay_ms}; allowed: {allowed}")
    if s.level_s < 2:
        errors.append(
            f"BROWNOUT_BEFORE={s.before_s}, BROWNOUT_SECONDS={s.seconds} and BROWNOUT_AFTER={s.after_s} have no common "
            "length of at least 2 s (the run is judged in levels of it); allowed: e.g. multiples of 5 s"
        )
    calling = scenario_mix.CALLING
    if v.app and "{downstream_url}" not in v.app_args or not v.app and v.scenario not in calling:
        errors.append(
            f"PROFILE={PROFILE} slows the delay-service's answers, which {scenario_mix.said(v.scenario)}"
            f"{' with APP_ARGS' if v.app else ''} does not call; allowed: SCENARIO={' or '.join(calling)}, or APP "
            "with {downstream_url}"
        )
    if errors:
        return errors
    return _rate_errors(v)


def _rate_errors(v: RunParams) -> list[str]:
    ceiling, top = lowest_ceiling(v), largest_rate_under_cap(v)
    rate = v.rate
    if rate is None:
        rate = default_rate(v)
        if rate >= v.injectors:
            return []
        return [
            "RATE is empty and no rate keeps this brownout under half the injectors' in-flight cap; allowed: a shorter "
            "BROWNOUT_SECONDS or BROWNOUT_MS, or more INJECTORS"
        ]
    if rate < v.injectors:
        return [f"RATE={rate} is below INJECTORS={v.injectors}; allowed: at least 1 request/s per injector"]
    if "platform" in v.modes and rate >= ceiling:
        return [
            f"RATE={rate} is at or above the platform pool's ceiling ({ceiling} rps: its threads over a request's "
            f"{hold_s(v) * 1000:.0f} ms), so it is past its knee before the brownout begins; allowed: 1..{ceiling - 1}"
        ]
    if rate > top:
        return [
            f"RATE={rate} with a {v.brownout_ms} ms brownout of {v.brownout_seconds} s is predicted to keep more "
            f"requests in flight than {cap(v)}, half the injectors' safety cap (a limit of the lab: near it the "
            f"valve stops the load); allowed: RATE <= {top}, a shorter brownout, or more INJECTORS"
        ]
    return []


def resolved(values: RunParams) -> RunParams:
    """The run's values with the brownout laid out as the stairs every stage reads: START_RPS = PEAK_RPS = RATE (its
    default computed), levels of the phases' common length, REFINE=0 (one rate has no knee to localise)."""
    if not is_brownout(values):
        return values
    rate = values.rate or default_rate(values)
    s = schedule(replace(values, rate=rate))
    return replace(
        values, rate=rate, start_rps=rate, peak_rps=rate, steps=s.total_s // s.level_s, step_seconds=s.level_s, refine=0
    )
