"""A pool the wait profile found that no model knows (an app's own Semaphore, a limiter), sized and timed from
measurement alone. A Semaphore has no owner in a thread dump, so its holders are the request threads inside the code
that took it and not waiting there (wait_profile.LevelWaits.holders). Its SIZE is the most of them seen at a level
where requests waited for it (every permit held then); its HOLD at each healthy level is holders ÷ throughput
(Little's law); its prediction is size ÷ hold, between size ÷ the longest and size ÷ the shortest hold, like any
pool's. The taker frame stands for the code between acquire and release: a permit taken in a helper and used by its
caller is undercounted, which makes the hold short and the prediction high (said in the formula's words)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from loadlab.analysis.holds import HoldTime
from loadlab.analysis.prediction import Prediction
from loadlab.analysis.slots import slots_over_hold
from loadlab.analysis.wait_sites import POOL

if TYPE_CHECKING:  # the level model needs hdrh
    from loadlab.analysis.levels import Level

# Requests waiting for the pool, mean per dump, for a level to show it full (every permit held): below half a
# request, most dumps saw nobody waiting.
FULL_WAITING = 0.5
MODEL = "measured_pool"


@dataclass(frozen=True)
class MeasuredPool:
    site: str
    size: int  # the most holders seen at a level where requests waited (rounded)
    hold: HoldTime | None  # holders ÷ throughput at the healthy levels where it was held; None: never held healthy


def of_levels(levels: list[Level], healthy: list[Level]) -> MeasuredPool | None:
    """The generic pool requests waited on most (at any level), or None when the profile found none."""
    waited: dict[str, float] = {}
    for level in levels:
        if level.waits is None or level.waits.too_few:
            continue
        for site in level.waits.holders:
            waited[site] = max(waited.get(site, 0.0), level.waits.at(POOL, site))
    if not waited or max(waited.values()) < FULL_WAITING:
        return None
    site = max(waited, key=lambda s: (waited[s], s))
    full = [lv.waits.holders[site] for lv in levels if lv.waits and lv.waits.at(POOL, site) >= FULL_WAITING]
    size = round(max(full))
    if size < 1:
        return None
    holds = [
        (lv.ok_rps, lv.waits.holders[site] * 1000.0 / lv.ok_rps)
        for lv in healthy
        if lv.waits is not None and not lv.waits.too_few and lv.ok_rps and lv.waits.holders.get(site, 0.0) > 0
    ]
    if not holds:
        return MeasuredPool(site, size, None)
    rates = [r for r, _ in holds]
    ms = [h for _, h in holds]
    source = f"the wait profile: holders ÷ throughput at {len(holds)} healthy level{'s' if len(holds) > 1 else ''}"
    hold = HoldTime(sum(ms) / len(ms), source, min(ms), max(ms), len(holds), (min(rates), max(rates)))
    return MeasuredPool(site, size, hold)


def predict(pool: MeasuredPool | None) -> Prediction | None:
    if pool is None or pool.hold is None:
        return None
    return slots_over_hold(
        pool.size,
        pool.hold,
        MODEL,
        f"{MODEL}: {pool.size} held at once at most ({pool.site}) / {pool.hold.ms / 1000:.3f} s ({pool.hold.source})",
    )
