"""virtual-limited's rejections: the 503s its concurrency limit (VIRTUAL_LIMIT) answered instead of admitting a
request, counted apart from failures. They make a level unhealthy like any error (the column's knee is where the
limit starts shedding, found on the normal stairs like every other column's), but they are load shed by design: the
requests it admitted stayed served, so the mode is said to shed load, never to have collapsed into it."""

from __future__ import annotations

from loadlab.core import guards
from loadlab.core.run_params import RunParams
from loadlab.summary.knee_record import ANSWERED_SHARE
from loadlab.summary.labels import base_mode

REJECTED_KIND = "status_503"  # the simulation's ErrorKind id of a 503 answer (ErrorKind.STATUS_503)


def rejections(mode: str, params: RunParams, levels: list[dict], collapsed: bool, first_bad: int | None) -> dict | None:
    """None outside virtual-limited. `requests`: the 503s over the counted levels; `share` of all their requests;
    `from_rps`: the first level that shed any; `shed_load`: the knee is the limit shedding (at the first unhealthy
    level at least half of the failures were its 503s), not a collapse."""
    if base_mode(mode) != guards.VIRTUAL_LIMITED:
        return None
    rejected = [int((lv.get("errors_by_kind") or {}).get(REJECTED_KIND, 0) or 0) for lv in levels]
    total = sum(int(lv.get("ok") or 0) + sum((lv.get("errors_by_kind") or {}).values()) for lv in levels)
    shedding = [lv for lv, n in zip(levels, rejected) if n]
    bad = next((lv for lv in levels if lv.get("index") == first_bad), None)
    bad_errors = sum((bad or {}).get("errors_by_kind", {}).values()) if bad else 0
    bad_rejected = int(((bad or {}).get("errors_by_kind") or {}).get(REJECTED_KIND, 0) or 0)
    return {
        "limit": guards.virtual_limit(params),
        "requests": sum(rejected),
        "share": round(sum(rejected) / total, 4) if total else None,
        "from_rps": shedding[0].get("target_rps") if shedding else None,
        "shed_load": bool(collapsed and bad_errors and bad_rejected >= ANSWERED_SHARE * bad_errors),
    }


def words(found: dict | None) -> str | None:
    """The sentence the page and the console say it with; None when nothing was shed."""
    if not found or not found.get("requests"):
        return None
    share = found.get("share")
    text = (
        f"{found['requests']:,} requests shed with a 503 by its concurrency limit (VIRTUAL_LIMIT={found['limit']})"
        + (f", {share:.1%} of all" if share is not None else "")
        + (f", from {found['from_rps']:g} rps" if found.get("from_rps") is not None else "")
    )
    if found.get("shed_load"):
        text += ": its knee is the limit shedding load by design, not a collapse"
    return text
