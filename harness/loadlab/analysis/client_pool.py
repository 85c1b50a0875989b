"""The `client_pool` model (models.py calls it): the thread-service's HTTP client's connection pool, CLIENT=apache or
reactor (core/client.py says how many connections), N connections each held for the downstream call."""

from __future__ import annotations

from loadlab.analysis.holds import HoldTime
from loadlab.analysis.holds import said_ms as _s
from loadlab.analysis.prediction import Prediction
from loadlab.analysis.slots import slots_over_hold
from loadlab.core.client import Pool


def client_pool(pool: Pool | None, hold: HoldTime | float | None) -> Prediction | None:
    """CLIENT=apache|reactor: N pooled connections each held for the downstream call (delay_hold, a mix's http share,
    or DELAY_MS)."""
    if isinstance(hold, int | float):
        hold = HoldTime(hold, "DELAY_MS", hold, hold) if hold else None
    if pool is None or hold is None:
        return None
    return slots_over_hold(
        pool.slots,
        hold,
        "client_pool",
        f"client_pool: {pool.slots:,.0f} connections ({pool.source}) × 1000 / {_s(hold.ms)} ({hold.source})",
    )
