"""The run's own PostgreSQL starts wherever the repository lies. As root, infra/host/loadlab-host runs initdb and the
server as the postgres system user, which cannot enter a folder only root may enter (`mktemp -d` makes mode 700, so
is root's home): a cluster inside such a clone's `.loadlab/state` failed with "Permission denied" and a `db` run
measured no mode at all. This starts the real cluster, through the same script command a run uses, from a state
folder under such a parent, and uses it."""

import os
import shutil
import socket
import subprocess
from glob import glob
from pathlib import Path

import pytest

from loadlab.run.hosts import HOST_SCRIPTS

pytestmark = pytest.mark.e2e  # a real PostgreSQL server: run under the machine's lock with the other e2e tests

SCRIPT = str(HOST_SCRIPTS / "loadlab-host")
NAME = "postgres"  # the role's name in a run (services.py)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql() -> str:
    """The client beside the newest server loadlab-host would start (pg_bin), else the one on PATH."""
    found = sorted(glob("/usr/lib/postgresql/*/bin/psql"), key=lambda p: int(Path(p).parts[-3]))
    return found[-1] if found else shutil.which("psql") or "psql"


def postgres_user_can_enter(folder: Path) -> bool:
    """Whether the user PostgreSQL runs as can enter FOLDER (as root: the postgres system user; else the caller)."""
    probe = ["test", "-x", str(folder)]
    if os.geteuid() == 0:
        probe = ["runuser", "-u", "postgres", "--", *probe]
    return subprocess.run(probe, capture_output=True).returncode == 0


def test_the_db_starts_from_a_clone_under_a_folder_only_its_owner_may_enter(tmp_path):
    locked = tmp_path / "owner-only"
    locked.mkdir(mode=0o700)
    locked.chmod(0o700)  # whatever the umask
    state = locked / "repo" / ".loadlab" / "state" / "local"
    state.mkdir(parents=True)
    if os.geteuid() == 0:
        # The trap this test is about: were the cluster inside the clone, its user could not reach it.
        assert not postgres_user_can_enter(locked), "the postgres user can enter a mode-700 folder of root's"
    env = {**os.environ, "LOADLAB_STATE": str(state)}
    host = lambda *args, timeout=120: subprocess.run(
        [SCRIPT, *args], env=env, capture_output=True, text=True, timeout=timeout
    )
    port = str(free_port())
    logs = tmp_path / "logs"
    try:
        started = host("postgres", NAME, str(logs / "postgres.log"), "127.0.0.1", port, "10")
        initdb_log = logs / "postgres-initdb.log"
        assert started.returncode == 0, started.stderr + (initdb_log.read_text() if initdb_log.exists() else "")
        ready = host("wait-postgres", "127.0.0.1", port, "60", NAME)
        assert ready.returncode == 0, ready.stderr + (logs / "postgres.log").read_text()
        cluster = Path((state / f"{NAME}.scratch").read_text().strip())
        asked = subprocess.run(
            [psql(), "-h", "127.0.0.1", "-p", port, "-U", "loadlab", "-d", "loadlab", "-Atc", "select 41 + 1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert asked.stdout.strip() == "42", asked.stderr
        # The cluster's files are where its user reaches them, not under the locked folder.
        assert postgres_user_can_enter(cluster) and locked not in cluster.parents, cluster
    finally:
        stopped = host("stop", NAME, "20")
    assert stopped.returncode == 0, stopped.stderr
    # `stop` removes the cluster with the process: a run leaves nothing behind in the system's temp folder.
    assert not cluster.exists(), f"{cluster} left after stop"
    assert not (state / f"{NAME}.scratch").exists()
