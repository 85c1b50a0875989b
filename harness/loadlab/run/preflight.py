"""Everything a run needs that can be checked without starting anything, checked before the run folder exists.

cli.py runs `preflight(scope, database)` (core/run_scope.py, core/database_use.py) after the parameters are validated
and before bench.py creates the run folder, on every target. Each check is a small function returning its problems,
one line each: what is wrong and how to fix it. Every check runs, so all problems are reported together; any problem
means exit 2 with nothing of the run created (no run folder, `results/latest` untouched, no .loadlab/app copy). A check
creates nothing, with one exception that leaves nothing behind: the results-directory check makes and removes an empty
probe folder, the only way to learn that a path like /proc takes no new folders (root passes every permission test
there).

A new check is a function `check_x(pf: Preflight) -> list[str]` and one line in CHECKS.
"""

from __future__ import annotations

import glob
import math
import os
import shutil
import tempfile
from dataclasses import replace
from functools import cached_property
from pathlib import Path

from loadlab.analysis import refine, threadlimits
from loadlab.core import rung_params, runplan
from loadlab.core.database_use import DatabaseUse
from loadlab.core.errors import LoadlabError
from loadlab.core.run_scope import RunScope
from loadlab.run import java, topology
from loadlab.run.appbundle import missing_build_outputs
from loadlab.run.hosts import HostError, SshHost
from loadlab.run.java import JdkNotFound, find_jdk
from loadlab.run.topology import Topology

# Disk a run writes, measured on a real run folder (results/20261123-052815 of this machine, 2026-11-23: MODES=virtual
# START_RPS=300 PEAK_RPS=1500 STEPS=3 STEP_SECONDS=10 WARMUP_SECONDS=10, 1 injector, 15,365 requests in 31 s,
# 1.47 MB in all). Gatling's binary simulation.log grows with requests, not seconds, and dominates at high rates, so
# the estimate has a per-request term next to the per-second one:
BYTES_PER_REQUEST = 48  # simulation.log: 587,956 B for 12,463 completed requests (47 B each)
RAW_BYTES_PER_SECOND = 2_000  # per injector: raw/ (seconds.csv, latency.hlog, samples.csv, jvm.csv) 39.7 kB / 31 s
BYTES_PER_MODE_INJECTOR = 520_000  # Gatling's report pages and scripts, whatever the load (512 kB)
BYTES_PER_MODE = 200_000  # config.json, pinned.json, limits.json, the recording's start
# The service's flight recording (service.jfr) and its export (flight.json), per second the service runs: 278 kB +
# 473 kB for a platform mode of ≈ 60 s (results/20261123-201139 of this machine, 2026-11-23).
RECORDING_BYTES_PER_SECOND = 13_000
BYTES_PER_RUN = 1_000_000  # index.html (164-289 kB), summary.json, params.json, logs/ (16-23 kB)
DISK_MARGIN = 2  # a failing service's stack traces in logs/, rounding

# Where Debian's postgresql packages put the server binaries the db scenario starts (MACHINE-NOTES.md).
PG_CTL_GLOB = "/usr/lib/postgresql/*/bin/pg_ctl"


class Preflight:
    """The run's scope (core/run_scope.py) and database (core/database_use.py), plus what several checks share, each
    looked up once."""

    def __init__(self, scope: RunScope, database: DatabaseUse):
        self.scope, self.database = scope, database
        self.target = scope.target
        self.results = Path(scope.results_dir).resolve()
        # Hosts that did not answer (check_hosts), so the port check does not report them a second time.
        self.unreachable: set[str] = set()

    @cached_property
    def java_home(self) -> Path | None:
        try:
            return find_jdk()
        except JdkNotFound:
            return None

    @cached_property
    def results_problem(self) -> str | None:
        """Why RESULTS_DIR cannot hold the run folder, or None (shared by the results and disk checks)."""
        shown, results = self.scope.results_dir, self.results
        existing = nearest_existing(results)
        if not existing.is_dir():
            what = "is a file" if existing == results else f"cannot be created: {existing} is a file"
            return f"RESULTS_DIR={shown} {what}, not a directory: set RESULTS_DIR to a directory path"
        try:
            os.rmdir(tempfile.mkdtemp(prefix=".loadlab-preflight-", dir=existing))
        except OSError as e:
            verb = "written to" if existing == results else "created"
            return (
                f"RESULTS_DIR={shown} cannot be {verb}: {existing} takes no new folders ({e.strerror}): "
                f"set RESULTS_DIR to a writable directory"
            )
        latest = results / "latest"
        if latest.exists() and not latest.is_symlink():
            return f"{latest} is not a symlink: move it away (the harness points results/latest at the newest run)"
        return None

    @cached_property
    def hosts(self) -> tuple[Topology | None, str | None]:
        """The run's hosts, or why there are none (netns not up, no Terraform stack, too few injectors)."""
        try:
            # The run folder's name only names the hosts' work folders; nothing is made there.
            return topology.build(
                self.target, self.scope.injectors, self.results / "preflight", self.java_home or Path("no-jdk")
            ), None
        except HostError as e:
            return None, str(e)


def nearest_existing(path: Path) -> Path:
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def check_jdk(pf: Preflight) -> list[str]:
    try:
        find_jdk()
    except JdkNotFound as e:
        return [str(e)]
    return []


def check_build(pf: Preflight) -> list[str]:
    missing = missing_build_outputs()
    return [f"build output missing ({', '.join(missing)}): run `make build`"] if missing else []


def check_results_dir(pf: Preflight) -> list[str]:
    return [pf.results_problem] if pf.results_problem else []


def run_bytes(scope: RunScope) -> int:
    """An upper bound on what the run writes into its folder, from the schedule (an early stop writes less)."""
    injectors, climb = scope.injectors, scope.stairs
    seconds = climb.warmup_seconds + climb.measured_seconds
    # Stairs and ramp both average (START_RPS + PEAK_RPS) / 2 over the measured phase; the warm-up is at START_RPS.
    requests = climb.warmup_seconds * climb.start_rps + (climb.start_rps + climb.peak_rps) / 2 * climb.measured_seconds
    stairs = injectors * (BYTES_PER_MODE_INJECTOR + seconds * RAW_BYTES_PER_SECOND) + requests * BYTES_PER_REQUEST
    # Twice: a warm-up that ends before the service is warm is followed by a second and the stairs again (warmup.py).
    per_mode = BYTES_PER_MODE + 2 * (seconds * RECORDING_BYTES_PER_SECOND + stairs)
    if scope.refine:
        per_mode += fine_pass_bytes(scope)
    # A pool sweep, JDKS and REPEAT run every mode again into the same folder: one column per mode run.
    columns = runplan.mode_runs(scope.modes, scope.jdks, scope.platform_threads)
    runs = len(columns) * scope.repeat
    return int(BYTES_PER_RUN + runs * per_mode + rung_bytes(scope))


def rung_bytes(scope: RunScope) -> float:
    """LADDER=N: at most N rungs a mode, each a bench of that mode alone on rung_params.RUNG_STEPS levels up to
    rung_params.PEAK_MULTIPLE x the rate it is sized for: TARGET_RPS, else the next limit the lab predicts, unknown
    before the run, for which twice PEAK_RPS stands here."""
    if not scope.ladder:
        return 0.0
    rate = scope.target_rps or 2 * scope.stairs.peak_rps
    rung = replace(
        scope,
        modes=scope.modes[:1],
        stairs=replace(
            scope.stairs,
            start_rps=max(1, math.floor(scope.stairs.start_rps * rung_params.START_SHARE)),
            peak_rps=math.ceil(rate * rung_params.PEAK_MULTIPLE),
            steps=rung_params.RUNG_STEPS,
        ),
        repeat=1,
        ladder=None,
    )
    return scope.ladder * len(scope.modes) * run_bytes(rung)


def fine_pass_bytes(scope: RunScope) -> float:
    """REFINE=1: the most a collapsed mode's fine passes write (refine.most_fine_levels): each is a Gatling run of its
    own (a report per injector) with a warm-up at half its first rate, its levels at most at the bracket's top."""
    injectors, step_s = scope.injectors, scope.stairs.step_seconds
    warmup_s = refine.warmup_seconds(scope.stairs.warmup_seconds)
    total = 0.0
    for levels, top in refine.most_fine_levels(runplan.levels(scope.stairs)):
        requests = warmup_s * refine.warmup_rate(top) + levels * step_s * top
        seconds = warmup_s + levels * step_s
        total += injectors * (BYTES_PER_MODE_INJECTOR + seconds * RAW_BYTES_PER_SECOND) + requests * BYTES_PER_REQUEST
    return total


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB" if n < 10e6 else f"{n / 1e6:,.0f} MB"


def check_disk(pf: Preflight) -> list[str]:
    # Every target ends with the whole run folder here (aws copies each host's files back); the EC2 hosts' own
    # disks (20 GiB each) are not checked.
    if pf.results_problem:
        return []  # check_results_dir says why; the free space of /proc means nothing
    existing = nearest_existing(pf.results)
    st = os.statvfs(existing)
    free, need = st.f_bavail * st.f_frsize, DISK_MARGIN * run_bytes(pf.scope)
    if free >= need:
        return []
    return [
        f"not enough free disk for RESULTS_DIR={pf.scope.results_dir}: this run writes up to "
        f"{_mb(need / DISK_MARGIN)} ({_mb(need)} with a {DISK_MARGIN}x margin), {_mb(free)} free on {existing}: "
        f"free some space, point RESULTS_DIR at another disk, or shorten the schedule"
    ]


def check_hosts(pf: Preflight) -> list[str]:
    topo, problem = pf.hosts
    if topo is None:  # then problem says why
        return [problem] if problem else []
    if pf.target != "aws":
        return []
    missing = [tool for tool in ("ssh", "rsync") if not shutil.which(tool)]
    if missing:
        return [f"{tool} is not installed (the harness reaches the hosts with it)" for tool in missing]
    problems = []
    for h in topo.hosts():
        try:
            h.run([h.java, "-version"], timeout=60)
        except HostError as e:
            pf.unreachable.add(h.name)
            where = h.public_ip if isinstance(h, SshHost) else h.address  # aws: an SshHost (topology._aws)
            problems.append(
                f"{h.name} ({where}) does not answer over SSH or has no Java ({e}): check that "
                f"`make up TARGET=aws` finished, or run it again"
            )
    return problems


def check_ports(pf: Preflight) -> list[str]:
    topo, _ = pf.hosts
    problems = []
    for h, ports in topo.service_ports(pf.database.needed) if topo else ():
        if h.name in pf.unreachable:
            continue
        try:
            problem = h.ports_in_use(ports)
        except HostError as e:
            problem = f"cannot list the ports in use on {h.name}: {e}"
        if problem:
            problems.append(problem)
    return problems


def check_postgresql(pf: Preflight) -> list[str]:
    # On aws PostgreSQL lives on the EC2 hosts, prepared by their user-data: there is nothing to look for here.
    if not pf.database.needed or pf.target == "aws" or glob.glob(PG_CTL_GLOB):
        return []
    if os.geteuid() == 0 and shutil.which("apt-get"):
        return []  # bench installs Debian's postgresql itself (scenario.ensure_postgresql), before the run folder
    return [
        f"{pf.database.user} needs PostgreSQL's server binaries ({PG_CTL_GLOB}), none found and "
        "this is not root with apt-get to install them: install them (apt-get install postgresql) or choose another "
        "SCENARIO"
    ]


def check_jdk_runtimes(pf: Preflight) -> list[str]:
    """Each runtime of JDKS, looked up as the run will (java.find_runtime, added with JDKS; skipped until then)."""
    find_runtime = getattr(java, "find_runtime", None)
    if find_runtime is None or pf.target == "aws":  # aws: the runtimes are the EC2 hosts' (their user-data)
        return []
    problems = []
    for major in pf.scope.jdks:
        if major in getattr(java, "PROJECT_RUNTIMES", {}):
            continue  # found, or installed by bench itself from PyPI (java.install_runtime) before the run folder
        try:
            if find_runtime(major) is None:
                problems.append(f"JDKS: no Java {major} runtime found: install one or leave {major} out of JDKS")
        except LoadlabError as e:
            problems.append(str(e))
    return problems


def check_thread_limits(pf: Preflight) -> list[str]:
    """A platform pool larger than the thread host lets the service's cgroup run (threadlimits.py): refused now,
    rather than a run whose pool crashes at its first busy level."""
    topo, _ = pf.hosts
    if topo is None or "platform" not in pf.scope.modes:
        return []
    if topo.thread.name in pf.unreachable:
        return []
    try:
        limits = threadlimits.HostLimits.from_lines(topo.thread.tool("limits", timeout=60))
    except HostError as e:
        return [f"cannot read the thread host's limits on threads and memory: {e}"]
    problems = [threadlimits.pool_too_big(size, limits) for size in pf.scope.platform_threads]
    return [p for p in problems if p]


# Order matters once: check_hosts before check_ports (a host that did not answer is reported once).
CHECKS = (
    check_jdk,
    check_build,
    check_results_dir,
    check_disk,
    check_hosts,
    check_ports,
    check_postgresql,
    check_jdk_runtimes,
    check_thread_limits,
)


def preflight(scope: RunScope, database: DatabaseUse) -> list[str]:
    """Every problem of every check, each once, in CHECKS order; empty when the run may start."""
    pf = Preflight(scope, database)
    problems = [line for check in CHECKS for problem in check(pf) for line in problem.splitlines()]
    return list(dict.fromkeys(problems))
