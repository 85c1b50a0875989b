"""The thread-service's own account of itself, from its GET /actuator/loadlab (fields: metrics.py): one reading on
demand (the drain polls it), and the live configuration kept once the service is up, for the verdict, which refuses a
mode whose live settings (thread mode, Tomcat's max threads, JDK) differ from what was asked. And, once per run, which
runtime each JDK of JDKS is, as its java binary says."""

from __future__ import annotations

import json

from loadlab.core import metrics
from loadlab.run.context import Run
from loadlab.run.hosts import HostError
from loadlab.run.java import NAME_ARGS, name_from_properties
from loadlab.run.topology import MGMT_PORT


def read_thread_metrics(run: Run) -> dict[str, object]:
    """One reading of the thread-service's /actuator/loadlab, on its host; {} when it did not answer."""
    got = run.topo.thread.run(
        ["curl", "-sf", "--max-time", "5", f"http://127.0.0.1:{MGMT_PORT}/actuator/loadlab"],
        check=False,
        timeout=30,
    )
    try:
        sample = json.loads(got.stdout) if got.returncode == 0 else {}
    except ValueError:
        sample = {}
    return sample if isinstance(sample, dict) else {}


def record_live_config(run: Run, folder: str) -> None:
    """Its info and config fields (metrics.tsv) into <folder>/raw/thread/config.json; verdict.py compares them."""
    sample = read_thread_metrics(run)
    live = {k: sample.get(k) for k in metrics.names(*metrics.LIVE_CONFIG_KINDS) if k in sample}
    path = run.run_dir / folder / "raw" / "thread" / "config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(live, indent=2) + "\n")


def record_runtimes(run: Run) -> None:
    """Which runtime each JDK of JDKS is ("Temurin 25.0.3+9", None when it would not say), as the java binary on the
    thread-service's host says at the run's start, into params.json's `java_runtimes` (the summary's `java_runtime`)."""
    names: dict[str, str | None] = {}
    for jdk, java in sorted(run.javas.items()):
        try:
            said = run.topo.thread.run([java, *NAME_ARGS], check=False, timeout=60).stderr
        except (HostError, OSError):
            said = ""
        names[str(jdk)] = name_from_properties(said or "")
    run.meta["java_runtimes"] = names
