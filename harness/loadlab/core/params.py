"""Every run parameter: its default, what is allowed, and the validation that runs before anything starts.

The Makefile passes each parameter as an environment variable of the same name, so `make bench DELAY_MS=100`,
`DELAY_MS=100 make bench` and `python -m loadlab bench` all read the same values.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from loadlab.core import (
    app,
    brownout_profile,
    client,
    downstream,
    fanout,
    guards,
    inflight,
    ladder,
    mix,
    param_cross,
    param_lists,
    scenario_mix,
    servicecpus,
    stubs,
    unknown_params,
)
from loadlab.core.errors import DownstreamError
from loadlab.core.param_limits import (
    CPU_MS_MAX,
    DB_CONNECTION_HEADROOM,
    DB_POOL_MAX,
    JDK_MAX,
    JDK_MIN,
    MAX_CONNECTIONS_DEFAULT,
    MAX_CONNECTIONS_MAX,
    PLATFORM_THREADS_MAX,
    PROFILES,
    REPEAT_MAX,
    SCENARIOS,
    TARGETS,
    THREADLOCAL_KB_MAX,
)
from loadlab.core.param_parsers import ParamError, checked_by, int_in, one_of, text
from loadlab.core.run_params import RunParams


@dataclass(frozen=True)
class Param:
    name: str
    default: str
    help: str
    parse: Callable[[str, str], object]
    allowed: str


PARAMS: tuple[Param, ...] = (
    Param(
        "TARGET",
        "local",
        "where the hosts are: local (this machine), netns (namespaces), aws (Terraform)",
        one_of(TARGETS),
        " | ".join(TARGETS),
    ),
    Param(
        "MODES",
        "platform virtual",
        "thread modes to run, in order (virtual-limited: virtual threads with the downstream call under a "
        "concurrency limit of VIRTUAL_LIMIT)",
        param_lists.modes,
        "platform, virtual, virtual-limited and/or reactive",
    ),
    Param(
        "DELAY_MS",
        "200",
        "delay the delay-service waits before replying (ms)",
        int_in(1, 60000),
        f"1..60000, and {inflight.INFLIGHT_RULE}",
    ),
    Param(
        "DELAY_DIST",
        downstream.CONSTANT,
        "the delay-service's latency, drawn per answer: constant (DELAY_MS), lognormal (median DELAY_MS, 99th "
        "percentile DELAY_P99_MS), bimodal (DELAY_SLOW_MS for DELAY_SLOW_PCT % of answers, DELAY_MS for the rest), "
        "hgrm:<file> (a recorded distribution, HdrHistogram percentile text)",
        checked_by(lambda raw: downstream.parse_dist("DELAY_DIST", raw), DownstreamError),
        downstream.DIST_ALLOWED,
    ),
    Param(
        "DELAY_P99_MS",
        "",
        "with DELAY_DIST=lognormal: the 99th percentile of the delay (ms), above DELAY_MS",
        checked_by(lambda raw: downstream.parse_optional_ms("DELAY_P99_MS", raw), DownstreamError),
        "empty, or DELAY_MS+1..3600000",
    ),
    Param(
        "DELAY_SLOW_MS",
        "",
        "with DELAY_DIST=bimodal: the slow answers' delay (ms)",
        checked_by(lambda raw: downstream.parse_optional_ms("DELAY_SLOW_MS", raw), DownstreamError),
        "empty, or 1..3600000",
    ),
    Param(
        "DELAY_SLOW_PCT",
        "",
        "with DELAY_DIST=bimodal: the share of slow answers (%)",
        checked_by(lambda raw: downstream.parse_pct("DELAY_SLOW_PCT", raw), DownstreamError),
        "empty, or 0..100",
    ),
    Param(
        "DOWNSTREAM_ERRORS",
        "0",
        "share of the delay-service's answers that are a 503 after their delay (%), drawn per request",
        checked_by(lambda raw: downstream.parse_pct("DOWNSTREAM_ERRORS", raw), DownstreamError),
        downstream.PCT_ALLOWED,
    ),
    Param(
        "DOWNSTREAM_RESETS",
        "0",
        "share of the delay-service's connections reset instead of answered, after their delay (%)",
        checked_by(lambda raw: downstream.parse_pct("DOWNSTREAM_RESETS", raw), DownstreamError),
        downstream.PCT_ALLOWED,
    ),
    Param(
        "DOWNSTREAM_STUBS",
        "",
        "answers of the delay-service per path pattern and method (a JSON list of path, method, status, body file, "
        "content_type); any other request gets {}",
        checked_by(lambda raw: stubs.parse("DOWNSTREAM_STUBS", raw), DownstreamError),
        "empty, or " + stubs.STUBS_ALLOWED,
    ),
    Param(
        "DOWNSTREAM_TIMEOUT_MS",
        "",
        "the service's own client timeout on its downstream call, every mode (empty: none, only the lab's safety "
        "net); a call past it is answered 504",
        checked_by(guards.parse_timeout, guards.GuardError),
        guards.TIMEOUT_ALLOWED,
    ),
    Param(
        "VIRTUAL_LIMIT",
        str(guards.VIRTUAL_LIMIT_DEFAULT),
        "virtual-limited mode: downstream calls at once under Spring's @ConcurrencyLimit; one more is answered 503",
        int_in(1, guards.VIRTUAL_LIMIT_MAX),
        f"1..{guards.VIRTUAL_LIMIT_MAX}",
    ),
    *(Param(*row) for row in client.PARAMS),
    Param(
        "SERVICE_MEMORY_MB",
        "",
        "the service's memory cgroup limit (MB; its heap is half of it); an out-of-memory kill is a named crash "
        "(empty: half of the host's memory, as always)",
        checked_by(guards.parse_memory, guards.GuardError),
        guards.MEMORY_ALLOWED,
    ),
    Param(
        "PLATFORM_THREADS",
        "200",
        'Tomcat\'s maximum worker threads in platform mode; several sizes ("200 1000 4000") run platform once per '
        "size, each its own column platform-t<N>",
        param_lists.pool_sizes,
        f"1..{PLATFORM_THREADS_MAX}, one or several, each once",
    ),
    Param(
        "MAX_CONNECTIONS",
        str(MAX_CONNECTIONS_DEFAULT),
        "Tomcat's max-connections in both modes: connections the thread-service holds open at most",
        int_in(1, MAX_CONNECTIONS_MAX),
        f"1..{MAX_CONNECTIONS_MAX}",
    ),
    Param(
        "THREADLOCAL_KB",
        "0",
        "KB of an object each request uses from a ThreadLocal cache, built on a thread's first use (0: none); "
        "added to any scenario",
        int_in(0, THREADLOCAL_KB_MAX),
        f"0..{THREADLOCAL_KB_MAX}",
    ),
    Param(
        "PROFILE",
        "stairs",
        "stairs (levels), ramp (linear) or brownout (RATE held)",
        one_of(PROFILES),
        " | ".join(PROFILES),
    ),
    *(Param(*row) for row in brownout_profile.PARAMS),
    Param(
        "START_RPS", "300", "first arrival rate (requests/s, all injectors together)", int_in(1, 100000), "1..100000"
    ),
    Param(
        "PEAK_RPS",
        "3000",
        "last arrival rate (requests/s)",
        int_in(1, 100000),
        f"START_RPS..100000, and {inflight.INFLIGHT_RULE}",
    ),
    Param(
        "STEPS", "10", "levels from START_RPS to PEAK_RPS inclusive (ramp: judging windows)", int_in(1, 100), "1..100"
    ),
    Param("STEP_SECONDS", "10", "seconds per level", int_in(2, 3600), "2..3600"),
    Param(
        "WARMUP_SECONDS",
        "30",
        "warm-up before measuring, not counted: climbs to START_RPS over its first half, then holds it",
        int_in(0, 3600),
        "0..3600",
    ),
    Param("INJECTORS", "1", "load-generator hosts; the rate is split evenly", int_in(1, 16), "1..16"),
    Param(
        "SCENARIO",
        "http",
        "what one request does: http (call the delay-service), db (PostgreSQL through a "
        "pool of DB_POOL), cpu (CPU_MS of computation), pinned (http while holding a monitor), fanout (FANOUT calls "
        "to the delay-service at once); or a weighted mix of "
        'http, db and cpu as kinds of one mix ("http:70 db:20 cpu:10")',
        checked_by(scenario_mix.checked, scenario_mix.ScenarioMixError),
        " | ".join(SCENARIOS) + ", or name:weight words",
    ),
    *(Param(*row) for row in fanout.PARAMS),
    Param(
        "CPU_MS",
        "0",
        "computation per request (ms of CPU), added to any scenario; > 0 for cpu",
        int_in(0, CPU_MS_MAX),
        f"0..{CPU_MS_MAX}, 1..{CPU_MS_MAX} for SCENARIO=cpu",
    ),
    Param(
        "DB_POOL",
        "10",
        "HikariCP's maximum pool size in the db scenario (PostgreSQL gets "
        f"max_connections = DB_POOL + {DB_CONNECTION_HEADROOM})",
        int_in(1, DB_POOL_MAX),
        f"1..{DB_POOL_MAX}",
    ),
    Param(
        "JDKS",
        "25",
        "runtimes of the thread-service; several run every mode on each",
        param_lists.jdks,
        f"{JDK_MIN}..{JDK_MAX}, each once",
    ),
    Param(
        "REPEAT",
        "1",
        "how many times the whole comparison runs into one run folder (rep-<k>/ when > 1)",
        int_in(1, REPEAT_MAX),
        f"1..{REPEAT_MAX}",
    ),
    Param(
        "REFINE",
        "1",
        "1: localise each knee to within 5% after the coarse levels (fine stairs); 0: coarse only",
        int_in(0, 1),
        "0..1",
    ),
    *(Param(*row) for row in ladder.PARAMS),
    Param(
        "APP",
        "",
        "an executable Spring Boot jar measured in the thread-service's place (empty: the lab's own)",
        checked_by(app.checked_jar),
        app.JAR_ALLOWED,
    ),
    Param(
        "APP_PATH",
        "/",
        "with APP: the path and query every request GETs",
        checked_by(app.check_path),
        "a path starting with /",
    ),
    Param(
        "APP_ARGS",
        "",
        f"with APP: extra app arguments; {app.DELAY_URL} = the delay-service (DELAY_MS), {app.DOWNSTREAM_URL} = its "
        f"base URL (any path answers after the run's delay), {app.DB_URL} = the run's PostgreSQL",
        checked_by(app.checked_args),
        "arguments (shell quoting)",
    ),
    Param(
        "APP_REQUESTS",
        "",
        "with APP: a CSV of weighted kinds of request (name,weight,method,path,body,content_type), sent as one mix "
        "instead of APP_PATH's one GET",
        checked_by(mix.checked_file, mix.MixError),
        "empty, or " + mix.ALLOWED,
    ),
    Param(
        "SERVICE_CPUS",
        "",
        "local/netns: cores (whole number: a cpuset) or a share of one (fraction: a CPU quota) the service under "
        "test gets to itself, the other roles the rest (empty: it shares the machine; aws ignores it)",
        checked_by(lambda raw: servicecpus.parse("SERVICE_CPUS", raw), servicecpus.SplitError),
        f"empty, or {servicecpus.SERVICE_CPUS_MIN}..(this machine's cores - 1)",
    ),
    Param("RESULTS_DIR", "results", "where run folders are written", text, "a directory path"),
)

BY_NAME = {p.name: p for p in PARAMS}


def parse(env: Mapping[str, str] | None = None) -> RunParams:
    """Reads every parameter from env (default: os.environ); raises ParamError listing every bad one."""
    env = os.environ if env is None else env
    values: dict[str, object] = {}
    errors: list[str] = unknown_params.unknown_names(env, BY_NAME)
    for p in PARAMS:
        raw = env.get(p.name)
        raw = p.default if raw is None or raw == "" else raw
        try:
            values[p.name.lower()] = p.parse(p.name, raw)
        except ParamError as e:
            errors.append(str(e))
    if errors:
        raise ParamError("\n".join(errors))
    run = RunParams.parsed(values)
    errors = brownout_profile.checks(run)
    if not errors:
        # A brownout is laid out as the stairs every stage reads (one rate, its phases as levels): checked as such.
        run = brownout_profile.resolved(run)
        errors = param_cross.cross_checks(run, defaults())
    if errors:
        raise ParamError("\n".join(errors))
    return run


@functools.cache
def defaults() -> RunParams:
    """Every parameter at its default, each read by its own parser (no check across them)."""
    return RunParams.parsed({p.name.lower(): p.parse(p.name, p.default) for p in PARAMS})


def from_json(recorded: Mapping[str, object]) -> RunParams:
    """RunParams.to_json's mapping read back (params.json, summary.json, checked-params.json), a parameter it does not
    hold (a run older than it) at its default. Here, not on RunParams: the defaults are the table's, and the table's
    module imports every module that reads a RunParams, so RunParams's own module can import none of them."""
    return RunParams.read(recorded, defaults())


def results_dir(env: Mapping[str, str] | None = None) -> str:
    """RESULTS_DIR as given, unchecked (`make report` and `make compare` look for results/latest in it)."""
    env = os.environ if env is None else env
    return env.get("RESULTS_DIR") or BY_NAME["RESULTS_DIR"].default
