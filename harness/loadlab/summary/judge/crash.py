"""Where a role of a mode died: in which pass (the coarse stairs or a fine pass), which of that pass's levels was
under way, and the sentence the verdict and the page say it with.

A mode is one thread-service run through several passes: a death ends the pass it happened in, and only that one.
The passes before it had ended, so what they measured stands (a coarse collapse stays a collapse); the levels of
the dying pass that had not ended are not counted, and that pass does not narrow the knee: a dead process is not a
collapse.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from loadlab.analysis.levels import level_number
from loadlab.core import metrics
from loadlab.core.app import THREAD_SERVICE
from loadlab.core.upgrade import Doc
from loadlab.summary.judge.jsonform import plain_number
from loadlab.summary.reading.raw import Injector, Metrics, RawMode
from loadlab.summary.reading.seconds import Tables
from loadlab.summary.reading.values import as_float
from loadlab.summary.schema.detail_records import CrashRecord

COARSE = "coarse"
T = TypeVar("T")


@dataclass(frozen=True)
class Place:
    """The pass a role died in and the epoch second from which nothing of that pass counts."""

    pass_name: str  # COARSE or a fine pass's folder (`refine-1`)
    cutoff: int  # the epoch second the role was last seen alive in

    def cutoff_for(self, pass_name: str) -> int | None:
        return self.cutoff if pass_name == self.pass_name else None


def cutoff_second(crash: Doc | None) -> int | None:
    """The epoch second a role was last seen alive in: nothing of its pass counts from there on."""
    alive = as_float((crash or {}).get("alive_until_epoch_ms"))
    return None if alive is None else math.floor(alive / 1000)


def second_of_phase(crash: Doc, measure_start_s: int | None) -> int | None:
    """`crashed.second`: the second of the measured phase (starting at epoch second measure_start_s) a role was last
    seen alive in; negative in the warm-up. The one computation for the verdict and bench's console line."""
    cutoff = cutoff_second(crash)
    return None if cutoff is None or measure_start_s is None else cutoff - measure_start_s


def locate(crash: Doc | None, passes: list[tuple[str, RawMode]]) -> Place | None:
    """The pass the crash happened in: the last one (in the order they ran) that had begun by then. A crash before
    anything began is the coarse pass's (its warm-up)."""
    cutoff = cutoff_second(crash)
    if cutoff is None:
        return None
    name = COARSE
    for pass_name, mode_raw in passes:
        begun = _first_second(mode_raw)
        if begun is not None and begun <= cutoff:
            name = pass_name
    return Place(name, cutoff)


def _first_second(mode_raw: RawMode) -> int | None:
    """The pass's first second: its injectors' first row, or the instant their schedule was anchored."""
    firsts = [min(inj.seconds) for inj in mode_raw.injectors if inj.seconds]
    anchors = [inj.meta.start_epoch_ms for inj in mode_raw.injectors]
    firsts += [math.floor(a / 1000) for a in anchors if a is not None]
    return min(firsts) if firsts else None


def summary(crash: Doc | None, place: Place | None, tables: Tables) -> Doc | None:
    """The contract's `crashed`: {role, host, second, exit, cause} (+ signal), and where: `pass` (`coarse` or the
    fine pass), `second` counted from the start of that pass's measured phase (negative: in its warm-up), `level`
    (that pass's level under way, its number counted from 1, or null) and its `level_rps`. tables: the dying
    pass's."""
    if crash is None or place is None:
        return None
    position = tables.dropped_levels[0] if tables.dropped_levels else None
    return {
        "role": crash.get("role"),
        "host": crash.get("host"),
        "second": second_of_phase(crash, tables.t0),
        "exit": crash.get("exit"),
        "signal": crash.get("signal"),
        "cause": crash.get("cause"),
        "pass": place.pass_name,
        "level": None if position is None else level_number(position),
        "level_rps": plain_number(tables.targets[position]) if position in tables.targets else None,
    }


def of(crashed: Mapping[str, object]) -> CrashRecord:
    """A crash as the summary records it, from the mapping `summary` made and judging.py completed (or the watcher's,
    params.json's, with its instants): each value of the type its field holds, else None."""
    peak, gc_bound = crashed.get("peak_inflight"), crashed.get("gc_bound")
    return CrashRecord(
        role=_of_type(crashed.get("role"), str),
        host=_of_type(crashed.get("host"), str),
        second=_of_type(crashed.get("second"), int),
        exit=_of_type(crashed.get("exit"), int),
        signal=_of_type(crashed.get("signal"), str),
        cause=_of_type(crashed.get("cause"), str),
        pass_name=_of_type(crashed.get("pass"), str),
        level=_of_type(crashed.get("level"), int),
        level_rps=_of_type(crashed.get("level_rps"), (int, float)),
        peak_inflight=dict(peak) if isinstance(peak, Mapping) else None,
        out_of_memory=_of_type(crashed.get("out_of_memory"), bool),
        memory_limit_mb=_of_type(crashed.get("memory_limit_mb"), int),
        gc_bound=[dict(b) for b in gc_bound if isinstance(b, Mapping)] if isinstance(gc_bound, list) else None,
    )


def _of_type(value: object, kind: type[T] | tuple[type[T], ...]) -> T | None:
    """The value where it is of this kind (never a bool for a number), else None."""
    is_bool = isinstance(value, bool) and kind is not bool
    return value if isinstance(value, kind) and not is_bool else None


def when(crashed: CrashRecord, name_the_pass: bool = True) -> str:
    """`at second 23 of the measured phase`, `in fine pass refine-1, at second 2 of its measured phase, in its level
    1 (300 rps)`: when a role died, in the words of its pass."""
    second, name = crashed.second, crashed.pass_name or COARSE
    fine = name != COARSE
    phase = "its measured phase" if fine else "the measured phase"
    if second is None:
        text = "during this mode" if not fine else "during it"
    elif second >= 0:
        text = f"at second {second} of {phase}"
    else:
        text = f"during {'its' if fine else 'the'} warm-up, {-second} s before {phase}"
    if fine and name_the_pass:
        text = f"in fine pass {name}, {text}"
    if fine and crashed.level is not None:
        rps = crashed.level_rps
        text += f", in its level {crashed.level}" + (f" ({plain_number(rps):,} rps)" if rps is not None else "")
    return text


def peak_inflight(service: Metrics, injectors: list[Injector], cutoff: int) -> dict[str, int | None]:
    """The most requests in flight up to the second a role was last seen alive: `service`, as the service counted
    them (its sampler's inflight_requests, through every pass of the mode), and `injectors`, sent and not answered
    (the dying pass's injectors together; it counts what waited in the accept queue too). None where nothing was
    recorded. What a memory crash is read with: how much the service had admitted when it ran out."""
    counted = [row.metric(metrics.INFLIGHT_REQUESTS) for s, row in service.items() if s <= cutoff]
    own = [v for v in counted if v is not None and v >= 0]
    sent: dict[int, float] = {}
    for inj in injectors:
        for s, row in inj.seconds.items():
            value = row.inflight
            if s <= cutoff and value is not None:
                sent[s] = sent.get(s, 0.0) + value
    return {
        "service": round(max(own)) if own else None,
        "injectors": round(max(sent.values())) if sent else None,
    }


def service_log(mode_dir: Path) -> Path:
    """The service's log of this mode in the run's logs/ (run/context.py log_name: `virtual-thread-service.log`,
    `rep-2-virtual-thread-service.log` with REPEAT)."""
    root = next((p for p in mode_dir.parents if (p / "logs").is_dir()), mode_dir.parent)
    return root / "logs" / f"{str(mode_dir.relative_to(root)).replace('/', '-')}-{THREAD_SERVICE}.log"


def log_afterwards(crashed: Doc, log: Path) -> None:
    """A JVM whose heap fills up can stop answering (GC back to back) before it gives up with an OutOfMemoryError;
    the watcher then names the death by its silence. The service's log, read once the run is over, says what came
    next: its memory error is added to the cause, as the log's words."""
    if crashed.get("role") != THREAD_SERVICE or out_of_memory(crashed):
        return
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return
    found = [line for line in lines if "OutOfMemoryError" in line and "unable to create native thread" not in line]
    if found:
        crashed["cause"] = f"{crashed.get('cause')}; its log says afterwards: {found[-1].strip()[:300]}"


# How loadlab-host's log-cause names a kill its memory cgroup counted (infra/host/lib/cgroups.bash says the same
# words; harness/tests/summary/test_crash_verdict.py holds them equal). A SIGKILL nothing explains is not one: the
# watcher's "a kill -9, or the kernel's OOM killer" names both possibilities and claims neither.
OOM_KILLED = "killed by the kernel's OOM killer"


def out_of_memory(crashed: Mapping[str, object]) -> bool:
    """A death the JVM or the kernel put down to memory: the JVM's OutOfMemoryError (its heap; never the thread
    limit, which names itself) or the kernel's OOM killer in the service's memory cgroup (loadlab-host log-cause)."""
    cause = str(crashed.get("cause") or "")
    if "unable to create native thread" in cause:
        return False
    return "OutOfMemoryError" in cause or OOM_KILLED in cause


def peak_words(crashed: CrashRecord) -> str:
    """`1,234 requests were in flight at the most before it (the service's count; 1,300 sent and unanswered)`."""
    peak = crashed.peak_inflight or {}
    own, sent = peak.get("service"), peak.get("injectors")
    if own is None and sent is None:
        return ""
    if own is None:
        return f"{sent:,} requests were sent and unanswered at the most before it"
    return f"{own:,} requests were in flight in the service at the most before it" + (
        f" ({sent:,} sent and unanswered)" if sent is not None else ""
    )


def how(code: int | None, signal: str | None) -> str:
    """`exit 137, SIGKILL`, `exit 1`, `no exit code`: how a role ended."""
    if code is None:
        return "no exit code"
    return f"exit {code}" + (f", {signal}" if signal else "")


def headline(crashed: CrashRecord) -> str:
    """`the thread-service on local died at second 23 of the measured phase (exit 137, SIGKILL): <cause>`; a death of
    memory says so first, and how many requests were in flight before it."""
    died = f"the {crashed.role} on {crashed.host} died {when(crashed)}"
    ended = how(crashed.exit, crashed.signal)
    if crashed.out_of_memory:
        bound = crashed.memory_limit_mb
        within = f" within its memory bound of {bound:,} MB" if bound else ""
        peak = peak_words(crashed)
        return f"{died} OUT OF MEMORY{within} ({ended}): {crashed.cause}" + (f"; {peak}" if peak else "")
    return f"{died} ({ended}): {crashed.cause}"


def reason(crashed: CrashRecord, tables: Tables) -> str:
    """The invalid reason: what died, when, and what is not counted because of it (tables: the dying pass's)."""
    name = crashed.pass_name or COARSE
    owner = "" if name == COARSE else f"{name}'s "
    text = f"{headline(crashed)}; {dropped_text(tables.dropped_levels, owner)}"
    if name != COARSE:
        text += f"; the passes before {name} had ended: what they measured stands"
    return text


def dropped_text(dropped: list[int], owner: str = "") -> str:
    """The levels a crash interrupted (dropped: their positions) in words, each by its number."""
    if not dropped:
        return "every level had ended before it"
    names = ", ".join(str(level_number(position)) for position in dropped)
    return (
        f"{owner}level{'s' if len(dropped) > 1 else ''} {names}, under way, {'are' if len(dropped) > 1 else 'is'} "
        "not counted, nor anything after it: a dead process is not a collapse"
    )


def why_pass_not_used(crashed: Mapping[str, object] | None, pass_name: str) -> str | None:
    """A fine pass a role died in narrows nothing: its last levels may be the dying process, not the service."""
    if crashed is None or of(crashed).pass_name != pass_name:
        return None
    died = of(crashed)
    return f"the {died.role} died {when(died, name_the_pass=False)} of this pass: a dead process is not a collapse"
