"""`make up` / `make down` per TARGET: nothing for local, namespaces for netns, Terraform for aws."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from loadlab.core.errors import ExitCode
from loadlab.core.repo import REPO
from loadlab.run import topology
from loadlab.run.hosts import Host, HostError, SshHost
from loadlab.run.topology import AWS_DIR, NETNS_INVENTORY, STATE

NETNS_DIR = REPO / "infra" / "netns"


def up(target: str, injectors: int) -> int:
    """TARGET's hosts made, INJECTORS of them injectors (netns, aws)."""
    if target == "local":
        print("TARGET=local needs no preparation: every role runs on this machine, on loopback.")
        return ExitCode.OK
    if target == "netns":
        STATE.mkdir(parents=True, exist_ok=True)
        return subprocess.call([str(NETNS_DIR / "up.sh"), str(injectors), str(NETNS_INVENTORY)])
    return aws_up(injectors)


def down(target: str) -> int:
    if target == "local":
        # A run stops its own processes; this catches one that was killed too hard to do so.
        subprocess.call(
            [str(REPO / "infra" / "host" / "loadlab-host"), "stop-all", "20"],
            env={**os.environ, "LOADLAB_STATE": str(STATE / "state" / "local")},
        )
        print("TARGET=local: nothing left running.")
        return ExitCode.OK
    if target == "netns":
        return netns_down()
    return aws_down()


def netns_down() -> int:
    """Stops what the harness started on each namespace host the way a run does, then removes the hosts."""
    inv = topology.netns_inventory()
    entries = topology.netns_entries(inv) if inv else []
    for entry in entries:
        # The pid namespace is shared, so the host's own script can stop its processes from here.
        subprocess.call(
            [str(REPO / "infra" / "host" / "loadlab-host"), "stop-all", "20"],
            env={**os.environ, "LOADLAB_STATE": str(topology.netns_state_dir(entry))},
        )
    rc = subprocess.call([str(NETNS_DIR / "down.sh"), str(NETNS_INVENTORY)])
    for entry in entries:
        # Pid files of processes down.sh had to kill would name unrelated processes once the pids are reused.
        shutil.rmtree(topology.netns_state_dir(entry), ignore_errors=True)
    return rc


# ---------------------------------------------------------------- aws


def _aws_credentials(env: Mapping[str, str], home: Path) -> bool:
    """Whether Terraform's AWS provider will find credentials without asking anything (a local check only)."""
    if (
        env.get("AWS_ACCESS_KEY_ID")
        or env.get("AWS_PROFILE")
        or env.get("AWS_WEB_IDENTITY_TOKEN_FILE")
        or env.get("AWS_CONTAINER_CREDENTIALS_FULL_URI")
        or env.get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
    ):
        return True
    creds = Path(env.get("AWS_SHARED_CREDENTIALS_FILE") or home / ".aws" / "credentials").expanduser()
    if creds.is_file() and "aws_access_key_id" in creds.read_text(errors="replace"):
        return True
    # A config file that only sets a region is no credential; SSO, roles and credential_process are.
    config = Path(env.get("AWS_CONFIG_FILE") or home / ".aws" / "config").expanduser()
    text = config.read_text(errors="replace") if config.is_file() else ""
    return bool(
        re.search(
            r"^\s*(aws_access_key_id|credential_process|sso_\w+|role_arn|web_identity_token_file)\s*=", text, re.M
        )
    )


def _documentation_address(cidr: str) -> bool:
    try:
        net = ipaddress.ip_network(cidr, strict=False)
    except ValueError:
        return False  # Terraform's own validation explains a malformed value
    return isinstance(net, ipaddress.IPv4Network) and any(
        net.subnet_of(ipaddress.IPv4Network(doc)) for doc in ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24")
    )


def aws_preflight(env: Mapping[str, str] | None = None, infra_dir: Path = AWS_DIR) -> list[str]:
    """Every missing piece, one sentence each; empty when `terraform apply` may run. Reads local files only."""
    env = os.environ if env is None else env
    path = env.get("PATH", "")
    problems = []
    if not shutil.which("terraform", path=path):
        problems.append("terraform is not installed (https://developer.hashicorp.com/terraform/install)")
    for tool in ("ssh", "rsync"):
        if not shutil.which(tool, path=path):
            problems.append(f"{tool} is not installed (the harness reaches the hosts with it)")
    home = Path(env.get("HOME") or "~").expanduser()
    if env.get("AWS_ACCESS_KEY_ID") and not env.get("AWS_SECRET_ACCESS_KEY"):
        problems.append("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
    elif not _aws_credentials(env, home):
        problems.append(
            "no AWS credentials: set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (or run `aws configure`)"
        )
    tfvars = infra_dir / "terraform.tfvars"
    text = tfvars.read_text() if tfvars.is_file() else ""
    if not tfvars.is_file():
        problems.append(
            "infra/terraform.tfvars is missing: copy infra/terraform.tfvars.example and set admin_cidr "
            "(your public IP as x.x.x.x/32)"
        )
    elif not (cidr := re.search(r'^\s*admin_cidr\s*=\s*"([^"]+)"', text, re.M)):
        problems.append("admin_cidr is not set in infra/terraform.tfvars (your public IP as x.x.x.x/32)")
    elif _documentation_address(cidr.group(1)):
        # The example's value: Terraform would build hosts nobody can reach, and they would bill until the TTL.
        problems.append(
            f'admin_cidr = "{cidr.group(1)}" in infra/terraform.tfvars is the example\'s documentation '
            "address: set your public IP as x.x.x.x/32 (curl https://checkip.amazonaws.com)"
        )
    m = re.search(r'^\s*ssh_public_key_path\s*=\s*"([^"]+)"', text, re.M)
    raw = m.group(1) if m else "~/.ssh/id_ed25519.pub"
    key = home / raw[2:] if raw.startswith("~/") else Path(raw)
    if not key.is_file():
        problems.append(
            f"SSH public key {key} not found: create one (ssh-keygen -t ed25519) or set "
            "ssh_public_key_path in infra/terraform.tfvars"
        )
    else:
        private = Path(env.get("SSH_PRIVATE_KEY") or (str(key)[:-4] if str(key).endswith(".pub") else ""))
        # Without it Terraform would build hosts that the harness then cannot log in to.
        if not private.name or not private.is_file():
            problems.append(
                f"no private key next to {key}: keep it at {str(key).removesuffix('.pub')} "
                "or set SSH_PRIVATE_KEY to its path"
            )
    return problems


def _terraform(*args: str) -> int:
    return subprocess.call(["terraform", f"-chdir={AWS_DIR}", *args])


def aws_wait_ready(topo: topology.Topology, marker: str, timeout_s: float = 600, poll_s: float = 10) -> None:
    """Returns once every host answers SSH, user-data finished (its marker) and the host's Java runs."""
    deadline = time.monotonic() + timeout_s
    failed = str(Path(marker).with_name(".failed"))
    for h in topo.hosts():
        assert isinstance(h, SshHost)  # aws hosts are reached by SSH (topology._aws)
        while True:
            last = ""
            try:
                if h.run(["test", "-f", failed], check=False, timeout=30).returncode == 0:
                    raise HostError(
                        f"{h.name} ({h.public_ip}): preparing the host failed: see "
                        f"`ssh {h.login()} sudo cat /var/log/loadlab-user-data.log`"
                    )
                h.run(["test", "-f", marker], timeout=30)
                h.run([h.java, "-version"], timeout=60)
                break
            except HostError as e:
                if "preparing the host failed" in str(e):
                    raise
                last = str(e)
            if time.monotonic() > deadline:
                raise HostError(
                    f"{h.name} ({h.public_ip}) is not ready after {timeout_s:.0f} s ({last}): see "
                    f"`ssh {h.login()} sudo cat /var/log/cloud-init-output.log`"
                )
            time.sleep(poll_s)


def aws_up(injectors: int) -> int:
    problems = aws_preflight()
    if problems:
        for p in problems:
            print(f"loadlab: {p}", file=sys.stderr)
        print("loadlab: nothing was created", file=sys.stderr)
        return ExitCode.USAGE
    if (
        _terraform("init", "-input=false") != 0
        or _terraform(
            # INJECTORS decides the injector hosts on every target (it is remembered after `make up`).
            "apply",
            "-input=false",
            "-auto-approve",
            f"-var=injector_count={injectors}",
        )
        != 0
    ):
        print(
            "loadlab: terraform apply failed; `make down TARGET=aws YES=1` removes whatever was created",
            file=sys.stderr,
        )
        return ExitCode.FAILED
    outputs = topology.aws_outputs() or {}
    topo = topology.build("aws", len(outputs.get("inventory", {}).get("injector", [])), Path("up"), Path())
    print("-- waiting until every host answers SSH and has Java (a few minutes after a fresh apply)")
    aws_wait_ready(topo, outputs.get("ready_marker") or "/opt/loadlab/.ready")
    print("hosts:")
    for role, entries in outputs["inventory"].items():
        for e in entries:
            print(f"  {role:<9} {e['name']:<24} public {e['public_ip']:<16} private {e['private_ip']}")
    cost = outputs.get("hourly_cost_usd")
    print(
        f"estimated cost: {f'${cost:.2f}' if isinstance(cost, (int, float)) else 'unknown (see infra/README.md)'}"
        f" per hour while up (on-demand estimate, infra/README.md); every host terminates itself "
        f"{outputs.get('ttl_minutes', '?')} minutes after boot; `make down` removes everything now"
    )
    return ExitCode.OK


def aws_forget_ssh(hosts: list[Host]) -> None:
    """Closes the SSH connections kept open to these hosts and forgets their host keys (they die with the hosts)."""
    known = topology.AWS_SSH_DIR / "known_hosts"
    for h in hosts:
        assert isinstance(h, SshHost)  # aws hosts are reached by SSH (topology._aws)
        subprocess.run(
            [*h.ssh_base()[:-1], "-O", "exit", h.login()], capture_output=True, timeout=30, stdin=subprocess.DEVNULL
        )
        if known.is_file():
            subprocess.run(["ssh-keygen", "-R", h.public_ip, "-f", str(known)], capture_output=True, timeout=30)
            Path(f"{known}.old").unlink(missing_ok=True)


def aws_down() -> int:
    if os.environ.get("YES") != "1":
        if not sys.stdin.isatty():
            print(
                "loadlab: `make down TARGET=aws` destroys every AWS resource of the harness; "
                "add YES=1 to confirm from a script",
                file=sys.stderr,
            )
            return ExitCode.USAGE
        if input("Destroy every AWS resource of the harness? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing destroyed")
            return ExitCode.FAILED
    if not shutil.which("terraform"):
        print("loadlab: terraform is not installed", file=sys.stderr)
        return ExitCode.USAGE
    if not (AWS_DIR / "terraform.tfstate").is_file():
        print("TARGET=aws: no Terraform state (infra/terraform.tfstate), so nothing to destroy")
        return ExitCode.OK
    try:
        outputs = topology.aws_outputs() or {}
        hosts = (
            topology.build("aws", len(outputs["inventory"].get("injector", [])), Path("down"), Path()).hosts()
            if outputs
            else []
        )
    except (HostError, KeyError, IndexError):
        hosts = []
    if not (AWS_DIR / ".terraform").is_dir() and _terraform("init", "-input=false") != 0:
        return ExitCode.FAILED
    # Hosts that their TTL already terminated are simply gone from the refreshed state.
    rc = _terraform("destroy", "-input=false", "-auto-approve")
    if rc == 0:
        aws_forget_ssh(hosts)
    return rc
