"""Which kinds of failed request a mode's levels show, in the simulation's order (for the error chart and table)."""

from __future__ import annotations

from loadlab.summary.schema.level_records import LevelRecord


def error_kinds(levels: list[LevelRecord], listed: list[str]) -> list[str]:
    """The kinds seen in a mode's levels, in the simulation's order (`listed`: the mode's error_kinds), then any it
    did not list."""
    seen = {k for lv in levels for k, n in (lv.errors_by_kind or {}).items() if n}
    order = [k for k in listed if k in seen]
    return order + sorted(seen - set(order))
