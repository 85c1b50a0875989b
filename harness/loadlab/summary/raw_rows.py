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

from loadlab.summary.values import as_float, as_int, int_or_none

# A CSV row by its header's names, as csv.DictReader gives it: only a parse below reads one.
Cells = Mapping[str, str]
R = TypeVar("R")

SECOND = "second"  # every raw CSV's first column: the epoch second its row is about, its rows' key


@dataclass(frozen=True)
class InjectorSecond:
    """One second of an injector's seconds.csv (the simulation's RawFiles.CSV_HEADER): what it sent and got back."""

    phase: str  # `warmup` or `measure` (warmup.WARMUP_PHASE); "" when unwritten
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


def columns(row_type: type[InjectorSecond] | type[HostSample]) -> tuple[str, ...]:
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
