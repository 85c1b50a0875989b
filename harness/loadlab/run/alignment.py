"""After the run: injectors whose schedules began at different seconds make every merged second a mix of two levels;
each pass of each completed mode is checked and a late start becomes a problem of that mode."""

from __future__ import annotations

import json
from pathlib import Path

from loadlab.run.context import Run
from loadlab.run.load import start_align_s


def check_alignment(run: Run) -> None:
    for folder in run.meta["modes_completed"]:
        for raw in [run.run_dir / folder / "raw", *sorted((run.run_dir / folder).glob("refine-*/raw"))]:
            where = "" if raw.parent == run.run_dir / folder else f" in {raw.parent.name}"
            problem = pass_alignment(raw, where)
            if problem:
                run.add_problem(folder, problem)


def pass_alignment(raw: Path, where: str = "") -> str | None:
    """The problem when the pass's injectors began at different instants, else None."""
    starts = {}
    for path in sorted(raw.glob("injector-*/meta.json")):
        try:
            starts[path.parent.name] = json.loads(path.read_text()).get("start_epoch_ms")
        except (OSError, ValueError):
            continue
    known = [v for v in starts.values() if isinstance(v, (int, float))]
    if len(starts) < 2 or len(set(known)) <= 1:
        return None
    first = min(known)
    late = ", ".join(
        f"{name} {(v - first) / 1000:+.0f} s"
        for name, v in starts.items()
        if isinstance(v, (int, float)) and v != first
    )
    return (
        f"injectors did not start together{where} ({late} after the first): a Gatling JVM did not start its "
        f"schedule within the {start_align_s(len(starts))} s alignment margin after the go, so merged seconds mix "
        "levels"
    )
