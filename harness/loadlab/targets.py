"""`make up` / `make down` per TARGET: nothing for local, namespaces for netns, Terraform for aws."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import topology
from .hosts import REPO, HostError
from .topology import AWS_DIR, NETNS_INVENTORY, STATE

NETNS_DIR = REPO / "infra" / "netns"


def up(values: dict) -> int:
    target = values["TARGET"]
    if target == "local":
        print("TARGET=local needs no preparation: every role runs on this machine, on loopback.")
        return 0
    if target == "netns":
        STATE.mkdir(parents=True, exist_ok=True)
        return subprocess.call([str(NETNS_DIR / "up.sh"), str(values["INJECTORS"]), str(NETNS_INVENTORY)])
    return aws_up()


def down(values: dict) -> int:
    target = values["TARGET"]
    if target == "local":
        # A run stops its own processes; this catches one that was killed too hard to do so.
        subprocess.call([str(REPO / "infra" / "host" / "loadlab-host"), "stop-all", "20"],
                        env={**os.environ, "LOADLAB_STATE": str(STATE / "state" / "local")})
        print("TARGET=local: nothing left running.")
        return 0
    if target == "netns":
        return netns_down()
    return aws_down()


def netns_down() -> int:
    """Stops what the harness started on each namespace host the way a run does, then removes the hosts."""
    inv = topology.netns_inventory()
    entries = topology.netns_entries(inv) if inv else []
    for entry in entries:
        # The pid namespace is shared, so the host's own script can stop its processes from here.
        subprocess.call([str(REPO / "infra" / "host" / "loadlab-host"), "stop-all", "20"],
                        env={**os.environ, "LOADLAB_STATE": str(topology.netns_state_dir(entry))})
    rc = subprocess.call([str(NETNS_DIR / "down.sh"), str(NETNS_INVENTORY)])
    for entry in entries:
        # Pid files of processes down.sh had to kill would name unrelated processes once the pids are reused.
        shutil.rmtree(topology.netns_state_dir(entry), ignore_errors=True)
    return rc


# ---------------------------------------------------------------- aws

def aws_preflight(env: dict | None = None) -> list[str]:
    """Every missing piece, one sentence each; empty when `terraform apply` may run."""
    env = os.environ if env is None else env
    problems = []
    if not shutil.which("terraform", path=env.get("PATH")):
        problems.append("terraform is not installed (https://developer.hashicorp.com/terraform/install)")
    home = Path(env.get("HOME", "~")).expanduser()
    has_creds = (env.get("AWS_ACCESS_KEY_ID") or env.get("AWS_PROFILE") or env.get("AWS_WEB_IDENTITY_TOKEN_FILE")
                 or (home / ".aws" / "credentials").is_file() or (home / ".aws" / "config").is_file())
    if not has_creds:
        problems.append("no AWS credentials: set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY "
                        "(or run `aws configure`)")
    tfvars = AWS_DIR / "terraform.tfvars"
    text = tfvars.read_text() if tfvars.is_file() else ""
    if not text:
        problems.append("infra/terraform.tfvars is missing: copy infra/terraform.tfvars.example and set admin_cidr "
                        "(your public IP as x.x.x.x/32)")
    elif not re.search(r'^\s*admin_cidr\s*=\s*"[^"]+"', text, re.M):
        problems.append("admin_cidr is not set in infra/terraform.tfvars (your public IP as x.x.x.x/32)")
    m = re.search(r'^\s*ssh_public_key_path\s*=\s*"([^"]+)"', text, re.M)
    key = Path(m.group(1) if m else "~/.ssh/id_ed25519.pub").expanduser()
    if not key.is_file():
        problems.append(f"SSH public key {key} not found: create one (ssh-keygen -t ed25519) or set "
                        "ssh_public_key_path in infra/terraform.tfvars")
    return problems


def _terraform(*args: str) -> int:
    return subprocess.call(["terraform", f"-chdir={AWS_DIR}", *args])


def _outputs() -> dict:
    out = subprocess.run(["terraform", f"-chdir={AWS_DIR}", "output", "-json"], capture_output=True, text=True)
    return {k: v["value"] for k, v in json.loads(out.stdout or "{}").items()}


def aws_up() -> int:
    problems = aws_preflight()
    if problems:
        for p in problems:
            print(f"loadlab: {p}", file=sys.stderr)
        print("loadlab: nothing was created", file=sys.stderr)
        return 2
    if _terraform("init", "-input=false") != 0 or _terraform("apply", "-input=false", "-auto-approve") != 0:
        print("loadlab: terraform apply failed; `make down TARGET=aws` removes whatever was created", file=sys.stderr)
        return 1
    outputs = _outputs()
    from .topology import _aws  # the same inventory reading that bench uses
    topo = _aws(len(outputs["inventory"].get("injector", [])), Path("up"))
    print("-- waiting until every host answers SSH and has Java")
    deadline = time.time() + 600
    for h in topo.hosts():
        while True:
            try:
                h.run(["test", "-f", "/opt/loadlab/.ready"], timeout=30)
                h.run(["java", "-version"], timeout=30)
                break
            except HostError:
                if time.time() > deadline:
                    raise HostError(f"{h.name} ({h.public_ip}) is not ready after 10 minutes: see "
                                    f"`ssh ec2-user@{h.public_ip} sudo cat /var/log/cloud-init-output.log`")
                time.sleep(10)
    print("hosts:")
    for role, entries in outputs["inventory"].items():
        for e in entries:
            print(f"  {role:<9} {e['name']:<24} public {e['public_ip']:<16} private {e['private_ip']}")
    print(f"estimated cost: ${outputs.get('hourly_cost_usd', '?')}/hour (on-demand, see infra/README.md); "
          f"hosts terminate themselves after {outputs.get('ttl_minutes', '?')} minutes")
    return 0


def aws_down() -> int:
    if not shutil.which("terraform"):
        print("loadlab: terraform is not installed", file=sys.stderr)
        return 2
    if os.environ.get("YES") != "1":
        if not sys.stdin.isatty():
            print("loadlab: `make down TARGET=aws` destroys every AWS resource of the harness; "
                  "add YES=1 to confirm from a script", file=sys.stderr)
            return 2
        if input("Destroy every AWS resource of the harness? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing destroyed")
            return 1
    # Hosts that their TTL already terminated are simply gone from the refreshed state.
    return _terraform("destroy", "-input=false", "-auto-approve")
