"""A summary.json written before its levels were numbered from 1, read as today's. Such a file has no
`levels_counted_from`: its levels' `index`, `first_unhealthy_level` (a mode's and a fine pass's), a crash's `level`
and its GC-bound levels', `levels_dropped_after_crash`, the costs' `levels_fitted` and `fitted_on`, the pool's
`first_level_with_pending` and a kind's levels' `level` counted from 0; `set_aside_levels` and a fan-out's levels
already counted from 1. `make compare` pairs levels by their offered rate, never by number: this keeps the numbers
it shows of an older run the ones a person reads today."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# summary.json's `levels_counted_from`: every level number in it counts from this (levels.level_number)
LEVELS_COUNTED_FROM = 1


def upgrade(values: dict[str, Any]) -> dict[str, Any]:
    """summary.json's content with its level numbers counted from 1; the mapping given is not changed."""
    if values.get("levels_counted_from") is not None or not isinstance(values.get("modes"), dict):
        return values
    modes = {label: _mode(m) if isinstance(m, dict) else m for label, m in values["modes"].items()}
    return {**values, "levels_counted_from": LEVELS_COUNTED_FROM, "modes": modes}


def _mode(mode: dict[str, Any]) -> dict[str, Any]:
    mode = _shifted(mode, "first_unhealthy_level", "levels_dropped_after_crash")
    _each(mode, "levels", lambda level: _shifted(level, "index"))
    _nested(mode, "crashed", _crash)
    _nested(mode, "db_pool", lambda pool: _shifted(pool, "first_level_with_pending"))
    _nested(mode, "costs", _costs)
    _nested(mode, "refine", lambda refine: _each({**refine}, "passes", _pass))
    _each(mode, "kinds", lambda kind: _each({**kind}, "levels", lambda level: _shifted(level, "level")))
    return mode


def _crash(crashed: dict[str, Any]) -> dict[str, Any]:
    return _each(_shifted(crashed, "level"), "gc_bound", lambda bound: _shifted(bound, "level"))


def _pass(fine: dict[str, Any]) -> dict[str, Any]:
    return _each(_shifted(fine, "first_unhealthy_level"), "levels", lambda level: _shifted(level, "index"))


def _costs(costs: dict[str, Any]) -> dict[str, Any]:
    costs = _shifted(costs, "levels_fitted")
    if isinstance(costs.get("fitted_on"), dict):
        costs["fitted_on"] = {name: _number(found) for name, found in costs["fitted_on"].items()}
    return costs


def _nested(mode: dict[str, Any], key: str, upgraded: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    if isinstance(mode.get(key), dict):
        mode[key] = upgraded(mode[key])


def _each(mapping: dict[str, Any], key: str, upgraded: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """The mapping (changed in place: a copy of the caller's) with each mapping of its list `key` upgraded."""
    if isinstance(mapping.get(key), list):
        mapping[key] = [upgraded(item) if isinstance(item, dict) else item for item in mapping[key]]
    return mapping


def _shifted(mapping: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {**mapping, **{k: _number(mapping[k]) for k in keys if k in mapping}}


def _number(value: Any) -> Any:
    """A position counted from 0 (or a list of them) as its number counted from 1; anything else as it is."""
    if isinstance(value, list):
        return [_number(v) for v in value]
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value
