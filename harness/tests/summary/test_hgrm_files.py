"""The `.hgrm` files: one per mode and level (coarse and fine passes), and what they say equals what the interval
logs hold, read back independently with hdrh's own decoder (the text itself: analysis/test_hgrm.py)."""

import json
import math
import shutil
from pathlib import Path

import pytest
import synthrun
from conftest import summarised
from hdrh.histogram import HdrHistogram

from loadlab.analysis import hgrm, hlog

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    """Real raw files: a coarse pass of 2 levels and a fine pass of 8 (test_real_labels.py tells their story)."""
    run = tmp_path_factory.mktemp("real") / "fine_pass_all_healthy"
    shutil.copytree(DATA / run.name, run)
    summarised(run)
    return run, json.loads((run / "summary.json").read_text())


def _from_logs(raw_dir: Path, first: int, seconds: int) -> HdrHistogram:
    """A level's ok histogram straight from the interval logs: hdrh's decoder and add, no code of the summary's."""
    t0 = min(
        math.floor(json.loads((inj / "meta.json").read_text())["measure_start_epoch_ms"] / 1000)
        for inj in raw_dir.glob("injector-*")
    )
    total = HdrHistogram(1, 3_600_000, 3)
    for inj in raw_dir.glob("injector-*"):
        for interval in hlog.read_log(inj / "latency.hlog").intervals:
            if interval.tag == "ok" and t0 + first <= interval.second < t0 + first + seconds:
                total.add(HdrHistogram.decode(interval.payload))
    return total


def _passes(run: Path, summary: dict):
    mode = summary["modes"]["platform"]
    yield "", run / "platform/raw", mode["levels"]
    for fine in mode["refine"]["passes"]:
        yield fine["name"], run / "platform" / fine["name"] / "raw", fine["levels"]


def test_every_level_of_every_pass_has_its_file(real_run):
    run, summary = real_run
    expected = {
        f"{name + '-' if name else ''}level-{lv['index']:02d}-{lv['target_rps']:g}rps.hgrm"
        for name, _, levels in _passes(run, summary)
        for lv in levels
    }
    assert {p.name for p in (run / "platform/hgrm").glob("*.hgrm")} == expected
    assert len(expected) == 10


def test_each_file_holds_the_interval_logs_counts_and_percentiles(real_run):
    run, summary = real_run
    for name, raw_dir, levels in _passes(run, summary):
        for lv in levels:
            prefix = f"{name}-" if name else ""
            text = (run / f"platform/hgrm/{prefix}level-{lv['index']:02d}-{lv['target_rps']:g}rps.hgrm").read_text()
            read = hgrm.parse(text)
            logs = _from_logs(raw_dir, lv["first_second"], lv["seconds"])
            assert read.total_count == logs.get_total_count() == round(lv["ok_rps"] * lv["seconds"]), lv
            assert read.max_ms == logs.get_max_value() == lv["max_ms"]
            # The file is Java's text of the histogram merged from the logs (the writer is Java's, test above).
            assert text == hgrm.distribution_text(logs)
            # The spectrum's table in summary.json: exact percentiles of the same histogram.
            table = {float(p): v for p, v in lv["percentiles_ms"].items()}
            assert table == {p: logs.get_value_at_percentile(p) for p in hlog.SPECTRUM}, (name, lv["index"])


def test_a_rebuild_removes_the_files_of_levels_no_longer_judged(real_run):
    run, _ = real_run
    stale = run / "platform/hgrm/level-09-99rps.hgrm"
    stale.write_text("left from an older build")
    summarised(run)
    assert not stale.exists()


def test_several_injectors_are_merged_into_one_file(tmp_path):
    synthrun.write_params(tmp_path, modes=("platform",))
    levels = [synthrun.LevelSpec(100), synthrun.LevelSpec(200, latency=synthrun.SLOW_TAIL)]
    synthrun.write_mode(tmp_path, "platform", synthrun.ModeSpec(levels, injectors=2))
    summarised(tmp_path)
    read = hgrm.read(tmp_path / "platform/hgrm/level-02-200rps.hgrm")  # the second level, counted from 1
    # 200 rps for 3 s over two injectors: every request once, the slow tail's p95 and p99 exact.
    assert read.total_count == 600
    level = json.loads((tmp_path / "summary.json").read_text())["modes"]["platform"]["levels"][1]
    assert level["ok"] == 600 and level["percentiles_ms"]["99"] == 900
