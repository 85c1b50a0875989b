"""The page's "On other hardware" section: the last `make plan` of this run (plan.json), as its table says it — each
mode's knee on the host named, the limit met first, what is rough, and for a target rate the hosts and their cost.
Absent until a plan was made."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from loadlab.capacity import table
from loadlab.capacity.plan import PLAN_JSON


def read(run_dir: Path) -> dict[str, object] | None:
    try:
        plan = json.loads((run_dir / PLAN_JSON).read_text())
    except (OSError, ValueError):
        return None
    return plan if isinstance(plan, dict) else None


def section(plan: dict[str, object] | None) -> str:
    if not plan:
        return ""
    try:
        text = "\n".join(table.lines(plan))
    except (KeyError, TypeError, ValueError):
        return ""  # a plan.json of another version: the section is left out rather than half drawn
    return (
        '<section id="other-hardware"><h2>On other hardware</h2>'
        f"<p>From this run's measured costs (<code>make plan</code>, {escape(PLAN_JSON)}); it assumes "
        f"{escape(str(plan.get('assumes') or ''))}. Each figure carries its interval; <em>rough</em> names the fits "
        "a reader should not lean on.</p>"
        f"<pre>{escape(text)}</pre></section>"
    )
