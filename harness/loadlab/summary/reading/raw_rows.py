"""The raw CSV files' rows, typed: a frozen record per file, whose fields are the file's columns as its header names
them (declared here once), each cell read here once into what the summary makes of it, so nothing downstream reads
a column by name or converts a cell itself.

A cell reads as it always has: a number where there is one; None for a blank, text or the samplers' -1
(values.as_float), so "not measured" never becomes 0; only the injector's counts read a blank as 0 requests
(values.as_int). A column an older run's writer did not have yet reads as a blank.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Generic, TypeVar

from loadlab.summary.reading.values import as_float, as_int, int_or_none

# A CSV row by its header's names, as csv.DictReader gives it: only a parse below reads one.
Cells = Mapping[str, str]
R = TypeVar("R")

SECOND = "second"  # every raw CSV's first column: the epoch second its row is about, its rows' key
# seconds.csv's phases, the simulation's (Schedule.WARMUP, Schedule.MEASURE; test_raw_rows.py holds them equal)
WARMUP_PHASE = "warmup"
MEASURE_PHASE = "measure"


@dataclass(frozen=True)
class InjectorSecond:
    """One second of an injector's seconds.csv (the simulation's RawFiles.CSV_HEADER): what it sent and got back."""

    phase: str  # WARMUP_PHASE or MEASURE_PHASE; "" when unwritten
    level: int | None  # the simulation's level index, -1 in the warm-up; None when unreadable
    target_rps: float | None  # this injector's share of the level's rate
    sent: int
    ok: int
    ko: int
    inflight: float | None  # sent, not yet answered, as the second closed; None before the column was written

    @classmethod
    def parse(cls, cells: Cells) -> InjectorSecond:
        return cls(
            phase=cells.get("phase") or "",
            # -1 is the warm-up's level, not "unknown": read as a plain integer, not as a measurement
            level=int_or_none(cells.get("level")),
            target_rps=as_float(cells.get("target_rps")),
            sent=as_int(cells.get("sent")),
            ok=as_int(cells.get("ok")),
            ko=as_int(cells.get("ko")),
            inflight=as_float(cells.get("inflight")),
        )

    @property
    def warming_up(self) -> bool:
        return self.phase == WARMUP_PHASE

    @property
    def measured(self) -> bool:
        return self.phase == MEASURE_PHASE


@dataclass(frozen=True)
class HostSample:
    """One second of a sampler's samples.csv (infra/host/loadlab-sample), the same file for the thread-service, the
    delay-service and each injector. Every figure is None where the sampler could not read it (it writes -1 or a
    blank), and NO_SAMPLE, all None, stands for a second it wrote no row for."""

    proc_cpu_pct: float | None = None  # the role's process, in % of ONE core (top's convention)
    host_cpu_pct: float | None = None  # the whole host, in %
    host_cores: float | None = None
    probe_ms: float | None = None  # the delay-service's own latency, timed by its sampler (the delay host only)
    probe_failed: float | None = None
    os_threads: float | None = None
    context_switches: float | None = None  # cumulative: a rate is two readings apart (cost_fits.py)

    @classmethod
    def parse(cls, cells: Cells) -> HostSample:
        # Every column is a measurement, read alike: the fields' names are the header's
        return cls(**{f.name: as_float(cells.get(f.name)) for f in fields(cls)})

    def cpu_per_core(self) -> float:
        """The process's CPU over the host's cores, -1 when either is unknown: which injector was the busiest."""
        cpu, cores = self.proc_cpu_pct, self.host_cores
        return cpu / cores if cpu is not None and cores else -1.0


NO_SAMPLE = HostSample()


@dataclass(frozen=True)
class RequestPoolSample:
    """One second of request_pool.csv (loadlab-sample --request-pool-out): the service's request threads its host
    saw by name: Tomcat's platform request threads, or the reactive service's event loops."""

    named_threads: float | None = None

    @classmethod
    def parse(cls, cells: Cells) -> RequestPoolSample:
        return cls(named_threads=as_float(cells.get("named_threads")))


@dataclass(frozen=True)
class MetricSample:
    """One second of a file whose columns are named metrics declared once in a list of their own: the
    thread-service's jvm.csv (metrics.tsv, core/metrics.py) and an APP's actuator.csv (core/app.ACTUATOR_METRICS).
    A record of fields would repeat those lists, and server.csv copies whatever metrics.tsv adds, so the row keeps
    its numbers by name and is read with those lists' constants (`metric`), never a spelled string."""

    numbers: Mapping[str, float]  # the cells that held a number, by their metric's name

    @classmethod
    def parse(cls, cells: Cells) -> MetricSample:
        read = ((name, as_float(cell)) for name, cell in cells.items() if name != SECOND)
        return cls({name: number for name, number in read if number is not None})

    def metric(self, name: str) -> float | None:
        """The metric's number at this second; None for a blank, text, the -1 of "not available" or an unsampled
        metric, as as_float has always read them."""
        return self.numbers.get(name)


NO_METRICS = MetricSample({})


@dataclass(frozen=True)
class ErrorCount:
    """One row of an injector's errors.csv (the simulation's RawFiles.ERRORS_HEADER): the failed requests of one
    kind that completed in one second. The kinds are the simulation's (ErrorKind, listed in meta.json as
    `error_kinds`): read as they come, never spelled here, so a new kind needs no edit on this side."""

    kind: str
    count: int

    @classmethod
    def parse(cls, cells: Cells) -> ErrorCount | None:
        """None for a row cut short by an interrupted writer (no kind, or no count)."""
        kind, count = (cells.get("kind") or "").strip(), as_float(cells.get("count"))
        return cls(kind, int(count)) if kind and count is not None else None


def read_error_counts(path: Path) -> dict[int, dict[str, int]]:
    """errors.csv, a row per kind seen in a second, as {second: {kind: count}}; {} when it cannot be read (runs
    before it was written)."""
    kinds: dict[int, dict[str, int]] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return kinds
    for cells in csv.DictReader(io.StringIO(text)):
        second, row = as_float(cells.get(SECOND)), ErrorCount.parse(cells)
        if second is None or row is None:
            continue
        per_second = kinds.setdefault(int(second), {})
        per_second[row.kind] = per_second.get(row.kind, 0) + row.count
    return kinds


TypedRow = type[InjectorSecond] | type[HostSample] | type[RequestPoolSample] | type[ErrorCount]


def columns(row_type: TypedRow) -> tuple[str, ...]:
    """A typed file's header: its key, then its record's fields (tests hold it to what each writer writes)."""
    return (SECOND, *(f.name for f in fields(row_type)))


@dataclass(frozen=True)
class Table(Generic[R]):
    header: tuple[str, ...]  # the columns the file has (an older run's may lack some)
    rows: dict[int, R]  # by epoch second


def read_table(path: Path, parse: Callable[[Cells], R]) -> Table[R] | None:
    """A raw CSV's rows keyed by their epoch second, each made by parse; None when the file cannot be read.

    A row cut short by an interrupted writer is dropped: a half-written row would read as blanks, "not measured",
    where the writer did measure."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    rows: dict[int, R] = {}
    reader = csv.DictReader(io.StringIO(text))
    header = tuple(reader.fieldnames or ())
    for row in reader:
        if None in row.values() or None in row or len(row) != len(header):
            continue
        second = as_float(row.get(SECOND))
        if second is not None:
            rows[int(second)] = parse(row)
    return Table(header, rows)
