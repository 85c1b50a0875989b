"""The sampler's count of a process's OS threads and context switches (/proc), on a real process: what memory and
switches per request are fitted on. A process with known threads that wake up regularly is sampled for a few
seconds by the real script."""

import csv
import os
import subprocess
import sys
import time

from loadlab.run.hosts import HOST_SCRIPTS

THREADS = 40
# 40 threads each sleeping 10 ms in a loop: about 4,000 switches a second between them.
WAKERS = f"""
import threading, time
def wake():
    while True:
        time.sleep(0.01)
for _ in range({THREADS}):
    threading.Thread(target=wake, daemon=True).start()
time.sleep(60)
"""


def test_os_threads_and_context_switches_of_the_sampled_process(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", WAKERS], start_new_session=True)
    try:
        (tmp_path / "p.pid").write_text(str(proc.pid))
        out = tmp_path / "samples.csv"
        sampler = subprocess.Popen(
            [
                sys.executable,
                str(HOST_SCRIPTS / "loadlab-sample"),
                "--pid-file",
                str(tmp_path / "p.pid"),
                "--out",
                str(out),
            ]
        )
        time.sleep(4.5)
        sampler.terminate()
        sampler.wait(timeout=10)
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
    rows = list(csv.DictReader(out.open()))
    assert len(rows) >= 3, rows
    assert all(int(r["os_threads"]) == THREADS + 1 for r in rows), rows
    counts = [int(r["context_switches"]) for r in rows if r["context_switches"]]
    assert len(counts) >= 3 and counts == sorted(counts), counts
    per_second = (counts[-1] - counts[0]) / (len(counts) - 1)
    assert 500 < per_second < 40_000, counts  # ~4,000: each of 40 threads wakes up to 100 times a second
