"""An application under test (APP) in summary.json: the live-config check proves from the host and the flight
recording what its requests ran on, and a knee no model explains is said so plainly, with what the evidence shows."""

import json

import synthrun
from conftest import summarised
from synthrun import ModeSpec, stairs

from loadlab import report

APP = "/opt/apps/orders.jar"


def write_app_mode(run_dir, mode, levels, *, virtual_starts, pool_threads, events=None, actuator=None, gc_ms=0.0):
    """A mode as bench writes it for an app: the injectors' files, Tomcat's request threads as the host saw them
    (request_pool.csv), the recording's counts (pinned.json) and, when given, the app's own Actuator gauges."""
    synthrun.write_mode(run_dir, mode, ModeSpec(levels))
    thread = run_dir / mode / "raw" / "thread"
    seconds = range(synthrun.START_EPOCH, synthrun.START_EPOCH + 40)
    # As the host counts them: Tomcat's connector threads, its Acceptor and Poller with the request pool.
    rows = [f"{s},{pool_threads + 2}" for s in seconds]
    (thread / "request_pool.csv").write_text("second,named_threads\n" + "\n".join(rows) + "\n")
    counts = {"jdk.VirtualThreadStart": virtual_starts, **(events or {})}
    counts = {k: v for k, v in counts.items() if v}  # `jfr summary` rows with a count of 0 are left out
    (thread / "pinned.json").write_text(
        json.dumps(
            {
                "virtual_thread_pinned_events": counts.get("jdk.VirtualThreadPinned", 0),
                "event_counts": counts,
                "gc_pause_total_ms": gc_ms,
                "gc_pause_max_ms": gc_ms / 10,
            }
        )
    )
    if actuator:
        names = list(actuator)
        lines = [f"{s}," + ",".join(str(actuator[n]) for n in names) for s in seconds]
        (thread / "actuator.csv").write_text("second," + ",".join(names) + "\n" + "\n".join(lines) + "\n")


def test_an_app_that_switched_is_valid_in_both_modes_with_its_evidence(tmp_path):
    synthrun.write_params(tmp_path, APP=APP, APP_PATH="/orders/42")
    write_app_mode(tmp_path, "platform", stairs([100, 200, 300]), virtual_starts=0, pool_threads=200)
    write_app_mode(tmp_path, "virtual", stairs([100, 200, 300]), virtual_starts=5_000, pool_threads=0)
    result = summarised(tmp_path)
    for mode in ("platform", "virtual"):
        m = result["modes"][mode]
        assert m["valid"], m["invalid_reasons"]
    assert result["modes"]["virtual"]["app_evidence"]["virtual_threads_started"] == 5_000
    assert result["modes"]["platform"]["app_evidence"]["request_pool_threads_max"] == 200
    # Both held the top of the stairs: a ratio would be PEAK_RPS over itself (1.00x), so there is none, and why.
    assert result["virtual_over_platform"] is None
    assert "neither mode reached its knee" in result["virtual_over_platform_reason"]
    assert "raise PEAK_RPS" in result["virtual_over_platform_reason"]


def test_an_app_that_ignores_the_switch_is_caught_in_both_modes(tmp_path):
    """Its own platform executor: no virtual thread started in virtual mode, no Tomcat pool thread in platform."""
    synthrun.write_params(tmp_path, APP=APP)
    write_app_mode(tmp_path, "platform", stairs([100, 200, 300]), virtual_starts=0, pool_threads=0)
    write_app_mode(tmp_path, "virtual", stairs([100, 200, 300]), virtual_starts=2, pool_threads=0)
    result = report.rebuild(tmp_path).as_json()
    virtual, platform = result["modes"]["virtual"], result["modes"]["platform"]
    assert not virtual["valid"] and any(
        r.startswith("the app did not switch to virtual threads: 2 virtual threads started for")
        for r in virtual["invalid_reasons"]
    )
    assert not platform["valid"] and any(
        r.startswith("the pool size did not take effect: no request ran on Tomcat's request pool")
        for r in platform["invalid_reasons"]
    )
    assert result["virtual_over_platform"] is None
    page = (tmp_path / "index.html").read_text()
    assert "the app did not switch to virtual threads" in page


def test_virtual_mode_serving_on_tomcats_platform_pool_and_a_platform_pool_larger_than_asked_are_caught(tmp_path):
    synthrun.write_params(tmp_path, APP=APP, platform_threads=50)
    write_app_mode(
        tmp_path,
        "platform",
        stairs([100, 200]),
        virtual_starts=0,
        pool_threads=80,
        actuator={"tomcat.threads.config.max": 80.0, "tomcat.threads.busy": 12.0},
    )
    write_app_mode(tmp_path, "virtual", stairs([100, 200]), virtual_starts=9_000, pool_threads=10)
    result = summarised(tmp_path)
    platform = result["modes"]["platform"]["invalid_reasons"]
    assert "the pool size did not take effect: 80 Tomcat request threads ran, more than PLATFORM_THREADS=50" in platform
    assert any("tomcat.threads.config.max says 80, not PLATFORM_THREADS=50" in r for r in platform)
    assert any(
        "up to 10 of Tomcat's platform request threads" in r for r in result["modes"]["virtual"]["invalid_reasons"]
    )


def test_without_the_recording_virtual_mode_cannot_be_proven_and_is_not_trusted(tmp_path):
    synthrun.write_params(tmp_path, APP=APP, modes=("virtual",))
    write_app_mode(tmp_path, "virtual", stairs([100, 200]), virtual_starts=5_000, pool_threads=0)
    (tmp_path / "virtual" / "raw" / "thread" / "pinned.json").unlink()
    m = summarised(tmp_path)["modes"]["virtual"]
    assert not m["valid"]
    assert "the app's flight recording was not read" in " ".join(m["invalid_reasons"])


def test_a_knee_well_below_every_prediction_is_said_plainly_with_what_the_evidence_points_to(tmp_path):
    # Little's law for 200 threads at a 201 ms baseline is ~995 rps; the app collapsed at 300.
    synthrun.write_params(tmp_path, APP=APP, modes=("platform",))
    write_app_mode(
        tmp_path,
        "platform",
        stairs([100, 200, 300, 400], slow_from=300),
        virtual_starts=0,
        pool_threads=40,
        events={"jdk.JavaMonitorEnter": 1_234},
        actuator={"hikaricp.connections.pending": 7.0, "hikaricp.connections.max": 10.0},
        gc_ms=200.0,
    )
    m = report.rebuild(tmp_path).as_json()["modes"]["platform"]
    sentence = m["app_evidence"]["unexplained_limit"]
    assert sentence and "a limit inside the application that none of the lab's models explains" in sentence
    assert "1,234 monitor waits of 20 ms or more" in sentence
    assert "HikariCP pool of 10 connections: up to 7 pending" in sentence
    assert "GC pauses" not in sentence  # 0.2 s in the mode's seconds: nothing to name
    assert sentence in m["notes"]
    page = (tmp_path / "index.html").read_text()
    assert "a limit inside the application" in page
    # that note is no CPU's: the headline read "at platform's knee this machine ran out of CPU (see the note)"
    assert "ran out of CPU (see the note)" not in page


def test_a_knee_a_model_explains_gets_no_such_sentence(tmp_path):
    synthrun.write_params(tmp_path, APP=APP, modes=("platform",), platform_threads=60)
    # Little's law: 60 threads / 0.201 s = 299 rps; the knee at 300 agrees.
    write_app_mode(tmp_path, "platform", stairs([100, 200, 300, 400], slow_from=400), virtual_starts=0, pool_threads=60)
    m = summarised(tmp_path)["modes"]["platform"]
    assert m["collapsed"] and m["app_evidence"]["unexplained_limit"] is None
    assert "Tomcat's pool reached its 60 threads" in m["app_evidence"]["points_to"]


def test_a_knee_below_the_first_level_is_not_called_a_knee_at_0_rps(tmp_path):
    """The first level unhealthy: the knee lies somewhere below it, which tells nothing about the predictions
    (prediction.NOT_PLACED); the sentence read "The knee (0 rps) sits well below every prediction"."""
    synthrun.write_params(tmp_path, APP=APP, modes=("platform",))
    write_app_mode(tmp_path, "platform", stairs([100, 200], slow_from=100), virtual_starts=0, pool_threads=200)
    m = summarised(tmp_path)["modes"]["platform"]
    assert m["collapsed"] and m["sustained_rps"] == 0 and m["knee_interval_rps"][0] is None
    assert m["app_evidence"]["unexplained_limit"] is None
    assert not any("The knee (0 rps)" in n for n in m["notes"])
