"""A run's shared record (run/context.Run) made from parameters as bench.py makes it: the load plan, the database and
the services' plan taken from them once, the limits derived from them."""

from __future__ import annotations

from pathlib import Path

from loadlab.core import database_use, downstream, load_plan, service_plan, timeouts
from loadlab.core.run_params import RunParams
from loadlab.run.context import Run
from loadlab.run.topology import DELAY_PORT, Topology


def bench_run(values: RunParams, topo: Topology, run_dir: Path) -> Run:
    return Run(
        topo,
        run_dir,
        timeouts.derive(values),
        load_plan.of_values(values),
        database_use.of_values(values),
        service_plan.of_values(values, topo.delay.work_path(downstream.SERVED_LOG), topo.delay.address, DELAY_PORT),
    )


def service_of(values: RunParams) -> service_plan.ServicePlan:
    """The services' plan alone, for a test's stand-in of a run (its delay-service on this machine)."""
    return service_plan.of_values(values, downstream.SERVED_LOG, "127.0.0.1", DELAY_PORT)
