"""A level bound by garbage collection right before an out-of-memory death is the crash coming, not the service's
collapse at its rate (summary/judge/gc_crash.py): the knee is not placed at it, and summary.json and the page name
both."""

import json
import time

import synthrun
from synthrun import SLOW_TAIL, ModeSpec, stairs
from test_crash_verdict import rebuild_with_crash

from loadlab import report
from loadlab.analysis.gc_bound import GC_BOUND_SHARE
from loadlab.run import console
from loadlab.summary.verdicts import records

OOM = "its log says: memory limit 300 MB: killed by the kernel's OOM killer"


def test_a_gc_bound_level_before_an_out_of_memory_kill_is_counted_with_the_crash_not_as_a_collapse(tmp_path):
    # level 3 paused 720 ms of every second, the kill came in level 4: level 3 is the crash coming, not the knee
    result = rebuild_with_crash(
        tmp_path,
        ModeSpec(stairs(l2=dict(latency=SLOW_TAIL, gc_ms_per_s=720))),
        level=3,
        second=1,
        exit=None,
        cause=OOM,
        pages=True,
    )
    platform = result["modes"]["platform"]
    assert platform["collapsed"] is False and platform["sustained_rps"] == 200, platform
    assert platform["knee_interval_rps"] is None and platform["knee_bound"] is None
    assert platform["crashed"]["gc_bound"] == [
        {
            "pass": "coarse",
            "level": 3,
            "level_rps": 300,
            "gc_pause_share": 0.72,
            "read_from": "the JVM's GC pause counter (server.csv)",
            "crash_after_s": 2,
        }
    ]
    note = (
        "level 3 (300 rps) was GC-bound (72% of its seconds in GC pauses, by the JVM's GC pause counter (server.csv)) "
        "and the out-of-memory kill followed 2 s later: it is counted with the crash, not as the service's collapse "
        "at that rate"
    )
    assert note in platform["notes"]
    assert not [n for n in platform["notes"] if "its instrument saturated" in n]
    level_3 = platform["levels"][2]
    assert level_3["set_aside"].startswith("counted with the crash: GC-bound (72% of its seconds in GC pauses")
    assert platform["invalid_reasons"][0].startswith("the thread-service on local died at second 10 of the measured")
    assert len(platform["invalid_reasons"]) == 1, platform["invalid_reasons"]  # no "instrument saturated" reason
    page = (tmp_path / "index.html").read_text()
    assert "was GC-bound (72% of its seconds in GC pauses" in page and "OUT OF MEMORY" in page


def test_the_console_says_the_level_is_the_crashs_not_an_instrument_saturated(tmp_path, capsys):
    rebuild_with_crash(
        tmp_path, ModeSpec(stairs(l2=dict(latency=SLOW_TAIL, gc_ms_per_s=720))), level=3, second=1, exit=None, cause=OOM
    )
    console.table(records.read(tmp_path), tmp_path)
    out = capsys.readouterr().out
    assert "platform: level 3 (300 rps) counted with the crash: GC-bound (72% of its seconds" in out
    assert "SET ASIDE level 3" not in out


def test_the_flight_recording_says_gc_bound_where_the_sampled_counter_missed_it(tmp_path):
    # the counter says 5 ms a second (the sampler missed the pauses); the recording has 2.4 s of pauses in 3 s
    spec = ModeSpec(stairs(l2=dict(latency=SLOW_TAIL, gc_ms_per_s=5)))
    t0 = spec.start_epoch + spec.warmup_seconds
    events = [gc_event(t0 + 6 + s, 800) for s in range(3)]
    flight = tmp_path / "platform" / "raw" / "thread" / "flight.json"
    record = synthrun.crash("thread-service", spec, 3, 1, exit=None, cause=OOM)
    synthrun.write_params(tmp_path, crashes={"platform": record})
    synthrun.write_mode(tmp_path, "platform", spec)
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs()))
    flight.write_text(json.dumps({"recording": {"events": events}}))
    platform = report.rebuild(tmp_path).as_json()["modes"]["platform"]
    (bound,) = platform["crashed"]["gc_bound"]
    assert (bound["gc_pause_share"], bound["read_from"]) == (0.8, "the service's flight recording")
    assert platform["collapsed"] is False and platform["sustained_rps"] == 200


def gc_event(second: int, pause_ms: int) -> dict:
    """A jdk.GarbageCollection event as `jfr print --json` writes it, within `second`."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)) + ".100000000Z"
    pause = f"PT{pause_ms / 1000:.3f}S"
    return {"type": "jdk.GarbageCollection", "values": {"startTime": stamp, "duration": pause, "sumOfPauses": pause}}


def test_a_level_short_of_the_gc_bound_or_a_death_not_of_memory_stays_the_services_collapse(tmp_path):
    # just under the threshold: the service still ran more than it paused; its collapse is its own
    below = round(GC_BOUND_SHARE * 1000) - 20
    result = rebuild_with_crash(
        tmp_path / "below",
        ModeSpec(stairs(l2=dict(latency=SLOW_TAIL, gc_ms_per_s=below))),
        level=3,
        second=1,
        exit=None,
        cause=OOM,
    )
    platform = result["modes"]["platform"]
    assert platform["collapsed"] is True and platform["sustained_rps"] == 200
    assert platform["crashed"]["gc_bound"] == [] and not [n for n in platform["notes"] if "GC-bound" in n]
    # GC-bound, but the death was a kill nothing puts down to memory: not the crash's (the collapse stands)
    result = rebuild_with_crash(
        tmp_path / "kill", ModeSpec(stairs(l2=dict(latency=SLOW_TAIL, gc_ms_per_s=720))), level=3, second=1
    )
    platform = result["modes"]["platform"]
    assert platform["collapsed"] is True and platform["crashed"]["gc_bound"] == []
