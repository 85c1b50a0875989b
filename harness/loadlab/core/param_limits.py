"""The ranges and choices of the run parameters, each with why it stops where it does (params.py validates against
them; services and the preflight read the same figures)."""

from __future__ import annotations

from loadlab.core import brownout_profile, guards, profile_names, reactive, scenario_mix

TARGETS = ("local", "netns", "aws")
# reactive: reactive-service (WebFlux on Netty) in the thread-service's place; core/reactive.py says what it cannot run.
# virtual-limited: virtual threads with the downstream call under @ConcurrencyLimit (VIRTUAL_LIMIT; core/guards.py).
THREAD_MODES = ("platform", "virtual", guards.VIRTUAL_LIMITED, reactive.REACTIVE)
STAIRS = profile_names.STAIRS
PROFILES = (STAIRS, profile_names.RAMP, brownout_profile.PROFILE)
SCENARIOS = scenario_mix.SCENARIOS
# Computation per request: a second of CPU per request is already far past any service this lab models.
CPU_MS_MAX = 1000
# The run's own PostgreSQL gets max_connections = DB_POOL + DB_CONNECTION_HEADROOM, so the pool can always open
# every connection it is allowed (headroom: PostgreSQL's 3 superuser slots and the harness's readiness checks).
# The largest pool is bounded by what a 2-core lab machine can hold in backends (one process each).
DB_POOL_MAX = 500
DB_CONNECTION_HEADROOM = 10
# Runtimes of the thread-service: 21 is the oldest LTS with virtual threads; the list stops at releases that exist.
JDK_MIN, JDK_MAX = 21, 27
# REPEAT: each repetition is a whole comparison (≈ 5 minutes by default); more than this is a job for a script.
REPEAT_MAX = 20
# A platform pool's size (PLATFORM_THREADS, each size of a sweep). Past 10,000 threads the host's own limits
# (pid_max, max_map_count, memory) decide, and preflight checks those against the pool.
PLATFORM_THREADS_MAX = 10000
# Tomcat's max-connections (MAX_CONNECTIONS): its own default, 8192, in both modes. The most is far beyond the
# 20,000 open files a process gets here, so the file limit, not this check, is what a large value meets.
MAX_CONNECTIONS_DEFAULT, MAX_CONNECTIONS_MAX = 8192, 100_000
# THREADLOCAL_KB: the per-thread object's size. 1 MB per thread is already 4 GB of heap for a 4,000-thread pool.
THREADLOCAL_KB_MAX = 1024
# The whole measured phase (STEPS x STEP_SECONDS): longer is a soak test, not a bench.
MAX_MEASURED_SECONDS = 4 * 3600


def db_max_connections(db_pool: int) -> int:
    """The run's PostgreSQL max_connections: the one rule tying it to DB_POOL (see DB_CONNECTION_HEADROOM)."""
    return db_pool + DB_CONNECTION_HEADROOM
