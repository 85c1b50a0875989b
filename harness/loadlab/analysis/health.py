"""A level's health, the one rule: it keeps up with its offered rate, few of its own requests fail, and its p99 stays
within the limit built on the baseline p50 (thresholds.Thresholds). knee.py places the knee on it; the simulation's
early stop applies the same rule (tests/analysis/test_health_rule_agreement.py holds them equal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loadlab.core.thresholds import Thresholds

if TYPE_CHECKING:  # the level model needs hdrh; refine.py (and the preflight) import knee.py without it
    from loadlab.analysis.levels import Level


def level_health(level: Level, th: Thresholds, p99_limit: float | None) -> tuple[bool, list[str]]:
    """(healthy, every broken criterion in words)."""
    reasons = []
    # The downstream's injected failures (DOWNSTREAM_ERRORS/RESETS) are the service's answers, not its collapse: the
    # rule counts them as answered and judges the errors of the service's own (identical when none were injected).
    injected = (
        f", besides {level.downstream_injected} the downstream failed on purpose" if level.downstream_injected else ""
    )
    if level.answered_rps < th.ok_ratio * level.target_rps:
        reasons.append(
            f"OK throughput {level.answered_rps:.0f} rps is below {th.ok_ratio:.0%} of the {level.target_rps:.0f} rps "
            f"target{injected}"
        )
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
