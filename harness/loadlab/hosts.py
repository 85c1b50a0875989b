"""A host is an address plus a way to run a command there and to copy files to and from it.

The run logic (bench.py) only ever talks to Host; the three targets differ only in how a command reaches the host:
directly (local), through `ip netns exec` (netns) or through SSH (aws). Every host runs infra/host/loadlab-host.
"""
from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HOST_SCRIPTS = REPO / "infra" / "host"


class HostError(RuntimeError):
    pass


@dataclass
class Host:
    """One machine (or namespace) of the harness. `address` is where its services listen and are reached."""
    name: str
    address: str
    description: str = ""
    # Where files live on the host: the app (jars), the pid files, the run's output folder.
    app_dir: str = ""
    state_dir: str = ""
    work_root: str = ""
    java: str = ""
    env: dict[str, str] = field(default_factory=dict)

    # -- how a command reaches the host (overridden per target) --
    def wrap(self, argv: list[str]) -> list[str]:
        return argv

    def shares_filesystem(self) -> bool:
        """True when the host writes straight into this machine's run folder (no copying needed)."""
        return True

    # -- what the harness does on a host, written once --
    def run(self, argv: list[str], *, check: bool = True, timeout: float | None = 120,
            capture: bool = True) -> subprocess.CompletedProcess:
        full = self.wrap(self._with_env(argv))
        try:
            cp = subprocess.run(full, capture_output=capture, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as e:
            raise HostError(f"{self.name}: `{shlex.join(argv)}` did not finish within {timeout}s") from e
        if check and cp.returncode != 0:
            detail = (cp.stderr or cp.stdout or "").strip().splitlines()
            raise HostError(f"{self.name}: {detail[-1] if detail else shlex.join(argv) + ' failed'}")
        return cp

    def tool(self, *args: str, check: bool = True, timeout: float | None = 120) -> str:
        """Runs a loadlab-host subcommand on the host and returns its stdout."""
        return self.run([self.tool_path(), *args], check=check, timeout=timeout).stdout.strip()

    def follow(self, path: str) -> subprocess.Popen:
        """Streams a growing file of the host (Gatling's console log) line by line."""
        return subprocess.Popen(self.wrap(["tail", "-n", "+1", "-F", path]), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, stdin=subprocess.DEVNULL)

    def tool_path(self) -> str:
        return str(HOST_SCRIPTS / "loadlab-host")

    def work_path(self, *parts: str) -> str:
        return str(Path(self.work_root, *parts))

    def push_app(self, local_app: Path) -> None:
        """Makes the built artifacts available on the host (nothing to do when the filesystem is shared)."""

    def collect(self, local_run_dir: Path) -> None:
        """Brings the host's files of this run into the local run folder (nothing to do when shared)."""

    def _with_env(self, argv: list[str]) -> list[str]:
        env = {"LOADLAB_STATE": self.state_dir, "LOADLAB_APP": self.app_dir, "LOADLAB_JAVA": self.java, **self.env}
        return ["env", *(f"{k}={v}" for k, v in env.items() if v), *argv]


@dataclass
class LocalHost(Host):
    """This machine, services on loopback."""


@dataclass
class NetnsHost(Host):
    """A Linux network namespace on this machine (infra/netns): own address, shared filesystem."""
    namespace: str = ""

    def wrap(self, argv: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.namespace, *argv]


@dataclass
class SshHost(Host):
    """An EC2 host reached over SSH; its files are copied back with rsync at the end of every mode."""
    public_ip: str = ""
    user: str = "ec2-user"
    ssh_options: tuple[str, ...] = ()

    def ssh_base(self) -> list[str]:
        return ["ssh", *self.ssh_options, f"{self.user}@{self.public_ip}"]

    def wrap(self, argv: list[str]) -> list[str]:
        # sudo: the tuned limits and /opt/loadlab belong to root on the hosts.
        return [*self.ssh_base(), "sudo " + shlex.join(argv)]

    def shares_filesystem(self) -> bool:
        return False

    def tool_path(self) -> str:
        return "/opt/loadlab/host/loadlab-host"

    def _rsync(self, *args: str) -> None:
        ssh = shlex.join(["ssh", *self.ssh_options])
        cp = subprocess.run(["rsync", "-a", "--rsync-path=sudo rsync", "-e", ssh, *args],
                            capture_output=True, text=True, timeout=600)
        if cp.returncode != 0:
            raise HostError(f"{self.name}: rsync failed: {cp.stderr.strip()[-300:]}")

    def push_app(self, local_app: Path) -> None:
        self.run(["mkdir", "-p", "/opt/loadlab/app", "/opt/loadlab/host"])
        self._rsync("-L", "--delete", f"{local_app}/", f"{self.user}@{self.public_ip}:/opt/loadlab/app/")
        self._rsync("--delete", f"{HOST_SCRIPTS}/", f"{self.user}@{self.public_ip}:/opt/loadlab/host/")

    def collect(self, local_run_dir: Path) -> None:
        self._rsync(f"{self.user}@{self.public_ip}:{self.work_root}/", f"{local_run_dir}/")
