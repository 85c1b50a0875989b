"""`make bench`: one run folder, every mode in MODES, on whatever hosts the target provides.

Per mode: start the thread-service in that mode → wait until healthy → start the samplers → run Gatling on every
injector at once (the coarse stairs) → with REFINE=1, when the mode collapsed: let the service drain, then fine
passes between the last healthy and the first unhealthy rate (refine.py) → stop → collect → analyse. REPEAT=n runs
the whole comparison n times into `rep-<k>/`. Ctrl-C or a failure stops every process the run started (by pid, on
every host) and keeps what was written; the page is rebuilt from whatever is there.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from . import console, limits, metrics, params, refine, scenario, topology
from .errors import ExitCode, LoadlabError
from .hosts import REPO, Host, HostError
from .java import find_jdk
from .params import ModeRun
from .topology import DB_PORT, DELAY_PORT, MGMT_PORT, STATE, THREAD_PORT, Topology
from .watch import Crash, Watched, Watcher

GATLING_GRACE_S = 120  # Gatling start-up and report generation (the last requests get their own timeout on top)
START_ALIGN_S = 6  # injectors start their schedule at the same wall-clock instant, this far ahead…
START_ALIGN_PER_INJECTOR_S = 4  # …plus this per further injector: Gatling JVMs sharing cores boot slower together
WATCH_INTERVAL_S = 1.0  # how often every role's process is checked while a mode runs (one call per host)
# Before a refinement pass the thread-service must have served the backlog of the collapse: no request in flight and
# none queued in Tomcat, in DRAIN_QUIET_READS readings in a row. Draining rather than restarting keeps the same JVM,
# warm (a restart would need the whole warm-up again, and a JIT in another state could move the knee the fine pass
# is meant to localise). A service that has not drained within DRAIN_TIMEOUT_S is not refined (the reason is kept).
DRAIN_TIMEOUT_S = 60
DRAIN_POLL_S = 0.5
DRAIN_QUIET_READS = 2
# After the drain, seconds for what the backlog's end left running (GC, compilation) to finish.
DRAIN_SETTLE_S = 2


@dataclass(frozen=True)
class LoadPass:
    """One Gatling run of a mode: the coarse stairs (the parameters), or a fine pass between two rates."""

    name: str = ""  # "" for the coarse stairs, `refine-<k>` for a fine pass
    rates: tuple[float, ...] = ()  # a fine pass's levels (evenly spaced, ascending)
    baseline_p50_ms: float | None = None  # the coarse pass's baseline, which the fine levels are judged against
    warmup_rps: float | None = None  # a fine pass's warm-up rate (refine.warmup_rate)

    def raw(self, folder: str, index: int) -> tuple[str, ...]:
        return (folder, self.name, "raw", f"injector-{index}") if self.name else (folder, "raw", f"injector-{index}")

    def report(self, folder: str, index: int) -> tuple[str, ...]:
        return (folder, "gatling", f"{self.name}-injector-{index}" if self.name else f"injector-{index}")

    def gatling_log(self, index: int) -> str:
        return f"{self.name}-gatling-injector-{index}" if self.name else f"gatling-injector-{index}"


class RunStopped(HostError):
    """A role every mode depends on (the delay-service, an injector) died: the run cannot go on."""


def start_align_s(injectors: int) -> int:
    return START_ALIGN_S + START_ALIGN_PER_INJECTOR_S * (injectors - 1)


def make_run_dir(results: Path) -> Path:
    """results/<UTC start>; never reuses an existing folder. `latest` moves only once the run starts (point_latest).

    The preflight already checked that RESULTS_DIR can be created; an OSError here is a race with something else."""
    try:
        results.mkdir(parents=True, exist_ok=True)
        while True:
            run_id = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
            run_dir = results / run_id
            try:
                run_dir.mkdir()
            except FileExistsError:
                time.sleep(1)
                continue
            return run_dir
    except OSError as e:
        raise LoadlabError(
            f"RESULTS_DIR={results}: cannot create the run folder ({e.strerror})", ExitCode.USAGE
        ) from None


def point_latest(run_dir: Path) -> None:
    """results/latest → run_dir, replaced in one step (a reader never sees it missing)."""
    latest = run_dir.parent / "latest"
    tmp = run_dir.parent / f".latest-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(run_dir.name)
    tmp.replace(latest)


def app_sources() -> dict[str, Path | None]:
    """The build outputs every host gets, by the name they have there (None: no jar matched)."""
    return {
        "delay-service.jar": next((REPO / "delay-service" / "target").glob("delay-service-*.jar"), None),
        "thread-service.jar": next((REPO / "thread-service" / "target").glob("thread-service-*.jar"), None),
        "gatling/test-classes": REPO / "gatling" / "target" / "test-classes",
        "gatling/lib": REPO / "gatling" / "target" / "lib",
        "gatling/jvm.options": REPO / "gatling" / "jvm.options",
    }


def missing_build_outputs() -> list[str]:
    return [name for name, source in app_sources().items() if source is None or not source.exists()]


def local_app_dir(java_home: Path) -> Path:
    """.loadlab/app: the layout every host gets (jars under fixed names, the Gatling classpath).

    Copies, not links: a `make build` during a run must not swap a jar under a running JVM."""
    app = STATE / "app"
    missing = missing_build_outputs()
    if missing:
        raise HostError(f"build output missing ({', '.join(missing)}): run `make build`", ExitCode.USAGE)
    for name, source in app_sources().items():
        target = app / name
        if target.is_symlink():
            target.unlink()
        if source.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return app


class Run:
    def __init__(
        self,
        values: dict,
        topo: Topology,
        run_dir: Path,
        javas: dict[int, str] | None = None,
        run_limits: limits.Limits | None = None,
    ):
        self.values, self.topo, self.run_dir = values, topo, run_dir
        # The java binary of each JDK in JDKS on the thread-service's host (scenario.thread_javas).
        self.javas = javas or {}
        self.meta: dict = {}
        self.limits = run_limits

    # ---- bookkeeping ----
    def write_meta(self) -> None:
        (self.run_dir / "params.json").write_text(json.dumps(self.meta, indent=2) + "\n")

    def log(self, host: Host, name: str) -> str:
        return host.work_path("logs", f"{name}.log")

    @staticmethod
    def log_name(folder: str, what: str) -> str:
        """`platform-thread-service`; with REPEAT, `rep-2-platform-thread-service` (logs/ stays one flat folder)."""
        return f"{folder.replace('/', '-')}-{what}"

    # ---- services ----
    def start_delay_service(self) -> None:
        h = self.topo.delay
        console.step(f"starting delay-service on {h.name} ({h.address}:{DELAY_PORT})")
        h.tool("delay-service", "delay-service", self.log(h, "delay-service"), h.address, str(DELAY_PORT))
        h.tool("wait-http", f"http://{h.address}:{DELAY_PORT}/actuator/health", "90", "delay-service", timeout=120)

    def start_database(self) -> None:
        """The run's own PostgreSQL (SCENARIO=db) on the delay host, its address and DB_PORT; stop-all stops it."""
        h, v = self.topo.delay, self.values
        console.step(
            f"starting PostgreSQL on {h.name} ({h.address}:{DB_PORT}, max_connections "
            f"{params.db_max_connections(v['DB_POOL'])} for DB_POOL={v['DB_POOL']})"
        )
        h.tool(
            "postgres",
            "postgres",
            self.log(h, "postgres"),
            h.address,
            str(DB_PORT),
            str(params.db_max_connections(v["DB_POOL"])),
            timeout=180,
        )
        h.tool("wait-postgres", h.address, str(DB_PORT), "60", "postgres", timeout=90)

    def start_thread_service(self, run: ModeRun, folder: str) -> None:
        h, v = self.topo.thread, self.values
        mode, label = run.mode, folder
        console.step(
            f"starting thread-service in {mode} mode on JDK {run.jdk} on {h.name} "
            f"({h.address}:{THREAD_PORT}"
            + (f", {v['PLATFORM_THREADS']} Tomcat threads)" if mode == "platform" else ")")
        )
        jfr = h.work_path(label, "raw", "thread", "pinned.jfr")
        h.run(["mkdir", "-p", h.work_path(label, "raw", "thread")])
        # The scenario's settings, then the limits of the request chain (limits.py).
        spring = [
            *scenario.thread_service_args(v, self.topo.delay.address, self.limits),
            *limits.thread_service_args(self.limits),
        ]
        java = self.javas.get(run.jdk)
        h.tool(
            "thread-service",
            "thread-service",
            self.log(h, self.log_name(label, "thread-service")),
            h.address,
            str(THREAD_PORT),
            str(MGMT_PORT),
            mode,
            str(v["PLATFORM_THREADS"]),
            f"http://{self.topo.delay.address}:{DELAY_PORT}",
            jfr,
            *spring,
            env={"LOADLAB_JAVA": java} if java else None,
        )
        h.tool("wait-http", f"http://127.0.0.1:{MGMT_PORT}/actuator/health", "90", "thread-service", timeout=120)
        # One real request end to end before any load: a broken wiring (or a database that does not answer)
        # fails here, not as a "collapse".
        h.tool(
            "wait-http",
            f"http://{h.address}:{THREAD_PORT}{scenario.smoke_path(v['SCENARIO'])}",
            "30",
            "thread-service",
            timeout=60,
        )
        self.record_live_config(label)

    def thread_metrics(self) -> dict:
        """One reading of the thread-service's /actuator/loadlab, on its host; {} when it did not answer."""
        got = self.topo.thread.run(
            ["curl", "-sf", "--max-time", "5", f"http://127.0.0.1:{MGMT_PORT}/actuator/loadlab"],
            check=False,
            timeout=30,
        )
        try:
            sample = json.loads(got.stdout) if got.returncode == 0 else {}
        except ValueError:
            sample = {}
        return sample if isinstance(sample, dict) else {}

    def record_live_config(self, mode: str) -> None:
        """What the service says it runs with (thread mode, Tomcat's max threads, JDK), kept for the verdict, which
        refuses a mode whose live settings differ from what was asked."""
        sample = self.thread_metrics()
        # Its info and config fields (metrics.tsv), read once the service is up; verdict.py compares them.
        live = {k: sample.get(k) for k in metrics.names(*metrics.LIVE_CONFIG_KINDS) if k in sample}
        path = self.run_dir / mode / "raw" / "thread" / "config.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(live, indent=2) + "\n")

    def start_samplers(self, mode: str) -> None:
        t = self.topo.thread
        raw = lambda h, role: h.work_path(mode, "raw", role)
        t.tool(
            "sampler",
            "sampler-thread",
            f"{raw(t, 'thread')}/samples.csv",
            "thread-service",
            f"--jvm-fields={','.join(metrics.names(*metrics.SAMPLED_KINDS))}",
            f"http://127.0.0.1:{MGMT_PORT}/actuator/loadlab",
            f"{raw(t, 'thread')}/jvm.csv",
        )
        d = self.topo.delay
        d.run(["mkdir", "-p", raw(d, "delay")])
        # The delay-service's own latency, timed on its host: what the thread-service sees also holds its own waits.
        d.tool(
            "sampler",
            "sampler-delay",
            f"{raw(d, 'delay')}/samples.csv",
            "delay-service",
            f"--probe-url=http://{d.address}:{DELAY_PORT}/delay?ms={self.values['DELAY_MS']}",
            f"--probe-timeout-ms={self.limits.delay_probe_timeout_ms}",
        )

    def stop_samplers(self) -> None:
        """Each sampler on the host that started it (one SSH call each on aws, not every name on every host)."""
        samplers = [(self.topo.thread, "sampler-thread"), (self.topo.delay, "sampler-delay")]
        samplers += [(h, f"sampler-injector-{i}") for i, h in enumerate(self.topo.injectors)]
        for h, name in samplers:
            h.tool("stop", name, "5", check=False)

    # ---- load ----
    def gatling_props(self, mode: str, index: int, start_at_ms: int, load: LoadPass) -> list[str]:
        v, inj = self.values, self.topo.injectors[index]
        props = {
            "baseUrl": f"http://{self.topo.thread.address}:{THREAD_PORT}",
            "scenario": v["SCENARIO"],
            "cpuMs": v["CPU_MS"],
            "delayMs": v["DELAY_MS"],
            "profile": v["PROFILE"],
            "startRps": v["START_RPS"],
            "peakRps": v["PEAK_RPS"],
            "steps": v["STEPS"],
            "stepSeconds": v["STEP_SECONDS"],
            "warmupSeconds": v["WARMUP_SECONDS"],
            "warmupRps": v["START_RPS"],
            "injectors": len(self.topo.injectors),
            "injectorIndex": index,
            "outDir": inj.work_path(*load.raw(mode, index)),
            "startAtEpochMs": start_at_ms,
            **limits.injector_props(self.limits),
            # The early stop judges a level by the seconds its requests complete in. Requests longer than a second
            # complete in the next level's window, mixed with its own, so a healthy level would look short of OK
            # responses and be stopped; the analysis shifts its windows by that lag, the simulation does not.
            "stopOnCollapse": str(limits.completion_lag_s(self.limits.expected_ms) == 0).lower(),
        }
        if load.name:
            # A fine pass: ascending stairs over its rates after a warm-up with headroom, judged (and stopped
            # early) against the coarse pass's baseline.
            props.update(
                {
                    "profile": "stairs",
                    "startRps": load.rates[0],
                    "peakRps": load.rates[-1],
                    "steps": len(load.rates),
                    "warmupSeconds": refine.warmup_seconds(v["WARMUP_SECONDS"]),
                    "warmupRps": load.warmup_rps or load.rates[0],
                    "baselineP50Ms": load.baseline_p50_ms or 0,
                }
            )
        thresholds = self.meta["thresholds"]
        props.update(
            {
                "okRatio": thresholds["ok_ratio"],
                "maxErrorRatio": thresholds["max_error_ratio"],
                "p99Factor": thresholds["p99_factor"],
                "p99SlackMs": thresholds["p99_slack_ms"],
            }
        )
        return [f"-Dloadlab.{k}={val}" for k, val in props.items()]

    def run_load(self, mode: str, load: LoadPass = LoadPass()) -> tuple[list[str], Crash | None]:
        """Runs the simulation on every injector at once while watching every role's process.

        Returns the problems seen (empty when all went well) and the crash that stopped the load, if any."""
        v = self.values
        align = start_align_s(len(self.topo.injectors))
        start_at = int((time.time() + align) * 1000)
        names = []
        what = f"{mode} {load.name}".strip()
        for i, h in enumerate(self.topo.injectors):
            name = f"gatling-injector-{i}"
            out = h.work_path(*load.raw(mode, i))
            h.run(["mkdir", "-p", out])
            h.tool(
                "gatling",
                name,
                self.log(h, self.log_name(mode, load.gatling_log(i))),
                h.work_path(*load.report(mode, i)),
                f"{what} threads, injector {i + 1}/{len(self.topo.injectors)}",
                *self.gatling_props(mode, i, start_at, load),
            )
            # One sampler per Gatling run: an earlier pass's sampler watched a Gatling that has ended.
            h.tool("stop", f"sampler-injector-{i}", "5", check=False)
            h.tool("sampler", f"sampler-injector-{i}", f"{out}/samples.csv", name)
            names.append((h, name))
        followers = [
            threading.Thread(
                target=console.follow_progress,
                args=(h.follow(self.log(h, self.log_name(mode, load.gatling_log(i)))), what),
                daemon=True,
            )
            for i, h in enumerate(self.topo.injectors)
        ]
        for f in followers:
            f.start()
        if load.name:
            scheduled = refine.warmup_seconds(v["WARMUP_SECONDS"]) + len(load.rates) * v["STEP_SECONDS"]
        else:
            scheduled = v["WARMUP_SECONDS"] + v["STEPS"] * v["STEP_SECONDS"]
        # The last requests may take the whole request timeout to end after the schedule.
        budget = scheduled + align + GATLING_GRACE_S + self.limits.injector_request_timeout_ms // 1000
        deadline = time.time() + budget
        watcher = Watcher(self.watched(mode, load))
        problems, crash = [], None
        while not watcher.all_finished():
            crash = watcher.poll()
            if crash is not None:
                break
            if time.time() > deadline:
                problems += [
                    f"{name} on {h.name} did not finish within {budget}s and was stopped"
                    for h, name in names
                    if name not in watcher.finished
                ]
                break
            time.sleep(max(0.0, WATCH_INTERVAL_S - time.time() % WATCH_INTERVAL_S))
        if crash is not None or problems:
            self.stop_load(names)
        console.end_progress()
        if crash is not None:
            # The schedule starts on the whole second after start_at (RunMonitor); the summary recomputes this
            # second from the injectors' own meta.json when they wrote one.
            warmup_s = refine.warmup_seconds(v["WARMUP_SECONDS"]) if load.name else v["WARMUP_SECONDS"]
            measure_start_ms = -(-start_at // 1000) * 1000 + warmup_s * 1000
            second = (crash.alive_until_ms - measure_start_ms) // 1000
            console.warn(
                f"{what}: the {crash.role} on {crash.host} died "
                f"{describe_second(second)} ({describe_exit(crash)}): {crash.cause}; its load was stopped"
            )
        return problems, crash

    def watched(self, mode: str, load: LoadPass = LoadPass()) -> list[Watched]:
        t, d = self.topo.thread, self.topo.delay
        roles = [
            Watched(
                "thread-service",
                "thread-service",
                t,
                self.log(t, self.log_name(mode, "thread-service")),
                health_url=f"http://127.0.0.1:{MGMT_PORT}/actuator/health",
            ),
            Watched("delay-service", "delay-service", d, self.log(d, "delay-service")),
        ]
        if self.values.get("SCENARIO") == "db":
            # The db scenario's PostgreSQL is shared by every mode, like the delay-service.
            roles.append(Watched("postgres", "postgres", d, self.log(d, "postgres")))
        roles += [
            Watched(
                f"injector-{i}",
                f"gatling-injector-{i}",
                h,
                self.log(h, self.log_name(mode, load.gatling_log(i))),
                finishes=True,
            )
            for i, h in enumerate(self.topo.injectors)
        ]
        return roles

    # ---- refinement (REFINE=1) ----
    def refine_knee(self, folder: str) -> tuple[list[str], Crash | None]:
        """Fine passes until the knee is localised (refine.py), each planned from what the raw files say so far
        (the same code `make report` judges them with); returns the problems seen and a crash, if any."""
        from .summary import plan  # needs the venv's packages, like the summary at the end

        for k in range(1, refine.MAX_PASSES + 1):
            self.collect()  # on aws the injectors' files are on their hosts until collected
            step = plan.next_fine_pass(self.run_dir, folder, self.meta)
            if not step.rates:
                if step.reason:
                    self.meta.setdefault("refine_skipped", {})[folder] = step.reason
                    console.step(f"not refined: {step.reason}")
                return [], None
            why = self.drain()
            if why:
                self.meta.setdefault("refine_skipped", {})[folder] = why
                console.warn(f"not refined: {why}")
                return [], None
            console.step(
                f"refining the knee between {step.bracket.healthy:,.1f} and {step.bracket.unhealthy:,.1f} rps: "
                f"{len(step.rates)} fine level{'s' if len(step.rates) > 1 else ''} of {self.values['STEP_SECONDS']} s "
                f"from {step.rates[0]:,.1f} rps, after {refine.warmup_seconds(self.values['WARMUP_SECONDS'])} s at "
                f"{step.warmup_rps:,.1f} rps "
                f"(pass {k})"
            )
            load = LoadPass(f"refine-{k}", tuple(step.rates), step.baseline_p50_ms, step.warmup_rps)
            problems, crash = self.run_load(folder, load)
            if problems or crash is not None:
                return problems, crash
        return [], None

    def drain(self) -> str | None:
        """Waits until the thread-service has served every request of the collapse (see DRAIN_TIMEOUT_S); None when
        it has, else why not."""
        deadline = time.monotonic() + DRAIN_TIMEOUT_S
        quiet, last = 0, {}
        while time.monotonic() < deadline:
            last = self.thread_metrics()
            inflight, queued = last.get("inflight_requests"), last.get("tomcat_queue_size")
            idle = inflight == 0 and (not isinstance(queued, (int, float)) or queued <= 0)
            quiet = quiet + 1 if idle else 0
            if quiet >= DRAIN_QUIET_READS:
                time.sleep(DRAIN_SETTLE_S)
                return None
            time.sleep(DRAIN_POLL_S)
        if not last:
            return f"the thread-service's /actuator/loadlab did not answer for {DRAIN_TIMEOUT_S} s after the last pass"
        return (
            f"the thread-service still had {last.get('inflight_requests')} requests in flight and "
            f"{last.get('tomcat_queue_size')} queued {DRAIN_TIMEOUT_S} s after the last pass: its backlog would have "
            f"poisoned a fine pass"
        )

    def stop_load(self, names: list[tuple[Host, str]]) -> None:
        """Stops every injector of the mode (its raw files so far are kept: they are flushed every second)."""
        for h, name in names:
            h.tool("stop", name, "10", check=False, timeout=60)

    def record_pinned(self, mode: str) -> None:
        h = self.topo.thread
        raw = h.work_path(mode, "raw", "thread")
        h.tool("pinned", f"{raw}/pinned.jfr", f"{raw}/pinned.json", check=False, timeout=120)

    def run_mode(self, run: ModeRun, folder: str | None = None, repetition: str = "") -> None:
        """folder: where the mode's files go: its label (`virtual-jdk21` with several JDKs), under `rep-<k>/` with
        REPEAT > 1; the summary, the logs and modes_completed use it too."""
        mode = folder or run.label
        console.heading(run.label + (f" ({repetition})" if repetition else ""))
        self.start_thread_service(run, mode)
        self.start_samplers(mode)
        problems, crash = self.run_load(mode)
        if self.values.get("REFINE", 1) and not problems and crash is None:
            problems, crash = self.refine_knee(mode)
        self.stop_samplers()
        self.topo.thread.tool("stop", "thread-service", "30")
        self.record_pinned(mode)
        self.meta.setdefault("mode_problems", {})[mode] = problems
        for p in problems:
            console.warn(p)
        if crash is not None:
            self.meta.setdefault("crashes", {})[mode] = crash.as_dict()
        self.meta["modes_completed"].append(mode)
        self.write_meta()
        if crash is not None and crash.role != "thread-service":
            # A dead thread-service is that mode's alone: the next mode starts its own. Every mode shares the
            # delay-service and the injectors, so the run cannot go on without them.
            raise RunStopped(
                f"the {crash.role} died during {mode} ({describe_exit(crash)}): the run stops here; "
                "what was measured so far is kept"
            )

    def stop_everything(self) -> None:
        for h in self.topo.hosts():
            try:
                h.tool("stop-all", "30", check=False, timeout=180)
            except HostError as e:
                console.warn(f"could not stop processes on {h.name}: {e}")

    def check_alignment(self) -> None:
        """Injectors whose schedules began at different seconds make every merged second a mix of two levels."""
        for mode in self.meta["modes_completed"]:
            for raw in [self.run_dir / mode / "raw", *sorted((self.run_dir / mode).glob("refine-*/raw"))]:
                self.check_pass_alignment(mode, raw)

    def check_pass_alignment(self, mode: str, raw: Path) -> None:
        starts = {}
        for path in sorted(raw.glob("injector-*/meta.json")):
            try:
                starts[path.parent.name] = json.loads(path.read_text()).get("start_epoch_ms")
            except (OSError, ValueError):
                continue
        known = [v for v in starts.values() if isinstance(v, (int, float))]
        if len(starts) < 2 or len(set(known)) <= 1:
            return
        first = min(known)
        late = ", ".join(
            f"{name} {(v - first) / 1000:+.0f} s"
            for name, v in starts.items()
            if isinstance(v, (int, float)) and v != first
        )
        where = "" if raw.parent == self.run_dir / mode else f" in {raw.parent.name}"
        self.meta.setdefault("mode_problems", {}).setdefault(mode, []).append(
            f"injectors did not start together{where} ({late} after the first): a Gatling JVM was not ready within "
            f"the {start_align_s(len(starts))} s alignment margin, so merged seconds mix levels"
        )

    def collect(self) -> None:
        for h in self.topo.hosts():
            if not h.shares_filesystem():
                try:
                    h.collect(self.run_dir)
                except HostError as e:
                    console.warn(str(e))


def describe_second(second: int) -> str:
    return f"{second} s into the measured phase" if second >= 0 else f"{-second} s before the measured phase"


def describe_exit(crash: Crash) -> str:
    if crash.exit is None:
        return "no exit code"
    return f"exit {crash.exit}" + (f", {crash.signal}" if crash.signal else "")


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def bench(values: dict) -> int:
    java_home = find_jdk()
    # What the scenario needs on this machine (a JDK per entry of JDKS, PostgreSQL for db), found or installed
    # before a run folder exists: a missing piece stops here with one line.
    javas = scenario.prepare(values)
    run_dir = make_run_dir(Path(values["RESULTS_DIR"]).resolve())  # after the preflight (cli.py) found no problem
    topo = topology.build(values["TARGET"], values["INJECTORS"], run_dir, java_home)
    thresholds = {"ok_ratio": 0.95, "max_error_ratio": 0.01, "p99_factor": 2.0, "p99_slack_ms": 100}
    run = Run(values, topo, run_dir, javas, limits.derive(values, thresholds))
    fault = os.environ.get("LOADLAB_FAULT_CPU_QUOTA")  # test-only starvation, see infra/host/loadlab-host
    for h in topo.hosts() if fault else ():
        h.env["LOADLAB_FAULT_CPU_QUOTA"] = fault
    run.meta = {
        "run_id": run_dir.name,
        "target": values["TARGET"],
        "started_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "params": {k: v for k, v in values.items() if k != "RESULTS_DIR"},
        "thresholds": thresholds,
        "hosts": topo.describe(),
        "machine": topology.machine_description(),
        "java": str(java_home),
        "thread_service_javas": {str(k): v for k, v in javas.items()},
        "modes_completed": [],
        # Every limit of the request chain, derived from the workload (limits.py): what the analysis checks.
        "limits": run.limits.as_dict(),
        **({"test_fault": fault} if fault else {}),
    }
    run.write_meta()
    console.step(f"run folder {run_dir}")
    signal.signal(signal.SIGTERM, _raise_interrupt)
    outcome = ExitCode.FAILED
    started = False
    try:
        app = local_app_dir(java_home)
        for h in topo.hosts():
            h.push_app(app)
            h.tool("stop-all", "30", check=False)  # leftovers of an earlier run killed hard
        # Second line of defence: the preflight found these ports free, but something may have taken one since. The
        # run folder exists by now (it holds params.json saying why); that is accepted, but `latest` stays on the
        # previous run and no page is written for a run that never started.
        for h, ports in topo.service_ports(values["SCENARIO"] == "db"):
            problem = h.ports_in_use(ports)
            if problem:
                raise HostError(problem, ExitCode.USAGE)
        point_latest(run_dir)
        started = True
        if values["SCENARIO"] == "db":
            run.start_database()
        run.start_delay_service()
        repeat = values.get("REPEAT", 1)
        for k in range(1, repeat + 1):
            for mode_run in params.mode_runs(values["MODES"], values["JDKS"]):
                if repeat == 1:
                    run.run_mode(mode_run)  # the contract's layout: <mode>/…
                else:
                    run.run_mode(mode_run, f"rep-{k}/{mode_run.label}", f"repetition {k} of {repeat}")
        outcome = ExitCode.OK
    except KeyboardInterrupt:
        console.warn("interrupted: stopping every process of this run; results written so far are kept")
        run.meta["interrupted"] = True
        outcome = ExitCode.INTERRUPTED
    except HostError as e:
        console.error(str(e))
        run.meta["failed"] = str(e)
        if not started:
            outcome = e.exit_code
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave processes behind
        run.stop_everything()
        run.collect()
        run.check_alignment()
        run.meta["finished_utc"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        run.write_meta()
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if not started:
        console.warn(f"the run did not start: {run_dir} holds only params.json; results/latest is unchanged")
        return outcome
    from . import summary  # needs the venv's packages; imported late so validation and start-up stay light

    result = summary.rebuild(run_dir)
    console.table(result, run_dir)
    # With REPEAT > 1 every repetition must be valid, not only the median ones shown.
    every = all(m.get("valid") for m in result.get("modes", {}).values())
    every = every and all(r.get("valid") for r in result.get("repetitions") or [])
    if outcome == ExitCode.OK and not every:
        outcome = ExitCode.FAILED
    return outcome
