"""The knee explained by measurement: the site of the wait profile whose waiting grew from the last healthy level to
the first unhealthy one, with its figures — or, in words, why the profile cannot say (no agent file, too few
samples, nothing grew beyond the samples' noise). It never names a site it did not measure. A site that grew is a
record first (`waits_at_knee_site`) and its sentence is written from that record (`words`), the one source of both."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.knee import Knee
from loadlab.analysis.knee_words import rate_words
from loadlab.analysis.levels import Level
from loadlab.analysis.wait_profile import grew, held, holders, others
from loadlab.analysis.wait_sites import CATEGORY_WORDS, OTHER
from loadlab.summary.reading import waits
from loadlab.summary.schema.level_records import KneeSiteRecord

# How limit_met_first introduces the profile's sentence after the models' (report/answer.py reads the site after it).
INTRO = "where the requests waited (wait profile): "


def last_healthy(knee: Knee) -> Level | None:
    """The healthy level just below the first unhealthy one, among those the knee stands on."""
    if knee.closing is None:
        return None
    below = [lv for lv in knee.fit_levels if lv.target_rps < knee.closing.target_rps]
    return max(below, key=lambda lv: lv.target_rps, default=None)


def at_knee(knee: Knee, no_profile: str | None, stopped: str | None = None) -> str | None:
    """The sentence for a mode that collapsed; None for one that held its stairs (no knee to explain). stopped: the
    agent's last word when it stopped sampling before the run ended."""
    return explained(knee, no_profile, stopped)[0]


def explained(
    knee: Knee, no_profile: str | None, stopped: str | None = None
) -> tuple[str | None, KneeSiteRecord | None]:
    """(the sentence, the site's record): a site that grew is said from its record alone (words), so the sentence
    and `waits_at_knee_site` cannot tell two stories; every other case is a reason in words, without a record."""
    if not knee.collapsed or knee.closing is None:
        return None, None
    if no_profile:
        return no_profile, None
    bad = knee.closing
    at = f"{rate_words(bad.target_rps)} rps"
    if bad.waits is None:
        why = f"the wait agent had stopped sampling ({stopped})" if stopped else "no thread dump fell in its seconds"
        return f"no wait profile at {at}: {why}", None
    if bad.waits.too_few:
        return f"at {at}: {bad.waits.too_few}", None
    good = last_healthy(knee)
    if good is None or good.waits is None or good.waits.too_few:
        return (
            f"no healthy level below {at} has a profile to compare with; at {at} the request threads were: "
            f"{holders(bad.waits)} ({bad.waits.samples} thread dumps)"
        ), None
    growth = grew(good.waits, bad.waits)
    if growth is None:
        return (
            f"no site's waiting grew from {rate_words(good.target_rps)} rps to {at} beyond the samples' noise; at "
            f"{at} the request threads were: {holders(bad.waits)} ({bad.waits.samples} thread dumps)"
        ), None
    site = growth.site
    found = KneeSiteRecord(
        site=site.site,
        category=site.category,
        blocked_on=site.blocked_on,
        at_rps=bad.target_rps,
        mean_requests=round(site.mean_requests, 2),
        share=round(site.share, 3),
        dumps=bad.waits.samples,
        before_rps=good.target_rps,
        mean_requests_before=round(growth.before, 2),
        dumps_before=good.waits.samples,
        others=[waits.site_record(s) for s in others(bad.waits, besides=site)],
    )
    return words(found), found


def words(site: KneeSiteRecord) -> str:
    """The `waits_at_knee` sentence of a site that grew, from its record: what summary.json's figures say, no more."""
    category, at_rps, before_rps = site.category or OTHER, site.at_rps or 0.0, site.before_rps or 0.0
    blocked = f" (its threads blocked on {site.blocked_on})" if site.blocked_on else ""
    held_by = "; ".join(held(o.mean_requests or 0.0, o.category or OTHER, o.site or "?") for o in site.others or [])
    return (
        f"{CATEGORY_WORDS[category]}: {site.site}{blocked} — at {rate_words(at_rps)} rps "
        f"{site.mean_requests or 0.0:,.1f} requests were there on average ({site.share or 0.0:.0%} of request time), "
        f"against {site.mean_requests_before or 0.0:,.1f} at {rate_words(before_rps)} rps; the other request "
        f"threads: {held_by or 'none'} ({site.dumps} thread dumps)"
    )


@dataclass(frozen=True)
class KneeWaits:
    """A mode's `waits_at_knee` (the profile's sentence, or why it has none) and what it lost (its `missing`)."""

    sentence: str | None
    missing: list[str]
    site: KneeSiteRecord | None = None  # `waits_at_knee_site`: the record the sentence was written from

    def limit_met_first(self, models: str | None) -> str | None:
        """The models' `limit_met_first`, with the profile's site after it when the profile names one."""
        if self.site is None:
            return models
        return f"{models or 'no model named a limit'}; {INTRO}{self.sentence}"


def of(knee: Knee, no_profile: str | None, expected: bool, stopped: str | None = None) -> KneeWaits:
    """A mode whose run had the wait agent (expected) but no profile, or whose agent stopped sampling, lists why among
    what is missing."""
    missing = [no_profile] if no_profile and expected else []
    if stopped:
        missing.append(f"the wait agent stopped sampling: {stopped}")
    sentence, site = explained(knee, no_profile, stopped)
    return KneeWaits(sentence, missing, site)
