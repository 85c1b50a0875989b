"""The SSH path of TARGET=aws, for real, on stand-in hosts: `make bench TARGET=aws` against three network namespaces
(delay, thread, injector-0) on 10.78.0.0/24, each running Debian's sshd on port 22 with a throwaway key.

Terraform is replaced by a file in `terraform output -json` form (LOADLAB_TF_OUTPUTS_JSON, a test-only seam of
topology.aws_outputs) whose loadlab_dir is a temp folder, so nothing is written to /opt. Everything else is what a
real EC2 run does: rsync of the app and infra/host, every command through ssh, services started by loadlab-host,
files rsynced back. The services bind to their host's address, which exists only inside that host's namespace, so
a run that completes proves each service ran on its own host. Names (llssh-*, llsshbr0, llsshv*) and the subnet
differ from TARGET=netns's (loadlab-*, llbr0, 10.77.0.0/24): both tests can run on one machine.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from conftest import REPO, harness_exit, make

from loadlab.run import targets, topology
from loadlab.run.java import JdkNotFound, find_jdk

pytestmark = pytest.mark.e2e

BRIDGE, NS_PREFIX, VETH_PREFIX, SUBNET = "llsshbr0", "llssh-", "llsshv", "10.78.0"
HOSTS = {"delay": 10, "thread": 11, "injector-0": 20}  # name -> last octet
SSHD = "/usr/sbin/sshd"
# One mode: the SSH path is the same for both, and netns/local already compare them (keeps `make test` short).
MODES = ["virtual"]
TINY = {
    "TARGET": "aws",
    "INJECTORS": "1",
    "MODES": " ".join(MODES),
    "PLATFORM_THREADS": "8",
    # The bimodal downstream's one real run rides here (the SSH path does not depend on the delay's shape): 20% of
    # the answers at 600 ms, the rest at 200 ms, and the delay-service's own record of them comes back by rsync.
    "DELAY_MS": "200",
    "DELAY_DIST": "bimodal",
    "DELAY_SLOW_MS": "600",
    "DELAY_SLOW_PCT": "20",
    "PROFILE": "stairs",
    "START_RPS": "10",
    "PEAK_RPS": "40",
    "STEPS": "2",
    "STEP_SECONDS": "3",
    "WARMUP_SECONDS": "3",
    # The transport is the claim: the fine pass is the tiny local run's (here a 3 s jump from 10 to 40 rps of a
    # bimodal delay often reads unhealthy, and a fine pass only cost 12 s)
    "REFINE": "0",
}
LOCK_WAIT_S = 600  # another engineer's `make bench` on a shared machine: wait for it instead of failing


def addr(name: str) -> str:
    return f"{SUBNET}.{HOSTS[name]}"


def sh(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, check=check)


def unusable() -> str | None:
    if os.geteuid() != 0:
        return f"needs root (ip netns, sshd on port 22); running as uid {os.geteuid()}"
    for tool in ("ip", "ssh", "ssh-keygen", "rsync", SSHD):
        if not shutil.which(tool):
            return f"{tool} is not installed (as root: bash harness/tests/install-test-deps.sh)"
    probe = f"llsshprobe-{os.getpid()}"
    r = sh("ip", "netns", "add", probe, check=False)
    if r.returncode != 0:
        return f"`ip netns add` is not permitted here: {r.stderr.strip()}"
    sh("ip", "netns", "delete", probe, check=False)
    try:
        find_jdk()
    except JdkNotFound as e:
        return str(e)
    return None


def our_namespaces() -> list[str]:
    out = sh("ip", "netns", "list", check=False).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(NS_PREFIX)]


def kill_namespace_processes(ns: str) -> None:
    """Whatever still lives in one of our namespaces is ours: sshd sessions, or a service a failed run left."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = [int(p) for p in sh("ip", "netns", "pids", ns, check=False).stdout.split()]
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        for _ in range(50):
            if not sh("ip", "netns", "pids", ns, check=False).stdout.strip():
                return
            time.sleep(0.1)


def teardown_network() -> list[str]:
    for ns in our_namespaces():
        kill_namespace_processes(ns)
        sh("ip", "netns", "delete", ns, check=False)
    links = sh("ip", "-o", "link", "show", check=False).stdout
    for line in links.splitlines():
        name = line.split(": ")[1].split("@")[0]
        if name == BRIDGE or name.startswith(VETH_PREFIX):
            sh("ip", "link", "delete", name, check=False)
    left = our_namespaces() + [
        n
        for n in (line.split(": ")[1].split("@")[0] for line in sh("ip", "-o", "link", "show").stdout.splitlines())
        if n == BRIDGE or n.startswith(VETH_PREFIX)
    ]
    return left


def make_network() -> None:
    taken = sh("ip", "-4", "addr", "show", "to", f"{SUBNET}.0/24").stdout.strip()
    if taken:
        pytest.fail(f"{SUBNET}.0/24 is already in use on this machine:\n{taken}")
    sh("ip", "link", "add", BRIDGE, "type", "bridge")
    sh("ip", "addr", "add", f"{SUBNET}.1/24", "dev", BRIDGE)
    sh("ip", "link", "set", BRIDGE, "up")
    for name, octet in HOSTS.items():
        ns, veth = NS_PREFIX + name, f"{VETH_PREFIX}{octet}"
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
        sh("ip", "link", "set", veth, "master", BRIDGE, "up")
        sh("ip", "-n", ns, "addr", "add", f"{addr(name)}/24", "dev", "eth0")
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", ns, "link", "set", "eth0", "up")


def start_sshd(tmp: Path, name: str) -> subprocess.Popen:
    """Debian's sshd on port 22 of the host's address, with a config, host key and pid file of its own: the
    machine's own sshd (and /etc/ssh) is never used or touched."""
    config = tmp / f"sshd-{name}.conf"
    config.write_text(
        "\n".join(
            [
                "Port 22",
                f"ListenAddress {addr(name)}",
                f"HostKey {tmp}/host_key",
                f"PidFile {tmp}/sshd-{name}.pid",
                f"AuthorizedKeysFile {tmp}/authorized_keys",
                "PermitRootLogin prohibit-password",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PubkeyAuthentication yes",
                # A temp folder under /tmp fails sshd's ownership checks; no PAM stack is needed for a key login.
                "StrictModes no",
                "UsePAM no",
                "",
            ]
        )
    )
    return subprocess.Popen(
        ["ip", "netns", "exec", NS_PREFIX + name, SSHD, "-D", "-f", str(config), "-E", str(tmp / f"sshd-{name}.log")],
        stdin=subprocess.DEVNULL,
    )


def wait_port(host: str, port: int, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def tf_outputs(root: Path) -> dict:
    """What `terraform -chdir=infra output -json` would print for this stack (the shape of infra/outputs.tf)."""
    entry = lambda name: {"name": name, "public_ip": addr(name), "private_ip": addr(name)}
    values = {
        "inventory": {"thread": [entry("thread")], "delay": [entry("delay")], "injector": [entry("injector-0")]},
        "ssh_user": "root",
        "loadlab_dir": str(root),
        "ready_marker": f"{root}/.ready",
        "ttl_minutes": 180,
        "instance_types": {"thread": "netns-standin", "delay": "netns-standin", "injector": "netns-standin"},
        "hourly_cost_usd": 0,
    }
    return {k: {"sensitive": False, "type": "any", "value": v} for k, v in values.items()}


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    why = unusable()
    if why:
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("ssh")
    root = tmp / "opt-loadlab"  # the hosts' loadlab_dir; /opt/loadlab on EC2
    root.mkdir()
    outputs = tmp / "tf-outputs.json"
    outputs.write_text(json.dumps(tf_outputs(root)))
    sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp / "host_key"))
    sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "loadlab-test", "-f", str(tmp / "id_test"))
    shutil.copy(tmp / "id_test.pub", tmp / "authorized_keys")
    env = {
        "LOADLAB_TF_OUTPUTS_JSON": str(outputs),
        "SSH_PRIVATE_KEY": str(tmp / "id_test"),
        "LOADLAB_REMOTE_JAVA": str(find_jdk() / "bin" / "java"),
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # for the in-process topology below; make gets them explicitly
    privsep = Path("/run/sshd")  # sshd's privilege-separation folder, normally made at boot
    made_privsep = not privsep.exists()
    sshds = []
    topo = None
    assert not teardown_network(), "leftovers of an earlier run could not be removed"
    try:
        privsep.mkdir(mode=0o755, exist_ok=True)
        make_network()
        topo = topology.build("aws", 1, tmp / "runs" / "up", Path())
        targets.aws_forget_ssh(topo.hosts())  # host keys a previous run of this test left behind
        for name in HOSTS:
            sshds.append(start_sshd(tmp, name))
        for name in HOSTS:
            wait_port(addr(name), 22)
        yield {"tmp": tmp, "root": root, "env": env, "topo": topo}
    finally:
        if topo is not None:
            targets.aws_forget_ssh(topo.hosts())
        for name in HOSTS:  # a failed run's services, stopped the way a run stops them
            subprocess.run(
                [str(REPO / "infra" / "host" / "loadlab-host"), "stop-all", "10"],
                capture_output=True,
                env={**os.environ, "LOADLAB_STATE": str(root / "state" / name)},
            )
        for p in sshds:
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        left = teardown_network()
        if made_privsep:
            shutil.rmtree(privsep, ignore_errors=True)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        assert not left, f"could not remove {left}"


def test_wait_ready_waits_for_the_marker_and_stops_on_a_failed_host(stack):
    topo, root = stack["topo"], stack["root"]
    (root / ".failed").write_text("user-data failed at line 1\n")
    with pytest.raises(topology.HostError, match="preparing the host failed"):
        targets.aws_wait_ready(topo, f"{root}/.ready", timeout_s=5, poll_s=0.2)
    (root / ".failed").unlink()
    with pytest.raises(topology.HostError, match="is not ready after 1 s"):
        targets.aws_wait_ready(topo, f"{root}/.ready", timeout_s=1, poll_s=0.2)
    (root / ".ready").write_text('{"name": "stand-in"}\n')
    targets.aws_wait_ready(topo, f"{root}/.ready", timeout_s=30, poll_s=0.2)  # returns: it saw the marker


@pytest.fixture(scope="module")
def bench(stack):
    results = stack["tmp"] / "results"
    env = {**TINY, **stack["env"], "RESULTS_DIR": str(results)}
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        r = make("bench", env=env, timeout=600)
        if "another `make bench` is running" not in r.stderr or time.monotonic() > deadline:
            break
        time.sleep(5)
    left = {ns: sh("ip", "netns", "pids", ns, check=False).stdout.split() for ns in our_namespaces()}
    return {"r": r, "run_dir": (results / "latest").resolve(), "left": left}


def test_bench_completes_over_ssh_and_writes_the_usual_run_folder(bench):
    r, run_dir = bench["r"], bench["run_dir"]
    out = r.stdout[-4000:] + r.stderr[-4000:]
    assert harness_exit(r) in (0, 1), out  # 1: a mode judged invalid
    meta = json.loads((run_dir / "params.json").read_text())
    assert "failed" not in meta and not meta.get("interrupted"), out
    assert meta["modes_completed"] == MODES, out
    assert meta["target"] == "aws"
    assert {role: h["address"] for role, h in meta["hosts"].items()} == {
        "delay": addr("delay"),
        "thread": addr("thread"),
        "injector-0": addr("injector-0"),
    }
    assert meta["hosts"]["thread"]["description"].startswith("EC2 netns-standin thread")
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["target"] == "aws" and set(summary["modes"]) == set(MODES)
    for mode in MODES:
        assert summary["modes"][mode]["requests"] > 0, summary["modes"][mode]
        assert (run_dir / mode / "timeline.csv").stat().st_size > 0
        assert (run_dir / mode / "server.csv").stat().st_size > 0
    assert (run_dir / "index.html").stat().st_size > 10_000
    if harness_exit(r) == 1:  # only an invalid verdict (a busy shared machine) may fail a run that completed
        assert any(not m["valid"] for m in summary["modes"].values()), out


def test_the_delay_service_served_the_bimodal_distribution_and_its_record_came_back(bench):
    """The top level's 120 answers, by the delay-service's own record (raw/delay/served.hlog, from the delay host):
    the median at the fast 200 ms and the p90 in the slow 20% at 600 ms (fewer than 13 slow answers of 120, where 24
    are expected, has a chance under 0.1%), neither later than the served-delay check's limit."""
    run_dir = bench["run_dir"]
    assert (run_dir / "raw" / "delay" / "served.hlog").stat().st_size > 0
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["downstream"]["distribution"].startswith("bimodal: 600 ms for 20%, 200 ms for the rest")
    top = summary["modes"][MODES[0]]["levels"][-1]
    served = top["served_ms"]
    assert served and served["answers"] >= 100, top
    assert 200 <= served["p50"] <= 240 and 600 <= served["p90"] <= 720, served


def test_every_hosts_files_came_back_by_rsync(bench, stack):
    run_dir, remote = bench["run_dir"], stack["root"] / "runs" / bench["run_dir"].name
    for mode in MODES:
        for f in ("seconds.csv", "latency.hlog", "meta.json", "samples.csv"):
            assert (run_dir / mode / "raw" / "injector-0" / f).stat().st_size > 0, (mode, f)
        for host in ("thread", "delay"):
            assert (run_dir / mode / "raw" / host / "samples.csv").stat().st_size > 0, (mode, host)
        assert len(list((run_dir / mode / "gatling" / "injector-0").glob("*/index.html"))) == 1, mode
    logs = {p.name for p in (run_dir / "logs").iterdir()}
    assert {
        "delay-service.log",
        *(f"{m}-thread-service.log" for m in MODES),
        *(f"{m}-gatling-injector-0.log" for m in MODES),
    } <= logs, logs
    # Written on the hosts (their loadlab_dir), not in the local run folder, and copied back byte for byte.
    seconds = Path(MODES[0], "raw", "injector-0", "seconds.csv")
    assert (remote / seconds).read_bytes() == (run_dir / seconds).read_bytes()


def test_app_and_host_scripts_were_pushed_as_files(bench, stack):
    root = stack["root"]
    for jar in ("delay-service.jar", "thread-service.jar"):
        assert (root / "app" / jar).is_file() and not (root / "app" / jar).is_symlink(), jar
    assert any((root / "app" / "gatling" / "lib").glob("*.jar"))
    assert (root / "app" / "gatling" / "test-classes").is_dir() and (root / "app" / "gatling" / "jvm.options").is_file()
    assert os.access(root / "host" / "loadlab-host", os.X_OK) and (root / "host" / "loadlab-sample").is_file()
    assert (root / "host" / "sample_http.py").is_file()  # the sampler's HTTP readers, which it imports
    # loadlab-host sources its parts from lib/ beside it: every one went along.
    parts = {p.name for p in (REPO / "infra" / "host" / "lib").glob("*.bash")}
    assert parts and parts == {p.name for p in (root / "host" / "lib").glob("*.bash")}


def test_everything_went_through_sshd_and_nothing_is_left_running(bench, stack):
    tmp = stack["tmp"]
    for name in HOSTS:
        log = (tmp / f"sshd-{name}.log").read_text()
        assert f"Accepted publickey for root from {SUBNET}.1" in log, (name, log[-2000:])
        # Per-host pid files (the stand-in hosts share one disk), none left once the run stopped everything.
        state = stack["root"] / "state" / name
        assert state.is_dir() and not list(state.glob("*.pid")), (name, list(state.iterdir()))
    # Only sshd and its sessions may remain in the hosts' namespaces: no service, sampler, Gatling or remote tail.
    for ns, pids in bench["left"].items():
        for pid in pids:
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
            except OSError:
                continue
            assert cmd.startswith(("sshd", SSHD)), (ns, pid, cmd)
