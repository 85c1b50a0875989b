"""Which kinds of failed request a mode's levels show, in the simulation's order (for the error chart and table)."""

from __future__ import annotations


def error_kinds(summary: dict) -> list[str]:
    """The kinds seen in a mode's levels, in the simulation's order (then any it did not list)."""
    seen = {k for lv in summary.get("levels") or [] for k, n in (lv.get("errors_by_kind") or {}).items() if n}
    order = [k for k in summary.get("error_kinds") or [] if k in seen]
    return order + sorted(seen - set(order))
