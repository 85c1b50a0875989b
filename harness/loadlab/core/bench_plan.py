"""What a bench needs of its parameters, worked out once at the top of a run (`of_values`, which cli.py calls): where
it runs, the columns and repetitions, each step's narrow plan (load_plan.py, service_plan.py, database_use.py), the
health rule and the limits it judges by, and what params.json records of them. run/bench.py takes this, never the
RunParams; a rung of the limit ladder gets its own, from its own parameters (cli.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from loadlab.core import database_use, downstream, fanout, load_plan, runplan, service_plan, timeouts
from loadlab.core.database_use import DatabaseUse
from loadlab.core.load_plan import LoadPlan
from loadlab.core.run_params import RunParams
from loadlab.core.runplan import ModeRun
from loadlab.core.service_plan import ServicePlan
from loadlab.core.thresholds import Thresholds, settle_seconds
from loadlab.core.timeouts import Limits


@dataclass(frozen=True)
class BenchPlan:
    target: str
    injectors: int
    results_dir: str
    jdks: tuple[int, ...]
    columns: tuple[ModeRun, ...]  # MODES on each of JDKS, platform once per pool (runplan.mode_runs)
    repeat: int
    service_cpus: float | None  # SERVICE_CPUS (run/cpushare.py)
    service_memory_mb: int | None  # SERVICE_MEMORY_MB (run/memorybound.py)
    database: DatabaseUse
    load: LoadPlan
    thresholds: Thresholds  # the health rule the run judges with, the first seconds after a step left out
    limits: Limits  # every limit of the request chain (timeouts.py)
    # The services' settings once the hosts are known: where the delay-service keeps its served log, its address and
    # port (service_plan.of_values on these parameters).
    services: Callable[[str, str, int], ServicePlan]
    recorded: dict[str, object]  # params.json's `params`: the parameters as recorded (RunParams.as_recorded)
    downstream: dict[str, object]  # params.json's `downstream`: the delay-service's policy (downstream.record)


def of_values(values: RunParams) -> BenchPlan:
    thresholds = replace(
        downstream.health_thresholds(fanout.request_distribution(values)),
        settle_s=settle_seconds(values.profile, values.step_seconds),
    )
    return BenchPlan(
        target=values.target,
        injectors=values.injectors,
        results_dir=values.results_dir,
        jdks=values.jdks,
        columns=tuple(runplan.mode_runs(values.modes, values.jdks, values.platform_threads)),
        repeat=values.repeat,
        service_cpus=values.service_cpus,
        service_memory_mb=values.service_memory_mb,
        database=database_use.of_values(values),
        load=load_plan.of_values(values),
        thresholds=thresholds,
        limits=timeouts.derive(values, thresholds),
        services=partial(service_plan.of_values, values),
        recorded=values.as_recorded().to_json(),
        downstream=downstream.record(values, downstream.SERVED_LOG),
    )
