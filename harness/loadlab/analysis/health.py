"""A level's health, the one rule: it keeps up with its offered rate (the answers a service keeping up completes in
the level's seconds), few of its own requests fail, and its p99 stays within the limit built on the baseline p50
(thresholds.Thresholds). knee.py places the knee on it; the simulation's
early stop applies the same rule (tests/analysis/test_health_rule_agreement.py holds them equal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loadlab.core.thresholds import Thresholds

if TYPE_CHECKING:  # the level model needs hdrh; refine.py (and the preflight) import knee.py without it
    from loadlab.analysis.levels import Level


def expected_answers_rps(level: Level, baseline_p50_ms: float | None) -> float:
    """The answers per second a service keeping up at its baseline latency completes in the level's own seconds.

    Completions are counted in the second they end in. A level that stepped up from a lower rate ends with its last
    (baseline p50 - window shift) of requests still in flight, while the previous level's, finishing in its first
    moments, were sent at the lower rate: Little's law on that step, (target - previous) x tail fewer answers than
    target x seconds, none of them missing. At 8 then 24 rps over 4 s of 214 ms requests that is 3.4 of 96, most of
    the 5% the rule allows. A step down is not made stricter than the target, nor is a level without a baseline.
    """
    previous, target = level.previous_target_rps, level.target_rps
    if previous is None or baseline_p50_ms is None or not level.seconds or target <= previous:
        return target
    tail_s = min(max(0.0, baseline_p50_ms / 1000.0 - level.window_shift_s), level.seconds)
    return target - (target - previous) * tail_s / level.seconds


def level_health(
    level: Level, th: Thresholds, p99_limit: float | None, baseline_p50_ms: float | None = None
) -> tuple[bool, list[str]]:
    """(healthy, every broken criterion in words)."""
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
    if level.own_error_ratio > th.max_error_ratio:
        reasons.append(
            f"error ratio {level.own_error_ratio:.1%} is above {th.max_error_ratio:.1%} ({level.own_ko} errors"
            f"{injected})"
        )
    if level.latency is None:
        reasons.append("no successful response, so no latency")
    elif p99_limit is not None and level.latency.p99_ms > p99_limit:
        reasons.append(f"p99 {level.latency.p99_ms} ms is above the {p99_limit:.0f} ms limit")
    return not reasons, reasons
