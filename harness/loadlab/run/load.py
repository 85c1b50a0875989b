"""One load pass: the simulation on every injector at once, from one common start instant, while every role's
process is watched (watch.py). A death stops the pass's load: what was measured before it is kept, nothing after it
counts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from loadlab.run import console, samplers
from loadlab.run.context import Run
from loadlab.run.hosts import Host
from loadlab.run.simulation import COARSE, LoadPass, gatling_props, live_verdict_differs
from loadlab.run.topology import MGMT_PORT
from loadlab.run.watch import Crash, EvidenceLoss, Watched, Watcher
from loadlab.summary.judge import crash as crashes
from loadlab.summary.reading.raw import read_json

GATLING_GRACE_S = 120  # Gatling start-up and report generation (the last requests get their own timeout on top)
# Several injectors start their schedules at one wall-clock instant, this far after the go: every JVM is up and waiting
# by then (launch), so it covers the go reaching each host and what the simulation does after it before its first
# second (Gatling's engine, then its pilot second, ForwardSimulation.PILOT_SECONDS): 2.8-3.7 s measured on a busy
# 2-core machine, with a margin for JVMs that share cores. It was 10 s for two injectors when it also covered their
# JVMs' boot.
START_ALIGN_S = 5
WATCH_INTERVAL_S = 1.0  # how often every role's process is checked while a mode runs (one call per host)
# Once every injector has printed its end, its JVM only writes Gatling's report and exits: checked this often, so the
# next pass does not wait out the rest of a watch interval for it (the load is over, nothing is measured meanwhile).
ENDING_POLL_S = 0.2
READY_POLL_S = 0.05  # how often the injectors' ready lines are looked for before several are given one instant
# A Gatling JVM waiting for its go exits after this long without one (GoSignal.java): the harness is gone. Longer
# than anything that may come between the launch and the go (a service's start with its training run, a drain).
GO_TIMEOUT_S = 900


def start_align_s(injectors: int) -> int:
    """One injector has nobody to line up with: its schedule begins on the first whole second after the go (the
    simulation's SecondAnchor starts at the later of now and the instant given), and waiting longer would only cost
    time."""
    return 0 if injectors <= 1 else START_ALIGN_S


@dataclass
class Launch:
    """A pass's Gatling JVMs, started ahead of their load (while the service starts, or drains before a fine pass):
    each boots, says it is ready and waits for its go file (GoSignal.java) before it writes or sends anything."""

    folder: str
    load: LoadPass
    names: list[tuple[Host, str]]
    ready: list[threading.Event]
    ended: list[threading.Event]

    @property
    def what(self) -> str:
        return f"{self.folder} {self.load.name}".strip()


def go_file(h: Host, name: str) -> str:
    """Where the simulation named `name` waits for its go: the host's state folder, never the run folder."""
    return str(Path(h.state_dir, f"{name}.go"))


def launch(run: Run, folder: str, load: LoadPass = COARSE) -> Launch:
    """Starts Gatling on every injector, each waiting for its go (run_load gives it), and follows their consoles."""
    what = f"{folder} {load.name}".strip()
    names = []
    for i, h in enumerate(run.topo.injectors):
        name = f"gatling-injector-{i}"
        h.run(["rm", "-f", go_file(h, name)])  # an earlier pass's go must not start this one
        h.tool(
            "gatling",
            name,
            run.log(h, run.log_name(folder, load.gatling_log(i))),
            h.work_path(*load.report(folder, i)),
            f"{what} threads, injector {i + 1}/{len(run.topo.injectors)}",
            *gatling_props(run, folder, i, load, go_file(h, name), GO_TIMEOUT_S),
        )
        names.append((h, name))
    ready = [threading.Event() for _ in names]
    ended = [threading.Event() for _ in names]
    differs = live_verdict_differs(run.plan, run.limits.expected_ms)
    for i, h in enumerate(run.topo.injectors):
        threading.Thread(
            target=console.follow_progress,
            args=(h.follow(run.log(h, run.log_name(folder, load.gatling_log(i)))), what, ended[i], ready[i], differs),
            daemon=True,
        ).start()
    return Launch(folder, load, names, ready, ended)


def cancel(run: Run, launched: Launch) -> None:
    """A launched pass that will not run (its service did not start, the drain did not end, Ctrl-C): its JVMs
    stopped while they wait, and the empty report folders they were given removed, so no folder of the run suggests a
    load that never began (its log stays in logs/)."""
    stop_load(launched.names)
    console.end_progress()
    for i, (h, _) in enumerate(launched.names):
        report = h.work_path(*launched.load.report(launched.folder, i))
        h.run(["rmdir", report, str(Path(report).parent)], check=False)


def run_load(
    run: Run,
    folder: str,
    load: LoadPass = COARSE,
    launched: Launch | None = None,
    on_go: Callable[[int], object] | None = None,
) -> tuple[list[str], Crash | None]:
    """Gives every injector its go (launching them first unless `launched`) while watching every role's process;
    `on_go` is called with the go's instant (epoch ms) right after it (PROFILE=brownout schedules its window there).

    Returns the problems seen (empty when all went well) and the crash that stopped the load, if any."""
    launched = launched or launch(run, folder, load)
    names, what = launched.names, launched.what
    if len(names) > 1:
        wait_ready(launched)
    align = start_align_s(len(names))
    start_at = int((time.time() + align) * 1000)
    give_go(run, launched, start_at)
    if on_go is not None:
        on_go(start_at)
    # The last requests may take the whole request timeout to end after the schedule.
    timeout_s = run.limits.injector_request_timeout_ms // 1000
    budget = load.scheduled_seconds(run.plan) + align + GATLING_GRACE_S + timeout_s
    watcher = Watcher(watched(run, folder, load))
    problems, crash = supervise(watcher, names, budget, EvidenceLog(run, folder, load), launched.ended)
    if crash is not None or problems:
        stop_load(names)
    console.end_progress()
    if crash is not None:
        crashed = crash.as_dict()
        crashed["second"] = crashes.second_of_phase(crashed, measure_start_s(run, folder, load, start_at))
        crashed["pass"] = load.name or crashes.COARSE
        console.warn(f"{what}: {crashes.headline(crashes.of(crashed))}; its load was stopped")
    return problems, crash


def wait_ready(launched: Launch) -> None:
    """Until every injector said it is ready, or one has ended (the watcher then finds it, right after the go), or
    GATLING_GRACE_S passed (a late one is flagged after the run: alignment.py): one instant must find them all
    waiting."""
    deadline = time.monotonic() + GATLING_GRACE_S
    checked = 0.0
    while not all(e.is_set() for e in launched.ready) and time.monotonic() < deadline:
        if time.monotonic() - checked >= WATCH_INTERVAL_S:
            checked = time.monotonic()
            for (h, name), ready in zip(launched.names, launched.ready):
                if not ready.is_set() and "running" not in h.tool("status", name, check=False, timeout=30):
                    return
        time.sleep(READY_POLL_S)


def give_go(run: Run, launched: Launch, start_at_ms: int) -> None:
    """The go file on every injector (written whole: a temporary file renamed), then its raw folder and sampler."""
    for h, name in launched.names:
        go = go_file(h, name)
        h.run(["sh", "-c", f'printf %s {start_at_ms} > "$0.tmp" && mv "$0.tmp" "$0"', go])
    for i, (h, name) in enumerate(launched.names):
        h.run(["mkdir", "-p", h.work_path(*launched.load.raw(launched.folder, i))])
        samplers.start_injector_sampler(h, i, launched.load.raw(launched.folder, i), name)


def measure_start_s(run: Run, folder: str, load: LoadPass, start_at_ms: int) -> int:
    """The epoch second the pass's measured phase began: as its first injector wrote it in meta.json once the schedule
    was anchored (a lone injector starts when its JVM is up, after start_at), else the whole second after start_at
    plus the warm-up (SecondAnchor's rule). The summary reads the same meta.json."""
    anchored = read_json(run.run_dir.joinpath(*load.raw(folder, 0), "meta.json")).get("measure_start_epoch_ms")
    if isinstance(anchored, (int, float)):
        return int(anchored) // 1000
    return -(-start_at_ms // 1000) + load.warmup_seconds(run.plan)


def supervise(
    watcher: Watcher,
    names: list[tuple[Host, str]],
    budget: int,
    evidence: EvidenceLog,
    ended: Sequence[threading.Event] = (),
) -> tuple[list[str], Crash | None]:
    """Polls every role once a WATCH_INTERVAL_S until every injector finished, a role died or the budget ran out; a
    sampler that died or froze meanwhile is recorded and said, and the load goes on. Once every injector said it
    ended (`ended`, set by its progress follower), once an ENDING_POLL_S."""
    deadline = time.time() + budget
    while not watcher.all_finished():
        crash = watcher.poll()
        evidence.record(watcher.evidence_lost)
        if crash is not None:
            return [], crash
        if time.time() > deadline:
            return [
                f"{name} on {h.name} did not finish within {budget}s and was stopped"
                for h, name in names
                if name not in watcher.finished
            ], None
        if ended and all(e.is_set() for e in ended):
            time.sleep(ENDING_POLL_S)
        else:
            time.sleep(max(0.0, WATCH_INTERVAL_S - time.time() % WATCH_INTERVAL_S))
    return [], None


@dataclass
class EvidenceLog:
    """The samplers a pass lost, into params.json's `evidence_lost` (per mode folder), each said once as it happens."""

    run: Run
    folder: str
    load: LoadPass
    said: int = 0

    def record(self, losses: list[EvidenceLoss]) -> None:
        for loss in losses[self.said :]:
            entry = {**loss.as_dict(), "pass": self.load.name or "coarse"}
            self.run.meta.setdefault("evidence_lost", {}).setdefault(self.folder, []).append(entry)
            console.warn(
                f"{f'{self.folder} {self.load.name}'.strip()}: the {loss.role}'s sampler on {loss.host} "
                f"{loss.what} ({loss.cause if loss.what == 'stalled' else describe_exit(loss)}): its seconds from "
                f"then on have no server evidence and cannot be judged valid; the load goes on"
            )
        self.said = len(losses)


def lost_samplers(run: Run, folder: str) -> set[str]:
    """The services' samplers this mode already lost in an earlier pass."""
    return {e["sampler"] for e in (run.meta.get("evidence_lost") or {}).get(folder, []) if e.get("what") == "died"}


def watched(run: Run, folder: str, load: LoadPass = COARSE) -> list[Watched]:
    t, d = run.topo.thread, run.topo.delay
    roles = [
        Watched(
            "thread-service",
            "thread-service",
            t,
            run.log(t, run.log_name(folder, "thread-service")),
            # An APP has no management port of the lab's: its process is watched, its answers are the load's.
            health_url=None if run.service.app else f"http://127.0.0.1:{MGMT_PORT}/actuator/health",
        ),
        Watched("delay-service", "delay-service", d, run.log(d, "delay-service")),
    ]
    if run.database.needed:
        # The db scenario's PostgreSQL is shared by every mode, like the delay-service.
        roles.append(Watched("postgres", "postgres", d, run.log(d, "postgres")))
    roles += [
        Watched(
            f"injector-{i}",
            f"gatling-injector-{i}",
            h,
            run.log(h, run.log_name(folder, load.gatling_log(i))),
            finishes=True,
        )
        for i, h in enumerate(run.topo.injectors)
    ]
    injector_raws = [load.raw(folder, i) for i in range(len(run.topo.injectors))]
    return roles + samplers.watched(run, folder, injector_raws, lost_samplers(run, folder))


def stop_load(names: list[tuple[Host, str]]) -> None:
    """Stops every injector of the mode (its raw files so far are kept: they are flushed every second)."""
    for h, name in names:
        h.tool("stop", name, "10", check=False, timeout=60)


def describe_exit(loss: EvidenceLoss) -> str:
    """How a sampler ended, in the crash verdict's words (exit code, signal)."""
    return crashes.how(loss.exit, loss.signal)
