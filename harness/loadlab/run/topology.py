"""Which host plays which role for a TARGET: the delay host, the thread host and the injectors.

On `local` one LocalHost plays every role; on `netns` and `aws` each role is its own host. Everything after this
module is the same for every target.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loadlab.core.repo import REPO
from loadlab.run.hosts import Host, HostError, LocalHost, NetnsHost, SshHost

# Any: JSON another tool wrote (infra/netns/up.sh's inventory, `terraform output -json`), read by key: its shape
# is theirs.
Written = dict[str, Any]

STATE = REPO / ".loadlab"
THREAD_PORT, DELAY_PORT, MGMT_PORT = 8080, 8081, 8090
# The run's own PostgreSQL (SCENARIO=db), on the delay host: not 5432, so a system cluster never collides with it.
DB_PORT = 5499
NETNS_INVENTORY = STATE / "netns.json"
AWS_DIR = REPO / "infra"


@dataclass
class Topology:
    delay: Host
    thread: Host
    injectors: list[Host]

    def hosts(self) -> list[Host]:
        """Every distinct host once (on local the same host plays every role)."""
        seen: dict[int, Host] = {}
        for h in (self.delay, self.thread, *self.injectors):
            seen.setdefault(id(h), h)
        return list(seen.values())

    def service_ports(self, db: bool = False) -> list[tuple[Host, list[int]]]:
        """Each distinct host with the ports the run's services will listen on there (db: the run's PostgreSQL)."""
        wanted = [(self.delay, DELAY_PORT), (self.thread, THREAD_PORT), (self.thread, MGMT_PORT)]
        if db:
            wanted.append((self.delay, DB_PORT))
        return [
            (h, [port for owner, port in wanted if owner is h])
            for h in self.hosts()
            if any(owner is h for owner, _ in wanted)
        ]

    def describe(self) -> dict[str, dict[str, str]]:
        roles = {"delay": self.delay, "thread": self.thread}
        roles.update({f"injector-{i}": h for i, h in enumerate(self.injectors)})
        return {role: {"host": h.name, "address": h.address, "description": h.description} for role, h in roles.items()}


def machine_description() -> str:
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_kb = int(next(line for line in open("/proc/meminfo") if line.startswith("MemTotal")).split()[1])
        mem = f"{mem_kb / 1024 / 1024:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        mem = "?"
    cpu = cpu or platform.processor() or "unknown CPU"
    return f"{cpu}, {os.cpu_count()} cores, {mem}, {platform.system()} {platform.release()}"


def build(target: str, injectors: int, run_dir: Path, java: Path) -> Topology:
    if target == "local":
        host = LocalHost(
            "local",
            "127.0.0.1",
            description=f"this machine: {machine_description()}",
            app_dir=str(STATE / "app"),
            state_dir=str(STATE / "state" / "local"),
            work_root=str(run_dir),
            java=str(java / "bin" / "java"),
        )
        return Topology(host, host, [host] * injectors)
    if target == "netns":
        return _netns(injectors, run_dir, java)
    if target == "aws":
        return _aws(injectors, run_dir)
    raise ValueError(target)


def netns_inventory() -> Written | None:
    """What `make up TARGET=netns` wrote (infra/netns/up.sh), or None when the hosts are not up."""
    try:
        inv = json.loads(NETNS_INVENTORY.read_text())
    except (OSError, ValueError):
        return None
    return inv if isinstance(inv, dict) else None


def netns_entries(inv: Written) -> list[Written]:
    return [inv["delay"], inv["thread"], *inv.get("injectors", [])]


def netns_state_dir(entry: Written) -> Path:
    # One per host even though the namespaces share this filesystem: pid files must not collide between hosts.
    return STATE / "state" / str(entry["name"])


def namespace_exists(name: str) -> bool:
    return Path("/run/netns", name).exists()  # where `ip netns add` mounts it


def _netns(injectors: int, run_dir: Path, java: Path) -> Topology:
    inv = netns_inventory()
    if inv is None:
        raise HostError("no netns hosts: run `make up TARGET=netns` first")
    gone = [e["namespace"] for e in netns_entries(inv) if not namespace_exists(e["namespace"])]
    if gone:
        raise HostError(
            f"netns hosts listed in {NETNS_INVENTORY.name} are gone ({', '.join(gone)}; a reboot?): "
            f"run `make down TARGET=netns` then `make up TARGET=netns INJECTORS={injectors}`"
        )
    have = len(inv.get("injectors", []))
    if have < injectors:
        raise HostError(
            f"INJECTORS={injectors} but `make up TARGET=netns` created {have}: "
            f"run `make down TARGET=netns` then `make up TARGET=netns INJECTORS={injectors}`"
        )

    def host(entry: Written) -> NetnsHost:
        return NetnsHost(
            entry["name"],
            entry["address"],
            namespace=entry["namespace"],
            description=f"network namespace {entry['namespace']} ({entry['address']}) on {machine_description()}",
            app_dir=str(STATE / "app"),
            state_dir=str(netns_state_dir(entry)),
            work_root=str(run_dir),
            java=str(java / "bin" / "java"),
        )

    return Topology(host(inv["delay"]), host(inv["thread"]), [host(e) for e in inv["injectors"][:injectors]])


AWS_JAVA = "/usr/bin/java"  # Corretto 25 on Amazon Linux 2023 (user-data installs it; alternatives link)
# Other JDKs the thread-service may run on (JDKS), where user-data installs them beside 25.
AWS_JAVAS = {25: AWS_JAVA, 21: "/usr/lib/jvm/java-21-amazon-corretto/bin/java"}


def aws_java(jdk: int) -> str:
    fallback = f"/usr/lib/jvm/java-{jdk}-amazon-corretto/bin/java"
    return os.environ.get("LOADLAB_REMOTE_JAVA") or AWS_JAVAS.get(jdk) or fallback


AWS_SSH_DIR = STATE / "aws"  # known_hosts and connection sockets of the current stack; `make down` forgets them


def aws_outputs() -> Written | None:
    """`terraform output -json` of infra/ as {name: value}; None when no stack is up.

    Test-only seam: LOADLAB_TF_OUTPUTS_JSON=<file> holding the same JSON stands in for Terraform, so the SSH path
    runs against hosts that are not EC2 (harness/tests/e2e/test_aws_ssh_e2e.py). A real run never sets it."""
    fake = os.environ.get("LOADLAB_TF_OUTPUTS_JSON")
    if fake:
        try:
            text = Path(fake).read_text()
        except OSError as e:
            raise HostError(f"LOADLAB_TF_OUTPUTS_JSON: {e}") from None
    else:
        try:
            out = subprocess.run(
                ["terraform", f"-chdir={AWS_DIR}", "output", "-json"],
                capture_output=True,
                text=True,
                timeout=120,
                stdin=subprocess.DEVNULL,
            )
        except FileNotFoundError:
            raise HostError("terraform is not installed (needed for TARGET=aws)") from None
        if out.returncode != 0:
            return None
        text = out.stdout
    try:
        outputs = {k: v["value"] for k, v in json.loads(text or "{}").items()}
    except (ValueError, TypeError, KeyError) as e:
        raise HostError(f"unreadable Terraform outputs ({e})") from None
    return outputs if outputs.get("inventory") else None


def aws_control_dir() -> Path:
    # A unix socket path has ~100 bytes and ssh adds a 40-character hash plus a temporary suffix to this folder.
    return AWS_SSH_DIR if len(str(AWS_SSH_DIR)) <= 44 else Path("/tmp", f"loadlab-ssh-{os.getuid()}")


def aws_ssh_options(key: str) -> tuple[str, ...]:
    for d in (AWS_SSH_DIR, aws_control_dir()):
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
    # A known_hosts of its own: EC2 reuses public addresses, and a host made again by `make up` has a new key.
    return (
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=accept-new",
        "-o",
        f"UserKnownHostsFile={AWS_SSH_DIR / 'known_hosts'}",
        "-o",
        "ConnectTimeout=10",
        "-o",
        "ServerAliveInterval=15",
        "-o",
        "ServerAliveCountMax=4",
        # One connection per host for the hundred-odd commands of a run.
        "-o",
        "ControlMaster=auto",
        "-o",
        f"ControlPath={aws_control_dir()}/%C",
        "-o",
        "ControlPersist=10m",
        *(("-o", "IdentitiesOnly=yes", "-i", key) if key else ()),
    )


def _aws(injectors: int, run_dir: Path) -> Topology:
    outputs = aws_outputs()
    if outputs is None:
        raise HostError("no AWS hosts: run `make up TARGET=aws` first")
    inv, user = outputs["inventory"], outputs.get("ssh_user") or "ec2-user"
    root = (outputs.get("loadlab_dir") or "/opt/loadlab").rstrip("/")
    key = os.environ.get("SSH_PRIVATE_KEY", "")
    if not key and outputs.get("ssh_private_key_path") and Path(outputs["ssh_private_key_path"]).is_file():
        key = outputs["ssh_private_key_path"]
    ssh_options = aws_ssh_options(key)
    # LOADLAB_REMOTE_JAVA: hosts whose JDK is elsewhere (the SSH test's stand-in hosts use this machine's JDK 25).
    java = os.environ.get("LOADLAB_REMOTE_JAVA") or AWS_JAVA
    types = outputs.get("instance_types") or {}

    def host(role: str, entry: Written) -> SshHost:
        kind = " ".join(x for x in ("EC2", types.get(role, ""), entry["name"]) if x)
        return SshHost(
            entry["name"],
            entry["private_ip"],
            public_ip=entry["public_ip"],
            user=user,
            ssh_options=ssh_options,
            root_dir=root,
            description=f"{kind} ({entry['private_ip']})",
            # Pid files per host: harmless on separate EC2 hosts, needed where hosts share a disk.
            app_dir=f"{root}/app",
            state_dir=f"{root}/state/{entry['name']}",
            work_root=f"{root}/runs/{run_dir.name}",
            java=java,
        )

    inj = inv.get("injector", [])
    if len(inj) < injectors:
        raise HostError(
            f"INJECTORS={injectors} but Terraform created {len(inj)} injector hosts: "
            f"set injector_count in infra/terraform.tfvars and run `make up TARGET=aws` again"
        )
    return Topology(
        host("delay", inv["delay"][0]), host("thread", inv["thread"][0]), [host("injector", e) for e in inj[:injectors]]
    )
