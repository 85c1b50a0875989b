import os
import re
import shutil
import subprocess
import time
import warnings
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def make(*args: str, env: dict | None = None, timeout: float = 900, **kw) -> subprocess.CompletedProcess:
    """Runs `make <args>` in the repo the way a user would, with parameters as environment variables."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("TARGET", "MODES", "MAKEFLAGS", "MAKELEVEL")}
    full_env.update(env or {})
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=REPO,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        **kw,
    )


def harness_exit(r: subprocess.CompletedProcess) -> int:
    """The harness's own exit code (errors.ExitCode) behind a `make` run: make itself exits 2 whenever its recipe
    failed, and names the recipe's code in its last line (`make: *** [Makefile:N: bench] Error 1`)."""
    if r.returncode == 0:
        return 0
    found = re.findall(r"\] Error (\d+)$", r.stderr, re.M)
    return int(found[-1]) if found else r.returncode


# A bound on waiting for an event a test needs: generous, so a busy machine only makes a test slower, never red; it
# fails the test naming what never happened. Never a measured time: no test asserts how long anything took.
WAIT_S = 120


def wait_for(condition, what: str, timeout_s: float = WAIT_S, poll_s: float = 0.1):
    """Polls condition() until it returns something truthy, and returns that; fails after timeout_s, naming what."""
    deadline = time.monotonic() + timeout_s
    while not (found := condition()):
        assert time.monotonic() < deadline, f"{what}: not seen within {timeout_s:.0f} s"
        time.sleep(poll_s)
    return found


@pytest.fixture
def repo() -> Path:
    return REPO


# The reasons by which the harness blames the machine (other work on its cores), not a role of the run.
MACHINE_REASONS = ("the machine itself was saturated", "something outside the run used the CPU")


def blamed_on_the_machine(mode: dict) -> bool:
    """A mode of summary.json where the harness blamed the shared machine: invalid because it was saturated, or a
    level set aside for other work on it. There, by design, a role's symptoms are the machine's, and no claim that
    needs a quiet machine can be checked."""
    return bool(machine_blame(mode))


def machine_blame(mode: dict) -> list[str]:
    """What the harness blamed on the shared machine: its invalid reasons, then the reasons levels were set aside."""
    said = [*mode["invalid_reasons"], *(e["reason"] for e in mode.get("set_aside_levels") or [])]
    return [x for x in said if x.startswith(MACHINE_REASONS)]


class NotProvenHere(UserWarning):
    """Part of a test's claim that this run could not prove, with the measured reason. pytest lists each one in its
    warnings summary, so a green run says what it did not show instead of skipping without a trace."""


def not_proven(what: str, why: str) -> None:
    warnings.warn(NotProvenHere(f"NOT PROVEN on this run: {what} — because {why}"), stacklevel=2)


def rebuilt_copy(tmp_path_factory, data: Path) -> tuple[Path, dict]:
    """A copy of a real run folder under tests/data, judged as `make report` judges it: (its folder, summary)."""
    from loadlab import report  # the harness's own packages load only where a test needs them

    run = tmp_path_factory.mktemp("real") / data.name
    shutil.copytree(data, run)
    return run, report.rebuild(run).as_json()


def summarised_copy(tmp: Path, name: str) -> tuple[Path, dict]:
    """A real run kept under data/<name>, copied into tmp (summarising writes into its folder), and what summarised
    gives for it."""
    run = tmp / name
    shutil.copytree(Path(__file__).parent / "data" / name, run)
    return run, summarised(run)


def summarised(run_dir: Path) -> dict:
    """What report.rebuild returns (summary.json's content, every derived file written) without drawing the pages:
    for a test that asserts the numbers only. report.rebuild draws each page from this same record and never fails
    for a page (it writes a fallback instead), so the numbers are the same; a test that reads a page rebuilds it."""
    from loadlab import summary

    return summary.write(run_dir)[-1][1].as_json()
