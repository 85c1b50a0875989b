"""A run whose console went away (a closed ssh session, a killed `| tee`) goes on and stops what it started: printing
to the closed pipe must not raise into the bench's cleanup (a run killed by a CI job's timeout left its services,
PostgreSQL and Gatling running when the warning it printed raised BrokenPipeError)."""

import subprocess
import sys

from conftest import REPO

SCRIPT = """
import os, sys
read, write = os.pipe()
os.close(read)
os.dup2(write, sys.stdout.fileno())
from loadlab.run import console
console.warn("interrupted: stopping every process of this run")
console.step("still printing into nothing")
sys.stderr.write("cleanup reached\\n")
"""


def test_a_closed_console_does_not_stop_the_run_from_cleaning_up():
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO / "harness", capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "cleanup reached" in r.stderr, r.stderr
    assert "BrokenPipeError" not in r.stderr, r.stderr
