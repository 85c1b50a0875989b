"""The sampler's count of a process's OS threads and context switches (/proc), on a real process: what memory and
switches per request are fitted on. A process with known threads that wake up regularly is sampled by the real
script for a few rows, and its counts are held against /proc's own, read by the test before and after."""

import csv
import os
import subprocess
import sys
from pathlib import Path

from conftest import wait_for

from loadlab.run.hosts import HOST_SCRIPTS

THREADS = 40
# 40 threads each sleeping 10 ms in a loop: each is switched onto a CPU up to 100 times a second.
WAKERS = f"""
import threading, time
def wake():
    while True:
        time.sleep(0.01)
for _ in range({THREADS}):
    threading.Thread(target=wake, daemon=True).start()
time.sleep(600)
"""
ROWS = 3


def switches(pid: int) -> tuple[int, int]:
    """(times the main thread alone, and all its threads together, were switched onto a CPU), from schedstat."""
    per_thread = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            per_thread[task.name] = int((task / "schedstat").read_text().split()[2])
        except (OSError, IndexError, ValueError):
            continue  # a thread that just ended
    return per_thread.get(str(pid), 0), sum(per_thread.values())


def rows_of(out: Path) -> list[dict]:
    return list(csv.DictReader(out.open())) if out.exists() else []


def test_os_threads_and_context_switches_of_the_sampled_process(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", WAKERS], start_new_session=True)
    try:
        # Every waker running, and each woken many times over: more switches than the main thread alone could make.
        wait_for(lambda: len(os.listdir(f"/proc/{proc.pid}/task")) == THREADS + 1, "all waker threads started")
        wait_for(lambda: switches(proc.pid)[1] >= 20 * THREADS, f"{20 * THREADS} switches among the wakers")
        main_before, all_before = switches(proc.pid)
        (tmp_path / "p.pid").write_text(str(proc.pid))
        out = tmp_path / "samples.csv"
        sampler = subprocess.Popen(
            [sys.executable, str(HOST_SCRIPTS / "loadlab-sample"), "--pid-file", str(tmp_path / "p.pid")]
            + ["--out", str(out)]
        )
        try:
            wait_for(lambda: len(rows_of(out)) >= ROWS, f"{ROWS} rows written by the sampler")
        finally:
            sampler.terminate()
            sampler.wait(timeout=30)
        main_after, all_after = switches(proc.pid)
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
    rows = rows_of(out)
    assert all(int(r["os_threads"]) == THREADS + 1 for r in rows), rows
    counts = [int(r["context_switches"]) for r in rows if r["context_switches"]]
    assert len(counts) >= ROWS, rows
    # Cumulative over every thread: within what /proc counted before and after, never going back, and moving (the
    # wakers never stop); the main thread's own count (what /proc/<pid>/status gives) is far below it.
    assert all_before <= counts[0] and counts[-1] <= all_after, (all_before, counts, all_after)
    assert counts == sorted(counts) and counts[-1] > counts[0], counts
    assert main_after < all_before, (main_after, all_before)
