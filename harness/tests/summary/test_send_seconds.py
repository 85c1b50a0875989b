"""A level of requests of a second or more is judged on the requests sent in it (summary/reading/send_seconds.py), not
on whatever completed in its shifted window: the next level's instant failures are not its errors, and its own answers
that the next level's overload made late are still its answers, and those it sent while the next one was about to
start are not judged with it."""

import synthrun
from conftest import summarised
from synthrun import LevelSpec, ModeSpec

from loadlab.analysis import hlog
from loadlab.analysis.levels import LevelBuilder
from loadlab.summary.reading import send_seconds

ONE_SECOND = ((1004, 0.5), (1010, 0.45), (1030, 0.05))


def test_each_value_goes_to_the_second_its_request_was_sent_in():
    histogram = hlog.new_histogram()
    for value, count in ((3, 7), (1004, 40), (2400, 22)):
        histogram.record_value(value, count)
    parts = send_seconds.split(100, histogram)
    assert {s: h.get_total_count() for s, h in parts.items()} == {100: 7, 99: 40, 98: 22}
    assert parts[98].get_max_value() == histogram.get_max_value()


def test_kinds_are_shared_in_whole_counts_that_add_back_up():
    assert send_seconds.shares(10, {0: 1, 1: 2}) == {0: 3, 1: 7}
    assert sum(send_seconds.shares(7, {0: 1, 1: 1, 2: 1}).values()) == 7
    assert send_seconds.shares(5, {}) == {}


def test_the_next_levels_instant_503s_are_not_the_errors_of_a_level_of_one_second_requests(tmp_path):
    """40 rps of 1 s requests, every one OK, then a level the service sheds at once (503 in 3 ms): read from its
    window shifted by 1 s, the first level's last second held the second level's first 270 rejections. Each level is
    judged on its steady part: the requests sent in its first 4 - 1 s."""
    spec = ModeSpec(
        [LevelSpec(40, latency=ONE_SECOND), LevelSpec(300, latency=ONE_SECOND, ok_share=0.1, ko_share=0.9)],
        seconds_per_level=4,
        lag_s=1,
        ko_ms=3,
        ko_kind="status_503",
    )
    synthrun.write_params(tmp_path, modes=["virtual"], delay_ms=1000)
    synthrun.write_mode(tmp_path, "virtual", spec)
    first, second = summarised(tmp_path)["modes"]["virtual"]["levels"]
    assert (first["ok"], first["error_ratio"], first["errors_by_kind"], first["healthy"]) == (3 * 40, 0, {}, True)
    assert (first["seconds"], first["offered_rps"], first["ok_rps"]) == (3, 40, 40)
    assert second["errors_by_kind"] == {"status_503": 3 * 270} and not second["healthy"]


def test_a_level_is_judged_on_the_requests_whose_whole_life_lies_inside_it():
    """8 s levels of 1 s requests: a level's judged requests are those sent in its first 7 s, its evidence the last
    7 s; one sent in its last second lives partly under the next level, and is judged with neither."""
    steady = send_seconds.steady([(0, 100, 108), (1, 108, 116)], lag_s=1)
    assert [steady.sending(s) for s in (100, 106, 107, 108, 114, 115)] == [0, 0, None, 1, 1, None]
    assert [steady.judging(s) for s in (100, 101, 107, 108, 109, 115)] == [None, 0, 0, None, 1, 1]
    builders = {}

    def builder(index):
        return builders.setdefault(index, LevelBuilder(index, 40))

    ok = hlog.new_histogram()
    ok.record_value(2400, 22)  # level 0's last second, answered late under level 1's overload
    ok.record_value(1004, 38)  # level 1's first second, on time
    steady.add_second(109, 9, 40, (60, 0, ok, hlog.new_histogram(), {}), {}, None, builder)
    assert {i: (b.ok, b.seconds) for i, b in builders.items()} == {1: (38, 1)}


def test_a_level_no_longer_than_the_lag_is_read_from_its_shifted_window():
    steady = send_seconds.steady([(0, 100, 101)], lag_s=1)
    assert (steady.sending(100), steady.judging(101)) == (0, 0)


def test_a_steady_level_counts_every_answer_completed_in_its_evidence_seconds_whoever_sent_it():
    steady = send_seconds.steady([(0, 100, 108), (1, 108, 116)], lag_s=1)
    builders = {}

    def builder(index):
        return builders.setdefault(index, LevelBuilder(index, 40))

    ok = hlog.new_histogram()
    ok.record_value(2400, 22)  # sent under level 0
    ok.record_value(1004, 38)  # sent under level 1
    steady.add_second(109, 9, 40, (60, 0, ok, hlog.new_histogram(), {}), {}, None, builder)
    assert builders[1].completed_ok == 60 and (0 not in builders or builders[0].completed_ok is None)
    # a level no longer than the lag is judged from its shifted window, where the next level's answers land too
    short = send_seconds.steady([(0, 100, 101)], lag_s=1)
    builders.clear()
    short.add_second(101, 1, 0, (40, 0, ok, hlog.new_histogram(), {}), {}, None, builder)
    assert builders[0].completed_ok is None
