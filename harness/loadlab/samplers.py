"""The samplers (infra/host/loadlab-sample): once a second, each role's process CPU and its host's CPU; the
thread-service's JVM metrics (metrics.py) and the delay-service's own latency (its probe). The services' samplers run
through every pass of a mode; each Gatling run gets its own injector sampler."""

from __future__ import annotations

from . import metrics
from .hosts import Host
from .run import Run
from .topology import DELAY_PORT, MGMT_PORT


def start_service_samplers(run: Run, folder: str) -> None:
    t = run.topo.thread
    raw = lambda h, role: h.work_path(folder, "raw", role)
    t.tool(
        "sampler",
        "sampler-thread",
        f"{raw(t, 'thread')}/samples.csv",
        "thread-service",
        f"--jvm-fields={','.join(metrics.names(*metrics.SAMPLED_KINDS))}",
        f"http://127.0.0.1:{MGMT_PORT}/actuator/loadlab",
        f"{raw(t, 'thread')}/jvm.csv",
    )
    d = run.topo.delay
    d.run(["mkdir", "-p", raw(d, "delay")])
    # The delay-service's own latency, timed on its host: what the thread-service sees also holds its own waits.
    d.tool(
        "sampler",
        "sampler-delay",
        f"{raw(d, 'delay')}/samples.csv",
        "delay-service",
        f"--probe-url=http://{d.address}:{DELAY_PORT}/delay?ms={run.values['DELAY_MS']}",
        f"--probe-timeout-ms={run.limits.delay_probe_timeout_ms}",
    )


def start_injector_sampler(host: Host, index: int, out: str, gatling_name: str) -> None:
    """One sampler per Gatling run: an earlier pass's sampler watched a Gatling that has ended."""
    host.tool("stop", f"sampler-injector-{index}", "5", check=False)
    host.tool("sampler", f"sampler-injector-{index}", f"{out}/samples.csv", gatling_name)


def stop_samplers(run: Run) -> None:
    """Each sampler on the host that started it (one SSH call each on aws, not every name on every host)."""
    samplers = [(run.topo.thread, "sampler-thread"), (run.topo.delay, "sampler-delay")]
    samplers += [(h, f"sampler-injector-{i}") for i, h in enumerate(run.topo.injectors)]
    for h, name in samplers:
        h.tool("stop", name, "5", check=False)
