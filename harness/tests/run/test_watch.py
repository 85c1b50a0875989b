"""The watcher turns `loadlab-host status` answers into a crash record: which role, on which host, how it ended and
what its log says. A fake host answers in its place; the real script is exercised by test_e2e_crashes.py and here
by one direct call."""

import os
import subprocess
import time
from dataclasses import dataclass, field

from conftest import wait_for

from loadlab.run import watch
from loadlab.run.hosts import HOST_SCRIPTS, Host, HostError


@dataclass
class FakeHost(Host):
    answers: list = field(default_factory=list)  # one per status call: text, or an exception to raise
    causes: dict = field(default_factory=dict)  # log path -> the line log-cause prints
    calls: list = field(default_factory=list)

    def tool(self, *args, check=True, timeout=None):
        self.calls.append(args)
        if args[0] == "log-cause":
            return self.causes.get(args[1], "")
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer


class Clock:
    def __init__(self):
        self.ms = 1_000_000

    def __call__(self):
        return self.ms


def roles(host, injector_host=None):
    return [
        watch.Watched(
            "thread-service",
            "thread-service",
            host,
            "/logs/p-thread.log",
            health_url="http://127.0.0.1:8090/actuator/health",
        ),
        watch.Watched("delay-service", "delay-service", host, "/logs/delay.log"),
        watch.Watched("injector-0", "gatling-injector-0", injector_host or host, "/logs/inj.log", finishes=True),
    ]


RUNNING = "thread-service running\ndelay-service running\ngatling-injector-0 running\nhealth thread-service ok\n"


def test_all_roles_of_a_host_in_one_status_call():
    a, b = (
        FakeHost("a", "10.0.0.1", answers=[RUNNING]),
        FakeHost("b", "10.0.0.2", answers=["gatling-injector-0 running\n"]),
    )
    w = watch.Watcher(roles(a, b))
    assert w.poll() is None
    assert a.calls == [
        (
            "status",
            "--health",
            "thread-service=http://127.0.0.1:8090/actuator/health",
            "thread-service",
            "delay-service",
        )
    ]
    assert b.calls == [("status", "gatling-injector-0")]


def test_a_killed_service_is_a_crash_with_its_signal_and_the_cause_in_its_log():
    host = FakeHost(
        "local",
        "127.0.0.1",
        answers=[RUNNING, RUNNING.replace("thread-service running", "thread-service exited 137")],
        causes={"/logs/p-thread.log": "java.lang.OutOfMemoryError: unable to create native thread"},
    )
    clock = Clock()
    w = watch.Watcher(roles(host), clock=clock)
    assert w.poll() is None
    seen = clock.ms
    clock.ms += 1000
    crash = w.poll()
    assert crash.as_dict() == {
        "role": "thread-service",
        "host": "local",
        "exit": 137,
        "signal": "SIGKILL",
        "cause": "its log says: java.lang.OutOfMemoryError: unable to create native thread",
        "alive_until_epoch_ms": seen,
        "detected_epoch_ms": seen + 1000,
    }


def test_a_service_alive_at_its_cgroup_limit_is_a_crash_named_by_the_limit():
    """A JVM refused a thread does not exit; the host script says `limit` (the kernel counted a refusal), which is a
    crash of the service with the limit its log-cause names, never a collapse."""
    host = FakeHost(
        "local",
        "127.0.0.1",
        answers=[RUNNING.replace("thread-service running", "thread-service limit")],
        causes={"/logs/p-thread.log": "unable to create native thread: pids limit 300"},
    )
    crash = watch.Watcher(roles(host), clock=Clock()).poll()
    assert crash.role == "thread-service" and crash.exit is None and crash.signal is None
    assert crash.cause == (
        "its log says: unable to create native thread: pids limit 300; it hit a limit of its cgroup and was stopped"
    )
    assert ("log-cause", "/logs/p-thread.log", "thread-service") in host.calls


def test_an_injector_that_ends_well_is_done_not_dead_but_one_that_fails_is_a_crash():
    done = RUNNING.replace("gatling-injector-0 running", "gatling-injector-0 exited 0")
    host = FakeHost("local", "127.0.0.1", answers=[done])
    w = watch.Watcher(roles(host))
    assert w.poll() is None and w.all_finished()
    failed = RUNNING.replace("gatling-injector-0 running", "gatling-injector-0 exited 1")
    crash = watch.Watcher(roles(FakeHost("local", "127.0.0.1", answers=[failed]))).poll()
    assert (crash.role, crash.exit, crash.signal, crash.cause) == ("injector-0", 1, None, "nothing in its log says why")


def test_a_process_killed_with_its_wrapper_has_no_exit_code():
    host = FakeHost("local", "127.0.0.1", answers=[RUNNING.replace("delay-service running", "delay-service exited ?")])
    crash = watch.Watcher(roles(host)).poll()
    assert (crash.role, crash.exit, crash.signal, crash.cause) == (
        "delay-service",
        None,
        None,
        "nothing in its log says why",
    )


def test_a_thread_service_that_stops_answering_for_two_seconds_is_dead():
    silent = RUNNING.replace("health thread-service ok", "health thread-service fail")
    host = FakeHost("local", "127.0.0.1", answers=[RUNNING, silent, silent, silent])
    clock = Clock()
    w = watch.Watcher(roles(host), clock=clock)
    assert w.poll() is None
    last_ok = clock.ms
    clock.ms += 1000
    assert w.poll() is None  # one missed answer is load, not death
    clock.ms += 1000
    crash = w.poll()
    assert crash.role == "thread-service" and crash.exit is None and crash.alive_until_ms == last_ok
    assert crash.cause == (
        "it stopped answering: no answer to http://127.0.0.1:8090/actuator/health for 2 s while its process was alive"
    )


def test_a_host_that_stops_answering_loses_its_roles():
    host = FakeHost("thread", "10.0.0.1", answers=[RUNNING, HostError("ssh: connect timed out")])
    clock = Clock()
    w = watch.Watcher(roles(host), clock=clock)
    assert w.poll() is None
    clock.ms += 5000
    assert w.poll() is None  # a hiccup of the connection
    clock.ms += 6000
    crash = w.poll()
    assert crash.role == "thread-service" and crash.cause == "its host thread did not answer for 11 s"


def sampler(host):
    return watch.Watched(
        "delay-service",
        "sampler-delay",
        host,
        "/raw/delay/samples.sampler.log",
        evidence=True,
        output="/raw/delay/samples.csv",
        stale_after_s=3,
    )


def test_a_dead_sampler_loses_evidence_but_never_stops_the_load():
    """Its death is recorded once, with its signal; the poll reports no crash, so the injectors go on."""
    alive = RUNNING + "sampler-delay running\nfresh sampler-delay 0\n"
    dead = RUNNING + "sampler-delay exited 137\n"
    host = FakeHost("local", "127.0.0.1", answers=[alive, dead, dead])
    clock = Clock()
    w = watch.Watcher([*roles(host), sampler(host)], clock=clock)
    assert w.poll() is None
    seen = clock.ms
    for _ in range(2):
        clock.ms += 1000
        assert w.poll() is None and not w.all_finished()
    (loss,) = w.evidence_lost
    assert (loss.role, loss.sampler, loss.what, loss.exit, loss.signal) == (
        "delay-service",
        "sampler-delay",
        "died",
        137,
        "SIGKILL",
    )
    assert loss.alive_until_ms == seen and loss.detected_ms == seen + 1000
    assert host.calls[0][:3] == ("status", "--health", "thread-service=http://127.0.0.1:8090/actuator/health")
    assert ("--fresh", "sampler-delay=/raw/delay/samples.csv") == host.calls[0][3:5]


def test_a_frozen_sampler_is_caught_once_per_silence():
    """Alive, but its file ages: a stall after stale_after_s, said once; writing again re-arms it."""
    ages = [0, 1, 2, 3, 4, 0, 1, 2, 3]
    answers = [RUNNING + f"sampler-delay running\nfresh sampler-delay {a}\n" for a in ages]
    host = FakeHost("local", "127.0.0.1", answers=answers)
    clock = Clock()
    w = watch.Watcher([*roles(host), sampler(host)], clock=clock)
    found = []
    for _ in ages:
        assert w.poll() is None
        found.append(len(w.evidence_lost))
        clock.ms += 1000
    assert found == [0, 0, 0, 1, 1, 1, 1, 1, 2]
    first = w.evidence_lost[0]
    assert first.what == "stalled" and first.exit is None and first.alive_until_ms == 1_000_000
    assert first.cause == "its process runs but wrote no row to /raw/delay/samples.csv for 3 s"


def test_the_host_script_reports_running_exited_absent_and_how_fresh_a_file_is(tmp_path):
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path)}
    script = str(HOST_SCRIPTS / "loadlab-host")
    subprocess.run(
        [script, "start", "ok", str(tmp_path / "ok.log"), "--", "sleep", "30"], env=env, check=True, capture_output=True
    )
    subprocess.run(
        [
            script,
            "start",
            "oom",
            str(tmp_path / "oom.log"),
            "--",
            "bash",
            "-c",
            "echo 'java.lang.OutOfMemoryError: Java heap space'; exit 3",
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    rows = tmp_path / "samples.csv"
    rows.write_text("second\n")
    os.utime(rows, (time.time() - 100, time.time() - 100))  # a sampler's file last written 100 s ago
    fresh = ["--fresh", f"ok={rows}", "--fresh", f"never={tmp_path / 'none.csv'}"]
    try:

        def once_oom_exited() -> str | None:
            out = subprocess.run(
                [script, "status", "--health", "ok=http://127.0.0.1:9/", *fresh, "ok", "oom", "never"],
                env=env,
                capture_output=True,
                text=True,
            ).stdout
            return out if "oom exited" in out else None

        out = wait_for(once_oom_exited, "the oom process reported exited")
        status = watch.parse_status(out)
        assert status.states == {"ok": "running", "oom": "exited 3", "never": "absent"}
        assert status.health == {"ok": False}
        assert status.age_s["never"] is None and 100 <= status.age_s["ok"] < 200, status.age_s
        cause = subprocess.run(
            [script, "log-cause", str(tmp_path / "oom.log")], env=env, capture_output=True, text=True
        ).stdout.strip()
        assert cause == "java.lang.OutOfMemoryError: Java heap space"
    finally:
        subprocess.run([script, "stop", "ok", "2"], env=env, capture_output=True)
