"""`make answers`: each chosen row of the README's table run by `make bench` with the row's parameters and REPEAT,
one after another, with a progress line per row; a row that fails is recorded with why and the next one runs.
answers.json, answers.md and the README's table are written again after every row, so a row done is never lost.

Each `make bench` gets an environment without the lab's parameters and make's own variables from the `make answers`
that started it: a parameter given to `make answers`, or left in the shell, must not change a row's command.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path

from loadlab.core import answer_rows, params
from loadlab.core.answer_rows import Row
from loadlab.core.repo import REPO
from loadlab.report import answers_json, answers_md, answers_readme
from loadlab.report.answers_json import Outcome

# Test-only seam (never set by a real run): the command run for a row instead of `make bench` (shell words; it gets
# the row's parameters in its environment as make bench would).
BENCH_ENV = "LOADLAB_ANSWERS_BENCH"
MAKE_VARIABLES = ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES", "LOADLAB_MAKE_COMMAND_LINE", "ROWS")


def bench_env(row: Row, repeat: int, base: Mapping[str, str]) -> dict[str, str]:
    own = {p.name for p in params.PARAMS if p.name != "RESULTS_DIR"} | set(MAKE_VARIABLES)
    return {k: v for k, v in base.items() if k not in own} | row.params | {"REPEAT": str(repeat)}


def machine() -> dict[str, object]:
    """The cores and the load average (1, 5, 15 minutes) before a row began: a busy machine moves every figure."""
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = None
    return {"cores": os.cpu_count(), "load_before": load}


def _latest(env: Mapping[str, str]) -> Path | None:
    results = Path(env.get("RESULTS_DIR") or "results")
    latest = (results if results.is_absolute() else REPO / results) / "latest"
    return latest.resolve() if latest.exists() else None


def duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600} h {s % 3600 // 60} min" if s >= 3600 else f"{s // 60} min {s % 60} s"


def progress(k: int, n: int, row: Row, repeat: int, elapsed: float, done: Sequence[float]) -> str:
    """`row k of n (id), REPEAT=3, elapsed …, about … left`, the time left from the rows done so far."""
    left = f"about {duration(sum(done) / len(done) * (n - k + 1))} left" if done else "time left: known after a row"
    return f"-- answers: row {k} of {n} ({row.id}), REPEAT={repeat}, elapsed {duration(elapsed)}, {left}"


def run_row(row: Row, repeat: int, base: Mapping[str, str], command: Sequence[str]) -> Outcome:
    date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    state = machine()
    missing = row.missing()
    if missing:
        return Outcome(row, repeat, "skipped", date, 0.0, state, reason=missing)
    env = bench_env(row, repeat, base)
    before, start = _latest(env), time.monotonic()
    code = subprocess.run(list(command), cwd=REPO, env=env, check=False).returncode
    seconds, after = time.monotonic() - start, _latest(env)
    folder = after if after is not None and after != before else None
    reason = None if code == 0 else f"make bench exited {code}"
    if folder is None:
        reason = f"{reason or 'make bench ended'}; it made no run folder"
    status = "measured" if code == 0 and folder is not None else "failed"
    return Outcome(row, repeat, status, date, seconds, state, code, folder, reason)


def _failure_reasons(entry: dict[str, object]) -> str:
    modes = entry.get("modes")
    found = [
        f"{label}: {r}"
        for label, m in (modes.items() if isinstance(modes, dict) else [])
        if isinstance(m, dict)
        for r in [*(m.get("invalid_reasons") or []), *(m.get("invalid_repetitions") or [])]
    ]
    return "; ".join(found)


def write_all(entries: list[dict[str, object]], rows: Sequence[Row]) -> None:
    answers = answers_json.merged(entries, answers_json.read(), rows)
    answers_json.write(answers)
    answer_rows.ANSWERS_MD.write_text(answers_md.page(rows, answers), encoding="utf-8")
    answers_readme.write()


def run(
    chosen: Sequence[Row],
    repeat: int,
    base: Mapping[str, str] | None = None,
    out: Callable[[str], None] = print,
    write: Callable[[list[dict[str, object]], Sequence[Row]], None] = write_all,
) -> int:
    """Runs the rows in turn; 0 when every row measured, 1 when one failed or was skipped."""
    base = os.environ if base is None else base
    command = shlex.split(base.get(BENCH_ENV, "")) or ["make", "--no-print-directory", "bench"]
    rows = answer_rows.load()
    began = time.monotonic()
    done: list[float] = []
    entries: list[dict[str, object]] = []
    for k, row in enumerate(chosen, 1):
        out(progress(k, len(chosen), row, repeat, time.monotonic() - began, done))
        sys.stdout.flush()
        outcome = run_row(row, repeat, base, command)
        if outcome.status != "skipped":
            done.append(outcome.seconds)
        entry = answers_json.row_entry(outcome)
        if outcome.status == "failed" and (why := _failure_reasons(entry)):
            # make exits 2 whatever the bench's own exit: the verdict says what failed
            entry["reason"] = f"the run ended INVALID ({entry['reason']}): {why}"
        entries.append(entry)
        write(entries, rows)
        said = entry["reason"] or f"done in {duration(outcome.seconds)}, {entry['run_folder']}"
        status = "" if outcome.status == "skipped" else f"{outcome.status}: "  # its reason says `skipped: needs …`
        out(f"-- answers: row {k} of {len(chosen)} ({row.id}): {status}{said}")
    out(f"-- answers: {len(chosen)} rows in {duration(time.monotonic() - began)}: {answer_rows.ANSWERS_MD}")
    return 0 if all(e["status"] == "measured" for e in entries) else 1
