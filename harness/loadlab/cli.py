"""Entry point of the harness: `python -m loadlab <command>`; the Makefile is its user interface."""
from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

from . import params
from .hosts import HostError
from .java import JdkNotFound, find_jdk
from .topology import STATE

USAGE = "usage: python -m loadlab check|params-help|java-home|bench|report RUN_DIR|up|down"


def _check() -> dict:
    try:
        return params.parse()
    except params.ParamError as e:
        for line in str(e).splitlines():
            print(f"loadlab: {line}", file=sys.stderr)
        raise SystemExit(2)


def _single_run_lock():
    """Two benches at once would share ports and kill each other's processes: refuse the second one."""
    STATE.mkdir(parents=True, exist_ok=True)
    f = open(STATE / "bench.lock", "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        print(f"loadlab: another `make bench` is running (pid {f.read().strip() or '?'}); wait for it or stop it",
              file=sys.stderr)
        raise SystemExit(2)
    f.truncate(0)
    f.write(str(os.getpid()))
    f.flush()
    return f


def _is_run_folder(path: str) -> bool:
    """An empty RUN must not turn the current folder into a "run" and write a page there."""
    if not path.strip() or not Path(path).is_dir():
        return False
    return Path(path, "params.json").is_file() or any(Path(path, m).is_dir() for m in params.THREAD_MODES)


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else ""
    try:
        if cmd == "check":
            _check()
            return 0
        if cmd == "params-help":
            for p in params.PARAMS:
                print(f"  {p.name:<17} {p.default!r:<19} {p.help} [{p.allowed}]")
            return 0
        if cmd == "java-home":
            print(find_jdk())
            return 0
        if cmd == "bench":
            values = _check()
            lock = _single_run_lock()
            from .bench import bench
            try:
                return bench(values)
            finally:
                lock.close()
        if cmd == "report":
            run = argv[1] if len(argv) > 1 else ""
            if not _is_run_folder(run):
                print(f"loadlab: RUN={run!r} is not a run folder; allowed: results/<run-id> (a folder with "
                      f"params.json or a platform/virtual folder)", file=sys.stderr)
                return 2
            from . import console, summary
            run_dir = Path(run).resolve()
            console.table(summary.rebuild(run_dir), run_dir)
            return 0
        if cmd in ("up", "down"):
            values = _check()
            from . import targets
            return targets.up(values) if cmd == "up" else targets.down(values)
    except JdkNotFound as e:
        print(f"loadlab: {e}", file=sys.stderr)
        return 2
    except HostError as e:
        print(f"loadlab: {e}", file=sys.stderr)
        return 1
    print(USAGE, file=sys.stderr)
    return 2
