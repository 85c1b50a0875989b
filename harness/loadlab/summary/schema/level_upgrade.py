"""A summary.json written before its levels were numbered from 1, read as today's. Such a file has no
`levels_counted_from`: its levels' `index`, `first_unhealthy_level` (a mode's and a fine pass's), a crash's `level`
and its GC-bound levels', `levels_dropped_after_crash`, the costs' `levels_fitted` and `fitted_on`, the pool's
`first_level_with_pending` and a kind's levels' `level` counted from 0; `set_aside_levels` and a fan-out's levels
already counted from 1. `make compare` pairs levels by their offered rate, never by number: this keeps the numbers
it shows of an older run the ones a person reads today."""

from __future__ import annotations

from collections.abc import Callable

from loadlab.core.upgrade import Doc

# summary.json's `levels_counted_from`: every level number in it counts from this (levels.level_number)
LEVELS_COUNTED_FROM = 1


def upgrade(values: Doc) -> Doc:
    """summary.json's content with its level numbers counted from 1; the mapping given is not changed."""
    modes = values.get("modes")
    if values.get("levels_counted_from") is not None or not isinstance(modes, dict):
        return values
    upgraded = {label: _mode(m) if isinstance(m, dict) else m for label, m in modes.items()}
    return {**values, "levels_counted_from": LEVELS_COUNTED_FROM, "modes": upgraded}


def _mode(mode: Doc) -> Doc:
    mode = _shifted(mode, "first_unhealthy_level", "levels_dropped_after_crash")
    _each(mode, "levels", lambda level: _shifted(level, "index"))
    _nested(mode, "crashed", _crash)
    _nested(mode, "db_pool", lambda pool: _shifted(pool, "first_level_with_pending"))
    _nested(mode, "costs", _costs)
    _nested(mode, "refine", lambda refine: _each({**refine}, "passes", _pass))
    _each(mode, "kinds", lambda kind: _each({**kind}, "levels", lambda level: _shifted(level, "level")))
    return mode


def _crash(crashed: Doc) -> Doc:
    return _each(_shifted(crashed, "level"), "gc_bound", lambda bound: _shifted(bound, "level"))


def _pass(fine: Doc) -> Doc:
    return _each(_shifted(fine, "first_unhealthy_level"), "levels", lambda level: _shifted(level, "index"))


def _costs(costs: Doc) -> Doc:
    costs = _shifted(costs, "levels_fitted")
    fitted_on = costs.get("fitted_on")
    if isinstance(fitted_on, dict):
        costs["fitted_on"] = {name: _number(found) for name, found in fitted_on.items()}
    return costs


def _nested(mode: Doc, key: str, upgraded: Callable[[Doc], Doc]) -> None:
    found = mode.get(key)
    if isinstance(found, dict):
        mode[key] = upgraded(found)


def _each(mapping: Doc, key: str, upgraded: Callable[[Doc], Doc]) -> Doc:
    """The mapping (changed in place: a copy of the caller's) with each mapping of its list `key` upgraded."""
    items = mapping.get(key)
    if isinstance(items, list):
        mapping[key] = [upgraded(item) if isinstance(item, dict) else item for item in items]
    return mapping


def _shifted(mapping: Doc, *keys: str) -> Doc:
    return {**mapping, **{k: _number(mapping[k]) for k in keys if k in mapping}}


def _number(value: object) -> object:
    """A position counted from 0 (or a list of them) as its number counted from 1; anything else as it is."""
    if isinstance(value, list):
        return [_number(v) for v in value]
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value
