"""What SCENARIO and JDKS change in a run: the runtimes and the database to have before it starts, the settings the
thread-service gets, and the one request that proves the wiring before any load.

The models that predict each scenario's knee are in models.py; the verdict that uses them is in
summary/verdicts/verdict.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from loadlab.core import scenario_mix, timeouts
from loadlab.core.database_use import DatabaseUse
from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.core.repo import REPO
from loadlab.run import console, topology
from loadlab.run.java import find_runtime

# The database the thread-service's pool connects to on the run's own PostgreSQL (infra/host/loadlab-host postgres).
DB_NAME = DB_USER = "loadlab"
POSTGRES_INSTALL = REPO / "infra" / "host" / "install-postgresql"
POSTGRES_BIN_GLOB = "/usr/lib/postgresql/*/bin/postgres"
# One request per scenario, tiny, through the same endpoint the load uses.
SMOKE_PATHS = {
    "http": "/forward?ms=1",
    "db": "/db?ms=1",
    "cpu": "/cpu?cpuMs=1",
    "pinned": "/pinned?ms=1",
    "fanout": "/fanout?ms=1&n=2",
}


class ScenarioError(LoadlabError):
    exit_code = ExitCode.USAGE


def smoke_paths(scenario: str) -> list[str]:
    """One tiny request per kind of the run's SCENARIO (one for a single scenario), through the endpoints the load
    uses: a mix's every kind proves its own wiring (a db kind its database) before any load."""
    return [SMOKE_PATHS[kind] for kind in scenario_mix.kinds(scenario)]


def thread_service_args(database: DatabaseUse, db_address: str, run_limits: timeouts.Limits) -> list[str]:
    """Spring properties for the thread-service beyond its mode and pool: the database when a kind is db.

    Its limits, a request's wait for a pool connection and one query, come from timeouts.py like every limit of a
    run: above the slowest latency the health rule accepts, below the injector's timeout, so past the knee requests
    fail with the pool's own 503 (or a 504) within the run instead of piling up until the injector gives up.
    """
    if database.pool is None:
        return []
    t = timeouts.database_timeouts_ms(run_limits)
    return [
        f"--spring.datasource.url=jdbc:postgresql://{db_address}:{topology.DB_PORT}/{DB_NAME}",
        f"--spring.datasource.username={DB_USER}",
        f"--spring.datasource.hikari.maximum-pool-size={database.pool}",
        f"--spring.datasource.hikari.connection-timeout={t['connection_timeout_ms']}",
        f"--db.query-timeout={t['query_timeout_ms']}ms",
    ]


def prepare(target: str, jdks: tuple[int, ...], database: DatabaseUse) -> dict[int, str]:
    """Finds (or installs, saying so in one line) what the scenario needs on the hosts this machine runs (TARGET's):
    returns the java binary of each JDK in JDKS for the thread-service's host. Nothing is started."""
    if target == "aws":
        # user-data installed the runtimes and PostgreSQL on the hosts; their paths are fixed there.
        return {jdk: topology.aws_java(jdk) for jdk in jdks}
    if database.needed:
        ensure_postgresql(database.user)
    return {jdk: str(Path(find_runtime(jdk, install=True)) / "bin" / "java") for jdk in jdks}


def postgres_installed() -> bool:
    from glob import glob

    return bool(glob(POSTGRES_BIN_GLOB)) or shutil.which("postgres") is not None


def ensure_postgresql(user: str) -> None:
    """user: what asked for it (DatabaseUse.user), as the messages name it."""
    if postgres_installed():
        return
    console.step(f"installing PostgreSQL for {user} ({POSTGRES_INSTALL.relative_to(REPO)}: Debian's postgresql)")
    try:
        done = subprocess.run(
            [str(POSTGRES_INSTALL)], capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ScenarioError(f"{user} needs PostgreSQL and installing it failed: {e}") from None
    if done.returncode != 0 or not postgres_installed():
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise ScenarioError(
            f"{user} needs PostgreSQL's server and installing it failed" + (f": {detail[-1]}" if detail else "")
        )
