"""The one-sided binomial test a count past a limit is weighed by, in one place: the served-delay check (served.py:
did the stand-in serve more late answers than its distribution allows?) and the health rule on a level too short to
resolve its p99 (health.py: more answers past the limit than a healthy 1% tail lets through?). The simulation's early
stop computes the same tail (gatling/…/HealthRule.java binomialTail), held equal by tests/data/health_cases.json.
"""

from __future__ import annotations


def tail_p(n: int, k: int, share: float) -> float:
    """P(X >= k) for X ~ Binomial(n, share): how likely k or more of n are past a limit each passes with `share`."""
    if k <= 0:
        return 1.0
    # scipy.stats costs about a second to import: every harness command would pay it, few reach this test
    from scipy.stats import binom

    return float(binom.sf(k - 1, n, share))


def beyond_chance(n: int, k: int, share: float, alpha: float) -> bool:
    """Whether k of n past a limit are more than a share `share` gives, at significance `alpha` (one-sided)."""
    return k > 0 and tail_p(n, k, share) < alpha
