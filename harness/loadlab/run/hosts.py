"""A host is an address plus a way to run a command there and to copy files to and from it.

The run logic (bench.py and its steps) only ever talks to Host; the three targets differ only in how a command reaches
the host: directly (local), through `ip netns exec` (netns) or through SSH (aws).
Every host runs infra/host/loadlab-host.
"""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from loadlab.core.errors import LoadlabError
from loadlab.core.repo import REPO

HOST_SCRIPTS = REPO / "infra" / "host"


class HostError(LoadlabError):
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
    def run(
        self, argv: list[str], *, check: bool = True, timeout: float | None = 120, capture: bool = True
    ) -> subprocess.CompletedProcess[str]:
        full = self.wrap(self._with_env(argv))
        try:
            cp = subprocess.run(full, capture_output=capture, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as e:
            raise HostError(f"{self.name}: `{shlex.join(argv)}` did not finish within {timeout}s") from e
        if check and cp.returncode != 0:
            detail = (cp.stderr or cp.stdout or "").strip().splitlines()
            raise HostError(f"{self.name}: {detail[-1] if detail else shlex.join(argv) + ' failed'}")
        return cp

    def tool(
        self, *args: str, check: bool = True, timeout: float | None = 120, env: dict[str, str] | None = None
    ) -> str:
        """Runs a loadlab-host subcommand on the host and returns its stdout; env overrides the host's variables
        for this call only (e.g. LOADLAB_JAVA: the thread-service on another JDK)."""
        argv = [self.tool_path(), *args]
        if env:
            argv = ["env", *(f"{k}={v}" for k, v in env.items()), *argv]
        return self.run(argv, check=check, timeout=timeout).stdout.strip()

    def follow(self, path: str) -> subprocess.Popen[str]:
        """Streams a growing file of the host (Gatling's console log) line by line."""
        return subprocess.Popen(
            self.wrap(["tail", "-n", "+1", "-F", path]),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            stdin=subprocess.DEVNULL,
        )

    def tool_path(self) -> str:
        return str(HOST_SCRIPTS / "loadlab-host")

    def ports_in_use(self, ports: list[int]) -> str | None:
        """The one-line problem when something already listens on any of these TCP ports here, else None.

        Asked of `ss` on the host itself (inside its namespace, over SSH), so it works before anything was pushed to
        it: the preflight and the run's own check just before the services start both ask this."""
        out = self.run(["ss", "-Hltn"], timeout=30).stdout
        # Columns: State Recv-Q Send-Q Local-Address:Port Peer-Address:Port; the address may be [::] or have %if.
        listening = set()
        for line in out.splitlines():
            fields = line.split()
            port = fields[3].rsplit(":", 1)[-1] if len(fields) >= 4 else ""
            if port.isdigit():
                listening.add(int(port))
        busy = [p for p in ports if p in listening]
        if not busy:
            return None
        return (
            f"port(s) {' '.join(map(str, busy))} already in use on {self.name}: stop what listens there "
            f"(ss -ltnp) or an earlier run's leftovers (make down)"
        )

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
    root_dir: str = "/opt/loadlab"  # what user-data prepared (Terraform output `loadlab_dir`)

    def ssh_base(self) -> list[str]:
        return ["ssh", *self.ssh_options, self.login()]

    def login(self) -> str:
        return f"{self.user}@{self.public_ip}"

    def sudo(self) -> list[str]:
        # The tuned limits and root-owned paths need root; a root login already is (and may have no sudo at all).
        return [] if self.user == "root" else ["sudo"]

    def wrap(self, argv: list[str]) -> list[str]:
        # ssh hands the remote shell one string, so the argv is quoted into it.
        return [*self.ssh_base(), shlex.join([*self.sudo(), *argv])]

    def follow(self, path: str) -> subprocess.Popen[str]:
        # Ending the local ssh does not end a remote `tail -F` without a terminal: it would wait forever on a file
        # that no longer grows. The remote side ends it once its stdin (our pipe) closes.
        script = f"tail -n +1 -F {shlex.quote(path)} & t=$!; cat >/dev/null; kill $t"
        return subprocess.Popen(
            [*self.ssh_base(), shlex.join([*self.sudo(), "sh", "-c", script])],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.PIPE,
            text=True,
        )

    def shares_filesystem(self) -> bool:
        return False

    def tool_path(self) -> str:
        return f"{self.root_dir}/host/loadlab-host"

    def _rsync(self, *args: str) -> None:
        ssh = shlex.join(["ssh", *self.ssh_options])
        sudo = shlex.join([*self.sudo(), "rsync"])
        try:
            cp = subprocess.run(
                ["rsync", "-a", f"--rsync-path={sudo}", "-e", ssh, *args],
                capture_output=True,
                text=True,
                timeout=600,
                stdin=subprocess.DEVNULL,
            )
        except FileNotFoundError:
            raise HostError("rsync is not installed on this machine (needed for TARGET=aws)") from None
        except subprocess.TimeoutExpired:
            raise HostError(f"{self.name}: rsync did not finish within 600s") from None
        if cp.returncode != 0:
            raise HostError(f"{self.name}: rsync failed: {cp.stderr.strip()[-300:]}")

    def push_app(self, local_app: Path) -> None:
        app, host = f"{self.root_dir}/app", f"{self.root_dir}/host"
        self.run(["mkdir", "-p", app, host])
        # -L: .loadlab/app is a tree of symlinks into the build output; the host needs the files themselves.
        self._rsync("-L", "--delete", f"{local_app}/", f"{self.login()}:{app}/")
        self._rsync("--delete", "--exclude=__pycache__", f"{HOST_SCRIPTS}/", f"{self.login()}:{host}/")

    def collect(self, local_run_dir: Path) -> None:
        self._rsync(f"{self.login()}:{self.work_root}/", f"{local_run_dir}/")
