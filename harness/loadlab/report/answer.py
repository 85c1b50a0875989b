"""The page's first sentence: the answer in words a Java engineer would repeat ("virtual threads held 2.1× the load of
a 200-thread pool here; the limit was this machine's CPU"), before the figures that qualify it."""

from __future__ import annotations

from loadlab.analysis import ratio_interval
from loadlab.core.modelabel import ModeLabel
from loadlab.report.formats import rps
from loadlab.summary.verdicts.ratio import bound
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

# The start of limit_met_first (analysis/prediction.py LIMIT_NAMES) -> what the limit was, in a few words.
LIMITS = {
    "threads": "its threads (Little's law: pool size / time per request)",
    "OS threads": "the host's thread limit",
    "CPU": "this machine's CPU",
    "the database pool": "the database pool",
    "pinned carriers": "carrier threads pinned by synchronized blocks",
    "Tomcat's max-connections": "Tomcat's max-connections",
    "the HTTP client's connection pool": "the HTTP client's connection pool (CLIENT)",
    "the fan-out's executor": "the executor its fan-out's calls run on (FANOUT_POOL)",
}


APP_POOL = "the app's connection pool"


def answer(summary: RunSummary) -> str | None:
    """None when there is nothing to answer (one mode, nothing measured); a ratio only when summary.json gives one."""
    modes = summary.modes
    ratio = summary.virtual_over_platform
    basis = summary.virtual_over_platform_basis or "platform"
    virtual = _virtual_beside(modes, basis)
    if ratio is None or virtual is None or basis not in modes:
        reason = summary.virtual_over_platform_reason
        if len(modes) > 1 and reason:
            return f"No ratio of virtual over platform threads can be claimed from this run: {reason.split(':')[0]}."
        return None
    platform = modes[basis]
    # one mode never reached its knee: the ratio is a bound (summary/verdicts/ratio.bound)
    span = summary.virtual_over_platform_interval
    kind = ratio_interval.bound_of(span) or summary.virtual_over_platform_bound or bound(virtual, platform)
    # a bound is said in words ("at least") before the end its brackets carry (ratio_interval.figure), never the
    # point of the last healthy levels; without an interval the point is said as what it is (ratio_interval.text)
    at_least = {"lower": "at least ", "upper": "at most "}.get(kind, "") if span and kind else ""
    figure = ratio_interval.text(ratio, span, kind).removeprefix("≥ ").removeprefix("≤ ")
    text = (
        f"Virtual threads held {at_least}{figure} the load of a {_pool(basis, summary)} here "
        f"({rps(virtual.sustained_rps)} against {rps(platform.sustained_rps)} requests a second)"
    )
    if summary.ratios_by_pool:
        text += f", the best of the {len(summary.ratios_by_pool)} pools tried"
    if not virtual.collapsed and virtual.knee.bound:
        text += (
            "; virtual threads did not break on any level that can be trusted (a level above was set aside: the "
            "instrument was saturated there), so the ratio is a floor"
        )
    elif not virtual.collapsed:
        text += "; virtual threads never broke, so the ratio is a floor set by the highest rate tried"
    elif not platform.collapsed:
        text += "; the platform pool never broke, so the ratio is a ceiling set by the highest rate it held"
    else:
        limit = _limit(virtual)
        if limit:
            text += f"; the limit was {limit}"
    platform_limit = _limit(platform)
    if platform.collapsed and platform_limit:
        text += f", the platform pool's was {platform_limit}"
    roughly = ratio_interval.rough(span)
    return text + "." + (f" The ratio is {roughly}." if roughly else "")


def _virtual_beside(modes: dict[str, ModeRecord], basis: str) -> ModeRecord | None:
    """The virtual column on the basis's JDK."""
    jdk = ModeLabel.parse(basis).jdk
    for label, result in modes.items():
        parsed = ModeLabel.parse(label)
        if parsed.mode == "virtual" and parsed.jdk == jdk:
            return result
    return None


def _pool(basis: str, summary: RunSummary) -> str:
    asked = summary.params.single_pool
    threads = ModeLabel.parse(basis).threads or asked
    return f"{threads:,}-thread pool" if isinstance(threads, int) else "platform thread pool"


def _limit(result: ModeRecord) -> str | None:
    """The limit the mode met first, when a model's interval met its knee; the machine's CPU when the note says so."""
    met = str(result.limit.met_first or "")
    if met.startswith(APP_POOL):  # named from the app's own gauges: full, with requests waiting (app_pool.py)
        return "the app's own connection pool"
    if " answered errors: " in met:  # the service said no (knee_record.answered_errors)
        return "its own error answers"
    for start, words in LIMITS.items():
        # A prediction with no upper end excludes nothing: it names no limit here (knee_record.limit_met_first).
        if met.startswith(start) and "meets its predicted" in met and "no upper end" not in met:
            return words
    if "the machine ran out of CPU there" in met:
        return "this machine's CPU"
    return None
