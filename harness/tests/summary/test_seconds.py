"""summary/reading/seconds.py gives each level the rate offered just before it, which the health rule needs to tell a
service keeping up from one falling behind right after a step up (analysis/health.py expected_answers_rps)."""

import synthrun
from synthrun import LevelSpec, ModeSpec

from loadlab.summary.reading import raw, seconds


def test_each_level_knows_the_rate_before_it_the_first_the_warm_ups(tmp_path):
    spec = ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300)], injectors=2, warmup_seconds=2)
    synthrun.write_mode(tmp_path, "platform", spec)
    levels = seconds.build_tables(raw.load_mode(tmp_path / "platform")).levels
    # the synthetic warm-up sends 10 rps (5 per injector): its last second is what came before the first level
    assert [lv.previous_target_rps for lv in levels] == [10, 100, 200]
    assert {lv.window_shift_s for lv in levels} == {0}
    # requests of a second or more are counted by the second they were sent in: none is in flight at a level's end
    lagged = seconds.build_tables(raw.load_mode(tmp_path / "platform"), lag_s=1).levels
    assert [lv.previous_target_rps for lv in lagged] == [None, None, None]


def test_a_run_without_a_warm_up_had_nothing_before_its_first_level(tmp_path):
    synthrun.write_mode(tmp_path, "virtual", ModeSpec([LevelSpec(100), LevelSpec(200)], warmup_seconds=0))
    levels = seconds.build_tables(raw.load_mode(tmp_path / "virtual")).levels
    assert [lv.previous_target_rps for lv in levels] == [0, 100]


def test_a_level_is_judged_without_the_seconds_it_settles_in_after_its_step(tmp_path):
    """thresholds.settle_seconds: the first seconds after a step stay in the per-second tables and out of the level,
    which knows it was judged without them (health.py then expects no answer of the lower rate in its window)."""
    spec = ModeSpec([LevelSpec(100), LevelSpec(200)], seconds_per_level=8, warmup_seconds=2)
    synthrun.write_mode(tmp_path, "platform", spec)
    whole = seconds.build_tables(raw.load_mode(tmp_path / "platform"))
    settled = seconds.build_tables(raw.load_mode(tmp_path / "platform"), settle_s=2)
    assert [lv.seconds for lv in whole.levels] == [8, 8]
    assert [lv.seconds for lv in settled.levels] == [6, 6]
    assert [lv.settle_s for lv in settled.levels] == [2, 2]
    assert [lv.first_second for lv in settled.levels] == [lv.first_second + 2 for lv in whole.levels]
    assert [lv.sent for lv in settled.levels] == [600, 1200]
    assert len(settled.timeline) == len(whole.timeline)
