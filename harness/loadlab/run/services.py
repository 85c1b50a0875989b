"""Starting and stopping the run's services on their hosts: the delay-service, the db scenario's PostgreSQL and,
per mode, the thread-service; every process of the run stopped at its end (`stop-all` on every host)."""

from __future__ import annotations

from loadlab.analysis.validity import DELAY_ADDED_FLOOR_MS
from loadlab.core import app, guards, param_limits, runplan, timeouts
from loadlab.core.runplan import ModeRun
from loadlab.run import console, scenario
from loadlab.run.context import Run
from loadlab.run.hosts import HostError
from loadlab.run.topology import DB_PORT, DELAY_PORT, MGMT_PORT, THREAD_PORT


def start_delay_service(run: Run) -> None:
    h = run.topo.delay
    dist = run.service.delay
    console.step(f"starting delay-service on {h.name} ({h.address}:{DELAY_PORT}), {dist.describe()}")
    # Its policy as Spring properties (core/downstream.py): what it draws, what it fails, where the served delay goes
    # (downstream.SERVED_LOG on this host, core/service_plan.py).
    h.run(["mkdir", "-p", h.work_path("raw", "delay")])
    spring = run.service.delay_args
    h.tool("delay-service", "delay-service", run.log(h, "delay-service"), h.address, str(DELAY_PORT), *spring)
    h.tool("wait-http", f"http://{h.address}:{DELAY_PORT}/actuator/health", "90", "delay-service", timeout=120)
    warm_delay_service(run)


# The delay-service's warm-up: its own endpoint, at a wait short enough that even an 11 s DELAY_MS run warms it in
# seconds (the code path is the same whatever the wait), within the allowance the validity rule gives it.
WARM_MS = 100
WARM_MAX_S = 20


def warm_delay_service(run: Run) -> None:
    """Brings the delay-service to its steady state before the first measured level: a cold one answered the first
    sweep's first probe in 309 ms against 201 ms later. Rounds of concurrent requests on its host (loadlab-host
    warm-http) until a round's 90th percentile is within WARM_MS + validity's allowance; recorded in params.json
    (`delay_warmup`). A delay-service that does not settle is not refused here: the validity rule judges its probe."""
    h = run.topo.delay
    ms = min(WARM_MS, run.service.delay_ms)
    url = f"http://{h.address}:{DELAY_PORT}/delay?ms={ms}"
    margin = int(DELAY_ADDED_FLOOR_MS)
    out = h.tool("warm-http", url, str(ms), str(margin), str(WARM_MAX_S), timeout=WARM_MAX_S + 30)
    rounds = [[int(x) for x in line.split()[1:]] for line in out.splitlines() if line.startswith("round ")]
    steady = out.splitlines()[-1:] == ["steady 1"]
    run.meta["delay_warmup"] = {
        "wait_ms": ms,
        "rounds": len(rounds),
        "first_p50_ms": rounds[0][1] if rounds else None,
        "last_p90_ms": rounds[-1][2] if rounds else None,
        "steady": steady,
    }
    said = (
        f"{len(rounds)} rounds of 48 requests at {ms} ms: the first answered in {rounds[0][1]} ms (median), the "
        f"last in {rounds[-1][2]} ms (90th percentile)"
        if rounds
        else "no round was measured"
    )
    if steady:
        console.step(f"delay-service warmed: {said}")
    else:
        console.warn(f"the delay-service did not settle within {WARM_MAX_S} s ({said}): its probe judges each level")


def start_database(run: Run) -> None:
    """The run's own PostgreSQL (SCENARIO=db) on the delay host, its address and DB_PORT; stop-all stops it."""
    h, v = run.topo.delay, run.service
    if v.app:  # the app's pool is its own, not DB_POOL
        max_connections = app.db_max_connections(list(v.app_args), param_limits.DB_CONNECTION_HEADROOM)
        sized_for = "the app's own pool"
    else:
        max_connections, sized_for = param_limits.db_max_connections(v.db_pool), f"DB_POOL={v.db_pool}"
    console.step(
        f"starting PostgreSQL on {h.name} ({h.address}:{DB_PORT}, max_connections {max_connections} for {sized_for})"
    )
    h.tool("postgres", "postgres", run.log(h, "postgres"), h.address, str(DB_PORT), str(max_connections), timeout=180)
    h.tool("wait-postgres", h.address, str(DB_PORT), "60", "postgres", timeout=90)


def start_thread_service(run: Run, mode_run: ModeRun, folder: str) -> None:
    """The thread-service in the mode's thread mode, on the mode's JDK, answering one real request before any load."""
    h, v = run.topo.thread, run.service
    mode = mode_run.mode
    # Virtual threads ignore Tomcat's pool; the host script still takes a size.
    threads = runplan.service_pool(mode_run, v.platform_threads)
    console.step(
        f"starting thread-service in {mode} mode on JDK {mode_run.jdk} on {h.name} "
        f"({h.address}:{THREAD_PORT}"
        + (f", {threads} Tomcat threads" if mode == "platform" else "")
        + (f", {v.virtual_limit} downstream calls at once" if mode == guards.VIRTUAL_LIMITED else "")
        + ")"
    )
    jfr = h.work_path(folder, "raw", "thread", "service.jfr")
    h.run(["mkdir", "-p", h.work_path(folder, "raw", "thread")])
    # The scenario's settings, then the limits of the request chain (timeouts.py), then the column's own settings
    # (core/service_plan.py: its parameters', its guards', its fan-out executor's).
    spring = [
        *scenario.thread_service_args(run.database, run.topo.delay.address, run.limits),
        *timeouts.thread_service_args(run.limits),
        *v.column_args[mode_run],
    ]
    java = run.javas.get(mode_run.jdk)
    h.tool(
        "thread-service",
        "thread-service",
        run.log(h, run.log_name(folder, "thread-service")),
        h.address,
        str(THREAD_PORT),
        str(MGMT_PORT),
        mode,
        str(threads),
        v.downstream_url,
        jfr,
        *spring,
        env={"LOADLAB_JAVA": java} if java else None,
    )
    h.tool("wait-http", f"http://127.0.0.1:{MGMT_PORT}/actuator/health", "90", "thread-service", timeout=120)
    # One real request end to end before any load: a broken wiring (or a database that does not answer)
    # fails here, not as a "collapse".
    for path in scenario.smoke_paths(v.scenario):
        h.tool("wait-http", f"http://{h.address}:{THREAD_PORT}{path}", "30", "thread-service", timeout=60)


def stop_thread_service(run: Run) -> None:
    run.topo.thread.tool("stop", "thread-service", "30")


def stop_everything(run: Run) -> None:
    for h in run.topo.hosts():
        try:
            h.tool("stop-all", "30", check=False, timeout=180)
        except HostError as e:
            console.warn(f"could not stop processes on {h.name}: {e}")
