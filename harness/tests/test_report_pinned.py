"""The pinned-virtual-thread count is counted, not assumed: a JFR recording with a known number of pinning events
goes through `loadlab-host pinned` (what bench runs after each mode) and the count reaches the page.

data/PinnedFixture.java pins exactly N virtual threads; it is recorded with infra/host/pinned.jfc, the settings the
thread-service runs with.
"""

import json
import os
import re
import subprocess

import pytest
import synthrun
from conftest import REPO
from synthrun import LevelSpec, ModeSpec

from loadlab import summary
from loadlab.java import JdkNotFound, find_jdk

PINNED = 3


@pytest.fixture(scope="module")
def java():
    try:
        return find_jdk() / "bin" / "java"
    except JdkNotFound as e:
        pytest.skip(str(e))


def record(java, tmp_path, n: int):
    jfr = tmp_path / "pinned.jfr"
    settings = REPO / "infra" / "host" / "pinned.jfc"
    subprocess.run(
        [
            str(java),
            "--enable-native-access=ALL-UNNAMED",
            f"-XX:StartFlightRecording=filename={jfr},dumponexit=true,settings={settings}",
            str(REPO / "harness" / "tests" / "data" / "PinnedFixture.java"),
            str(n),
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
    assert found == {"virtual_thread_pinned_events": PINNED}

    run = tmp_path / "run"
    synthrun.write_params(run, modes=["virtual"])
    synthrun.write_mode(run, "virtual", ModeSpec([LevelSpec(100), LevelSpec(200)]))
    (run / "virtual" / "raw" / "thread" / "pinned.json").write_text(json.dumps(found))
    result = summary.rebuild(run)
    assert result["modes"]["virtual"]["pinned_virtual_threads"] == PINNED
    html = (run / "index.html").read_text()
    assert re.search(r"pinned virtual threads \(JFR\)</th><td>3</td>", html), "the count is not on the page"


def test_a_recording_without_pinning_counts_zero(java, tmp_path):
    assert count(java, tmp_path, record(java, tmp_path, 0)) == {"virtual_thread_pinned_events": 0}
