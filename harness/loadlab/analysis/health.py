"""A level's health, the one rule: it keeps up with its offered rate (the answers a service keeping up completes in
the level's seconds), few of its own requests fail, and its p99 and its p50 stay within the limits built on the
baseline p50 (thresholds.Thresholds), each judged on the count past its limit where the level is too short to resolve
its p99 (tail_judged_by). knee.py places the knee on it; the simulation's early stop applies the same rule
(tests/analysis/test_health_rule_agreement.py holds them equal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loadlab.analysis import binomial
from loadlab.core.thresholds import Thresholds

if TYPE_CHECKING:  # the level model needs hdrh; refine.py (and the preflight) import knee.py without it
    from loadlab.analysis.levels import Level

# The p99 limit lets a healthy level's slowest 1% of answers through. Below 1 / TAIL_SHARE = 100 answers a level has
# no value above its p99 (hlog.resolved: its p99 is its slowest answer, or the one before it at hdrh's rank), so one
# or two slow answers decide it: a downstream answering 0.7% of calls at 1 s shows a p99 past a 224 ms limit at 37% of
# 66-request levels (1 - 0.993^66; 50% at 99), where from 100 requests it takes two such answers (16% at 100) and more
# beyond. A level too short to resolve its p99 is judged on its COUNT past the limit instead.
TAIL_SHARE = 0.01
RESOLVES_P99 = round(1 / TAIL_SHARE)
# ... and called unhealthy only when that count is this improbable from a 1% tail (one-sided binomial test). 1%, not
# 5%: a false alarm stops the pass (the early stop) and places the knee a stair early, a cost no later level repairs,
# while a real collapse past the limit is rarely that close (2 of 10, 3 of 20, 4 of 60, 5 of 99 are already unhealthy);
# and a run climbs through several short levels (2 s levels of 10 to 40 rps are four), so 1% each keeps the chance
# that a healthy tail alone places the knee early under 5% over them.
TAIL_ALPHA = 0.01
# The share of a healthy level's answers past its median: the median's count rule tests against it (median_reason).
MEDIAN_SHARE = 0.5
# A level counted by the seconds its requests were sent in is judged on what it completed in its own seconds too
# (completions_reason) from this many expected answers: its window is read in whole seconds, so an answer at each of
# its two edges may fall either side, 2% of 100, within the 5% the rule allows with room; below it one or two
# answers would decide.
COMPLETIONS_RESOLVE = 100


def tail_judged_by(level: Level) -> str | None:
    """How the level's tail is judged: "p99" when its answers resolve it, "count" (TAIL_ALPHA's binomial test on the
    answers past the limit) when too few do; None without a successful answer. A level without its histogram (a
    test's) is judged by its p99."""
    if level.latency is None:
        return None
    return "count" if level.histogram is not None and level.latency.count < RESOLVES_P99 else "p99"


def tail_reason(level: Level, p99_limit: float | None) -> str | None:
    """Why the level's successful answers are too slow against the limit, or None."""
    p99 = None if level.latency is None else level.latency.p99_ms
    return _past_limit(
        level, ("p99", p99), p99_limit, TAIL_SHARE, ("the", f"more than a healthy {TAIL_SHARE:.0%} tail allows")
    )


def median_reason(level: Level, p50_limit: float | None) -> str | None:
    """Why the level's typical answer is too slow against the median's limit (Thresholds.p50_limit_ms), or None.

    A queue delays every request, the median as much as the tail: under a downstream whose p99 is seconds the p99's
    limit is seconds wide, and a level whose requests wait a second each in Tomcat's queue stays within it while its
    median doubles. Judged at the level's resolution, as its tail is: a level too short to resolve its p99 (count) is
    unhealthy only when more than half of its answers past the limit is beyond chance (a median at the limit puts
    each answer past it with 1/2), so a few slow draws of a tailed downstream never decide it."""
    p50 = None if level.latency is None else level.latency.p50_ms
    return _past_limit(level, ("p50", p50), p50_limit, MEDIAN_SHARE, ("the median's", "more than half, beyond chance"))


def _past_limit(
    level: Level, figure: tuple[str, int | None], limit: float | None, share: float, words: tuple[str, str]
) -> str | None:
    """The reason a percentile (its name and value) is past its limit, in words: by its value where the level
    resolves it, else by the count past the limit, unhealthy only when more answers are past it than a level passing
    each with `share` gives at TAIL_ALPHA (one-sided binomial test)."""
    name, value = figure
    whose, beyond = words
    if limit is None or value is None:
        return None
    if tail_judged_by(level) == "count" and level.latency is not None:  # "count" is said of a level with answers
        from loadlab.analysis import hlog  # needs hdrh, as a level with a histogram does; knee.py's importers do not

        n = level.latency.count
        above = hlog.count_above(level.histogram, limit)
        p = binomial.tail_p(n, above, share)
        if above and p < TAIL_ALPHA:
            return f"{above} of {n} requests above {whose} {limit:.0f} ms limit: {beyond} (p = {p:.2g})"
        return None
    return f"{name} {value} ms is above {whose} {limit:.0f} ms limit" if value > limit else None


def expected_answers_rps(level: Level, baseline_p50_ms: float | None) -> float:
    """The answers per second a service keeping up at its baseline latency completes in the level's own seconds.

    Completions are counted in the second they end in; a level's first settle_s seconds are not its own. A level that
    stepped up from a lower rate ends with its last (baseline p50 - window shift - settle) of requests still in
    flight, while the previous level's, finishing in its first moments, were sent at the lower rate: Little's law
    on that step, (target - previous) x tail fewer answers than target x seconds, none of them missing. At 8 then 24
    rps over 4 s of 214 ms requests that is 3.4 of 96, most of the 5% the rule allows. A step down is not made
    stricter than the target, nor is a level without a baseline.
    """
    previous, target = level.previous_target_rps, level.target_rps
    if previous is None or baseline_p50_ms is None or not level.seconds or target <= previous:
        return target
    tail_s = min(max(0.0, baseline_p50_ms / 1000.0 - level.window_shift_s - level.settle_s), level.seconds)
    return target - (target - previous) * tail_s / level.seconds


def expected_completions_rps(level: Level) -> float:
    """The OK answers a second a service keeping up completes in the evidence seconds of a level counted by send
    second (its steady part: the level's last N - lag seconds).

    A request sent at u completes at u + L. Over the window [lag, N) of a level that stepped up from p to t, those
    completing at τ were sent before the level began, at p, when L > τ: the window holds t x (N - lag) answers less
    (t - p) x E[(min(L, N) - lag)+], read off the level's own latencies (Little's law on the step; none for a heavy
    tail's short requests, a second or more of its slow ones). A step down, or a level without latencies, is held to
    its rate. Its rate is what the injectors sent, when that is below the target: a service completes only what it
    was sent, and an injector behind its schedule is the validity rule's to name (validity.py), never a queue."""
    previous, window = level.completed_from_rps, level.seconds
    target = min(level.target_rps, level.offered_rps) if level.sent else level.target_rps
    if previous is None or previous >= target or level.histogram is None or not window:
        return target
    from loadlab.analysis import hlog  # needs hdrh, as a level with a histogram does; knee.py's importers do not

    lag = level.window_shift_s + level.settle_s  # the window begins this long after the step
    whole = level.seconds + lag
    buckets = list(hlog.buckets(level.histogram))
    count = sum(n for _, n in buckets)
    excess = sum(n * max(0.0, min(value / 1000.0, whole) - lag) for value, n in buckets) / count if count else 0.0
    return target - (target - previous) * min(excess, window) / window


def completions_reason(level: Level, th: Thresholds) -> str | None:
    """Why a level counted by send second did not answer at its rate, or None.

    Its requests count as answered whenever they came back, so a queue that grows through it has every request
    answered, late, and a latency limit of seconds (a heavy tail's) lets them through: measured with SCENARIO=fanout,
    platform's 200 threads started 165 requests a second at 187.5 rps while that level read healthy. What the service
    completed in the level's own seconds says it (the simulation's live verdict judges the same way). Judged from
    COMPLETIONS_RESOLVE expected answers."""
    if level.completed_ok is None or not level.seconds:
        return None
    expected = expected_completions_rps(level)
    if expected * level.seconds < COMPLETIONS_RESOLVE:
        return None
    done = level.completed_ok / level.seconds
    if done >= th.ok_ratio * expected:
        return None
    keeping_up = f"{expected:.1f} rps" if expected != level.target_rps else f"its {level.target_rps:.0f} rps"
    return (
        f"it completed {done:.1f} OK answers a second in its own seconds, below {th.ok_ratio:.0%} of the "
        f"{keeping_up} a service keeping up completes there: its requests were answered late (a queue grew)"
    )


def level_health(
    level: Level, th: Thresholds, p99_limit: float | None, baseline_p50_ms: float | None = None
) -> tuple[bool, list[str]]:
    """(healthy, every broken criterion in words)."""
    reasons = rate_reasons(level, th, baseline_p50_ms)
    if level.latency is None:
        reasons.append("no successful response, so no latency")
        return False, reasons
    p50_limit = th.p50_limit_ms(baseline_p50_ms) if baseline_p50_ms is not None else None
    if p50_limit is not None and p99_limit is not None and p50_limit >= p99_limit:
        p50_limit = None  # a median past a limit no tighter than the p99's has its p99 past it: said once, by the p99
    reasons.extend(r for r in (tail_reason(level, p99_limit), median_reason(level, p50_limit)) if r)
    return not reasons, reasons


def rate_reasons(level: Level, th: Thresholds, baseline_p50_ms: float | None) -> list[str]:
    """The criteria judged without a p99 limit, broken, in words: whether the level kept up with its rate and few of
    its own requests failed (what a level must show to give the baseline: baseline.py)."""
    reasons = []
    # The downstream's injected failures (DOWNSTREAM_ERRORS/RESETS) are the service's answers, not its collapse: the
    # rule counts them as answered and judges the errors of the service's own (identical when none were injected).
    injected = (
        f", besides {level.downstream_injected} the downstream failed on purpose" if level.downstream_injected else ""
    )
    expected = expected_answers_rps(level, baseline_p50_ms)
    if level.answered_rps < th.ok_ratio * expected:
        answered, of_what = f"{level.answered_rps:.0f}", f"the {level.target_rps:.0f} rps target"
        if expected < level.target_rps:
            answered = f"{level.answered_rps:.1f}"
            of_what = f"the {expected:.1f} rps that keeping up with {of_what} completes in its seconds"
        reasons.append(f"OK throughput {answered} rps is below {th.ok_ratio:.0%} of {of_what}{injected}")
    elif (late := completions_reason(level, th)) is not None:
        reasons.append(late)
    if level.own_error_ratio > th.max_error_ratio:
        reasons.append(
            f"error ratio {level.own_error_ratio:.1%} is above {th.max_error_ratio:.1%} ({level.own_ko} errors"
            f"{injected})"
        )
    return reasons
