"""A limit of N slots, each held for one request (threads, connections, carriers, a pool's connections): N / the hold
time, with the interval the hold's spread allows. Every such model in models.py is this one function."""

from __future__ import annotations

from loadlab.analysis.holds import HoldTime
from loadlab.analysis.prediction import Prediction


def slots_over_hold(
    slots: float, hold: HoldTime, predicted_by: str, formula: str, measured_at: float | None = None
) -> Prediction:
    """N slots each held for one request: N / hold time, between N / the longest and N / the shortest hold.
    formula: the text before " = <rate> rps". A hold the run's evidence gives no spread to (one value) leaves the
    prediction without an interval, said as such, never the point written as one."""
    rps = slots * 1000.0 / hold.ms
    spread = hold.longest_ms > hold.shortest_ms
    on = hold.measured_on or (None if measured_at is None else (measured_at, measured_at))
    return Prediction(
        rps,
        predicted_by,
        f"{formula} = {rps:,.0f} rps",
        interval=(slots * 1000.0 / hold.longest_ms, slots * 1000.0 / hold.shortest_ms) if spread else None,
        fitted_on=on,
        measured_levels=hold.levels,
    )
