"""The pass's Gatling JVMs boot while the service starts (or drains) and wait for their go file (load.py,
GoSignal.java): the go is given only once the service answered, several injectors get one instant once every JVM is
waiting, and a pass that will not run (its service never came up, an app refused, Ctrl-C, a drain that did not end)
stops its waiting JVMs and leaves no folder of a load that never began. A host that records what it was asked stands
for the real ones; the real JVMs' side is GoSignalTest.java and the e2e runs."""

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from bench_run import bench_run

from loadlab.core import params
from loadlab.core.runplan import ModeRun
from loadlab.core.thresholds import Thresholds
from loadlab.run import bench, finepasses, load, services
from loadlab.run.context import Run
from loadlab.run.hosts import Host, HostError
from loadlab.run.topology import Topology
from loadlab.summary.judge import fine_plan


@dataclass
class RecordingHost(Host):
    """Runs nothing: records each command; its Gatling consoles say `ready` at once (or never: `silent`)."""

    calls: list[list[str]] = field(default_factory=list)
    silent: bool = False

    def run(self, argv, *, check=True, timeout=120, capture=True):
        self.calls.append([str(a) for a in argv])
        out = f"{argv[2]} running" if argv[1:2] == ["status"] else ""
        return subprocess.CompletedProcess(argv, 0, out, "")

    def tool_path(self) -> str:
        return "loadlab-host"

    def follow(self, path: str) -> subprocess.Popen:
        line = "" if self.silent else "LOADLAB inj=0 ready: waiting for the go file x\\n"
        return subprocess.Popen(["printf", line], stdout=subprocess.PIPE, text=True)

    def said(self, *words: str) -> list[list[str]]:
        return [c for c in self.calls if all(w in " ".join(c) for w in words)]


def make_run(tmp_path: Path, injectors: int = 1) -> tuple[Run, list[RecordingHost]]:
    values = params.parse({"RESULTS_DIR": str(tmp_path), "REFINE": "1"})
    hosts = [
        RecordingHost(f"h{i}", "127.0.0.1", state_dir=str(tmp_path / f"state{i}"), work_root=str(tmp_path))
        for i in range(injectors + 1)
    ]
    run = bench_run(values, Topology(hosts[0], hosts[0], hosts[1:]), tmp_path)
    run.meta = {"thresholds": Thresholds().as_dict(), "modes_completed": []}
    return run, hosts


def gos(h: RecordingHost) -> list[list[str]]:
    return h.said("printf", ".go")


def test_the_simulation_is_told_to_wait_for_its_own_go_file_and_an_earlier_go_is_removed_first(tmp_path):
    run, (_, inj) = make_run(tmp_path)
    launched = load.launch(run, "platform")
    go = str(tmp_path / "state1" / "gatling-injector-0.go")
    assert inj.calls[0] == ["rm", "-f", go]
    (gatling,) = inj.said("loadlab-host gatling gatling-injector-0")
    assert f"-Dloadlab.goFile={go}" in gatling and f"-Dloadlab.goTimeoutSeconds={load.GO_TIMEOUT_S}" in gatling
    assert not [a for a in gatling if a.startswith("-Dloadlab.startAtEpochMs")], "the instant comes with the go"
    assert not gos(inj)
    load.cancel(run, launched)


@pytest.mark.parametrize("failure", [HostError("thread-service exited before it answered"), KeyboardInterrupt()])
def test_a_service_that_never_came_up_or_ctrl_c_stops_the_waiting_gatling_and_leaves_no_injector_folder(
    tmp_path, monkeypatch, failure
):
    run, (_, inj) = make_run(tmp_path)

    def refuse(*_):
        raise failure

    monkeypatch.setattr(services, "start_thread_service", refuse)
    with pytest.raises(type(failure)):
        bench.run_mode(run, ModeRun("platform", 25, 200))
    assert not gos(inj), "a go was given to a pass whose service never answered"
    assert inj.said("loadlab-host stop gatling-injector-0")
    report = str(tmp_path / "platform" / "gatling" / "injector-0")
    assert ["rmdir", report, str(Path(report).parent)] in inj.calls
    assert not inj.said("sampler-injector-0"), "the injector's sampler starts with the go, not before"
    assert run.meta["modes_completed"] == []


def test_a_fine_pass_whose_drain_did_not_end_is_cancelled_before_its_go(tmp_path, monkeypatch):
    run, (_, inj) = make_run(tmp_path)
    step = fine_plan.FineStep(rates=(40.0, 42.0), baseline_p50_ms=210.0, warmup_rps=20.0)
    monkeypatch.setattr(fine_plan, "next_fine_pass", lambda *_: step)
    monkeypatch.setattr(finepasses, "drain", lambda _: "the thread-service still had 3 requests in flight")
    assert finepasses.refine_knee(run, "platform") == ([], None)
    assert inj.said("loadlab-host gatling gatling-injector-0", "refine-1")
    assert not gos(inj) and inj.said("loadlab-host stop gatling-injector-0")
    report = str(tmp_path / "platform" / "gatling" / "refine-1-injector-0")
    assert ["rmdir", report, str(Path(report).parent)] in inj.calls
    assert run.meta["refine_skipped"]["platform"].startswith("the thread-service still had")


def test_the_go_carries_the_start_instant_and_only_then_come_the_raw_folder_and_the_sampler(tmp_path, monkeypatch):
    run, (_, inj) = make_run(tmp_path)
    monkeypatch.setattr(load, "supervise", lambda *_: ([], None))
    monkeypatch.setattr(load, "watched", lambda *_: [])
    launched = load.launch(run, "virtual")
    before = len(inj.calls)
    assert load.run_load(run, "virtual", launched=launched) == ([], None)
    after = [" ".join(c) for c in inj.calls[before:]]
    assert "printf %s" in after[0] and after[0].endswith("gatling-injector-0.go")
    assert after[1].startswith("mkdir -p") and after[1].endswith("virtual/raw/injector-0")
    assert any("loadlab-host sampler sampler-injector-0" in c for c in after[2:])


def test_several_injectors_get_one_instant_once_every_jvm_waits_for_it(tmp_path, monkeypatch):
    run, (_, a, b) = make_run(tmp_path, injectors=2)
    monkeypatch.setattr(load, "supervise", lambda *_: ([], None))
    monkeypatch.setattr(load, "watched", lambda *_: [])
    launched = load.launch(run, "virtual")
    for ready in launched.ready:
        assert ready.wait(10), "a ready line was not seen"
    load.run_load(run, "virtual", launched=launched)
    instants = {g[2].split()[2] for h in (a, b) for g in gos(h)}
    assert len(instants) == 1, instants


def test_an_injector_that_ended_before_it_was_ready_does_not_hold_the_others_go(tmp_path, monkeypatch):
    run, (_, a, b) = make_run(tmp_path, injectors=2)
    b.silent = True  # its JVM never says it is ready…
    monkeypatch.setattr(
        b, "run", lambda argv, **k: subprocess.CompletedProcess(argv, 0, "gatling-injector-1 exited 1", "")
    )
    launched = load.launch(run, "virtual")
    launched.ready[0].wait(10)
    load.wait_ready(launched)  # …and has exited: the watcher finds it right after the go, no one waits for it
    assert not launched.ready[1].is_set()
    load.cancel(run, launched)
