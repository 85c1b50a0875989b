"""`make bench`: one run folder, every mode in MODES, on whatever hosts the target provides — the sequence of a run.

Once: record which runtime each JDK of JDKS is (liveconfig.py). Per mode: start the thread-service in that mode →
wait until healthy → record its live config → start the samplers → run Gatling on every injector at once (the coarse
stairs) → with REFINE=1, when the mode collapsed: let the service drain, then fine passes between the last healthy
and the first unhealthy rate → stop → collect → analyse. REPEAT=n runs the whole comparison n times into `rep-<k>/`.
Ctrl-C or a failure stops every process the run started (by pid, on every host) and keeps what was written; the page
is rebuilt from whatever is there.

Each step is a module named for its job: run.py (the run's shared record, its folder), appbundle.py (the built app),
services.py, liveconfig.py, samplers.py, simulation.py (a load pass and its -D properties), load.py (launching a
pass's Gatling JVMs while the service starts, then giving them their go and watching the pass), finepasses.py +
drain.py (REFINE=1), collect.py, alignment.py (the check after the run).
"""

from __future__ import annotations

import os
import signal
import threading
from datetime import datetime, timezone
from pathlib import Path
from types import FrameType
from typing import NoReturn

from loadlab.core import downstream, runrecord
from loadlab.core.bench_plan import BenchPlan
from loadlab.core.errors import ExitCode
from loadlab.core.runplan import ModeRun
from loadlab.run import (
    alignment,
    appservice,
    brownout_switch,
    collect,
    console,
    cpushare,
    liveconfig,
    memorybound,
    rungs,
    samplers,
    scenario,
    services,
    topology,
)
from loadlab.run.appbundle import local_app_dir
from loadlab.run.context import Run, make_run_dir, point_latest
from loadlab.run.finepasses import refine_knee
from loadlab.run.hosts import HostError
from loadlab.run.java import find_jdk
from loadlab.run.load import cancel, launch, run_load
from loadlab.run.topology import DELAY_PORT
from loadlab.summary.judge import crash as crashes


class RunStopped(HostError):
    """A role every mode depends on (the delay-service, an injector) died: the run cannot go on."""


def run_mode(run: Run, mode_run: ModeRun, folder: str | None = None, repetition: str = "") -> None:
    """folder: where the mode's files go: its label (`virtual-jdk21` with several JDKs), under `rep-<k>/` with
    REPEAT > 1; the summary, the logs and modes_completed use it too."""
    folder = folder or mode_run.label
    console.heading(mode_run.label + (f" ({repetition})" if repetition else ""))
    # Gatling's JVMs boot while the service starts; they wait for their go (run_load) until it answered.
    pending = launch(run, folder)
    try:
        if run.service.app:
            appservice.start_app(run, mode_run, folder)  # no /actuator/loadlab: its evidence is checked afterwards
        else:
            services.start_thread_service(run, mode_run, folder)
            liveconfig.record_live_config(run, folder)
        samplers.start_service_samplers(run, folder)
    except BaseException:
        cancel(run, pending)
        raise
    switch: list[threading.Thread] = []  # PROFILE=brownout: the delay-service's window, scheduled once the go is given
    on_go = None
    if run.plan.brownout is not None:
        on_go = lambda at: switch.append(brownout_switch.start(run, folder, at))  # noqa: E731 - a one-line hook
    problems, crash = run_load(run, folder, launched=pending, on_go=on_go)
    for thread in switch:
        thread.join()
    # REFINE=0: only the stairs again when the warm-up ended with a backlog (fine_plan says when: stairs only)
    if not problems and crash is None:
        problems, crash = refine_knee(run, folder, refining=run.plan.refine)
    samplers.stop_samplers(run)
    services.stop_thread_service(run)
    collect.record_pinned(run, folder)
    run.meta.setdefault("mode_problems", {})[folder] = problems
    for p in problems:
        console.warn(p)
    if crash is not None:
        run.meta.setdefault("crashes", {})[folder] = crash.as_dict()
    run.meta["modes_completed"].append(folder)
    run.write_meta()
    if crash is not None and crash.role != "thread-service":
        # A dead thread-service is that mode's alone: the next mode starts its own. Every mode shares the
        # delay-service and the injectors, so the run cannot go on without them.
        raise RunStopped(
            f"the {crash.role} died during {folder} ({crashes.how(crash.exit, crash.signal)}): the run stops here; "
            "what was measured so far is kept"
        )


def _raise_interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise KeyboardInterrupt


def bench(plan: BenchPlan, ladder: rungs.Ladder[rungs.P] | None = None, nested: Path | None = None) -> int:
    """The run (its parameters worked out by core/bench_plan.py); ladder: LADDER's rungs to climb after it (cli.py
    makes them, each rung a bench of its own); nested: a rung's own run, its folder inside its run's, which leaves
    results/latest where it is and climbs no ladder of its own."""
    java_home = find_jdk()
    # What the scenario needs on this machine (a JDK per entry of JDKS, PostgreSQL for db), found or installed
    # before a run folder exists: a missing piece stops here with one line.
    javas = scenario.prepare(plan.target, plan.jdks, plan.database)
    run_dir = _run_dir(plan.results_dir, nested)
    topo = topology.build(plan.target, plan.injectors, run_dir, java_home)
    service = plan.services(topo.delay.work_path(downstream.SERVED_LOG), topo.delay.address, DELAY_PORT)
    run = Run(topo, run_dir, plan.limits, plan.load, plan.database, service, javas)
    fault = os.environ.get("LOADLAB_FAULT_CPU_QUOTA")  # test-only starvation, see infra/host/loadlab-host
    if fault:
        for h in topo.hosts():
            h.env["LOADLAB_FAULT_CPU_QUOTA"] = fault
    run.meta = {
        "format": runrecord.FORMAT,
        "run_id": run_dir.name,
        "target": plan.target,
        "started_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "params": plan.recorded,
        "thresholds": plan.thresholds.as_dict(),
        "hosts": topo.describe(),
        "machine": topology.machine_description(),
        "java": str(java_home),
        "thread_service_javas": {str(k): v for k, v in javas.items()},
        "modes_completed": [],
        # Every limit of the request chain, derived from the workload (timeouts.py): what the analysis checks.
        "limits": run.limits.as_dict(),
        # The delay-service's policy (its distribution with the figures the models use) and its served delay.
        "downstream": plan.downstream,
        **({"test_fault": fault} if fault else {}),
        # the wait agent on the service under test (LOADLAB_WAIT_PROFILE=off: a measurement of what it costs)
        "wait_profile": os.environ.get("LOADLAB_WAIT_PROFILE", "on") != "off",
    }
    # SERVICE_CPUS: every host gets the split before anything starts
    split = cpushare.apply(plan.service_cpus, plan.target, topo)
    if split is not None:
        run.meta["cpu_split"] = split
    # SERVICE_MEMORY_MB: the service host's cgroup, before anything starts
    bound = memorybound.apply(plan.service_memory_mb, topo)
    if bound is not None:
        run.meta["service_memory"] = bound
    run.write_meta()
    console.step(f"run folder {run_dir}")
    signal.signal(signal.SIGTERM, _raise_interrupt)
    outcome = ExitCode.FAILED
    started = refused = False
    try:
        prepare_hosts(run)
        liveconfig.record_runtimes(run)
        if nested is None:  # a rung leaves results/latest on its run
            point_latest(run_dir)
        started = True
        if plan.database.needed:
            services.start_database(run)
        services.start_delay_service(run)
        repeat = plan.repeat
        for k in range(1, repeat + 1):
            for mode_run in plan.columns:
                if repeat == 1:
                    run_mode(run, mode_run)  # the contract's layout: <mode>/…
                else:
                    run_mode(run, mode_run, f"rep-{k}/{mode_run.label}", f"repetition {k} of {repeat}")
        outcome = ExitCode.OK
    except KeyboardInterrupt:
        console.warn("interrupted: stopping every process of this run; results written so far are kept")
        run.meta["interrupted"] = True
        outcome = ExitCode.INTERRUPTED
    except HostError as e:
        console.error(str(e))
        run.meta["failed"] = str(e)
        if not started or isinstance(e, appservice.AppRefused):
            outcome = e.exit_code
            refused = isinstance(e, appservice.AppRefused)
    finally:
        # A second Ctrl-C or SIGTERM must not leave processes behind: `make` passes on the SIGTERM a process group
        # already got (a CI job's timeout), so the bench sees two, the second while it stops everything.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        services.stop_everything(run)
        collect.collect(run)
        alignment.check_alignment(run)
        run.meta["finished_utc"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        run.write_meta()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, _raise_interrupt)
    if not started:
        console.warn(f"the run did not start: {run_dir} holds only params.json; results/latest is unchanged")
        return outcome
    if refused:
        # Before any load: nothing was measured, so there is no verdict to write (the app's log is in logs/).
        return outcome
    return _conclude(run_dir, outcome, ladder if nested is None else None)


def _conclude(run_dir: Path, outcome: ExitCode, ladder: rungs.Ladder[rungs.P] | None) -> int:
    """The verdict, then LADDER's rungs."""
    concluded = conclude(run_dir, outcome)
    if ladder is not None and ladder.rungs and concluded != ExitCode.INTERRUPTED:
        return climb_ladder(run_dir, ladder, concluded)
    return concluded


def _run_dir(results_dir: str, nested: Path | None) -> Path:
    if nested is not None:
        nested.mkdir(parents=True)
        return nested
    return make_run_dir(Path(results_dir).resolve())  # after the preflight (cli.py) found no problem


def climb_ladder(run_dir: Path, ladder: rungs.Ladder[rungs.P], outcome: int) -> int:
    """LADDER=N after the stairs (run/rungs.py), then the run's summary and page again with its rungs."""
    from loadlab import report

    console.step(f"the limit ladder: up to {ladder.rungs} rung{'s' if ladder.rungs != 1 else ''} a mode")
    climbed = rungs.climb(run_dir, ladder, report.rebuild(run_dir))
    report.rebuild(run_dir)
    return climbed if climbed == ExitCode.INTERRUPTED else outcome


def prepare_hosts(run: Run) -> None:
    """The built app on every host, leftovers of an earlier run killed hard, the service ports checked free."""
    app = local_app_dir(run.service.app)
    for h in run.topo.hosts():
        h.push_app(app)
        h.tool("stop-all", "30", check=False)
    # Second line of defence: the preflight found these ports free, but something may have taken one since. The run
    # folder exists by now (it holds params.json saying why); that is accepted, but `latest` stays on the previous
    # run and no page is written for a run that never started.
    for h, ports in run.topo.service_ports(run.database.needed):
        problem = h.ports_in_use(ports)
        if problem:
            raise HostError(problem, ExitCode.USAGE)


def conclude(run_dir: Path, outcome: ExitCode) -> int:
    """summary.json and the page from the run folder, the console table; FAILED unless every mode is valid."""
    # Here, not at the top: the page's stage imports matplotlib (about half a second of CPU), which a bench that the
    # preflight refuses never needs.
    from loadlab import report

    result = report.rebuild(run_dir)
    console.table(result, run_dir)
    # With REPEAT > 1 every repetition must be valid, not only the median ones shown.
    every = all(m.validity.valid for m in result.modes.values())
    every = every and all(r.valid for r in result.repetitions or [])
    if outcome == ExitCode.OK and not every:
        outcome = ExitCode.FAILED
    return outcome
