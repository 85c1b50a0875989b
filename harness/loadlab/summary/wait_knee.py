"""The knee explained by measurement: the site of the wait profile whose waiting grew from the last healthy level to
the first unhealthy one, with its figures — or, in words, why the profile cannot say (no agent file, too few
samples, nothing grew beyond the samples' noise). It never names a site it did not measure."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.knee import Knee
from loadlab.analysis.knee_words import rate_words
from loadlab.analysis.levels import Level
from loadlab.analysis.wait_profile import grew, holders

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
    if not knee.collapsed or knee.closing is None:
        return None
    if no_profile:
        return no_profile
    bad = knee.closing
    at = f"{rate_words(bad.target_rps)} rps"
    if bad.waits is None:
        why = f"the wait agent had stopped sampling ({stopped})" if stopped else "no thread dump fell in its seconds"
        return f"no wait profile at {at}: {why}"
    if bad.waits.too_few:
        return f"at {at}: {bad.waits.too_few}"
    good = last_healthy(knee)
    if good is None or good.waits is None or good.waits.too_few:
        return (
            f"no healthy level below {at} has a profile to compare with; at {at} the request threads were: "
            f"{holders(bad.waits)} ({bad.waits.samples} thread dumps)"
        )
    growth = grew(good.waits, bad.waits)
    before = f"{rate_words(good.target_rps)} rps"
    if growth is None:
        return (
            f"no site's waiting grew from {before} to {at} beyond the samples' noise; at {at} the request threads "
            f"were: {holders(bad.waits)} ({bad.waits.samples} thread dumps)"
        )
    site = growth.site
    return (
        f"{site.words} — at {at} {site.mean_requests:,.1f} requests were there on average ({site.share:.0%} of "
        f"request time), against {growth.before:,.1f} at {before}; the other request threads: "
        f"{holders(bad.waits, besides=site)} ({bad.waits.samples} thread dumps)"
    )


def named_site(sentence: str | None) -> bool:
    """Whether the profile's sentence names a site (at_knee's growth form), not a reason it cannot."""
    return bool(sentence) and " requests were there on average (" in str(sentence)


@dataclass(frozen=True)
class KneeWaits:
    """A mode's `waits_at_knee` (the profile's sentence, or why it has none) and what it lost (its `missing`)."""

    sentence: str | None
    missing: list[str]

    def limit_met_first(self, models: str | None) -> str | None:
        """The models' `limit_met_first`, with the profile's site after it when the profile names one."""
        if not named_site(self.sentence):
            return models
        return f"{models or 'no model named a limit'}; {INTRO}{self.sentence}"


def of(knee: Knee, no_profile: str | None, expected: bool, stopped: str | None = None) -> KneeWaits:
    """A mode whose run had the wait agent (expected) but no profile, or whose agent stopped sampling, lists why among
    what is missing."""
    missing = [no_profile] if no_profile and expected else []
    if stopped:
        missing.append(f"the wait agent stopped sampling: {stopped}")
    return KneeWaits(at_knee(knee, no_profile, stopped), missing)
