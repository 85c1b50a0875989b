"""The netns hosts without load: `make up`/`make down TARGET=netns` (root only, about a second each) and the
netns-specific bookkeeping of topology and bench (anywhere)."""

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, make, wait_for

from loadlab.run import alignment, load, topology
from loadlab.run.context import Run

BRIDGE, PREFIX, SUBNET = "llbr0", "loadlab-", "10.77.0"
STATE = REPO / ".loadlab"


def netns_unusable() -> str | None:
    """Why namespace hosts cannot be made here, or None."""
    if os.geteuid() != 0:
        return f"TARGET=netns needs root (ip netns); running as uid {os.geteuid()}"
    if not shutil.which("ip"):
        return "TARGET=netns needs iproute2's `ip`, which is not installed"
    probe = f"llprobe-{os.getpid()}"
    r = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if r.returncode != 0:
        return f"`ip netns add` is not permitted here: {r.stderr.strip()}"
    subprocess.run(["ip", "netns", "delete", probe], capture_output=True)
    if subprocess.run(["ip", "link", "show", BRIDGE], capture_output=True).returncode == 0 or any(
        line.startswith(PREFIX) for line in namespaces()
    ):
        return "netns hosts already exist (someone's `make up TARGET=netns`); `make down TARGET=netns` first"
    return None


def namespaces() -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.split()]


def harness_links() -> list[str]:
    out = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True).stdout
    names = [line.split(": ")[1].split("@")[0] for line in out.splitlines() if ": " in line]
    return [n for n in names if n == BRIDGE or n.startswith("llveth")]


def ip(*args: str, ns: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
    argv = ["ip", *(("-n", ns) if ns else ()), *args]
    return subprocess.run(argv, capture_output=True, text=True, check=check)


def route_checks(inventory: dict) -> None:
    """No packet can leave the machine: the subnet is the bridge's, namespaces have no default route."""
    for unused in (f"{SUBNET}.99", f"{SUBNET}.254"):
        out = ip("route", "get", unused).stdout
        assert f" dev {BRIDGE} " in out, f"{unused} would not stay on {BRIDGE}: {out}"
    for entry in topology.netns_entries(inventory):
        ns = entry["namespace"]
        assert ip("-4", "route", "show", "default", ns=ns).stdout.strip() == "", f"{ns} has a default route"
        r = ip("route", "get", "192.0.2.1", ns=ns, check=False)  # TEST-NET-1: asking sends nothing
        assert r.returncode != 0 and "unreachable" in r.stderr, f"{ns} could route off the bridge: {r.stdout}"


@pytest.fixture
def remembered_target():
    """`make up`/`make down` rewrite .loadlab/target; put back what the developer had."""
    path = STATE / "target"
    before = path.read_text() if path.exists() else None
    yield
    if before is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(before)


@pytest.fixture
def netns_hosts(remembered_target):
    why = netns_unusable()
    if why:
        pytest.skip(why)
    r = make("up", env={"TARGET": "netns", "INJECTORS": "3"}, timeout=60)
    try:
        assert r.returncode == 0, r.stdout + r.stderr
        yield json.loads(topology.NETNS_INVENTORY.read_text())
    finally:
        make("down", env={"TARGET": "netns"}, timeout=120)


def test_up_makes_isolated_hosts_that_reach_each_other_and_down_removes_them_twice(netns_hosts):
    inv = netns_hosts
    assert [e["address"] for e in topology.netns_entries(inv)] == [
        f"{SUBNET}.10",
        f"{SUBNET}.11",
        f"{SUBNET}.20",
        f"{SUBNET}.21",
        f"{SUBNET}.22",
    ]
    assert (STATE / "target").read_text().strip() == "netns"
    route_checks(inv)
    for entry in topology.netns_entries(inv):
        addrs = ip("-4", "-o", "addr", "show", ns=entry["namespace"]).stdout
        assert f"{entry['address']}/24" in addrs and "127.0.0.1/8" in addrs, addrs
        # `make up` only makes the hosts: nothing runs in them until a bench starts its roles there
        assert not ip("netns", "pids", entry["namespace"]).stdout.split(), entry
    # A port on one host's address is reached from another host, across the bridge.
    server = subprocess.Popen(
        [
            "ip",
            "netns",
            "exec",
            "loadlab-thread",
            "python3",
            "-c",
            "import socket; s = socket.create_server(('10.77.0.11', 18080)); print('ready', flush=True); "
            "c, a = s.accept(); c.sendall(a[0].encode())",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout.readline().strip() == "ready"
        got = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                "loadlab-injector-2",
                "python3",
                "-c",
                "import socket; c = socket.create_connection(('10.77.0.11', 18080), timeout=5); "
                "print(c.recv(64).decode())",
            ],
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert got.stdout.strip() == f"{SUBNET}.22", got.stderr  # seen by the server with the injector's own address
    finally:
        server.kill()
        server.wait()

    # A process no pid file knows, left in a namespace, and a pid file whose process is gone, are cleaned up too.
    stray = subprocess.Popen(["ip", "netns", "exec", "loadlab-delay", "sleep", "300"])
    dead = subprocess.Popen(["true"])
    dead.wait()
    state = topology.netns_state_dir(inv["delay"])
    state.mkdir(parents=True, exist_ok=True)
    (state / "gone.pid").write_text(str(dead.pid))
    in_namespace = lambda: subprocess.run(["ip", "netns", "pids", "loadlab-delay"], capture_output=True, text=True)
    wait_for(lambda: str(stray.pid) in in_namespace().stdout.split(), "the stray process inside loadlab-delay")
    for attempt in (1, 2):
        r = make("down", env={"TARGET": "netns"}, timeout=120)
        assert r.returncode == 0 and "netns hosts down" in r.stdout, (attempt, r.stdout + r.stderr)
    # asked to stop, and it did: no escalation to SIGKILL was needed
    assert stray.wait(timeout=10) == -signal.SIGTERM
    assert not [n for n in namespaces() if n.startswith(PREFIX)]
    assert not harness_links()
    assert not state.exists()
    assert not topology.NETNS_INVENTORY.exists() and not (STATE / "target").exists()


def test_up_refuses_while_hosts_exist(netns_hosts):
    r = make("up", env={"TARGET": "netns", "INJECTORS": "1"}, timeout=60)
    assert r.returncode != 0
    assert "netns hosts already exist" in r.stderr and "make down TARGET=netns" in r.stderr
    assert ip("link", "show", BRIDGE, check=False).returncode == 0, "a refused `make up` removed the hosts"


def test_a_failing_up_removes_what_it_made(tmp_path):
    why = netns_unusable()
    if why:
        pytest.skip(why)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "sysctl").write_text("#!/bin/sh\necho 'sysctl: refused (test)' >&2; exit 1\n")
    (fake / "sysctl").chmod(0o755)
    inventory = tmp_path / "netns.json"
    r = subprocess.run(
        [str(REPO / "infra" / "netns" / "up.sh"), "2", str(inventory)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"},
    )
    assert r.returncode != 0
    assert "sysctl: refused (test)" in r.stderr and "removed what was made" in r.stderr, r.stderr
    assert not [n for n in namespaces() if n.startswith(PREFIX)] and not harness_links()
    assert not list(tmp_path.glob("netns.json*"))


# ---- bookkeeping, no root needed ----


def test_bench_says_what_to_do_when_the_hosts_are_missing_gone_or_too_few(tmp_path, monkeypatch):
    monkeypatch.setattr(topology, "NETNS_INVENTORY", tmp_path / "netns.json")
    with pytest.raises(topology.HostError, match="make up TARGET=netns"):
        topology.build("netns", 1, tmp_path, Path("/jdk"))
    entry = lambda name, octet: {"name": name, "namespace": f"llgone-{name}", "address": f"{SUBNET}.{octet}"}
    inv = {"delay": entry("delay", 10), "thread": entry("thread", 11), "injectors": [entry("injector-0", 20)]}
    (tmp_path / "netns.json").write_text(json.dumps(inv))
    with pytest.raises(topology.HostError, match="are gone"):
        topology.build("netns", 1, tmp_path, Path("/jdk"))
    monkeypatch.setattr(topology, "namespace_exists", lambda name: True)
    with pytest.raises(topology.HostError, match="INJECTORS=2 but `make up TARGET=netns` created 1"):
        topology.build("netns", 2, tmp_path, Path("/jdk"))
    topo = topology.build("netns", 1, tmp_path, Path("/jdk"))
    # One state folder per host: the namespaces share this filesystem, their pid files must not.
    assert len({h.state_dir for h in topo.hosts()}) == 3
    assert topo.thread.wrap(["true"]) == ["ip", "netns", "exec", "llgone-thread", "true"]
    assert topo.delay.address == f"{SUBNET}.10"


def test_injectors_that_started_apart_are_reported(tmp_path):
    def write(mode, starts):
        for i, s in enumerate(starts):
            d = tmp_path / mode / "raw" / f"injector-{i}"
            d.mkdir(parents=True)
            (d / "meta.json").write_text(json.dumps({"start_epoch_ms": s}))

    write("platform", [1_000_000, 1_000_000])
    write("virtual", [2_000_000, 2_002_000])
    # the alignment check reads the run folder and params.json's record only: no parameters, hosts or limits
    run = Run(None, tmp_path, None, None, None, None, meta={"modes_completed": ["platform", "virtual"]})
    alignment.check_alignment(run)
    problems = run.meta["mode_problems"]
    assert "platform" not in problems
    assert problems["virtual"] == [
        "injectors did not start together (injector-1 +2 s after the first): a Gatling JVM did not start its "
        "schedule within the 5 s alignment margin after the go, so merged seconds mix levels"
    ]


def test_several_injectors_share_an_alignment_margin_after_the_go_and_one_injector_waits_for_nobody():
    # Every JVM is up and waiting when the go is given (load.launch): the margin no longer grows with their number.
    assert load.start_align_s(1) == 0
    assert load.start_align_s(2) == load.start_align_s(3) == load.START_ALIGN_S
