"""What the run's services need of its parameters, worked out once at the top of a run (`of_values`): the service
under test (the lab's thread-service, or an APP jar with its path, arguments and requests), the delay-service's policy
and the settings each column's thread-service starts with. run/services.py, run/appservice.py, run/samplers.py and
run/drain.py read it; what the database needs is core/database_use.py's, what the injectors need core/load_plan.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from loadlab.core import app, downstream, fanout, guards, mix, runplan, servicesettings
from loadlab.core.run_params import RunParams
from loadlab.core.runplan import ModeRun


@dataclass(frozen=True)
class ServicePlan:
    app: str  # APP: the jar's path; "" for the lab's own thread-service
    app_path: str
    app_args: tuple[str, ...]  # APP_ARGS split and checked (app.check_args), placeholders not yet filled
    app_requests: str  # APP_REQUESTS's file, "" for APP_PATH's one GET
    requests: mix.Mix  # what an APP is sent: APP_REQUESTS's kinds, else APP_PATH's one GET (mix.of_values)
    scenario: str
    delay_ms: int
    db_pool: int
    platform_threads: tuple[int, ...]
    virtual_limit: int  # virtual-limited's downstream calls at once (guards.virtual_limit)
    delay: downstream.Distribution  # the delay-service's distribution (DELAY_DIST)
    delay_args: tuple[str, ...]  # the delay-service's downstream.* properties (downstream.delay_service_args)
    downstream_url: str  # the delay-service as the lab's services call it (downstream.service_base_url)
    # Each column's thread-service settings that a parameter gives (servicesettings, the guards, the fan-out
    # executor for its pool); the scenario's database and the run's limits come from their own records.
    column_args: Mapping[ModeRun, tuple[str, ...]]


def of_values(values: RunParams, served_log: str, delay_address: str, delay_port: int) -> ServicePlan:
    """served_log: where the delay-service keeps its served delay on its host; delay_address and delay_port: where
    the thread-service reaches it."""
    return ServicePlan(
        app=values.app,
        app_path=values.app_path,
        app_args=tuple(app.check_args(values.app_args)) if values.app else (),
        app_requests=values.app_requests,
        requests=mix.of_values(values),
        scenario=values.scenario,
        delay_ms=values.delay_ms,
        db_pool=values.db_pool,
        platform_threads=values.platform_threads,
        virtual_limit=guards.virtual_limit(values),
        delay=downstream.distribution(values),
        delay_args=tuple(downstream.delay_service_args(values, served_log)),
        downstream_url=downstream.service_base_url(delay_address, delay_port, values),
        column_args={
            column: _column_args(values, column)
            for column in runplan.mode_runs(values.modes, values.jdks, values.platform_threads)
        },
    )


def _column_args(values: RunParams, column: ModeRun) -> tuple[str, ...]:
    threads = runplan.service_pool(column, values.platform_threads)
    return (
        *servicesettings.thread_service_args(values),
        # The guards a run sets (DOWNSTREAM_TIMEOUT_MS, virtual-limited's VIRTUAL_LIMIT): core/guards.py.
        *guards.thread_service_args(values, column.mode),
        # SCENARIO=fanout's executor (platform's shape; the others ignore it).
        *fanout.thread_service_args(values, threads),
    )
