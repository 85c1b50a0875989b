"""RunParams: every run parameter as one frozen, typed record, what params.parse returns and every stage reads.

A field is its parameter's name in lower case (DELAY_MS is `delay_ms`), typed as the parameter table's parser
(params.py) returns it; test_run_params proves the fields and the table agree one to one. params.json and
summary.json spell it by the parameters' own names (`to_json`, and params.from_json back).

Standard library only, and no module of the lab: every module that reads a parameter imports this one, so it can
import none of them (params.py, which parses, imports them all).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class RunParams:
    target: str
    modes: tuple[str, ...]
    delay_ms: int
    delay_dist: str  # constant | lognormal | bimodal | hgrm:<absolute path>
    delay_p99_ms: int | None
    delay_slow_ms: int | None
    delay_slow_pct: float | None
    downstream_errors: float
    downstream_resets: float
    downstream_stubs: str  # "" or the stubs file's absolute path
    downstream_timeout_ms: int | None
    virtual_limit: int
    client: str
    client_pool: int | None
    service_memory_mb: int | None
    platform_threads: tuple[int, ...]  # one size, or a sweep of several
    max_connections: int
    threadlocal_kb: int
    profile: str
    rate: int | None  # PROFILE=brownout: parse() replaces an empty RATE by its default
    brownout_before: int
    brownout_ms: int
    brownout_seconds: int
    brownout_after: int
    start_rps: int
    peak_rps: int
    steps: int
    step_seconds: int
    warmup_seconds: int
    injectors: int
    scenario: str  # one scenario, or a mix's words ("http:70 db:30")
    fanout: int
    fanout_pool: int | None
    fanout_timeout_ms: int | None
    fanout_on_timeout: str
    cpu_ms: int
    db_pool: int
    jdks: tuple[int, ...]
    repeat: int
    refine: int  # 0 or 1, as params.json has always spelled it
    target_rps: float | None  # the rate a prescription sizes for; None: the next limit predicted
    ladder: int | None  # LADDER: rungs to climb after the stairs; None: off
    app: str  # "" (the lab's own thread-service) or the jar's absolute path
    app_path: str
    app_args: str
    app_requests: str  # "" or the mix file's absolute path
    service_cpus: float | None
    results_dir: str
    # The fields a recorded run did not hold (a run older than a parameter, or params.json, which leaves out where
    # the run folder went): read as their defaults, and written back out as they were, left out.
    absent: frozenset[str] = field(default=frozenset(), repr=False, compare=False, kw_only=True)

    @staticmethod
    def names() -> tuple[str, ...]:
        """The parameters' fields, in the table's order."""
        return tuple(f.name for f in fields(RunParams) if f.name != "absent")

    def to_json(self) -> dict[str, object]:
        """Every parameter held, by its own name, as params.json and summary.json spell it: lists for tuples, and one
        platform pool as a number (`"PLATFORM_THREADS": 200`, the contract; a sweep stays a list)."""
        shown: dict[str, object] = {}
        for name in self.names():
            if name in self.absent:
                continue
            value = getattr(self, name)
            if name == "platform_threads" and len(value) == 1:
                value = value[0]
            shown[name.upper()] = list(value) if isinstance(value, tuple) else value
        return shown

    @classmethod
    def parsed(cls, values: Mapping[str, object]) -> RunParams:
        """The record of every field's value as its parameter's parser (params.py's table) returned it."""
        # Any: each value is of its field's type, as its own parser made it, which a table of parsers cannot tell
        # mypy (test_run_params proves the fields and the table agree one to one).
        typed: dict[str, Any] = dict(values)
        return cls(**typed)

    @classmethod
    def read(cls, recorded: Mapping[str, object], defaults: RunParams) -> RunParams:
        """to_json's mapping read back: a parameter it does not hold (a run older than it, RESULTS_DIR in params.json)
        is the default's, and stays left out when written again (`absent`). Not checked again: a finished run's files
        (APP's jar, DELAY_DIST's hgrm) need not exist any more."""
        # Any: params.json's values as the record holds them, its own to_json's (each field's type), not checked again.
        given: dict[str, Any] = {n: _typed(n, recorded[n.upper()]) for n in cls.names() if n.upper() in recorded}
        return replace(defaults, **given, absent=frozenset(cls.names()) - set(given))

    def as_recorded(self) -> RunParams:
        """The parameters as params.json records a run: all but RESULTS_DIR, which says where its folder went, not
        how it ran."""
        return replace(self, absent=self.absent | {"results_dir"})

    @property
    def single_pool(self) -> int | None:
        """The one platform pool asked for, where one pool is meant; None for a sweep (each platform column has its
        own size, runplan.ModeRun.threads)."""
        return self.platform_threads[0] if len(self.platform_threads) == 1 else None

    @property
    def measured_seconds(self) -> int:
        """The measured phase of one coarse pass: its levels, warm-up excluded."""
        return self.steps * self.step_seconds


def pool_sizes(recorded: object) -> tuple[int, ...]:
    """PLATFORM_THREADS as a tuple of sizes from any form it was kept in: a tuple, JSON's number (one size) or list (a
    sweep), or the text a user typed; () when it says none."""
    if isinstance(recorded, int):
        recorded = [recorded]
    words = recorded if isinstance(recorded, (list, tuple)) else str(recorded if recorded is not None else "").split()
    return tuple(int(w) for w in words if str(w).strip().isdigit())


def _typed(name: str, value: object) -> object:
    """A value as RunParams holds it, from JSON (no tuples) or an older record's spelling (a number for one pool size
    or JDK, MODES as its text)."""
    if name == "platform_threads":
        return pool_sizes(value)
    if name in ("modes", "jdks"):
        words = value.split() if isinstance(value, str) else value if isinstance(value, (list, tuple)) else [value]
        return tuple(_whole(w) if name == "jdks" else str(w) for w in words)
    return value


def _whole(word: object) -> int:
    if isinstance(word, (int, float, str)):
        return int(word)
    raise TypeError(f"{word!r} is not a whole number")
