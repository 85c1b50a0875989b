"""Completions put back in the second they were sent in, by their latency: for a level of requests of a second or more.

The raw files count a request in the second it completed in, with its latency in that second's histogram. A level of
1 s requests was read from its window shifted by one whole second (summary/seconds.py's lag), which holds two kinds of
requests that are not its own: the next level's fast failures (a limit's instant 503s land in the shifted window's
last second: a level without one error of its own was read with 62% errors) and, when the next level overloads the
service, its own last answers come later than the shift and are counted to the next level (22 of 40 in its last
second: a false collapse). A value of L ms completing in second s was sent between s - L/1000 and s + 1 - L/1000; it
is given to the second that interval's middle falls in, floor(s + 0.5 - L/1000), so the shift is each request's own.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog
from loadlab.analysis.levels import LevelBuilder


def split(second: int, histogram: HdrHistogram | None) -> dict[int, HdrHistogram]:
    """A completion second's histogram (ms) split by send second, bucket by bucket (counts and values exact)."""
    parts: dict[int, HdrHistogram] = {}
    if histogram is None or not histogram.get_total_count():
        return parts
    for item in histogram.get_recorded_iterator():
        count = item.count_added_in_this_iter_step
        if not count:
            continue
        value = item.value_iterated_to
        sent = math.floor(second + 0.5 - value / 1000.0)
        if sent not in parts:
            parts[sent] = HdrHistogram(
                histogram.lowest_trackable_value, histogram.highest_trackable_value, histogram.significant_figures
            )
        parts[sent].record_value(value, count)
    return parts


def shares(total: int, weights: dict[int, int]) -> dict[int, int]:
    """total split in proportion to weights, in whole counts that add back up to it (largest remainder first)."""
    weight = sum(weights.values())
    if not total or not weight:
        return {}
    exact = {k: total * w / weight for k, w in weights.items()}
    whole = {k: math.floor(v) for k, v in exact.items()}
    left = total - sum(whole.values())
    for k in sorted(exact, key=lambda k: exact[k] - whole[k], reverse=True)[:left]:
        whole[k] += 1
    return {k: v for k, v in whole.items() if v}


def histograms_hold(ok: int, ko: int, ok_latency, ko_latency) -> bool:
    """Whether a second's histograms hold each of its completions (a run without failures' histograms does not)."""
    return ok_latency.get_total_count() == ok and ko_latency.get_total_count() == ko


def add_by_send_second(
    s: int,
    ok_latency: HdrHistogram,
    ko_latency: HdrHistogram,
    kinds: dict[str, int],
    level_sent_in: Callable[[int], int | None],
    builder: Callable[[int], LevelBuilder],
) -> None:
    """One completion second's requests added to the levels they were sent in; its failures' kinds (counted per
    completion second, without a latency) shared in proportion to each level's failures in that second."""
    ok_parts, ko_parts = split(s, ok_latency), split(s, ko_latency)
    by_level: dict[int, list] = {}
    for parts, slot in ((ok_parts, 0), (ko_parts, 1)):
        for sent_s, part in parts.items():
            level = level_sent_in(sent_s)
            if level is not None:
                entry = by_level.setdefault(level, [None, None])
                entry[slot] = hlog.merge([part], entry[slot])
    ko_by_level = {lv: e[1].get_total_count() for lv, e in by_level.items() if e[1] is not None}
    kind_shares = {kind: shares(count, ko_by_level) for kind, count in kinds.items()}
    for level, (ok_part, ko_part) in by_level.items():
        own_kinds = {kind: share[level] for kind, share in kind_shares.items() if level in share}
        builder(level).add_completions(ok_part, ko_part, own_kinds)
