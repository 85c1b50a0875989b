"""One level reference wherever a person or a file name sees a level: its pass and its number, counted from 1
(levels.level_number, the one conversion from a level's position in its pass). summary.json says so
(`levels_counted_from`); one written before, counted from 0, is read as today's, so `make compare` shows an older run's
levels by the numbers a person reads today and pairs them, as always, by their offered rate."""

import json
import shutil

import synthrun
from conftest import summarised
from synthrun import ModeSpec, stairs

from loadlab import cli
from loadlab.analysis.levels import level_number
from loadlab.summary.verdicts import records
from loadlab.summary.writing import hgrm_files


def _run(folder, slow_from):
    synthrun.write_params(folder, modes=("platform",))
    synthrun.write_mode(
        folder, "platform", ModeSpec(stairs((100, 200, 300, 400), slow_from=slow_from), seconds_per_level=4)
    )
    return summarised(folder)


def _counted_from_zero(summary: dict) -> dict:
    """summary.json as loadlab wrote it before its levels were numbered from 1 (the fields this run has)."""
    old = {k: v for k, v in summary.items() if k != "levels_counted_from"}
    for mode in old["modes"].values():
        for level in mode["levels"]:
            level["index"] -= 1
        if mode["first_unhealthy_level"] is not None:
            mode["first_unhealthy_level"] -= 1
        costs = mode["costs"]
        costs["levels_fitted"] = [n - 1 for n in costs["levels_fitted"]]
        costs["fitted_on"] = {name: [n - 1 for n in found] for name, found in costs["fitted_on"].items()}
    return old


def test_every_level_number_counts_from_one_and_names_its_files(tmp_path):
    summary = _run(tmp_path, slow_from=300)
    platform = summary["modes"]["platform"]
    assert summary["levels_counted_from"] == 1
    assert [lv["index"] for lv in platform["levels"]] == [1, 2, 3, 4]
    assert platform["first_unhealthy_level"] == 3 and platform["costs"]["levels_fitted"] == [1, 2]
    names = sorted(p.name for p in (tmp_path / "platform" / hgrm_files.FOLDER).iterdir())
    assert names == ["level-01-100rps.hgrm", "level-02-200rps.hgrm", "level-03-300rps.hgrm", "level-04-400rps.hgrm"]
    assert level_number(0) == 1


def test_a_summary_counted_from_zero_is_read_as_today_s_and_compares_the_same(tmp_path, capsys):
    new, against = tmp_path / "20261121-140501", tmp_path / "20261121-130501"
    _run(against, slow_from=200)
    summary = _run(new, slow_from=300)
    old = tmp_path / "20261121-150501"
    shutil.copytree(new, old)
    (old / records.SUMMARY_JSON).write_text(json.dumps(_counted_from_zero(summary), indent=2))
    for path in (old / "platform" / hgrm_files.FOLDER).iterdir():  # the files too, as they were named then
        number, rest = path.name.removeprefix("level-").split("-", 1)
        path.rename(path.with_name(f"level-{int(number) - 1:02d}-{rest}"))
    assert records.read(old) == records.read(new)
    pages = []
    for run in (new, old):
        assert cli.main(["compare", str(run), str(against)]) == 0
        page = (run / f"compare-{against.name}.html").read_text()
        pages.append(page.replace(run.name, "RUN").replace(new.name, "RUN"))
    capsys.readouterr()
    assert pages[0] == pages[1]
    assert 'data-chart="compare-platform-100"' in pages[1] and pages[1].count("<path") == pages[0].count("<path")
