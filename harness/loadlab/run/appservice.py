"""APP on the thread host: a user's Boot jar started in the thread-service's place (same name there, so it is
contained, recorded, sampled, watched and stopped like the thread-service), its mode set by the standard Spring
properties (app.mode_args); refused in one line, before any load, when it does not start or a kind of request
(APP_PATH, or a line of APP_REQUESTS) does not answer 2xx/3xx; drained between passes by timing a GET of its own
(probe_path: it has no /actuator/loadlab)."""

from __future__ import annotations

import json
import time

from loadlab.core import app, mix, runplan
from loadlab.core.errors import ExitCode
from loadlab.core.runplan import ModeRun
from loadlab.run import console, scenario
from loadlab.run.context import Run
from loadlab.run.hosts import Host, HostError
from loadlab.run.topology import DB_PORT, DELAY_PORT, THREAD_PORT

ROLE = "thread-service"  # the name the app runs under on its host (loadlab-host state, watch, samplers, stop)
START_TIMEOUT_S = 120  # a Boot app with a database may take long to start on a busy 2-core host
LOG_LINES = 4  # the app's last log lines quoted when it does not start
LOG_LINE_CHARS = 160
# A 5xx right after start can be a pool or cache still warming: asked again this many times, a second apart.
PATH_ATTEMPTS = 3


class AppRefused(HostError):
    """The app cannot be measured (did not start, APP_PATH fails or hangs): one line, exit 2, before any load."""

    exit_code = ExitCode.USAGE


def jar_name(jar: str) -> str:
    """APP's file name, as a refusal names it."""
    return jar.rsplit("/", 1)[-1]


def url(run: Run, path: str) -> str:
    return f"http://{run.topo.thread.address}:{THREAD_PORT}{path}"


def launch_args(run: Run, mode: str, threads: int) -> list[str]:
    """The standard Spring properties of the mode, then APP_ARGS with the run's parts for its placeholders."""
    v, delay, thread = run.service, run.topo.delay, run.topo.thread
    parts = app.placeholder_values(delay.address, DELAY_PORT, v.delay_ms, delay.address, DB_PORT, scenario.DB_NAME)
    return [
        *app.mode_args(mode, threads, thread.address, THREAD_PORT),
        *app.substitute(list(v.app_args), parts),
    ]


def start_app(run: Run, mode_run: ModeRun, folder: str) -> None:
    h, v = run.topo.thread, run.service
    mode = mode_run.mode
    threads = runplan.service_pool(mode_run, v.platform_threads)
    console.step(
        f"starting {jar_name(v.app)} (APP) in {mode} mode on JDK {mode_run.jdk} on {h.name} ({h.address}:{THREAD_PORT}"
        + (f", server.tomcat.threads.max={threads})" if mode == "platform" else ")")
    )
    raw = h.work_path(folder, "raw", "thread")
    h.run(["mkdir", "-p", raw])
    log = run.log(h, run.log_name(folder, ROLE))
    args = launch_args(run, mode, threads)
    java = run.javas.get(mode_run.jdk)
    h.tool("app-service", ROLE, log, f"{raw}/service.jfr", *args, env={"LOADLAB_JAVA": java} if java else None)
    (run.run_dir / folder / "raw" / "thread").mkdir(parents=True, exist_ok=True)
    (run.run_dir / folder / "raw" / "thread" / "app.json").write_text(
        json.dumps({"app": v.app, "path": v.app_path, "args": args}, indent=2) + "\n"
    )
    try:
        h.tool("wait-answer", url(run, "/"), str(START_TIMEOUT_S), ROLE, timeout=START_TIMEOUT_S + 30)
    except HostError:
        raise AppRefused(f"APP={jar_name(v.app)} did not start in {mode} mode; {log_tail(h, log)}") from None
    check_path(run, mode)


def log_tail(h: Host, log: str) -> str:
    got = h.run(["tail", "-n", "40", log], check=False, timeout=30)
    lines = [line.strip()[:LOG_LINE_CHARS] for line in (got.stdout or "").splitlines() if line.strip()]
    if not lines:
        return f"its log ({log}) is empty"
    return f"the last lines of its log ({log}): " + " | ".join(lines[-LOG_LINES:])


def check_path(run: Run, mode: str) -> None:
    """Every kind of request sent once before any load (APP_PATH's one GET, or each line of APP_REQUESTS, each
    placeholder at its first value): a 4xx/5xx or no answer within the load's own request timeout refuses the run,
    naming the kind (a load of errors measures nothing of the app's threads)."""
    v = run.service
    timeout_s = max(1, run.limits.injector_request_timeout_ms // 1000)
    for kind in v.requests.kinds:
        status = smoke_status(run, kind, timeout_s)
        if status[:1] in ("2", "3"):
            continue
        what = (
            f"did not answer within {timeout_s} s (the load's request timeout)"
            if status == "000"
            else f"answered HTTP {status}" + (" each time of " + str(PATH_ATTEMPTS) if status[:1] == "5" else "")
        )
        if not v.app_requests:
            raise AppRefused(
                f"APP_PATH={v.app_path} {what} on {jar_name(v.app)} in {mode} mode, before any load: set APP_PATH to a "
                f"path the app answers with 2xx (or its APP_ARGS so that it can)"
            )
        raise AppRefused(
            f"APP_REQUESTS={v.app_requests} line {kind.line} (kind {kind.name}: {kind.method} {kind.smoke_path}) "
            f"{what} on {jar_name(v.app)} in {mode} mode, before any load: fix that line so the app answers it with "
            "2xx (or its APP_ARGS so that it can)"
        )


def smoke_status(run: Run, kind: mix.Kind, timeout_s: int) -> str:
    """A kind's status, asked again a second apart while it answers 5xx or nothing (a pool or cache still warming)."""
    status = "000"
    body = [kind.smoke_body, kind.content_type] if kind.body else []
    for _ in range(PATH_ATTEMPTS):
        target = url(run, kind.smoke_path)
        status, _took = http_status(run.topo.thread, target, timeout_s, kind.method, *body)
        if status[:1] in ("2", "3", "4"):
            break
        time.sleep(1)
    return status


def probe_path(requests: mix.Mix) -> str:
    """The GET the harness times and samples the app by between passes: APP_PATH, or the mix's first GET kind (its
    first kind when none is a GET) at its placeholders' first values; requests: the run's (mix.of_values)."""
    kinds = requests.kinds
    return next((k for k in kinds if k.method == "GET"), kinds[0]).smoke_path


def http_status(h: Host, target: str, timeout_s: float, *request: str) -> tuple[str, str]:
    """(status, seconds) of one request from the app's host (a GET, or request = method [body content_type]);
    status 000 when nothing answered in time."""
    try:
        out = h.tool("http-status", target, str(timeout_s), *request, check=False, timeout=timeout_s + 30).split()
    except HostError:
        return "000", ""
    return (out[0], out[1]) if len(out) >= 2 else ("000", "")


def sampler_args(run: Run, raw: str) -> list[str]:
    """What the thread host's sampler records of an app: Tomcat's platform request threads by name and, when the app
    exposes Actuator metrics on its port, Tomcat's and HikariCP's gauges."""
    args = [
        f"--request-pool-out={raw}/request_pool.csv",
        f"--request-thread-prefix={app.TOMCAT_NIO_PREFIX}",
    ]
    # An app with a servlet context path (spring-petclinic-rest's /petclinic/) has Actuator under it, not at /.
    found = next(
        (path for path in app.actuator_metrics_paths(probe_path(run.service.requests)) if _answers(run, path)),
        None,
    )
    if found:
        args += [
            f"--actuator-url={url(run, found)}",
            f"--actuator-out={raw}/actuator.csv",
            f"--actuator-metrics={','.join(app.ACTUATOR_METRICS)}",
        ]
    return args


def _answers(run: Run, path: str) -> bool:
    return http_status(run.topo.thread, url(run, path), 5)[0] == "200"


def answers_quickly(run: Run, timeout_s: float) -> tuple[bool, tuple[str, str]]:
    """Whether a GET of APP_PATH answers as fast as a healthy level allows (the drain's reading of an app, which has
    no count of requests in flight: a request queued behind a backlog would wait for all of it), and the answer."""
    quick_s = run.limits.healthy_max_ms / 1000  # derived with the run's own health rule (bench.py)
    answer = http_status(run.topo.thread, url(run, probe_path(run.service.requests)), timeout_s)
    return bool(answer[0][:1] in ("2", "3") and answer[1] and float(answer[1]) <= quick_s), answer


def still_slow(run: Run, answer: tuple[str, str] | None, waited_s: int) -> str:
    status, took = answer or ("000", "")
    return (
        f"APP_PATH still answered HTTP {status} in {took or '?'} s (healthy: within "
        f"{run.limits.healthy_max_ms / 1000:.2f} s) {waited_s} s after the last pass: its backlog would have poisoned "
        "a fine pass"
    )
