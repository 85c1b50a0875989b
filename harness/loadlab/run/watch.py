"""Watching every role's process while a mode runs, on every target: a dead process is never a collapse.

Once a second, one `loadlab-host status` call per host (one SSH round trip on aws) reports each role's process
as running or exited with its code, and whether the thread-service's management port still answers a health GET.
A role that exited (an injector only when it failed: exit 0 is its normal end), or a thread-service that stopped
answering for HEALTH_SILENCE_S, is a crash: the bench stops that mode's load and the summary marks the mode
`crashed` with the role, its host, the second, the exit code or signal and the cause found in its log.

A sampler is watched too, but its end is not a crash: it measures nothing of the service, it only records the
evidence the verdict's trust rests on (CPU of every role and host, the delay-service's own latency). When one exits
or stops writing rows (alive but frozen) for its `stale_after_s`, the watcher records an EvidenceLoss and the load
goes on: what the injectors measure stays real; only the seconds without the sampler's rows cannot be trusted, and
the summary says so (summary/judge/evidence.py). Stopping the load instead would throw away a real measurement and give
a user no more than "invalid" for the levels that had their evidence.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from loadlab.run.hosts import Host, HostError

# A thread-service whose management port gave no answer for this long is as good as dead for the measurement.
HEALTH_SILENCE_S = 2.0
# A host whose status call failed for this long (SSH down, host gone) has lost every role it runs.
HOST_SILENCE_S = 10.0
STATUS_TIMEOUT_S = 8.0
# A sampler just started needs a moment (its Python, the pid file it reads) before its first row: its silence counts
# from this long after the watch began.
SAMPLER_START_GRACE_S = 10.0


@dataclass
class Watched:
    role: str  # what the summary calls it: thread-service, delay-service, injector-<i>
    name: str  # its process name for loadlab-host (pid file)
    host: Host
    log: str  # its console log, on its host
    health_url: str | None = None  # fetched on its host, so a management port on loopback works everywhere
    finishes: bool = False  # an injector ends on its own: exit 0 is its normal end, not a crash
    # A sampler: its end or silence loses evidence (an EvidenceLoss), it never stops the load. `output` is the file it
    # appends a row to every second, on its host; no row for stale_after_s while it runs is a frozen sampler.
    evidence: bool = False
    output: str | None = None
    stale_after_s: float | None = None


@dataclass
class Crash:
    role: str
    host: str
    exit: int | None  # the exit code, None when unknown (killed with its wrapper, or still hung)
    signal: str | None  # SIGKILL, SIGSEGV, … when the code says a signal ended it
    cause: str  # the line of its log that says why, or what the watcher saw
    alive_until_ms: int  # the last instant it was seen running and answering: nothing after it counts
    detected_ms: int

    def as_dict(self) -> dict[str, object]:
        return {
            "role": self.role,
            "host": self.host,
            "exit": self.exit,
            "signal": self.signal,
            "cause": self.cause,
            "alive_until_epoch_ms": self.alive_until_ms,
            "detected_epoch_ms": self.detected_ms,
        }


@dataclass
class EvidenceLoss:
    """A sampler that died or froze: from `alive_until_ms` on, its role has no sampled evidence."""

    sampler: str  # its process name (sampler-delay, sampler-injector-0, …)
    role: str  # what it samples: thread-service, delay-service, injector-<i>
    host: str
    what: str  # "died" | "stalled"
    exit: int | None
    signal: str | None
    cause: str
    alive_until_ms: int  # the last instant it was seen running (died) or its file written (stalled)
    detected_ms: int

    def as_dict(self) -> dict[str, object]:
        return {
            "sampler": self.sampler,
            "role": self.role,
            "host": self.host,
            "what": self.what,
            "exit": self.exit,
            "signal": self.signal,
            "cause": self.cause,
            "alive_until_epoch_ms": self.alive_until_ms,
            "detected_epoch_ms": self.detected_ms,
        }


def exit_text(code: int | None) -> tuple[int | None, str | None]:
    """(exit code, signal name): a shell reports a process ended by signal N as 128 + N."""
    if code is None or code <= 128:
        return code, None
    try:
        return code, signal.Signals(code - 128).name
    except ValueError:
        return code, None


@dataclass
class Status:
    """One `loadlab-host status` answer."""

    states: dict[str, str] = field(default_factory=dict)  # name → "running" | "limit" | "exited <rc>" | "absent"
    health: dict[str, bool] = field(default_factory=dict)  # name → its health URL answered
    age_s: dict[str, float | None] = field(default_factory=dict)  # name → seconds since its output was written


def parse_status(text: str) -> Status:
    status = Status()
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "health":
            status.health[words[1]] = words[2] == "ok"
        elif len(words) >= 3 and words[0] == "fresh":
            status.age_s[words[1]] = _float(words[2])
        elif len(words) >= 2:
            status.states[words[0]] = " ".join(words[1:])
    return status


@dataclass
class _HostState:
    last_answer_ms: int
    warned: bool = False


@dataclass
class Watcher:
    watched: list[Watched]
    clock: Callable[[], int] = field(default=lambda: int(time.time() * 1000))
    _seen_ok_ms: dict[str, int] = field(default_factory=dict)
    _hosts: dict[int, _HostState] = field(default_factory=dict)
    finished: dict[str, int] = field(default_factory=dict)  # injectors that ended by themselves: name → code
    evidence_lost: list[EvidenceLoss] = field(default_factory=list)  # samplers that died or froze, in order
    _written_ms: dict[str, int] = field(default_factory=dict)  # a sampler's last row, once its file exists
    _started_ms: int = 0
    _stalled: set[str] = field(default_factory=set)
    _dead: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        now = self.clock()
        self._seen_ok_ms = {w.name: now for w in self.watched}
        self._started_ms = now
        self._hosts = {id(w.host): _HostState(now) for w in self.watched}

    def all_finished(self) -> bool:
        """Every process that ends on its own (the injectors) has ended."""
        return all(w.name in self.finished for w in self.watched if w.finishes)

    def poll(self) -> Crash | None:
        """One status call per host; the first crash seen, or None."""
        by_host: dict[int, list[Watched]] = {}
        for w in self.watched:
            by_host.setdefault(id(w.host), []).append(w)
        for group in by_host.values():
            host = group[0].host
            args = [a for w in group if w.health_url for a in ("--health", f"{w.name}={w.health_url}")]
            args += [a for w in group if w.evidence and w.output for a in ("--fresh", f"{w.name}={w.output}")]
            try:
                out = host.tool("status", *args, *(w.name for w in group), timeout=STATUS_TIMEOUT_S)
            except HostError:
                crash = self._host_silent(group)
                if crash:
                    return crash
                continue
            self._hosts[id(host)].last_answer_ms = self.clock()
            status = parse_status(out)
            self._judge_samplers([w for w in group if w.evidence], status)
            crash = self._judge([w for w in group if not w.evidence], status.states, status.health)
            if crash:
                return crash
        return None

    def _judge_samplers(self, group: list[Watched], status: Status) -> None:
        now = self.clock()
        for w in group:
            if w.name in self._dead:
                continue
            state = status.states.get(w.name, "absent")
            if state != "running":
                words = state.split()
                code = _int(words[1]) if state.startswith("exited") and len(words) > 1 else None
                crash = self._crash(w, code, "" if code is not None else f"its process is gone ({state})", now)
                self._lose(w, "died", crash.exit, crash.signal, crash.cause, self._seen_ok_ms[w.name], now)
                self._dead.add(w.name)
                continue
            self._seen_ok_ms[w.name] = now
            age = status.age_s.get(w.name)
            if age is not None:
                self._written_ms[w.name] = max(self._written_ms.get(w.name, 0), now - int(age * 1000))
            written = self._written_ms.get(w.name, self._started_ms + int(SAMPLER_START_GRACE_S * 1000))
            silent_ms = now - written
            if w.stale_after_s is None or silent_ms < w.stale_after_s * 1000:
                self._stalled.discard(w.name)  # writing again: a later silence is a new loss
            elif w.name not in self._stalled:
                self._stalled.add(w.name)
                self._lose(
                    w,
                    "stalled",
                    None,
                    None,
                    f"its process runs but wrote no row to {w.output} for {silent_ms / 1000:.0f} s",
                    min(written, now),
                    now,
                )

    def _lose(
        self, w: Watched, what: str, code: int | None, sig: str | None, cause: str, alive_until_ms: int, now: int
    ) -> None:
        self.evidence_lost.append(
            EvidenceLoss(w.name, w.role, w.host.name, what, code, sig, cause, alive_until_ms, now)
        )

    def _judge(self, group: list[Watched], states: dict[str, str], health: dict[str, bool]) -> Crash | None:
        now = self.clock()
        for w in group:
            if w.name in self.finished:
                continue
            state = states.get(w.name, "absent")
            if state.startswith("exited"):
                code = _int(state.split()[1]) if len(state.split()) > 1 else None
                if w.finishes and code == 0:
                    self.finished[w.name] = 0
                    continue
                return self._crash(w, code, "", now)
            if state == "limit":
                # Alive, but refused a thread (or memory) by its cgroup: a JVM limps on without it, so it is dead for
                # the measurement; the log-cause names the limit, bench stops it with the mode.
                return self._crash(w, None, "it hit a limit of its cgroup and was stopped", now)
            if state != "running":
                return self._crash(w, None, f"its process is gone ({state}: no pid file on {w.host.name})", now)
            if w.health_url and not health.get(w.name, False):
                if now - self._seen_ok_ms[w.name] >= HEALTH_SILENCE_S * 1000:
                    return self._crash(
                        w,
                        None,
                        f"it stopped answering: no answer to {w.health_url} for "
                        f"{(now - self._seen_ok_ms[w.name]) / 1000:.0f} s while its process "
                        f"was alive",
                        now,
                    )
                continue
            self._seen_ok_ms[w.name] = now
        return None

    def _host_silent(self, group: list[Watched]) -> Crash | None:
        host = group[0].host
        state = self._hosts[id(host)]
        now = self.clock()
        if now - state.last_answer_ms < HOST_SILENCE_S * 1000:
            return None
        w = next((w for w in group if w.name not in self.finished and not w.evidence), group[0])
        return self._crash(
            w,
            None,
            f"its host {host.name} did not answer for {(now - state.last_answer_ms) / 1000:.0f} s",
            now,
            ask_log=False,
        )

    def _crash(self, w: Watched, code: int | None, seen: str, now: int, ask_log: bool = True) -> Crash:
        code, sig = exit_text(code)
        found = ""
        if ask_log:
            try:
                found = w.host.tool("log-cause", w.log, w.name, check=False, timeout=STATUS_TIMEOUT_S)
            except HostError:
                found = ""
        cause = "; ".join(x for x in (found and f"its log says: {found}", seen) if x)
        if not cause:
            cause = (
                f"ended by {sig}, nothing in its log says why (a kill -9, or the kernel's OOM killer)"
                if sig
                else "nothing in its log says why"
            )
        return Crash(w.role, w.host.name, code, sig, cause, self._seen_ok_ms[w.name], now)


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
