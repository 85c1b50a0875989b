"""Whether a run's downstream settings (DELAY_DIST, DOWNSTREAM_*) go together and reach anything: the lab's own
services call the delay-service in SCENARIO=http and pinned, an APP only through {downstream_url} (stdlib only)."""

from __future__ import annotations

from loadlab.core import app, downstream
from loadlab.core.run_params import RunParams


def cross_checks(v: RunParams) -> list[str]:
    """A distribution or injected failures act on the delay-service's answers: only a run that calls it uses them."""
    failures = (("DOWNSTREAM_ERRORS", v.downstream_errors), ("DOWNSTREAM_RESETS", v.downstream_resets))
    shaped = [f"{name}={given}" for name, given in failures if given]
    if v.delay_dist != downstream.CONSTANT:
        shaped.insert(0, f"DELAY_DIST={v.delay_dist}")
    if v.downstream_stubs and not v.app:
        return [
            f"DOWNSTREAM_STUBS={v.downstream_stubs!r} answers an app's own paths at {app.DOWNSTREAM_URL}; the lab's "
            "own services read no body; allowed: empty, or APP with {downstream_url} in APP_ARGS"
        ]
    if v.downstream_stubs:
        shaped.append("DOWNSTREAM_STUBS")
    if not shaped:
        return []
    if v.app and app.DOWNSTREAM_URL not in v.app_args:
        return [
            f"{shaped[0]} acts on the delay-service's answers at {app.DOWNSTREAM_URL}, which APP_ARGS does not use "
            f"({app.DELAY_URL} is /delay?ms=DELAY_MS, constant); allowed: {app.DOWNSTREAM_URL} in APP_ARGS"
        ]
    if not v.app and v.scenario in ("db", "cpu"):
        return [
            f"{shaped[0]} acts on the delay-service, which SCENARIO={v.scenario} does not call; allowed: "
            "SCENARIO=http or pinned"
        ]
    return []


def distribution_checks(v: RunParams) -> list[str]:
    """The distribution's own parameters: combinations that cannot be drawn or would not be used, one line each."""
    dist = v.delay_dist
    errors = []
    if dist == downstream.LOGNORMAL:
        if v.delay_p99_ms is None:
            errors.append(
                "DELAY_DIST=lognormal needs DELAY_P99_MS (the 99th percentile); allowed: DELAY_P99_MS > DELAY_MS"
            )
        elif v.delay_p99_ms <= v.delay_ms:
            errors.append(
                f"DELAY_P99_MS={v.delay_p99_ms} is not above the median DELAY_MS={v.delay_ms}; allowed: "
                f"DELAY_P99_MS > {v.delay_ms}"
            )
    elif v.delay_p99_ms is not None:
        errors.append(
            f"DELAY_P99_MS={v.delay_p99_ms} has no effect with DELAY_DIST={dist}; allowed: empty, or "
            "DELAY_DIST=lognormal"
        )
    slow = (("DELAY_SLOW_MS", v.delay_slow_ms), ("DELAY_SLOW_PCT", v.delay_slow_pct))
    if dist == downstream.BIMODAL:
        for name, given in slow:
            if given is None:
                errors.append(f"DELAY_DIST=bimodal needs {name}; allowed: DELAY_SLOW_MS in ms, DELAY_SLOW_PCT 0..100")
    else:
        errors += [
            f"{name}={given} has no effect with DELAY_DIST={dist}; allowed: empty, or DELAY_DIST=bimodal"
            for name, given in slow
            if given is not None
        ]
    if v.downstream_errors + v.downstream_resets > 100:
        errors.append(
            f"DOWNSTREAM_ERRORS={v.downstream_errors} and DOWNSTREAM_RESETS={v.downstream_resets} add up "
            "to more than 100%; allowed: a sum of at most 100"
        )
    return errors
