"""Bringing the run's files home: every host's part of the run folder (rsync on aws; nothing to do on local and
netns, whose hosts write straight into it), and the thread-service's JFR pinning count after each mode."""

from __future__ import annotations

from loadlab.run import console
from loadlab.run.context import Run
from loadlab.run.hosts import HostError


def collect(run: Run) -> None:
    for h in run.topo.hosts():
        if not h.shares_filesystem():
            try:
                h.collect(run.run_dir)
            except HostError as e:
                console.warn(str(e))


def record_pinned(run: Run, folder: str) -> None:
    """The mode's flight recording (service.jfr): its jdk.VirtualThreadPinned count → <folder>/raw/thread/pinned.json,
    its cost events → flight.json (flight.py reads them)."""
    h = run.topo.thread
    raw = h.work_path(folder, "raw", "thread")
    h.tool("pinned", f"{raw}/service.jfr", f"{raw}/pinned.json", check=False, timeout=120)
