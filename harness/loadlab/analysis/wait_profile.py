"""A level's wait profile: where its requests' time went, site by site, from the threads the wait agent sampled over
the level's seconds (summary/reading/waits.py reads them), by Little's law at each site: the mean number of requests
there is the thread-samples found there over the samples taken, and its share of request time is that over all requests
in flight. What the samples cannot carry is said in words, never printed as a figure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from loadlab.analysis import wait_sites
from loadlab.analysis.wait_sites import CATEGORY_WORDS, POOL, QUEUED, Sample

# A profile stands on at least this many thread dumps: a mean of one or two is an instant, not a level (a level of
# one dump says nothing of where time went on average). Each dump sees every request thread, so a few carry the
# means: two pinned carriers seen in 8 dumps are 2.0 requests there, whatever the count of threads.
MIN_SAMPLES = 3
# A site grew at the knee when its mean requests rose by at least this many and this share of all in flight.
MIN_GROWTH_REQUESTS = 1.0
MIN_GROWTH_SHARE = 0.05
QUEUED_SITE = "Tomcat's queue (accepted, no thread has run it yet)"
NO_BLOCKER = "-"  # the agent's blocker column when the dump names none (wait-agent/…/SampledThread.blocker)


@dataclass(frozen=True)
class SecondSamples:
    """One second of the agent's file: the dumps taken in it, their CPU, and its threads by facts."""

    second: int  # epoch second
    samples: int
    cpu_ms: float
    threads: tuple[tuple[int, Sample], ...]  # (count, sample)


@dataclass(frozen=True)
class Site:
    category: str
    site: str
    mean_requests: float
    share: float
    # the class its threads were parked on or waited to enter, as the dump gives it (the agent's blocker column:
    # blockedOn, waitingOn or parkBlocker), the most seen among them; None when the dump names none
    blocked_on: str | None = None

    @property
    def words(self) -> str:
        return f"{CATEGORY_WORDS[self.category]}: {self.site}"


@dataclass(frozen=True)
class LevelWaits:
    samples: int  # thread dumps taken over the level's seconds
    request_samples: int  # request threads seen in them, summed
    inflight: float | None  # requests in flight at the service (the injectors' count), mean over the seconds
    sites: tuple[Site, ...]  # most requests first
    folded: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    too_few: str | None = None  # why no site is placed, in words
    # A generic JDK pool (a Semaphore) has no owner in a thread dump: the requests holding it are the request threads
    # inside the code that took it (wait_sites.taker) and not waiting there, mean per dump, by the pool's site; at
    # every level of the mode, the uncontended ones too (takers: found at any level, summary/reading/waits.py).
    holders: Mapping[str, float] = field(default_factory=dict)

    def at(self, category: str, site: str) -> float:
        return next((s.mean_requests for s in self.sites if (s.category, s.site) == (category, site)), 0.0)


def takers(seconds: Iterable[SecondSamples]) -> dict[str, str]:
    """Each generic JDK pool a request thread waited on, by its site, with the code that took it (wait_sites.taker)."""
    found: dict[str, str] = {}
    for second in seconds:
        for _, sample in second.threads:
            taker = wait_sites.taker(sample) if wait_sites.is_request(sample) else None
            if taker is not None:
                found.setdefault(wait_sites.place(sample).site, taker)
    return found


def profile(
    seconds: Iterable[SecondSamples],
    inflight: Mapping[int, float] | None = None,
    pools: Mapping[str, str] | None = None,
) -> LevelWaits | None:
    """The profile of the seconds given (a level's); None when no sample fell in them. inflight: the requests in
    flight at the service in each of those seconds (the injectors' count, by epoch second), weighed by the samples
    taken in each so both sides of Little's law read the same instants (under load the sampler stretches its pause,
    and a growing queue would otherwise be read later by one side than by the other). pools: takers(), the generic
    pools whose holders are counted."""
    taken = [s for s in seconds if s.samples]
    if not taken:
        return None
    samples = sum(s.samples for s in taken)
    weighed = [(s.samples, inflight[s.second]) for s in taken if inflight and s.second in inflight]
    in_flight = sum(n * v for n, v in weighed) / sum(n for n, _ in weighed) if weighed else None
    counts: dict[tuple[str, str], int] = {}
    blockers: dict[tuple[str, str], dict[str, int]] = {}
    folded: dict[str, int] = {}
    requests = [
        (count, sample) for second in taken for count, sample in second.threads if wait_sites.is_request(sample)
    ]
    for count, sample in requests:
        where = wait_sites.place(sample)
        counts[(where.category, where.site)] = counts.get((where.category, where.site), 0) + count
        if sample.blocker != NO_BLOCKER:
            seen = blockers.setdefault((where.category, where.site), {})
            seen[sample.blocker] = seen.get(sample.blocker, 0) + count
        leaf = f"[{CATEGORY_WORDS[where.category]}]"
        key = f"{sample.stack};{leaf}"
        folded[key] = folded.get(key, 0) + count
    request_samples = sum(counts.values())
    means = {key: n / samples for key, n in counts.items()}
    threads = sum(means.values())
    if in_flight is not None and in_flight > threads:
        means[(QUEUED, QUEUED_SITE)] = in_flight - threads
    total = sum(means.values())
    held = {site: _holders(requests, site, frame) / samples for site, frame in (pools or {}).items()}
    sites = tuple(
        Site(cat, site, mean, mean / total if total else 0.0, _most(blockers.get((cat, site))))
        for (cat, site), mean in sorted(means.items(), key=lambda kv: -kv[1])
    )
    too_few = None
    if not request_samples:
        too_few = (
            f"no request thread in {samples} thread dumps: a service whose requests hold no thread (reactive, on "
            "event loops) has nothing a thread dump can place"
        )
    elif samples < MIN_SAMPLES:
        too_few = (
            f"too few samples to say where the time went ({samples} thread dumps over the level; at least "
            f"{MIN_SAMPLES} are needed)"
        )
    return LevelWaits(samples, request_samples, in_flight, sites, folded, too_few, held)


def _holders(requests: list[tuple[int, Sample]], site: str, taker: str) -> int:
    """Request threads inside the code that took the pool (its frame on their stack) and not waiting there."""
    return sum(
        count
        for count, sample in requests
        if taker in sample.stack.split(";") and wait_sites.place(sample) != wait_sites.Place(POOL, site)
    )


def _most(seen: Mapping[str, int] | None) -> str | None:
    """The class most threads of a site were blocked on (the first of equals by name, so a rebuild is stable)."""
    return min(seen, key=lambda name: (-seen[name], name)) if seen else None


@dataclass(frozen=True)
class Growth:
    site: Site
    before: float  # mean requests there at the last healthy level


def grew(healthy: LevelWaits | None, unhealthy: LevelWaits | None) -> Growth | None:
    """The site whose waiting grew most from the last healthy level to the first unhealthy one; None when either
    profile is missing or too thin, or nothing grew beyond the samples' noise."""
    if healthy is None or unhealthy is None or healthy.too_few or unhealthy.too_few:
        return None
    total = sum(s.mean_requests for s in unhealthy.sites) or 1.0
    best: Growth | None = None
    for site in unhealthy.sites:
        before = healthy.at(site.category, site.site)
        rise = site.mean_requests - before
        if rise >= MIN_GROWTH_REQUESTS and rise / total >= MIN_GROWTH_SHARE:
            if best is None or rise > best.site.mean_requests - best.before:
                best = Growth(site, before)
    return best


def others(waits: LevelWaits, limit: int = 2, besides: Site | None = None) -> list[Site]:
    """The sites the request threads held, the largest first, the site already named (besides) and Tomcat's queue
    (no thread holds it) left out, and none below what a tenth of a request rounds to."""
    return [s for s in waits.sites if s.category != QUEUED and s.mean_requests >= 0.05 and s != besides][:limit]


def held(mean_requests: float, category: str, site: str) -> str:
    """One site in words, as every sentence of the profile says it: '200.0 waiting on the downstream (…)'."""
    return f"{mean_requests:,.1f} {CATEGORY_WORDS[category]} ({site})"


def holders(waits: LevelWaits, limit: int = 2, besides: Site | None = None) -> str:
    """What the request threads were doing, the largest sites first, the site already named (besides) left out."""
    parts = [held(s.mean_requests, s.category, s.site) for s in others(waits, limit, besides)]
    return "; ".join(parts) if parts else "none"
