"""SERVICE_CPUS on a run's hosts: the split (core/servicecpus.py) handed to every host's loadlab-host, which puts
the service under test and every other role on their own cores; what params.json records of it."""

from __future__ import annotations

from loadlab.core import servicecpus
from loadlab.run import console
from loadlab.run.topology import Topology

AWS_IGNORED = "ignored on aws: each role already has a host (and cores) of its own"


def apply(share: float | None, target: str, topo: Topology) -> dict[str, object] | None:
    """share: SERVICE_CPUS on TARGET. The split for params.json (`cpu_split`), its words said on the console; None when
    the service shares the machine. local and netns hosts are this machine, so one split holds for every host."""
    if share is None:
        return None
    if target == "aws":
        console.warn(f"SERVICE_CPUS={share:g} is {AWS_IGNORED}")
        return {"service_cpus": share, "ignored": AWS_IGNORED}
    split = servicecpus.split(share, servicecpus.machine_cpus())
    for host in topo.hosts():
        host.env[servicecpus.ENV] = split.env_value()
    console.step(f"SERVICE_CPUS={share:g}: {split.describe()}")
    return split.as_dict()
