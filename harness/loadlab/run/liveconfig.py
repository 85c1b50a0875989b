"""The thread-service's own account of itself, from its GET /actuator/loadlab (fields: metrics.py): one reading on
demand (the drain polls it), and the live configuration kept once the service is up, for the verdict, which refuses a
mode whose live settings (thread mode, Tomcat's max threads, JDK) differ from what was asked."""

from __future__ import annotations

import json

from loadlab.core import metrics
from loadlab.run.context import Run
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
