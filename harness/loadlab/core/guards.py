"""The guards a team reaches for, as parameters beside the modes: the service's own client timeout on its downstream
call (DOWNSTREAM_TIMEOUT_MS), a concurrency limit for virtual threads (MODES=virtual-limited with VIRTUAL_LIMIT) and
a memory bound (SERVICE_MEMORY_MB). What each allows, refused before anything starts, and the settings the service
and its host get. Standard library only: params.py (run before the venv exists) calls it.

The client timeout is not the lab's safety net (timeouts.py: `delay-service.timeout`, set above any latency the
health rule accepts, so that a slow downstream shows as the service's 504 rather than an injector timeout). It is a
setting a team chooses; the service gets both (`delay-service.client-timeout`), applies the shorter, and answers
each with its own problem type. It must be below the safety net: above it, the net would cut first and the guard
would never act.
"""

from __future__ import annotations

from collections.abc import Mapping

from loadlab.core import client, scenario_mix, timeouts
from loadlab.core.asked import Asked
from loadlab.core.modelabel import ModeLabel
from loadlab.core.run_params import RunParams

# The mode name the thread-service and the harness share (ThreadMode.java; test_guards.py holds both to it).
VIRTUAL_LIMITED = "virtual-limited"
# Its limit's default: Tomcat's default pool, so the limited column bounds concurrency as platform's default does,
# without the pool (thread-service/src/main/resources/application.yml says the same).
VIRTUAL_LIMIT_DEFAULT = 200
VIRTUAL_LIMIT_MAX = 100_000
# The smallest memory bound a Spring Boot service starts in here: ≈ 200 MB RSS at rest (MACHINE-NOTES), with half
# of the bound as its heap.
SERVICE_MEMORY_MIN_MB = 256
SERVICE_MEMORY_MAX_MB = 1_048_576
# The host script's variable (infra/host/lib/cgroups.bash, host_limits): the service's cgroup memory limit in MB.
SERVICE_MEMORY_ENV = "LOADLAB_SERVICE_MEMORY_MB"
# The scenarios whose request makes the downstream HTTP call these guards act on.
CALLING_SCENARIOS = scenario_mix.CALLING

TIMEOUT_ALLOWED = "empty (none: only the lab's safety net), or DELAY_MS+1 .. the safety net - 1 (ms)"
MEMORY_ALLOWED = f"empty (a share of the host's memory, as without it), or {SERVICE_MEMORY_MIN_MB}..(the host's MB)"


class GuardError(ValueError):
    """One bad guard parameter; the message is its one line."""


def parse_timeout(raw: str) -> int | None:
    return _optional_int("DOWNSTREAM_TIMEOUT_MS", raw, 1, timeouts.GATLING_MAX_TIMEOUT_MS, TIMEOUT_ALLOWED)


def parse_memory(raw: str) -> int | None:
    return _optional_int("SERVICE_MEMORY_MB", raw, SERVICE_MEMORY_MIN_MB, SERVICE_MEMORY_MAX_MB, MEMORY_ALLOWED)


def _optional_int(name: str, raw: str, lo: int, hi: int, allowed: str) -> int | None:
    text = raw.strip()
    if not text:
        return None
    if not text.isdigit():
        raise GuardError(f"{name}={raw!r} is not a whole number; allowed: {allowed}")
    if not lo <= int(text) <= hi:
        raise GuardError(f"{name}={int(text)} is out of range; allowed: {allowed}")
    return int(text)


def cross_checks(v: RunParams) -> list[str]:
    """One line per refusal: a guard on a downstream call the run does not make, a client timeout the lab's safety
    net would pre-empt or that cuts most calls, the limited mode where there is no call to limit."""
    errors = []
    calls = not v.app and v.scenario in CALLING_SCENARIOS
    timeout = v.downstream_timeout_ms
    if timeout is not None and not calls:
        what = "APP's own client is the app's to configure"
        what = what if v.app else f"{scenario_mix.said(v.scenario)} makes none"
        errors.append(
            f"DOWNSTREAM_TIMEOUT_MS={timeout} is the lab's service's timeout on its downstream HTTP call, and {what}; "
            f"allowed: empty, or SCENARIO={' or '.join(CALLING_SCENARIOS)} without APP"
        )
    elif timeout is not None:
        errors.extend(_timeout_range(v, timeout))
    if VIRTUAL_LIMITED in v.modes and not calls:
        what = "APP runs its own code, with no limit of the lab's" if v.app else scenario_mix.said(v.scenario)
        errors.append(
            f"MODES='{' '.join(v.modes)}' runs {VIRTUAL_LIMITED}, whose limit is on the downstream HTTP call, but "
            f"{what} makes none; allowed: SCENARIO={' or '.join(CALLING_SCENARIOS)} without APP, or MODES without "
            f"{VIRTUAL_LIMITED}"
        )
    return errors


def _timeout_range(v: RunParams, timeout: int) -> list[str]:
    net = timeouts.derive(v).thread_service_timeout_ms
    if timeout >= net:
        return [
            f"DOWNSTREAM_TIMEOUT_MS={timeout} is not below the lab's own safety net of {net} ms (the service's "
            f"delay-service.timeout, from DELAY_MS={v.delay_ms}), which would cut every slow call first; "
            f"allowed: {v.delay_ms + 1}..{net - 1}"
        ]
    if timeout <= v.delay_ms:
        return [
            f"DOWNSTREAM_TIMEOUT_MS={timeout} is at or below DELAY_MS={v.delay_ms} (the downstream's usual delay; "
            f"its median with a distribution): most calls would time out on an idle service; allowed: "
            f"{v.delay_ms + 1}..{net - 1}"
        ]
    return []


def thread_service_args(values: RunParams, mode: str) -> list[str]:
    """The lab's service's Spring properties for these guards (the thread-service and the reactive service read the
    same `delay-service.*` names): the client timeout in every mode, the limit in virtual-limited."""
    args = []
    if values.downstream_timeout_ms is not None:
        args.append(f"--delay-service.client-timeout={values.downstream_timeout_ms}ms")
    if mode == VIRTUAL_LIMITED:
        args.append(f"--delay-service.concurrency-limit={virtual_limit(values)}")
    return args


def virtual_limit(values: RunParams | Asked) -> int:
    return values.virtual_limit


def kind_meanings(meanings: Mapping[str, str], mode: str, values: RunParams | Asked) -> dict[str, str]:
    """The simulation's meaning of each failure kind, said for this mode of this run where a guard decides it: a 504
    is the client timeout the run set (not the lab's safety net), a 503 in virtual-limited is its limit shedding a
    request by design (no database pool there), a 503 with a pooled CLIENT and no database its client's pool full."""
    said = dict(meanings)
    timeout = values.downstream_timeout_ms
    if timeout is not None and "status_504" in said:
        said["status_504"] = (
            f"504 from the service: its own client timeout on the downstream call (DOWNSTREAM_TIMEOUT_MS={timeout}), "
            "not the lab's safety net, which is longer"
        )
    pool_full = client.kind_meaning(values)
    if pool_full and "status_503" in said and ModeLabel.parse(mode).mode != "reactive":
        said["status_503"] = pool_full
    if ModeLabel.parse(mode).mode == VIRTUAL_LIMITED and "status_503" in said:
        said["status_503"] = (
            f"503 from the service: shed by its concurrency limit (VIRTUAL_LIMIT={virtual_limit(values)} downstream "
            "calls at once), load shedding by design, not a collapse"
        )
    return said
