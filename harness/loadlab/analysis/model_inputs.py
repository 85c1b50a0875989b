"""What the models (models.py) need about one mode, in one record: summary/judge/mode_inputs.model_inputs fills it from
the run's live configuration, its parameters and its healthy levels."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.analysis.fanout_model import FanoutShape
from loadlab.analysis.holds import HoldTime, KindHold, LevelHold
from loadlab.analysis.prediction import Prediction
from loadlab.core.client import Pool as ClientPool
from loadlab.core.downstream import Distribution
from loadlab.core.fanout import SlowestOf


@dataclass(frozen=True)
class Inputs:
    """What the models need about one mode; None where it was not measured or does not apply."""

    mode: str  # platform | virtual | virtual-limited | reactive (the thread mode, not the label)
    scenario: str = "http"
    jdk: int | None = None
    threads: float | None = None  # Tomcat's max threads (live, else PLATFORM_THREADS)
    baseline_ms: float | None = None  # the first level's p50
    delay_ms: float | None = None
    db_pool: float | None = None  # the pool the service reported, else DB_POOL
    cpu_ms: float | None = None
    cores: float | None = None  # the thread-service host's cores
    others_cpu_ms_per_request: float | None = None  # other roles on the same machine, per OK request
    carriers: float | None = None  # virtual_scheduler_parallelism from the live config
    max_connections: float | None = None  # Tomcat's max-connections (live, else MAX_CONNECTIONS)
    # The measured CPU knee (cpufit.py: the utilization law on this mode's own healthy levels); None when not fitted.
    cpu_ceiling: Prediction | None = None
    baseline_rps: float | None = None  # the first level's OK rate: where the baseline was measured
    baseline_mean_ms: float | None = None  # the first level's mean latency, as the client saw it
    downstream_ms: float | None = None  # the thread-service's own mean downstream call at the first level
    # The request threads the thread host lets the service run, and which limit says so (threadlimits.py).
    host_request_threads: float | None = None
    host_threads_limit: str = ""
    # The memory ceiling on this mode's measured memory per request in flight (threadlimits.memory_ceiling).
    memory_ceiling: Prediction | None = None
    # A pool no model knows (an app's own Semaphore), sized and timed from the wait profile (measured_pool.py).
    measured_pool: Prediction | None = None
    measured_pool_size: float | None = None  # its size: the most requests seen holding it at once
    # An application's own connection pool (APP with HikariCP's gauges, summary/judge/app_pool.py): its size and the
    # connection time per request its usage timer gave.
    app_pool: float | None = None
    app_pool_hold: HoldTime | None = None
    # Every healthy level a hold time can be read at (the coarse pass's and the used fine passes'): the interval of a
    # model on the baseline hold spans all of them, never the first level's alone (a JIT-cold first level is one).
    healthy_holds: tuple[LevelHold, ...] = ()
    # The delay-service's distribution (DELAY_DIST); None or constant: the wait is what the baseline measured.
    wait: Distribution | SlowestOf | None = None
    # virtual-limited's limit on downstream calls at once (live downstream_concurrency_limit, else VIRTUAL_LIMIT).
    concurrency_limit: float | None = None
    # A pooled CLIENT's connections per route and how that number was reached (core/client.pool); None: no cap.
    client_pool: ClientPool | None = None
    # A SCENARIO mix's kinds, each with its share and hold (empty: one scenario, held for the baseline).
    kinds: tuple[KindHold, ...] = ()
    # SCENARIO=fanout: calls per request, one call's distribution, platform's executor (wait: the slowest call's).
    fanout: FanoutShape | None = None
