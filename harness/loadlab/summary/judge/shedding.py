"""virtual-limited's rejections: the 503s its concurrency limit (VIRTUAL_LIMIT) answered instead of admitting a
request, counted apart from failures. They make a level unhealthy like any error (the column's knee is where the
limit starts shedding, found on the normal stairs like every other column's), but they are load shed by design: the
requests it admitted stayed served, so the mode is said to shed load, never to have collapsed into it."""

from __future__ import annotations

from loadlab.core import guards
from loadlab.summary.judge.knee_record import ANSWERED_SHARE
from loadlab.summary.reading.labels import base_mode
from loadlab.summary.schema.detail_records import RejectionsRecord
from loadlab.summary.schema.level_records import LevelRecord

REJECTED_KIND = "status_503"  # the simulation's ErrorKind id of a 503 answer (ErrorKind.STATUS_503)


def rejections(
    mode: str, limit: int, levels: list[LevelRecord], collapsed: bool, first_bad: int | None
) -> RejectionsRecord | None:
    """None outside virtual-limited; limit: VIRTUAL_LIMIT. `requests`: the 503s over the counted levels; `share` of
    all their requests; `from_rps`: the first level that shed any; `shed_load`: the knee is the limit shedding (at the
    first unhealthy level at least half of the failures were its 503s), not a collapse."""
    if base_mode(mode) != guards.VIRTUAL_LIMITED:
        return None
    rejected = [int(lv.errors_of(REJECTED_KIND) or 0) for lv in levels]
    total = sum(int(lv.ok or 0) + sum((lv.errors_by_kind or {}).values()) for lv in levels)
    shedding = [lv for lv, n in zip(levels, rejected) if n]
    bad = next((lv for lv in levels if lv.index == first_bad), None)
    bad_errors = sum((bad.errors_by_kind or {}).values()) if bad else 0
    bad_rejected = int(bad.errors_of(REJECTED_KIND) or 0) if bad else 0
    return RejectionsRecord(
        limit=limit,
        requests=sum(rejected),
        share=round(sum(rejected) / total, 4) if total else None,
        from_rps=shedding[0].target_rps if shedding else None,
        shed_load=bool(collapsed and bad_errors and bad_rejected >= ANSWERED_SHARE * bad_errors),
    )


def words(found: RejectionsRecord | None) -> str | None:
    """The sentence the page and the console say it with; None when nothing was shed."""
    if not found or not found.requests:
        return None
    share = found.share
    text = (
        f"{found.requests:,} requests shed with a 503 by its concurrency limit (VIRTUAL_LIMIT={found.limit})"
        + (f", {share:.1%} of all" if share is not None else "")
        + (f", from {found.from_rps:g} rps" if found.from_rps is not None else "")
    )
    if found.shed_load:
        text += ": its knee is the limit shedding load by design, not a collapse"
    return text
