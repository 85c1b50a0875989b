"""Whether a run's downstream settings (DELAY_DIST, DOWNSTREAM_*) reach anything: the lab's own services call the
delay-service in SCENARIO=http and pinned, an APP only through {downstream_url} (stdlib only)."""

from __future__ import annotations

from loadlab.core import app, downstream


def cross_checks(v: dict[str, object]) -> list[str]:
    """A distribution or injected failures act on the delay-service's answers: only a run that calls it uses them."""
    shaped = [f"{name}={v[name]}" for name in ("DOWNSTREAM_ERRORS", "DOWNSTREAM_RESETS") if v[name]]
    if v["DELAY_DIST"] != downstream.CONSTANT:
        shaped.insert(0, f"DELAY_DIST={v['DELAY_DIST']}")
    if v["DOWNSTREAM_STUBS"] and not v["APP"]:
        return [
            f"DOWNSTREAM_STUBS={v['DOWNSTREAM_STUBS']!r} answers an app's own paths at {app.DOWNSTREAM_URL}; the lab's "
            "own services read no body; allowed: empty, or APP with {downstream_url} in APP_ARGS"
        ]
    if v["DOWNSTREAM_STUBS"]:
        shaped.append("DOWNSTREAM_STUBS")
    if not shaped:
        return []
    if v["APP"] and app.DOWNSTREAM_URL not in v["APP_ARGS"]:
        return [
            f"{shaped[0]} acts on the delay-service's answers at {app.DOWNSTREAM_URL}, which APP_ARGS does not use "
            f"({app.DELAY_URL} is /delay?ms=DELAY_MS, constant); allowed: {app.DOWNSTREAM_URL} in APP_ARGS"
        ]
    if not v["APP"] and v["SCENARIO"] in ("db", "cpu"):
        return [
            f"{shaped[0]} acts on the delay-service, which SCENARIO={v['SCENARIO']} does not call; allowed: "
            "SCENARIO=http or pinned"
        ]
    return []
