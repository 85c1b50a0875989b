"""TARGET=aws without AWS: the preflight of `make up`, the refusal of `make down`, and how topology turns Terraform's
outputs into SSH hosts (seconds; the SSH path itself runs in test_aws_ssh_e2e.py)."""

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, make

from loadlab.run import hosts, targets, topology

REMEMBERED = [REPO / ".loadlab" / "target", REPO / ".loadlab" / "injectors"]


@pytest.fixture
def remembered_target():
    """The files `make up` remembers the target in, exactly as found (another engineer's `make up` may own them)."""
    read = lambda f: f.read_bytes() if f.exists() else None
    before = {f: read(f) for f in REMEMBERED}
    yield
    changed = {f.name: (before[f], read(f)) for f in REMEMBERED if read(f) != before[f]}
    for f in REMEMBERED:
        if before[f] is None:
            f.unlink(missing_ok=True)
        else:
            f.write_bytes(before[f])
    assert not changed, f"changed (before, after): {changed}"


def bare_env(home: Path) -> dict:
    """A user with no AWS setup at all: HOME and every AWS file location point into an empty folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_") and k not in ("SSH_PRIVATE_KEY", "YES")}
    env.update(
        {
            "HOME": str(home),
            "AWS_CONFIG_FILE": str(home / "aws-config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(home / "aws-credentials"),
        }
    )
    return env


def infra_listing() -> set[str]:
    return {str(p.relative_to(REPO / "infra")) for p in (REPO / "infra").rglob("*") if "__pycache__" not in p.parts}


# ---------------------------------------------------------------- make up / make down


def test_make_up_without_anything_fails_fast_and_creates_nothing(tmp_path, remembered_target):
    env = bare_env(tmp_path)
    before = infra_listing()
    r = make("up", env={**env, "TARGET": "aws"}, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("loadlab: ")]
    assert any("no AWS credentials" in line for line in lines), r.stderr
    assert any(f"SSH public key {tmp_path}/.ssh/id_ed25519.pub not found" in line for line in lines), r.stderr
    if not (REPO / "infra" / "terraform.tfvars").exists():
        assert any("infra/terraform.tfvars is missing" in line for line in lines), r.stderr
    assert lines[-1] == "loadlab: nothing was created", r.stderr
    assert len(lines) == len(set(lines)), r.stderr  # one line per missing piece
    assert "terraform" not in r.stdout.lower(), r.stdout  # terraform never ran
    after = infra_listing()
    assert after == before, f"created: {sorted(after - before)}"
    assert not (REPO / "infra" / ".terraform").exists() or ".terraform" in before
    assert not list(tmp_path.iterdir()), list(tmp_path.iterdir())  # not even ~/.aws or ~/.ssh


def test_make_down_without_yes_and_without_a_terminal_refuses(tmp_path, remembered_target):
    r = make("down", env={**bare_env(tmp_path), "TARGET": "aws"}, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "add YES=1 to confirm from a script" in r.stderr, r.stderr
    assert r.stderr.strip().splitlines()[0].startswith("loadlab: `make down TARGET=aws` destroys"), r.stderr


def test_make_down_with_yes_and_no_state_has_nothing_to_destroy(tmp_path, remembered_target, monkeypatch):
    if (REPO / "infra" / "terraform.tfstate").exists():
        pytest.skip("a Terraform state exists here: this test must not destroy a real stack")
    monkeypatch.setenv("YES", "1")
    monkeypatch.setattr(targets.shutil, "which", lambda name, **kw: f"/usr/bin/{name}")
    monkeypatch.setattr(targets, "_terraform", lambda *a: pytest.fail(f"terraform {a} ran"))
    assert targets.aws_down() == 0


# ---------------------------------------------------------------- aws_preflight


@pytest.fixture
def ready(tmp_path):
    """Everything preflight wants, in a temp HOME and a temp infra/ folder; tests take pieces away."""
    home, infra = tmp_path / "home", tmp_path / "infra"
    (home / ".ssh").mkdir(parents=True)
    (home / ".aws").mkdir()
    infra.mkdir()
    (home / ".ssh" / "id_ed25519").write_text("private\n")
    (home / ".ssh" / "id_ed25519.pub").write_text("ssh-ed25519 AAAA test\n")
    (home / ".aws" / "credentials").write_text(
        "[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = secret\n"
    )
    (infra / "terraform.tfvars").write_text('admin_cidr = "100.64.10.7/32"\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("terraform", "ssh", "rsync"):
        (bin_dir / tool).write_text("#!/bin/sh\n")
        (bin_dir / tool).chmod(0o755)
    env = {"HOME": str(home), "PATH": str(bin_dir)}
    return env, home, infra, bin_dir


def preflight(ready_, **env_changes):
    env, _, infra, _ = ready_
    env = {**env, **env_changes}
    return targets.aws_preflight({k: v for k, v in env.items() if v is not None}, infra_dir=infra)


def test_preflight_passes_when_everything_is_there(ready):
    assert preflight(ready) == []


def test_preflight_names_each_missing_piece_once(tmp_path):
    problems = targets.aws_preflight({"HOME": str(tmp_path), "PATH": str(tmp_path)}, infra_dir=tmp_path)
    assert [p.split(" ")[0] for p in problems] == [
        "terraform",
        "ssh",
        "rsync",
        "no",
        "infra/terraform.tfvars",
        "SSH",
    ], problems


def test_preflight_credentials(ready):
    _, home, _, _ = ready
    (home / ".aws" / "credentials").unlink()
    assert [p for p in preflight(ready) if "no AWS credentials" in p]
    assert preflight(ready, AWS_PROFILE="work") == []
    assert preflight(ready, AWS_ACCESS_KEY_ID="AKIA", AWS_SECRET_ACCESS_KEY="s") == []
    assert preflight(ready, AWS_ACCESS_KEY_ID="AKIA") == ["AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"]
    # A config that only names a region holds no credentials; one with SSO does.
    (home / ".aws" / "config").write_text("[default]\nregion = eu-west-1\n")
    assert [p for p in preflight(ready) if "no AWS credentials" in p]
    (home / ".aws" / "config").write_text("[default]\nsso_session = corp\nregion = eu-west-1\n")
    assert preflight(ready) == []
    # The files the SDK's environment variables point to are the ones that count.
    elsewhere = home / "elsewhere"
    elsewhere.write_text("[default]\naws_access_key_id = AKIA\n")
    (home / ".aws" / "config").unlink()
    assert preflight(ready, AWS_SHARED_CREDENTIALS_FILE=str(elsewhere)) == []


def test_preflight_tfvars_and_keys(ready):
    _, home, infra, _ = ready
    (infra / "terraform.tfvars").write_text('# admin_cidr = "100.64.10.7/32"\nregion = "eu-west-1"\n')
    assert preflight(ready) == ["admin_cidr is not set in infra/terraform.tfvars (your public IP as x.x.x.x/32)"]
    # Copied from the example and not edited: hosts nobody could reach.
    (infra / "terraform.tfvars").write_text((REPO / "infra" / "terraform.tfvars.example").read_text())
    problems = preflight(ready)
    assert len(problems) == 1 and "is the example's documentation address" in problems[0], problems
    key = home / "keys" / "lab.pub"
    (infra / "terraform.tfvars").write_text(f'admin_cidr = "100.64.10.7/32"\nssh_public_key_path = "{key}"\n')
    assert preflight(ready) == [
        f"SSH public key {key} not found: create one (ssh-keygen -t ed25519) or set "
        "ssh_public_key_path in infra/terraform.tfvars"
    ]
    key.parent.mkdir()
    key.write_text("ssh-ed25519 AAAA\n")
    problems = preflight(ready)
    assert len(problems) == 1 and problems[0].startswith(f"no private key next to {key}"), problems
    assert preflight(ready, SSH_PRIVATE_KEY=str(home / ".ssh" / "id_ed25519")) == []
    # `~/` in tfvars means the HOME of whoever runs make.
    (infra / "terraform.tfvars").write_text(
        'admin_cidr = "100.64.10.7/32"\nssh_public_key_path = "~/.ssh/id_ed25519.pub"\n'
    )
    assert preflight(ready) == []


# ---------------------------------------------------------------- Terraform outputs -> hosts


def outputs_file(tmp_path, injectors=2, **extra) -> Path:
    entry = lambda name, n: {"name": name, "public_ip": f"198.51.100.{n}", "private_ip": f"10.77.0.{n}"}
    values = {
        "inventory": {
            "thread": [entry("thread", 11)],
            "delay": [entry("delay", 10)],
            "injector": [entry(f"injector-{i}", 20 + i) for i in range(injectors)],
        },
        "ssh_user": "ec2-user",
        "loadlab_dir": "/opt/loadlab",
        "instance_types": {"thread": "c7i.large", "delay": "c7i.xlarge", "injector": "c7i.2xlarge"},
        **extra,
    }
    path = tmp_path / "outputs.json"
    path.write_text(json.dumps({k: {"sensitive": False, "type": "any", "value": v} for k, v in values.items()}))
    return path


@pytest.fixture
def fake_tf(tmp_path, monkeypatch):
    for k in ("SSH_PRIVATE_KEY", "LOADLAB_REMOTE_JAVA"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setattr(topology, "AWS_SSH_DIR", tmp_path / "ssh")
    monkeypatch.setattr(topology, "aws_control_dir", lambda: tmp_path / "ssh")

    def use(**kw):
        monkeypatch.setenv("LOADLAB_TF_OUTPUTS_JSON", str(outputs_file(tmp_path, **kw)))
        return topology.build("aws", 1, Path("/results/20261121-130501"), Path("/unused-local-jdk"))

    return use


def test_outputs_become_ssh_hosts_with_per_host_state(fake_tf):
    topo = fake_tf()
    assert [(h.name, h.address, h.public_ip) for h in topo.hosts()] == [
        ("delay", "10.77.0.10", "198.51.100.10"),
        ("thread", "10.77.0.11", "198.51.100.11"),
        ("injector-0", "10.77.0.20", "198.51.100.20"),
    ]
    t = topo.thread
    assert isinstance(t, hosts.SshHost) and not t.shares_filesystem()
    assert t.state_dir == "/opt/loadlab/state/thread" and topo.delay.state_dir == "/opt/loadlab/state/delay"
    assert t.work_root == "/opt/loadlab/runs/20261121-130501" and t.app_dir == "/opt/loadlab/app"
    assert t.java == "/usr/bin/java" and t.tool_path() == "/opt/loadlab/host/loadlab-host"
    assert t.description == "EC2 c7i.large thread (10.77.0.11)"


def test_ec2_user_runs_commands_with_sudo_root_without(fake_tf, tmp_path):
    t = fake_tf().thread
    argv = t.wrap(["echo", "a b"])
    assert argv[0] == "ssh" and argv[-2] == "ec2-user@198.51.100.11" and argv[-1] == "sudo echo 'a b'"
    assert f"UserKnownHostsFile={tmp_path}/ssh/known_hosts" in argv
    root = fake_tf(ssh_user="root").thread
    assert root.wrap(["echo", "a b"])[-2:] == ["root@198.51.100.11", "echo 'a b'"]
    # The remote shell sees exactly the argv it was given, whatever the quoting.
    tricky = ["printf", "%s\n", "it's $HOME; `x`"]
    assert shlex.split(root.wrap(tricky)[-1]) == tricky


def test_java_key_and_root_from_outputs_or_environment(fake_tf, tmp_path, monkeypatch):
    key = tmp_path / "id_lab"
    key.write_text("private\n")
    t = fake_tf(ssh_private_key_path=str(key), loadlab_dir="/srv/lab/").thread
    assert ("-i", str(key)) in zip(t.ssh_options, t.ssh_options[1:])
    assert t.state_dir == "/srv/lab/state/thread" and t.tool_path() == "/srv/lab/host/loadlab-host"
    # A key path from the outputs that does not exist here is not passed to ssh (its defaults apply).
    assert "-i" not in fake_tf(ssh_private_key_path=str(tmp_path / "missing")).thread.ssh_options
    monkeypatch.setenv("SSH_PRIVATE_KEY", "/elsewhere/key")
    monkeypatch.setenv("LOADLAB_REMOTE_JAVA", "/usr/lib/jvm/jdk-25/bin/java")
    t = fake_tf(ssh_private_key_path=str(key)).thread
    assert ("-i", "/elsewhere/key") in zip(t.ssh_options, t.ssh_options[1:])
    assert t.java == "/usr/lib/jvm/jdk-25/bin/java"


def test_too_few_injectors_or_no_stack_is_one_clear_error(fake_tf, tmp_path, monkeypatch):
    fake_tf(injectors=1)
    with pytest.raises(hosts.HostError, match="INJECTORS=2 but Terraform created 1 injector hosts"):
        topology.build("aws", 2, Path("/r/x"), Path())
    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    monkeypatch.setenv("LOADLAB_TF_OUTPUTS_JSON", str(empty))
    with pytest.raises(hosts.HostError, match=r"no AWS hosts: run `make up TARGET=aws` first"):
        topology.build("aws", 1, Path("/r/x"), Path())


# ---------------------------------------------------------------- aws_up / aws_down around Terraform


def test_up_applies_waits_and_prints_hosts_cost_and_ttl(fake_tf, tmp_path, monkeypatch, capsys):
    fake_tf(injectors=1, hourly_cost_usd=0.7312, ttl_minutes=180, ready_marker="/opt/loadlab/.ready")
    calls, waited = [], []
    monkeypatch.setattr(targets, "aws_preflight", lambda: [])
    monkeypatch.setattr(targets, "_terraform", lambda *a: calls.append(a) or 0)
    monkeypatch.setattr(
        targets, "aws_wait_ready", lambda topo, marker: waited.append(([h.name for h in topo.hosts()], marker))
    )
    assert targets.aws_up(2) == 0
    assert [c[0] for c in calls] == ["init", "apply"]
    assert "-var=injector_count=2" in calls[1], "INJECTORS must decide the injector hosts"
    assert waited == [(["delay", "thread", "injector-0"], "/opt/loadlab/.ready")]
    out = capsys.readouterr().out
    assert "  thread    thread                   public 198.51.100.11    private 10.77.0.11" in out, out
    assert "estimated cost: $0.73 per hour" in out and "180 minutes after boot" in out, out


def test_up_stops_before_terraform_when_preflight_fails(monkeypatch, capsys):
    monkeypatch.setattr(targets, "aws_preflight", lambda: ["no AWS credentials: …"])
    monkeypatch.setattr(targets, "_terraform", lambda *a: pytest.fail(f"terraform {a} ran"))
    assert targets.aws_up(1) == 2
    assert capsys.readouterr().err.splitlines() == ["loadlab: no AWS credentials: …", "loadlab: nothing was created"]


def test_down_with_yes_destroys_then_forgets_the_hosts_ssh_keys(fake_tf, tmp_path, monkeypatch):
    fake_tf(injectors=1)
    infra = tmp_path / "infra"
    (infra / ".terraform").mkdir(parents=True)
    (infra / "terraform.tfstate").write_text("{}")
    monkeypatch.setattr(targets, "AWS_DIR", infra)
    monkeypatch.setenv("YES", "1")
    monkeypatch.setattr(targets.shutil, "which", lambda name, **kw: f"/usr/bin/{name}")
    calls, forgotten = [], []
    monkeypatch.setattr(targets, "_terraform", lambda *a: calls.append(a) or 0)
    monkeypatch.setattr(targets, "aws_forget_ssh", lambda hs: forgotten.extend(h.public_ip for h in hs))
    assert targets.aws_down() == 0
    assert [c[0] for c in calls] == ["destroy"] and forgotten == ["198.51.100.10", "198.51.100.11", "198.51.100.20"]
    calls.clear(), forgotten.clear()
    monkeypatch.setattr(targets, "_terraform", lambda *a: calls.append(a[0]) or 1)
    assert targets.aws_down() == 1 and forgotten == []  # the hosts may still exist: keep their keys
