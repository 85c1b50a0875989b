"""What every step of a run shares: what it needs of the parameters, its hosts, folder, limits and the record kept in
params.json.

The run folder is results/<UTC start> (make_run_dir); `results/latest` moves to it only once the run really starts
(point_latest). Every service's and Gatling's console log goes to one flat `logs/` folder on its host (log_path).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from loadlab.core import timeouts
from loadlab.core.database_use import DatabaseUse
from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.core.load_plan import LoadPlan
from loadlab.core.service_plan import ServicePlan
from loadlab.run.hosts import Host
from loadlab.run.topology import Topology


@dataclass
class Run:
    topo: Topology
    run_dir: Path
    limits: timeouts.Limits
    plan: LoadPlan  # what the injectors need of the parameters (core/load_plan.py)
    database: DatabaseUse  # the run's own PostgreSQL, and who it is for (core/database_use.py)
    service: ServicePlan  # what the services need of the parameters (core/service_plan.py)
    # The java binary of each JDK in JDKS on the thread-service's host (scenario.thread_javas).
    javas: dict[int, str] = field(default_factory=dict)
    # params.json: rewritten after every mode, so a crash keeps it. Any: a JSON document each step adds its keys to
    # as the run goes (core/runrecord.RunRecord is its typed reading, once written).
    meta: dict[str, Any] = field(default_factory=dict)

    def write_meta(self) -> None:
        (self.run_dir / "params.json").write_text(json.dumps(self.meta, indent=2) + "\n")

    def log(self, host: Host, name: str) -> str:
        return host.work_path("logs", f"{name}.log")

    @staticmethod
    def log_name(folder: str, what: str) -> str:
        """`platform-thread-service`; with REPEAT, `rep-2-platform-thread-service` (logs/ stays one flat folder)."""
        return f"{folder.replace('/', '-')}-{what}"

    def add_problem(self, folder: str, problem: str) -> None:
        self.meta.setdefault("mode_problems", {}).setdefault(folder, []).append(problem)


def make_run_dir(results: Path) -> Path:
    """results/<UTC start>; never reuses an existing folder. `latest` moves only once the run starts (point_latest).

    The preflight already checked that RESULTS_DIR can be created; an OSError here is a race with something else."""
    try:
        results.mkdir(parents=True, exist_ok=True)
        while True:
            run_id = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
            run_dir = results / run_id
            try:
                run_dir.mkdir()
            except FileExistsError:
                time.sleep(1)
                continue
            return run_dir
    except OSError as e:
        raise LoadlabError(
            f"RESULTS_DIR={results}: cannot create the run folder ({e.strerror})", ExitCode.USAGE
        ) from None


def point_latest(run_dir: Path) -> None:
    """results/latest → run_dir, replaced in one step (a reader never sees it missing)."""
    latest = run_dir.parent / "latest"
    tmp = run_dir.parent / f".latest-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(run_dir.name)
    tmp.replace(latest)
