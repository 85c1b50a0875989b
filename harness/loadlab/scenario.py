"""What SCENARIO and JDKS change in a run: the runtimes and the database to have before it starts, the settings the
thread-service gets, and the one request that proves the wiring before any load.

The models that predict each scenario's knee are in models.py; the verdict that uses them is in summary/verdict.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from . import console, topology
from .errors import ExitCode, LoadlabError
from .hosts import REPO

# The database the thread-service's pool connects to on the run's own PostgreSQL (infra/host/loadlab-host postgres).
DB_NAME = DB_USER = "loadlab"
POSTGRES_INSTALL = REPO / "infra" / "host" / "install-postgresql"
POSTGRES_BIN_GLOB = "/usr/lib/postgresql/*/bin/postgres"
# One request per scenario, tiny, through the same endpoint the load uses.
SMOKE_PATHS = {"http": "/forward?ms=1", "db": "/db?ms=1", "cpu": "/cpu?cpuMs=1", "pinned": "/pinned?ms=1"}


class ScenarioError(LoadlabError):
    exit_code = ExitCode.USAGE


def smoke_path(scenario: str) -> str:
    return SMOKE_PATHS[scenario]


def db_timeouts_ms(delay_ms: int, cpu_ms: int) -> dict[str, int]:
    """How long a request may wait for a pool connection, and a query may run.

    MOVE to limits.py (trust, issue 8) once it lands: every timeout of a run is computed there from DELAY_MS and
    CPU_MS. The pool wait is long enough that a healthy level never sees it (the health rule's p99 limit is at most
    a few request times) and short enough that, past the knee, requests fail with the pool's own error within the
    run instead of piling up until the injector's timeout. The query gets its DELAY_MS of pg_sleep plus as much
    again (at least a second) for a busy machine, so only a database that stopped answering hits it.
    """
    work = delay_ms + cpu_ms
    return {"pool_wait": max(1000, 10 * work), "query": delay_ms + max(1000, delay_ms)}


def thread_service_args(values: dict, db_address: str) -> list[str]:
    """Spring properties for the thread-service beyond its mode and pool: the database in the db scenario."""
    if values["SCENARIO"] != "db":
        return []
    t = db_timeouts_ms(values["DELAY_MS"], values["CPU_MS"])
    return [f"--spring.datasource.url=jdbc:postgresql://{db_address}:{topology.DB_PORT}/{DB_NAME}",
            f"--spring.datasource.username={DB_USER}",
            f"--spring.datasource.hikari.maximum-pool-size={values['DB_POOL']}",
            f"--spring.datasource.hikari.connection-timeout={t['pool_wait']}",
            f"--db.query-timeout={t['query']}ms"]


def prepare(values: dict) -> dict[int, str]:
    """Finds (or installs, saying so in one line) what the scenario needs on the hosts this machine runs; returns the
    java binary of each JDK in JDKS for the thread-service's host. Nothing is started."""
    target = values["TARGET"]
    if target == "aws":
        # user-data installed the runtimes and PostgreSQL on the hosts; their paths are fixed there.
        return {jdk: topology.aws_java(jdk) for jdk in values["JDKS"]}
    if values["SCENARIO"] == "db":
        ensure_postgresql()
    from .java import find_runtime  # JDK search and the JDK 21 runtime's install live in java.py

    return {jdk: str(Path(find_runtime(jdk, install=True)) / "bin" / "java") for jdk in values["JDKS"]}


def postgres_installed() -> bool:
    from glob import glob

    return bool(glob(POSTGRES_BIN_GLOB)) or shutil.which("postgres") is not None


def ensure_postgresql() -> None:
    if postgres_installed():
        return
    console.step(f"installing PostgreSQL for SCENARIO=db ({POSTGRES_INSTALL.relative_to(REPO)}: Debian's postgresql)")
    try:
        done = subprocess.run([str(POSTGRES_INSTALL)], capture_output=True, text=True, timeout=900,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ScenarioError(f"SCENARIO=db needs PostgreSQL and installing it failed: {e}") from None
    if done.returncode != 0 or not postgres_installed():
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise ScenarioError("SCENARIO=db needs PostgreSQL's server and installing it failed"
                            + (f": {detail[-1]}" if detail else ""))
