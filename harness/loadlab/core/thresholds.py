"""The health rule's thresholds: the contract's defaults, defined here once, and the names the simulation takes them
by (its early stop judges with the values a run passes; it has no defaults of its own and refuses to start without
them; test_thresholds.py and the shared fixture health_cases.json hold both sides to these).

A level is healthy when its OK throughput is at least `ok_ratio` of the offered rate, its error ratio at most
`max_error_ratio`, its p99 at most max(`p99_factor` x baseline p50, baseline p50 + `p99_slack_ms`) and its p50 at most
max(`p99_factor` x baseline p50, baseline p50 + `p50_slack_ms`). Standard
library only: limits.py (run by params.py before the venv exists) derives the harness's timeouts from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from loadlab.core import profile_names

# Each threshold's system property in the simulation (gatling/…/LoadConfig.java, without the `loadlab.` prefix),
# which it requires: these values are the only ones it judges with.
SIMULATION_NAMES = {
    "ok_ratio": "okRatio",
    "max_error_ratio": "maxErrorRatio",
    "p99_factor": "p99Factor",
    "p99_slack_ms": "p99SlackMs",
    "p50_slack_ms": "p50SlackMs",
    "settle_s": "settleSeconds",
}

# A level of stairs at least this long leaves its first SETTLE_SECONDS out of its judgment (settle_seconds).
SETTLE_SECONDS = 2
SETTLE_FROM_LEVEL_SECONDS = 8


@dataclass(frozen=True)
class Thresholds:
    ok_ratio: float = 0.95
    max_error_ratio: float = 0.01
    p99_factor: float = 2.0
    p99_slack_ms: float = 100.0
    # The median's slack stays the contract's 100 ms when a tailed downstream widens the p99's
    # (downstream.health_thresholds): an idle service's median is the distribution's, so a queue that doubles it is
    # a queue, even while the p99 stays within a limit set by a tail of seconds.
    p50_slack_ms: float = 100.0
    # The whole seconds at the start of every measured level that are not judged (settle_seconds): a run records
    # the value it used; one recorded without it (older runs) was judged on every second.
    settle_s: float = 0.0

    @classmethod
    def from_mapping(cls, values: Mapping[str, object] | None) -> Thresholds:
        """params.json's `thresholds`; a missing or non-numeric entry keeps its default."""
        known: dict[str, float] = {}
        for f in fields(cls):
            value = (values or {}).get(f.name)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                known[f.name] = float(value)
        return cls(**known)

    def p99_limit_ms(self, baseline_p50_ms: float) -> float:
        return max(self.p99_factor * baseline_p50_ms, baseline_p50_ms + self.p99_slack_ms)

    def p50_limit_ms(self, baseline_p50_ms: float) -> float:
        """The median's limit: the contract's p99 rule on a constant delay, where it is never the one crossed first
        (a median past it has a p99 past it too), and the one a queue crosses first under a tailed downstream."""
        return max(self.p99_factor * baseline_p50_ms, baseline_p50_ms + self.p50_slack_ms)

    def as_dict(self) -> dict[str, float | int]:
        """As params.json and summary.json spell them: whole numbers as ints (100, not 100.0)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def simulation_properties(self) -> dict[str, float | int]:
        """The simulation's `loadlab.*` properties (without the prefix) that carry these thresholds."""
        return {SIMULATION_NAMES[name]: value for name, value in self.as_dict().items()}


def settle_seconds(profile: str, step_seconds: int) -> int:
    """The seconds a level of stairs is given to settle after its step before it is judged, the same in the
    simulation's early stop and in the analysis (both read the run's recorded `settle_s`).

    A step up is a transient for the service under test: a pool grows its threads, a client opens connections, code
    paths the lower rate did not exercise are compiled, the collector resizes its young generation. Measured on the
    default run: the coarse 600 rps level right after 300 read a p99 of 495 ms and was healthy measured again, and
    the fine pass spent 9 levels (90 s) looking for a knee that was not there. Its first seconds carry that
    transient; a knee is a rate the service cannot keep, which its remaining seconds show as well. Levels shorter
    than SETTLE_FROM_LEVEL_SECONDS keep every second (the remaining ones would be too few to judge), and so does a
    ramp, which has no step."""
    if profile != profile_names.STAIRS or step_seconds < SETTLE_FROM_LEVEL_SECONDS:
        return 0
    return SETTLE_SECONDS


def _plain(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value
