"""Whether a run starts its own PostgreSQL and who it is for, worked out once from the parameters (`of_values`):
SCENARIO=db (or a mix with a db kind), whose thread-service pool is DB_POOL, or an APP given it through {db_url} in
APP_ARGS, whose pool is its own. run/scenario.py installs and wires it, run/preflight.py checks for it."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.core import app, scenario_mix
from loadlab.core.run_params import RunParams


@dataclass(frozen=True)
class DatabaseUse:
    # What asked for the run's PostgreSQL, as a message names it: `SCENARIO=db`, a mix's db kind, or an APP's
    # {db_url}; "" when nothing does.
    user: str
    # The thread-service's pool when a kind of SCENARIO is db (DB_POOL), else None: it gets no database settings.
    pool: int | None

    @property
    def needed(self) -> bool:
        return bool(self.user)


def of_values(values: RunParams) -> DatabaseUse:
    in_scenario = scenario_mix.has(values, "db")
    if values.app:
        user = "APP_ARGS's {db_url}" if app.uses_database(app.check_args(values.app_args)) else ""
    elif in_scenario:
        user = f"SCENARIO='{values.scenario}' (its db kind)" if scenario_mix.is_mix(values.scenario) else "SCENARIO=db"
    else:
        user = ""
    return DatabaseUse(user, values.db_pool if in_scenario else None)
