"""Asked: what a run asked of the service under test, the settings the summary holds what the service ran against.

The summary stage reads these and no whole RunParams (issue 53): `of` copies them once, at the top of a summary
(core/summary_inputs.py). Each field keeps its parameter's own name, so the rules that read one of these settings
(client, guards, servicesettings, fanout, scenario_mix, app) take an Asked where they take a RunParams.

Standard library and run_params only: those rules import this module, so it can import none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.core.run_params import RunParams


@dataclass(frozen=True, slots=True)
class Asked:
    scenario: str
    app: str  # "" (the lab's own thread-service) or the jar's path
    delay_ms: int
    cpu_ms: int
    db_pool: int
    threadlocal_kb: int
    max_connections: int
    client: str
    client_pool: int | None
    downstream_timeout_ms: int | None
    virtual_limit: int
    fanout: int
    fanout_pool: int | None
    fanout_timeout_ms: int | None
    fanout_on_timeout: str
    target_rps: float | None
    service_cpus: float | None
    # What a mode's label leaves unsaid (summary/reading/labels.py): the run's only JDK, None with several or for a run
    # from before JDKS (whichever JDK the machine had); its only platform pool, None for a sweep (each label names its
    # own).
    jdk: int | None
    pool: int | None
    # False for a run from before MAX_CONNECTIONS, which asked for no connection cap
    max_connections_recorded: bool

    @classmethod
    def of(cls, params: RunParams) -> Asked:
        one_jdk = "jdks" not in params.absent and len(params.jdks) == 1
        return cls(
            scenario=params.scenario,
            app=params.app,
            delay_ms=params.delay_ms,
            cpu_ms=params.cpu_ms,
            db_pool=params.db_pool,
            threadlocal_kb=params.threadlocal_kb,
            max_connections=params.max_connections,
            client=params.client,
            client_pool=params.client_pool,
            downstream_timeout_ms=params.downstream_timeout_ms,
            virtual_limit=params.virtual_limit,
            fanout=params.fanout,
            fanout_pool=params.fanout_pool,
            fanout_timeout_ms=params.fanout_timeout_ms,
            fanout_on_timeout=params.fanout_on_timeout,
            target_rps=params.target_rps,
            service_cpus=params.service_cpus,
            jdk=params.jdks[0] if one_jdk else None,
            pool=params.single_pool,
            max_connections_recorded="max_connections" not in params.absent,
        )
