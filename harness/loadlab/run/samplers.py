"""The samplers (infra/host/loadlab-sample): once a second, each role's process CPU and its host's CPU; the
thread-service's JVM metrics (metrics.py) and the delay-service's own latency (its probe). The services' samplers run
through every pass of a mode; each Gatling run gets its own injector sampler.

They are the evidence the verdict's trust rests on, so they are watched with the other processes of a pass
(watch.py): one that dies or stops writing is an EvidenceLoss, recorded in params.json (`evidence_lost`), and its
seconds are judged as having no server evidence (summary/judge/evidence.py). The load is not stopped for it (watch.py
says why)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from loadlab.core import metrics
from loadlab.core.modelabel import ModeLabel
from loadlab.core.reactive import EVENT_LOOP_PREFIXES, REACTIVE
from loadlab.core.sampling import SILENCE_S
from loadlab.run import appservice
from loadlab.run.context import Run
from loadlab.run.hosts import Host
from loadlab.run.topology import DELAY_PORT, MGMT_PORT
from loadlab.run.watch import Watched

SERVICE_SAMPLERS = (("sampler-thread", "thread-service", "thread"), ("sampler-delay", "delay-service", "delay"))


def service_outputs(run: Run, folder: str) -> list[tuple[str, str, Host, str]]:
    """(sampler name, role it samples, its host, its raw folder there) of the services' samplers."""
    hosts = {"thread-service": run.topo.thread, "delay-service": run.topo.delay}
    return [
        (name, role, hosts[role], hosts[role].work_path(folder, "raw", sub)) for name, role, sub in SERVICE_SAMPLERS
    ]


def injector_output(host: Host, raw: tuple[str, ...]) -> str:
    return host.work_path(*raw, "samples.csv")


def watched(run: Run, folder: str, injector_raws: list[tuple[str, ...]], lost: set[str]) -> list[Watched]:
    """Every sampler of a pass, as watch.py watches it; `lost`: the services' samplers this mode already lost (a dead
    one stays dead through the mode's later passes, and is not reported again)."""
    outputs = [(name, role, h, f"{raw}/samples.csv") for name, role, h, raw in service_outputs(run, folder)]
    outputs = [entry for entry in outputs if entry[0] not in lost]
    outputs += [
        (f"sampler-injector-{i}", f"injector-{i}", h, injector_output(h, raw))
        for (i, h), raw in zip(enumerate(run.topo.injectors), injector_raws)
    ]
    return [
        Watched(role, name, h, log_of(out), evidence=True, output=out, stale_after_s=SILENCE_S)
        for name, role, h, out in outputs
    ]


def log_of(samples_csv: str) -> str:
    """Where loadlab-host's `sampler` puts a sampler's console log: beside its samples.csv."""
    return samples_csv.removesuffix(".csv") + ".sampler.log"


def start_service_samplers(run: Run, folder: str) -> None:
    (_, _, t, thread_raw), (_, _, d, delay_raw) = service_outputs(run, folder)
    if run.service.app:
        # An application under test has no /actuator/loadlab: what every host and Boot app gives instead.
        t.tool(
            "sampler",
            "sampler-thread",
            f"{thread_raw}/samples.csv",
            "thread-service",
            *appservice.sampler_args(run, thread_raw),
        )
    else:
        t.tool(
            "sampler",
            "sampler-thread",
            f"{thread_raw}/samples.csv",
            "thread-service",
            f"--jvm-fields={','.join(metrics.names(*metrics.SAMPLED_KINDS))}",
            *event_loop_args(folder, thread_raw),
            f"http://127.0.0.1:{MGMT_PORT}/actuator/loadlab",
            f"{thread_raw}/jvm.csv",
        )
    d.run(["mkdir", "-p", delay_raw])
    # The delay-service's own latency, timed on its host: what the thread-service sees also holds its own waits.
    d.tool(
        "sampler",
        "sampler-delay",
        f"{delay_raw}/samples.csv",
        "delay-service",
        f"--probe-url=http://{d.address}:{DELAY_PORT}/delay?ms={run.service.delay_ms}",
        f"--probe-timeout-ms={run.limits.delay_probe_timeout_ms}",
    )


def event_loop_args(folder: str, thread_raw: str) -> list[str]:
    """MODES=reactive: the service's Netty event loops counted by name each second (request_pool.csv), the evidence
    its live-config check reads (summary/judge/reactivecheck.py)."""
    if ModeLabel.parse(Path(folder).name).mode != REACTIVE:
        return []
    return [
        f"--request-pool-out={thread_raw}/request_pool.csv",
        f"--request-thread-prefix={','.join(EVENT_LOOP_PREFIXES)}",
    ]


def start_injector_sampler(host: Host, index: int, raw: tuple[str, ...], gatling_name: str) -> None:
    """One sampler per Gatling run: an earlier pass's sampler watched a Gatling that has ended."""
    host.tool("stop", f"sampler-injector-{index}", "5", check=False)
    host.tool("sampler", f"sampler-injector-{index}", injector_output(host, raw), gatling_name)


def stop_samplers(run: Run) -> None:
    """Each sampler on the host that started it (one SSH call each on aws, not every name on every host), all at
    once: each stop waits for its sampler's last row, and the next mode waits for them all."""
    samplers = [(h, name) for name, _, h, _ in service_outputs(run, "")]
    samplers += [(h, f"sampler-injector-{i}") for i, h in enumerate(run.topo.injectors)]
    with ThreadPoolExecutor(max_workers=max(1, len(samplers))) as pool:
        list(pool.map(lambda sampler: sampler[0].tool("stop", sampler[1], "5", check=False), samplers))
