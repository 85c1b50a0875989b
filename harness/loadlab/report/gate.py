"""FAIL_IF against two compared runs (`make compare RUN=… AGAINST=… FAIL_IF='virtual.sustained < -10%'`): each
condition (core/failif.py) finds its row among the changes (changes.py), and is met when the change is detected by
the one rule the console and the page use (its 95% interval excludes 0%) and that whole interval lies past the
threshold; the rank test is said, never counted. A condition the two runs cannot answer (a mode they do not share,
a rate they did not both run) is refused like a bad expression, naming FAIL_IF (exit 2): a gate that cannot read its
figure must not pass."""

from __future__ import annotations

from loadlab.core.failif import Condition, FailIfError
from loadlab.report.changes import Row, change_text, held_rate, pct
from loadlab.report.comparability import Shared, aside_text


def resolve(text: str, conditions: list[Condition], found: list[Row], shared: Shared) -> list[tuple[Condition, Row]]:
    """Each condition with the row it reads; refused (exit 2) when the runs have none for it."""
    return [(c, _row(text, c, found, shared)) for c in conditions]


def _row(text: str, condition: Condition, found: list[Row], shared: Shared) -> Row:
    mode = condition.mode
    if mode not in shared.modes:
        why = shared.aside.get(mode, "neither run has it")
        raise FailIfError(
            f"FAIL_IF={text!r} names {mode}, which RUN and AGAINST cannot compare ({why}); compared: "
            f"{' '.join(shared.modes)}" + (f" (set aside: {aside_text(shared.aside)})" if shared.aside else "")
        )
    rate = condition.rate
    if condition.figure in ("p50", "p99") and rate is None:
        rate = held_rate(shared, mode)
        if rate is None:
            raise FailIfError(
                f"FAIL_IF={text!r} reads {mode}'s {condition.figure} at the highest rate both runs held, and they held "
                f"none in common (both ran: {_rates(shared, mode)}); allowed: @<rate> with one of those rates"
            )
    for row in found:
        if row.mode == mode and row.figure == condition.figure and row.rate == rate:
            return row
    raise FailIfError(
        f"FAIL_IF={text!r} reads {mode}'s {condition.figure} at {rate:g} rps, which both runs did not run (both ran: "
        f"{_rates(shared, mode)})"
    )


def _rates(shared: Shared, mode: str) -> str:
    return ", ".join(f"{r:g}" for r in shared.rates.get(mode) or {}) or "no rate"


def met(condition: Condition, row: Row) -> bool:
    """The change's rule (difference.Change.detected: its interval excludes 0%) and its whole interval past the
    threshold: a row the console calls "no change detected" never fails the gate, whatever its threshold or its rank
    test says."""
    change = row.change
    return change.detected and condition.met(change.low_pct, change.high_pct)


def line(condition: Condition, row: Row) -> str:
    """What the gate says of one condition: the figure, its change with its interval, and whether it is met."""
    said = f"{change_text(row.change)}, {row.change.basis}"
    if met(condition, row):
        side = "below" if condition.op == "<" else "above"
        return f"FAIL_IF {condition}: {row.name} changed {said}: certainly {side} {pct(condition.threshold_pct)}"
    return f"FAIL_IF {condition}: not met: {row.name} {said}"
