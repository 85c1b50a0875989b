"""A level of requests of a second or more: judged on its steady part, each request in the second it was sent in.

The raw files count a request in the second it completed in, with its latency in that second's histogram. A level of
1 s requests was read from its window shifted by one whole second (summary/reading/seconds.py's lag), which holds two
kinds of requests that are not its own: the next level's fast failures (a limit's instant 503s land in the shifted
window's last second: a level without one error of its own was read with 62% errors) and, when the next level overloads
the service, its own last answers come later than the shift and are counted to the next level (22 of 40 in its last
second: a false collapse). A value of L ms completing in second s was sent between s - L/1000 and s + 1 - L/1000; it
is given to the second that interval's middle falls in, floor(s + 0.5 - L/1000), so the shift is each request's own.

And the requests sent in a level's last lag seconds live partly under the next level: when it overloads the service,
they are answered late for the next level's sake (the out-of-memory run's 40 rps level, every request answered, read
with a p99 of 2.8 s against a 2.1 s limit when they counted). So a level of N seconds is judged on its steady part:
the requests sent in its first N - lag seconds, whose whole healthy life lies inside it, and the evidence of its last
N - lag seconds, in which they complete. A level no longer than the lag has no steady part: its requests are those
sent over its whole length, read from its window shifted by the lag.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog
from loadlab.analysis.levels import LevelBuilder

# A completion second's requests: ok and failed counts, their histograms, and the failures' counts by kind.
Completions = tuple[int, int, HdrHistogram, HdrHistogram, dict[str, int]]


def split(second: int, histogram: HdrHistogram | None) -> dict[int, HdrHistogram]:
    """A completion second's histogram (ms) split by send second, bucket by bucket (counts and values exact)."""
    parts: dict[int, HdrHistogram] = {}
    if histogram is None or not histogram.get_total_count():
        return parts
    for value, count in hlog.buckets(histogram):
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


@dataclass(frozen=True)
class _Span:
    position: int  # the level's, counted from 0
    send_from: float  # whole seconds, the end excluded
    send_to: float
    judge_from: float
    judge_to: float
    steady: bool  # longer than the lag: judged on its steady part, its evidence inside its own seconds


class Steady:
    """Which level a send second and an evidence second belong to, for requests of lag_s whole seconds."""

    def __init__(self, spans: Sequence[_Span], lag_s: int):
        self._spans, self._lag_s = tuple(spans), lag_s

    def sending(self, s: int) -> int | None:
        """The position of the level whose judged requests were sent in second s (None: a steady part's edge, or no
        level)."""
        return next((p.position for p in self._spans if p.send_from <= s < p.send_to), None)

    def steady_part(self, position: int) -> bool:
        """Whether the level is longer than the lag: its evidence seconds then lie inside its own, where only its own
        requests and the previous level's complete, never the next level's."""
        return any(p.position == position and p.steady for p in self._spans)

    def judging(self, s: int) -> int | None:
        """The position of the level whose evidence second s is."""
        return next((p.position for p in self._spans if p.judge_from <= s < p.judge_to), None)

    def add_second(
        self,
        s: int,
        offset: int,
        sent: int,
        completions: Completions,
        evidence: Mapping[str, float | None],
        downstream: tuple[float, float] | None,
        builder: Callable[[int], LevelBuilder],
    ) -> None:
        """One measured second: its sends, its evidence, and its completions (ok, ko, their histograms and the
        failures' kinds) each given to the level it was sent in."""
        ok, ko, ok_latency, ko_latency, kinds = completions
        level = self.sending(s)
        if level is not None:
            builder(level).add_sent(sent)
        level = self.judging(s)
        if level is not None:
            builder(level).add_second(offset, 0, 0, 0, None, evidence, downstream)
            if self.steady_part(level):
                builder(level).add_completed(ok)
        if ok_latency.get_total_count() != ok or ko_latency.get_total_count() != ko:
            # A second whose histograms miss some completions (no failures' histograms in older runs): all of it to
            # the second its requests were sent in at the healthy latency.
            level = self.sending(s - self._lag_s)
            if level is not None:
                builder(level).add_completions(ok, ko, ok_latency, ko_latency, kinds)
            return
        self._add_by_send_second(s, ok_latency, ko_latency, kinds, builder)

    def _add_by_send_second(
        self,
        s: int,
        ok_latency: HdrHistogram,
        ko_latency: HdrHistogram,
        kinds: dict[str, int],
        builder: Callable[[int], LevelBuilder],
    ) -> None:
        """Failures' kinds are counted per completion second, without a latency: shared in proportion to each
        level's failures in that second."""
        by_level: dict[int, list[HdrHistogram | None]] = {}
        for parts, slot in ((split(s, ok_latency), 0), (split(s, ko_latency), 1)):
            for sent_s, part in parts.items():
                level = self.sending(sent_s)
                if level is not None:
                    entry = by_level.setdefault(level, [None, None])
                    entry[slot] = hlog.merge([part], entry[slot])
        ko_by_level = {lv: e[1].get_total_count() for lv, e in by_level.items() if e[1] is not None}
        kind_shares = {kind: shares(count, ko_by_level) for kind, count in kinds.items()}
        for level, (ok_part, ko_part) in by_level.items():
            own_kinds = {kind: share[level] for kind, share in kind_shares.items() if level in share}
            ok_n = ok_part.get_total_count() if ok_part is not None else 0
            ko_n = ko_part.get_total_count() if ko_part is not None else 0
            builder(level).add_completions(ok_n, ko_n, ok_part, ko_part, own_kinds)


def steady(levels: Sequence[tuple[int, float, float]], lag_s: int) -> Steady:
    """levels: (position, first second, end second) of each level, in whole seconds (the end excluded, inf: none)."""
    spans = []
    for position, start, end in levels:
        if end - start > lag_s:
            spans.append(_Span(position, start, end - lag_s, start + lag_s, end, True))
        else:
            spans.append(_Span(position, start, end, start + lag_s, end + lag_s, False))
    return Steady(spans, lag_s)
