"""The wait profile from the agent's file: a real run's file read and placed level by level, the folded stacks
written, the knee named by the site whose waiting grew, and every way the profile cannot say, said in words."""

import re
from pathlib import Path

from loadlab.analysis.levels import level_number
from loadlab.analysis.wait_profile import LevelWaits, SecondSamples, Site, grew, profile
from loadlab.analysis.wait_sites import DOWNSTREAM, QUEUED, RUNNING, Sample
from loadlab.summary.reading import waits

DATA = Path(__file__).resolve().parents[1] / "data" / "waits"
REPO = Path(__file__).resolve().parents[3]
# A real run's platform mode (10 Tomcat threads, DELAY_MS=100, JDK 25): level 1 at 40 rps, level 2 at 107 rps.
LEVEL_1 = range(1795850732, 1795850738)
LEVEL_2 = range(1795850738, 1795850744)


def real_file(tmp_path: Path) -> Path:
    mode = tmp_path / "platform"
    (mode / "raw" / "thread").mkdir(parents=True)
    (mode / waits.RAW_FILE).write_text((DATA / "platform-10-threads.tsv").read_text())
    return mode


def test_a_real_pool_at_its_ten_threads_waits_on_the_downstream(tmp_path):
    agent, why = waits.read(real_file(tmp_path))
    assert why is None and agent is not None and agent.header["jdk"] == "25"
    light = profile((agent.seconds[s] for s in LEVEL_1), {s: 4.0 for s in LEVEL_1})
    assert light.too_few is None
    assert (light.sites[0].category, light.sites[0].site) == (DOWNSTREAM, "the JDK HttpClient's call")
    full = profile((agent.seconds[s] for s in LEVEL_2), {s: 80.0 for s in LEVEL_2})
    assert abs(full.at(DOWNSTREAM, "the JDK HttpClient's call") - 10) < 0.01  # every one of the 10 threads
    assert full.sites[0].category == QUEUED and abs(full.sites[0].mean_requests - 70.0) < 0.01
    growth = grew(light, full)
    assert growth is not None and growth.site.category == QUEUED


def test_folded_stacks_are_written_per_level_numbered_from_one(tmp_path):
    mode = real_file(tmp_path)
    agent, _ = waits.read(mode)

    class Lv:
        def __init__(self, position, window):
            self.position, self.waits = position, profile(agent.seconds[s] for s in window)

    waits.write_folded(mode, [("", [Lv(0, LEVEL_1), Lv(1, LEVEL_2)]), ("refine-1", [Lv(0, LEVEL_2)])])
    names = sorted(p.name for p in (mode / "waits").iterdir())
    assert names == ["level-01.folded", "level-02.folded", "refine-1-level-01.folded"]
    assert waits.file_name("", level_number(0)) == "level-01.folded"
    line = (mode / "waits" / "level-02.folded").read_text().splitlines()[0]
    assert re.fullmatch(r"\S+;\[[^]]+\] \d+", line), line  # frame;frame;[category] count: what flame graphs read


def test_what_cannot_be_read_is_said_never_guessed(tmp_path):
    mode = tmp_path / "virtual"
    assert waits.read(mode) == (
        None,
        f"no wait profile: virtual/{waits.RAW_FILE} was not written (the wait agent did not run)",
    )
    (mode / "raw" / "thread").mkdir(parents=True)
    (mode / waits.RAW_FILE).write_text("# loadlab-waits 9 periodMs=500\n")
    assert "has layout" in waits.read(mode)[1]
    # a line cut by a crash: the seconds before it stand
    (mode / waits.RAW_FILE).write_text(
        "# loadlab-waits 1 periodMs=500\nK\t1\ta;b\nT\t10\t2\tplatform\tRUNNABLE\t-\t1\nS\t10\t1\t3\t2\nT\t11\tx"
    )
    agent, why = waits.read(mode)
    assert why is None and list(agent.seconds) == [10]


def test_too_few_samples_place_no_site_and_a_reactive_service_has_no_request_thread():
    one = SecondSamples(
        10,
        1,
        5.0,
        ((3, Sample("platform", "RUNNABLE", "-", "org.apache.catalina.connector.CoyoteAdapter.service;a.B.c")),),
    )
    assert "too few samples" in profile([one]).too_few
    loops = SecondSamples(
        10, 2, 5.0, ((8, Sample("platform", "RUNNABLE", "-", "io.netty.channel.nio.NioEventLoop.run")),)
    )
    assert "no request thread" in profile([loops] * 3).too_few
    assert grew(profile([one]), profile([one] * 30)) is None


def test_the_requests_in_flight_are_read_at_the_instants_sampled():
    busy = Sample("platform", "RUNNABLE", "-", "org.apache.catalina.connector.CoyoteAdapter.service;a.B.c")
    # a queue growing through the level; the sampler, slowed by it, took 3 dumps early and 1 late
    seconds = [
        SecondSamples(1, 3, 1.0, ((30, busy),)),
        SecondSamples(2, 0, 0, ()),
        SecondSamples(3, 1, 1.0, ((10, busy),)),
    ]
    waits = profile(seconds, {1: 20.0, 2: 40.0, 3: 60.0})
    assert waits.inflight == (3 * 20 + 60) / 4 and waits.at(QUEUED, waits.sites[0].site) == 30 - 10


def test_a_site_grew_only_beyond_the_samples_noise():
    def level(**means):
        sites = tuple(Site(cat, cat, n, 0.0) for cat, n in means.items())
        return LevelWaits(10, 200, None, sites)

    assert grew(level(downstream=10.0, running=0.5), level(downstream=10.4, running=0.9)) is None
    growth = grew(level(downstream=10.0, running=0.5), level(downstream=10.0, running=6.0))
    assert growth.site.category == RUNNING and growth.before == 0.5


def test_the_agents_layout_version_is_the_one_this_harness_reads():
    java = (REPO / "wait-agent/src/main/java/loadlab/waits/WaitsFile.java").read_text()
    assert re.search(r"static final int VERSION = (\d+);", java).group(1) == str(waits.VERSION)
