"""What each request and each thread cost a mode: memory per request in flight, context switches and bytes allocated
per request, and per level the service's resident memory and OS threads.

Read from the service's flight recording (flight.py: memory, heap, GC, allocation) and its sampler (samples.csv: OS
threads, the process's context switches), joined to the levels by their seconds. Like the CPU per request
(cpufit.py), a cost per request is the SLOPE of a line through every healthy level the mode measured — the coarse
levels before the first unhealthy one and, with REFINE=1, each used fine pass's levels before its first unhealthy
one — so what the service spends whatever the rate (timers, GC of its own, the samplers) is not charged to the
requests, and a small pool whose only healthy coarse level is the first still gets its costs from the fine rates
below its knee. `costs.fitted_on` says which levels each mode's fits used.

Which memory: resident memory (RSS) is not what a request costs. The heap grows with the allocation rate in both
modes (G1 expands it to keep its pause goal) whether or not anything stays alive, so RSS rises with load even when
no request holds anything. What a waiting request keeps is live: its thread's stack — a platform thread's in native
memory (NMT's committed "Thread Stack"), a virtual thread's in the heap (stack chunks) — and the objects it holds.
So `memory_per_inflight_kb` is the slope of (live heap after a GC + committed thread stacks) against requests in
flight, one point per GC inside a healthy level; the RSS and thread-stack slopes are given beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from loadlab.analysis import threadlimits
from loadlab.analysis.prediction import Prediction
from loadlab.summary.judge.slope_fit import MIN_POINTS, Fit, figure, fit
from loadlab.summary.reading import flight
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.reading.raw_rows import NO_SAMPLE, HostSample
from loadlab.summary.schema.fit_records import CostSlopeRecord, CostsRecord
from loadlab.summary.schema.level_records import COARSE, LevelCostsRecord, LevelRecord, fitted_by_pass, healthy_prefix

KB_PER_MB = 1024
MEMORY_MEANING = "live heap after GC + committed thread stacks"
# A slope per request in flight needs the in-flight count to move by at least this many requests across the points:
# a fast service keeping 0-1 in flight leaves GC's own swing of the live heap (megabytes) as the whole signal.
MIN_INFLIGHT_SPAN = 5
INFLIGHT = (MIN_INFLIGHT_SPAN, "requests in flight")


def _mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def level_seconds(t0: int, level: LevelRecord) -> list[int]:
    """The epoch seconds of a level (summary.json's level: first_second relative to the measured phase's start)."""
    first, count = level.first_second, level.seconds or 0
    return [] if first is None else list(range(t0 + int(first), t0 + int(first) + int(count)))


def inflight_at(raw: RawMode, second: int) -> float | None:
    """Requests in flight as the injectors saw them (sent, not yet answered), summed over injectors: the same for
    the thread-service and an APP jar."""
    values = [inj.seconds[second].inflight for inj in raw.injectors if second in inj.seconds]
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def process_switch_rate(samples: Mapping[int, HostSample], seconds: list[int]) -> float | None:
    """Context switches per second over the level from the sampler's cumulative count (taken every few seconds when
    the process has thousands of threads): the first and last counts inside the level."""
    counted = [(s, c) for s in seconds if (c := samples.get(s, NO_SAMPLE).context_switches) is not None]
    if len(counted) < 2 or counted[-1][0] == counted[0][0] or counted[-1][1] < counted[0][1]:
        return None
    return (counted[-1][1] - counted[0][1]) / (counted[-1][0] - counted[0][0])


def level_costs(
    raw: RawMode,
    t0: int,
    level: LevelRecord,
    flights: dict[int, flight.FlightSecond],
    samples: Mapping[int, HostSample],
) -> LevelCostsRecord:
    """Means over a level's seconds (None where nothing was recorded)."""
    seconds = level_seconds(t0, level)
    rows = [flights[s] for s in seconds if s in flights]
    rate, source = process_switch_rate(samples, seconds), "process"
    if rate is None and rows and any(r.host_context_switches_per_s is not None for r in rows):
        rate, source = _mean([r.host_context_switches_per_s for r in rows]), "host"
    return LevelCostsRecord(
        ok_rps=float(level.ok_rps or 0.0),
        inflight=_mean([inflight_at(raw, s) for s in seconds]),
        rss_mb=_mean([r.rss_mb for r in rows]) if rows else None,
        os_threads=_mean([samples.get(s, NO_SAMPLE).os_threads for s in seconds]),
        thread_stacks_mb=_mean([r.thread_stacks_mb for r in rows]) if rows else None,
        live_heap_mb=_mean([r.live_heap_mb for r in rows]) if rows else None,
        allocated_mb_per_s=sum(r.allocated_mb for r in rows) / len(seconds) if rows else None,
        gc_pause_ms_per_s=sum(r.gc_pause_ms for r in rows) / len(seconds) if rows else None,
        context_switches_per_s=rate,
        context_switches_source=None if rate is None else source,
    )


def memory_points(
    raw: RawMode,
    t0: int,
    levels: Sequence[LevelRecord],
    flights: dict[int, flight.FlightSecond],
    stacks_too: bool = True,
) -> list[tuple[float, float]]:
    """(requests in flight, live heap [+ thread stacks] in KB) at every GC inside the given levels."""
    points = []
    for level in levels:
        seconds = level_seconds(t0, level)
        inflight = _mean([inflight_at(raw, s) for s in seconds])
        stacks = _mean([flights[s].thread_stacks_mb for s in seconds if s in flights]) if stacks_too else 0.0
        if inflight is None or stacks is None:
            continue
        for s in seconds:
            live = flights[s].live_heap_mb if s in flights else None
            if live is not None:
                points.append((inflight, (live + stacks) * KB_PER_MB))
    return points


@dataclass
class FinePassLevels:
    """A used fine pass's levels for the fits: its injectors' files (requests in flight), its measured phase's
    first epoch second and its levels (the services' samples and recording are the mode's, through every pass)."""

    name: str  # refine-1, …
    raw: RawMode
    t0: int | None
    levels: list[LevelRecord] = field(default_factory=list)


def fitted_on_text(fitted_on: dict[str, list[int]], rates: dict[str, list[float]]) -> str:
    """`2 coarse levels (25–35 rps) and 4 fine levels of refine-1 (35–40.1 rps)`."""
    parts = []
    for name, indices in fitted_on.items():
        if not indices:
            continue
        low, high = min(rates[name]), max(rates[name])
        what = "coarse" if name == "coarse" else f"fine ({name})"
        span = f"{low:,.4g} rps" if low == high else f"{low:,.4g}–{high:,.4g} rps"
        parts.append(f"{len(indices)} {what} level{'s' if len(indices) > 1 else ''} ({span})")
    return " and ".join(parts) if parts else "no healthy level"


@dataclass(frozen=True)
class ModeCosts:
    """A mode's costs as its record holds them (records.ModeRecord's fields of the same names), and its coarse levels
    with what each cost (`rss_mb`, `os_threads`, `costs`). A figure is None where the data cannot carry it;
    costs.<name>.not_a_figure says why, in words."""

    levels: list[LevelRecord]
    memory_per_inflight_kb: float | None
    context_switches_per_request: float | None
    bytes_allocated_per_request: float | None
    costs: CostsRecord


def mode_costs(
    raw: RawMode, t0: int | None, levels: list[LevelRecord], fine: Sequence[FinePassLevels] = ()
) -> ModeCosts:
    """The mode's costs; fine: the used fine passes, whose healthy levels join the fits."""
    flights, samples = raw.flight, raw.thread_samples
    if t0 is None:
        return ModeCosts(levels, None, None, None, CostsRecord.unknown().with_fields(missing=["no measured phase"]))
    per_level = {lv.index: level_costs(raw, t0, lv, flights or {}, samples) for lv in levels if lv.index is not None}
    levels = [_with_costs(lv, per_level.get(lv.index) if lv.index is not None else None) for lv in levels]
    usable = [(f, f.t0) for f in fine if f.t0 is not None]
    chosen = fitted_by_pass(levels, [(f.name, f.levels) for f, _ in usable])
    fitted = chosen[COARSE]
    healthy = [per_level[lv.index] for lv in fitted if lv.index in per_level]
    sources = [(raw, t0, fitted)]
    fitted_on = {COARSE: _indices(fitted)}
    rates = {COARSE: [float(lv.target_rps or 0) for lv in fitted]}
    for fine_pass, fine_t0 in usable:
        kept = chosen[fine_pass.name]
        sources.append((fine_pass.raw, fine_t0, kept))
        healthy += [level_costs(fine_pass.raw, fine_t0, lv, flights or {}, samples) for lv in kept]
        fitted_on[fine_pass.name] = _indices(kept)
        rates[fine_pass.name] = [float(lv.target_rps or 0) for lv in kept]
    memory = fit([pt for r, t, lvs in sources for pt in memory_points(r, t, lvs, flights or {})])
    heap = fit([pt for r, t, lvs in sources for pt in memory_points(r, t, lvs, flights or {}, stacks_too=False)])
    rss = fit([(c.inflight, c.rss_mb * KB_PER_MB) for c in healthy if c.inflight is not None and c.rss_mb is not None])
    stacks = fit(
        [
            (c.inflight, c.thread_stacks_mb * KB_PER_MB)
            for c in healthy
            if c.inflight is not None and c.thread_stacks_mb is not None
        ]
    )
    switches = fit(
        [(c.ok_rps, c.context_switches_per_s) for c in healthy if c.ok_rps and c.context_switches_per_s is not None]
    )
    allocated = fit(
        [(c.ok_rps, c.allocated_mb_per_s * 1024 * 1024) for c in healthy if c.ok_rps and c.allocated_mb_per_s]
    )
    switch_sources = {c.context_switches_source for c in healthy if c.context_switches_source}
    costs = CostsRecord(
        memory=MEMORY_MEANING,
        memory_per_inflight=_fit_record(memory, 1, *INFLIGHT),
        live_heap_per_inflight=_fit_record(heap, 1, *INFLIGHT),
        rss_per_inflight=_fit_record(rss, 1, *INFLIGHT),
        thread_stacks_per_inflight=_fit_record(stacks, 1, *INFLIGHT),
        context_switches_per_request=_fit_record(switches, 2),
        context_switches_source="host" if "host" in switch_sources else next(iter(switch_sources), None),
        bytes_allocated_per_request=_fit_record(allocated, 0),
        levels_fitted=fitted_on[COARSE],
        # which levels every fit above used, by pass (`coarse`, `refine-1`, …), and in words
        fitted_on={name: indices for name, indices in fitted_on.items() if indices},
        fitted_on_text=fitted_on_text(fitted_on, rates),
        missing=_missing(flights, memory) or None,
    )
    return ModeCosts(
        levels,
        figure(memory, 1, MIN_INFLIGHT_SPAN),
        figure(switches, 2),
        figure(allocated, 0),
        costs,
    )


def _indices(levels: list[LevelRecord]) -> list[int]:
    return [lv.index for lv in levels if lv.index is not None]


def _with_costs(level: LevelRecord, costs: LevelCostsRecord | None) -> LevelRecord:
    if costs is None:
        return level
    return level.with_fields(
        rss_mb=None if costs.rss_mb is None else round(costs.rss_mb, 1),
        os_threads=None if costs.os_threads is None else round(costs.os_threads),
        costs=costs.rounded(),
    )


def _fit_record(fitted: Fit | None, digits: int, min_x_span: float = 0.0, x_what: str = "") -> CostSlopeRecord | None:
    return None if fitted is None else fitted.record(digits, min_x_span, x_what)


def _missing(flights: dict[int, flight.FlightSecond] | None, memory: Fit | None) -> list[str]:
    missing = []
    if flights is None:
        missing.append(
            "no flight recording (raw/thread/flight.json): the service's JVM wrote none (it was killed before it "
            "could, or ran without its recording)"
        )
    if memory is None:
        missing.append(
            f"memory per in-flight request: fewer than {MIN_POINTS} GCs inside healthy levels with different "
            f"requests in flight"
        )
    return missing


def memory_ceiling(
    raw: RawMode, costs: CostsRecord, levels: list[LevelRecord], baseline_ms: float | None
) -> Prediction | None:
    """The lower of the two memory ceilings (threadlimits.memory_ceiling) from the lightest healthy level: the
    cgroup's memory against the resident memory and live heap + stacks per request in flight; the heap's maximum
    against the live heap and its own slope. None where neither was measured."""
    fitted = [lv for lv in healthy_prefix(levels) if lv.rss_mb is not None]
    if not fitted:
        return None
    rates = [float(lv.ok_rps or 0.0) for lv in fitted]
    lightest = fitted[0].costs or LevelCostsRecord.unknown()
    heap_max = max((r.heap_max_mb for r in (raw.flight or {}).values() if r.heap_max_mb), default=None)
    limits = raw.host_limits
    found: list[Prediction] = []
    for slope, room, room_what, base, base_what in (
        (
            costs.memory_per_inflight,
            limits.service_memory_max_mb if limits else None,
            f"({limits.service_memory_max_by})" if limits else "",
            fitted[0].rss_mb,
            "resident at the lightest level",
        ),
        (
            costs.live_heap_per_inflight,
            heap_max,
            "the heap's maximum",
            lightest.live_heap_mb,
            "live heap at the lightest level",
        ),
    ):
        if not slope or slope.not_a_figure:
            continue  # a cost the data cannot carry is no ceiling's input
        ceiling = threadlimits.memory_ceiling(
            room,
            room_what,
            base,
            base_what,
            slope.slope,
            (slope.interval[0], slope.interval[1]) if slope.interval else None,
            (min(rates), max(rates)),
            slope.r2,
            len(fitted),
            baseline_ms,
        )
        found += [ceiling] if ceiling is not None else []
    return min(found, key=lambda p: p.rps) if found else None
