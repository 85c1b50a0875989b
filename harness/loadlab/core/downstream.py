"""The downstream the delay-service stands in for: the latency distribution it draws each answer's delay from
(DELAY_DIST), its injected failures (DOWNSTREAM_ERRORS, DOWNSTREAM_RESETS), and the one place the harness computes
that distribution's figures (mean, percentiles, high end): Little's law, the timeouts, the health limit and the
served-delay check all read them here. The delay-service draws from the same definition
(delay-service/…/DelayDistribution.java); harness/tests/data/delay_distributions.json, written from these figures,
holds its draws to them (DelayDistributionAgreementTest).

    constant   DELAY_MS every time
    lognormal  median DELAY_MS, 99th percentile DELAY_P99_MS: sigma = ln(p99 / median) / z(0.99)
    bimodal    DELAY_SLOW_MS for DELAY_SLOW_PCT % of the answers, DELAY_MS for the rest
    hgrm:FILE  a recorded distribution (HdrHistogram's percentile text: `Value Percentile TotalCount 1/(1-P)`),
               drawn by its inverse, linear between the recorded percentiles

Standard library only: params.py (run before the venv exists) checks the parameters with it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from loadlab.core import hgrm_points, stubs
from loadlab.core.errors import DownstreamError
from loadlab.core.run_params import RunParams
from loadlab.core.thresholds import Thresholds

CONSTANT, LOGNORMAL, BIMODAL, HGRM = "constant", "lognormal", "bimodal", "hgrm:"
DIST_ALLOWED = "constant | lognormal (with DELAY_P99_MS) | bimodal (with DELAY_SLOW_MS, DELAY_SLOW_PCT) | hgrm:<file>"
Z99 = statistics.NormalDist().inv_cdf(0.99)
# The distribution's high end, what a limit of the request chain must let through: one answer in 10,000 is slower.
HIGH_END_QUANTILE = 0.9999
# Where the lab's own services call the delay-service when it draws the delay: any path but /delay answers from its
# distribution, so `{base}/drawn/delay?ms=N` is drawn and the caller's ms is only a record of DELAY_MS.
DRAWN_PREFIX = "/drawn"
# The served delay, per second, relative to the run folder (written by the delay-service, read by analysis/served.py).
SERVED_LOG = "raw/delay/served.hlog"
# A recorded distribution: at most this many points go to the delay-service (one Spring property on its command line).
PCT_ALLOWED = "a percentage 0..100"
# PROFILE=brownout (core/brownout_profile.py): the delay-service switches its delay by time, on its drawn paths.
BROWNOUT_PROFILE = "brownout"


@dataclass(frozen=True)
class Distribution:
    """kind: constant | lognormal | bimodal | recorded; points: a recorded one's (quantile 0..1, ms), ascending."""

    kind: str
    median_ms: float
    p99_ms: float | None = None
    slow_ms: float | None = None
    slow_pct: float | None = None
    points: tuple[tuple[float, float], ...] = ()
    source: str = ""

    @property
    def sigma(self) -> float:
        return math.log(_given(self.p99_ms, "DELAY_P99_MS") / self.median_ms) / Z99

    def quantile_ms(self, q: float) -> float:
        """The delay below which a share q (0..1) of the answers fall."""
        if self.kind == LOGNORMAL:
            q = min(max(q, 1e-12), 1 - 1e-12)
            return self.median_ms * math.exp(self.sigma * statistics.NormalDist().inv_cdf(q))
        if self.kind == BIMODAL:
            slow, slow_ms = _given(self.slow_pct, "DELAY_SLOW_PCT") / 100, _given(self.slow_ms, "DELAY_SLOW_MS")
            if slow_ms >= self.median_ms:
                return self.median_ms if q < 1 - slow else slow_ms
            return slow_ms if q < slow else self.median_ms
        if self.kind == "recorded":
            return _inverse(self.points, q)
        return self.median_ms

    def mean_ms(self) -> float:
        if self.kind == LOGNORMAL:
            return self.median_ms * math.exp(self.sigma**2 / 2)
        if self.kind == BIMODAL:
            p = _given(self.slow_pct, "DELAY_SLOW_PCT") / 100
            return (1 - p) * self.median_ms + p * _given(self.slow_ms, "DELAY_SLOW_MS")
        if self.kind == "recorded":
            pts = self.points
            return sum((q1 - q0) * (v0 + v1) / 2 for (q0, v0), (q1, v1) in zip(pts, pts[1:]))
        return self.median_ms

    def p50_ms(self) -> float:
        return self.quantile_ms(0.5)

    def share_above_ms(self, ms: float) -> float:
        return share_above(self.quantile_ms, ms)

    def p99_high_ms(self) -> float:
        return self.quantile_ms(0.99)

    def high_end_ms(self) -> float:
        return self.quantile_ms(HIGH_END_QUANTILE)

    @property
    def is_constant(self) -> bool:
        return self.kind == CONSTANT

    def describe(self) -> str:
        """The distribution in words, with its figures: `lognormal: median 100 ms, p99 1000 ms, mean 165 ms`."""
        figures = f"median {_ms(self.p50_ms())}, p99 {_ms(self.p99_high_ms())}, mean {_ms(self.mean_ms())}"
        if self.kind == CONSTANT:
            return f"constant {_ms(self.median_ms)}"
        if self.kind == BIMODAL:
            slow = _ms(_given(self.slow_ms, "DELAY_SLOW_MS"))
            return f"bimodal: {slow} for {self.slow_pct:g}%, {_ms(self.median_ms)} for the rest; {figures}"
        if self.kind == "recorded":
            return f"recorded ({Path(self.source).name}): {figures}"
        return f"lognormal: {figures}"

    def wait_words(self) -> str:
        """What Little's law's wait is, for its formula: `(median 0.2 s, lognormal p99 2 s)`; "" when constant."""
        if self.kind == CONSTANT:
            return ""
        name = {"recorded": "recorded", BIMODAL: "bimodal"}.get(self.kind, "lognormal")
        return f"(median {_s(self.p50_ms())}, {name} p99 {_s(self.p99_high_ms())})"

    def as_dict(self) -> dict[str, object]:
        """params.json's `downstream.distribution`: enough to judge the run again without the hgrm file."""
        return {
            "kind": self.kind,
            "median_ms": self.median_ms,
            "p99_ms": self.p99_ms,
            "slow_ms": self.slow_ms,
            "slow_pct": self.slow_pct,
            "points": [list(p) for p in self.points],
            "source": self.source,
            "figures": {
                "mean_ms": round(self.mean_ms(), 3),
                "p50_ms": round(self.p50_ms(), 3),
                "p99_ms": round(self.p99_high_ms(), 3),
                "p99_9_ms": round(self.quantile_ms(0.999), 3),
                "high_end_ms": round(self.high_end_ms(), 3),
            },
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> Distribution:
        points = d.get("points")
        return cls(
            kind=str(d["kind"]),
            median_ms=_float(d["median_ms"]),
            p99_ms=_number_or_none(d.get("p99_ms")),
            slow_ms=_number_or_none(d.get("slow_ms")),
            slow_pct=_number_or_none(d.get("slow_pct")),
            points=tuple((float(q), float(v)) for q, v in points) if isinstance(points, (list, tuple)) else (),
            source=str(d.get("source") or ""),
        )

    def spring_args(self) -> list[str]:
        """The delay-service's downstream.* properties for this distribution."""
        kind = self.kind
        args = [f"--downstream.dist={kind}", f"--downstream.delay-ms={self.median_ms:g}"]
        if kind == LOGNORMAL:
            args.append(f"--downstream.p99-ms={self.p99_ms:g}")
        if kind == BIMODAL:
            args += [f"--downstream.slow-ms={self.slow_ms:g}", f"--downstream.slow-pct={self.slow_pct:g}"]
        if kind == "recorded":
            args.append("--downstream.points=" + ",".join(f"{q:.12g}:{v:.6g}" for q, v in self.points))
        return args


def share_above(quantile_ms: Callable[[float], float], ms: float) -> float:
    """The share (0..1) of answers a distribution puts above ms: its quantile function inverted by bisection
    (monotone for every kind), to a millionth."""
    low, high = 0.0, 1.0
    if quantile_ms(high) <= ms:
        return 0.0
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if quantile_ms(mid) <= ms else (low, mid)
    return 1.0 - low


class Figures(Protocol):
    """What the health rule reads of a request's wait: a Distribution, or fanout.SlowestOf (the slowest of calls)."""

    @property
    def is_constant(self) -> bool: ...

    def p50_ms(self) -> float: ...

    def p99_high_ms(self) -> float: ...


def _given(value: float | None, name: str) -> float:
    """A figure its kind needs (a lognormal's p99, a bimodal's slow delay and share): the checked parameters hold it
    (cross_checks), so None here is a distribution built without it."""
    if value is None:
        raise DownstreamError(f"the distribution needs {name}; it has none")
    return value


def _float(value: object) -> float:
    if isinstance(value, (int, float, str)):
        return float(value)
    raise TypeError(f"{value!r} is not a number")


def _number_or_none(value: object) -> float | None:
    """A recorded figure as it was written (a whole number stays one), or None when it is not a number."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _ms(ms: float) -> str:
    return f"{ms:.0f} ms"


def _s(ms: float) -> str:
    return f"{ms / 1000:.3g} s"


def _inverse(points: tuple[tuple[float, float], ...], q: float) -> float:
    """A recorded distribution's inverse at q: linear between the recorded points (as DelayDistribution.Recorded)."""
    for (q0, v0), (q1, v1) in zip(points, points[1:]):
        if q < q1:
            return v0 + (v1 - v0) * ((q - q0) / (q1 - q0) if q1 > q0 else 1.0)
    return points[-1][1]


def parse_dist(name: str, raw: str) -> str:
    """DELAY_DIST as checked: the kind, or `hgrm:<absolute path>` of a readable, non-empty file."""
    value = raw.strip()
    if value in (CONSTANT, LOGNORMAL, BIMODAL):
        return value
    if value.startswith(HGRM) and value[len(HGRM) :].strip():
        path = Path(value[len(HGRM) :].strip()).expanduser().resolve()
        hgrm_points.read(path, DIST_ALLOWED)
        return f"{HGRM}{path}"
    raise DownstreamError(f"{name}={raw!r} is not allowed; allowed: {DIST_ALLOWED}")


def parse_optional_ms(name: str, raw: str) -> int | None:
    """DELAY_P99_MS, DELAY_SLOW_MS: empty (not used) or 1..3,600,000 ms."""
    if not raw.strip():
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        raise DownstreamError(f"{name}={raw!r} is not a whole number; allowed: empty or 1..3600000") from None
    if not 1 <= value <= 3_600_000:
        raise DownstreamError(f"{name}={value} is out of range; allowed: empty or 1..3600000")
    return value


def parse_pct(name: str, raw: str) -> float | None:
    """DELAY_SLOW_PCT, DOWNSTREAM_ERRORS, DOWNSTREAM_RESETS: a percentage (decimals allowed); empty: not given."""
    if not raw.strip():
        return None
    try:
        value = float(raw.strip())
    except ValueError:
        raise DownstreamError(f"{name}={raw!r} is not a number; allowed: {PCT_ALLOWED}") from None
    if not (math.isfinite(value) and 0 <= value <= 100):
        raise DownstreamError(f"{name}={raw.strip()} is outside 0..100; allowed: {PCT_ALLOWED}")
    return int(value) if value.is_integer() else value


def distribution(values: RunParams) -> Distribution:
    """The run's distribution from its checked parameters."""
    dist = values.delay_dist
    median = float(values.delay_ms)
    if dist == LOGNORMAL:
        return Distribution(LOGNORMAL, median, p99_ms=float(_given(values.delay_p99_ms, "DELAY_P99_MS")))
    if dist == BIMODAL:
        slow_ms = float(_given(values.delay_slow_ms, "DELAY_SLOW_MS"))
        return Distribution(
            BIMODAL, median, slow_ms=slow_ms, slow_pct=float(_given(values.delay_slow_pct, "DELAY_SLOW_PCT"))
        )
    if dist.startswith(HGRM):
        path = dist[len(HGRM) :]
        points = hgrm_points.read(Path(path), DIST_ALLOWED)
        return Distribution("recorded", _inverse(points, 0.5), points=points, source=path)
    return Distribution(CONSTANT, median)


def of_run(params: RunParams, recorded: Mapping[str, object] | None) -> Distribution:
    """The distribution a finished run had: params.json's `downstream.distribution` (it holds a recorded one's points,
    so the hgrm file need not exist any more); a run from before DELAY_DIST had a constant DELAY_MS."""
    given = recorded.get("distribution") if recorded else None
    if isinstance(given, Mapping):
        return Distribution.from_dict(given)
    return Distribution(CONSTANT, float(params.delay_ms))


def record(values: RunParams, served_log: str) -> dict[str, object]:
    """params.json's `downstream`: the distribution with its figures, the injected failures, where the served delay
    went (relative to the run folder)."""
    return {
        "distribution": distribution(values).as_dict(),
        "errors_pct": values.downstream_errors,
        "resets_pct": values.downstream_resets,
        "served_log": served_log,
    }


def injects_failures(values: RunParams) -> bool:
    return bool(values.downstream_errors or values.downstream_resets)


def draws(values: RunParams) -> bool:
    """Whether the lab's own services call the delay-service's drawn path (a distribution, injected failures or a
    brownout) instead of /delay?ms=DELAY_MS."""
    return values.profile == BROWNOUT_PROFILE or not distribution(values).is_constant or injects_failures(values)


def service_base_url(address: str, port: int, values: RunParams) -> str:
    """The delay-service as the lab's own services call it: its base URL, under DRAWN_PREFIX when it draws."""
    return f"http://{address}:{port}" + (DRAWN_PREFIX if draws(values) else "")


def delay_service_args(values: RunParams, served_log: str) -> list[str]:
    """The delay-service's downstream.* Spring properties for the run: distribution, failures, stubs, served log."""
    answers = stubs.encoded(stubs.read(Path(values.downstream_stubs))) if values.downstream_stubs else ""
    return [
        *distribution(values).spring_args(),
        f"--downstream.errors-pct={values.downstream_errors:g}",
        f"--downstream.resets-pct={values.downstream_resets:g}",
        f"--downstream.stubs={answers}",
        f"--downstream.served-log={served_log}",
    ]


def health_thresholds(dist: Figures, base: Thresholds | None = None) -> Thresholds:
    """The health rule for a run on this distribution. Constant: the contract's rule. Otherwise an idle service's p99
    is the distribution's, not twice its median: the slack grows so that, at a baseline p50 of the median, the limit
    is what the contract's rule gives a constant delay of the distribution's p99 (max(2 x p99, p99 + 100 ms))."""
    base = base or Thresholds()
    if dist.is_constant:
        return base
    p99 = dist.p99_high_ms()
    limit = max(base.p99_factor * p99, p99 + base.p99_slack_ms)
    return replace(base, p99_slack_ms=round(limit - dist.p50_ms()))
