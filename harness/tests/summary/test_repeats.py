"""REPEAT=n on synthetic runs: rep-<k>/ folders, the median repetition per mode, the spread named as noise."""

import json

import pytest
import synthrun
from conftest import summarised
from synthrun import ModeSpec, stairs

from loadlab import report
from loadlab.summary.schema.detail_records import RepeatsRecord
from loadlab.summary.verdicts import repeats
from loadlab.summary.verdicts.records import RunSummary

RATES = (100, 200, 300, 400, 500)


@pytest.fixture(scope="module")
def repeated(tmp_path_factory):
    """Platform's knee at 300, 200, 300 rps (the second repetition on a busier machine); virtual holds 500."""
    run = tmp_path_factory.mktemp("results") / "20261121-130501"
    labels = [f"rep-{k}/{m}" for k in (1, 2, 3) for m in ("platform", "virtual")]
    synthrun.write_params(run, completed=labels, REPEAT=3, REFINE=0)
    for k, first_bad, cpu in ((1, 400, 50.0), (2, 300, 80.0), (3, 400, 52.0)):
        synthrun.write_mode(run / f"rep-{k}", "platform", ModeSpec(stairs(RATES, first_bad, host_cpu=cpu)))
        synthrun.write_mode(run / f"rep-{k}", "virtual", ModeSpec(stairs(RATES)))
    return run, report.rebuild(run).as_json()


def test_each_repetition_has_its_own_summary_and_page(repeated):
    run, _ = repeated
    for k in (1, 2, 3):
        rep = json.loads((run / f"rep-{k}" / "summary.json").read_text())
        assert rep["repetition"] == k and set(rep["modes"]) == {"platform", "virtual"}
        assert all(m["valid"] for m in rep["modes"].values())  # modes_completed seen per repetition
        assert (run / f"rep-{k}" / "index.html").is_file()
        assert (run / f"rep-{k}" / "platform" / "timeline.csv").is_file()
    assert json.loads((run / "rep-2" / "summary.json").read_text())["modes"]["platform"]["sustained_rps"] == 200


def test_the_median_spread_and_ratio_over_the_repetitions(repeated):
    _, result = repeated
    platform = result["repeats"]["modes"]["platform"]
    assert (platform["median"], platform["min"], platform["max"]) == (300, 200, 300)
    assert platform["spread_ratio"] == pytest.approx(1 / 3, abs=1e-3) and platform["noise"] is True
    assert [r["host_cpu_pct_at_sustained"] for r in platform["repetitions"]] == [50, 80, 52]
    assert "host CPU at the sustained level 50–80%" in platform["evidence"]
    virtual = result["repeats"]["modes"]["virtual"]
    assert (virtual["median"], virtual["spread_ratio"], virtual["noise"]) == (500, 0, False)
    # virtual held 500 every time: each ratio a lower bound, carried to 500 over platform's first unhealthy level
    # (500 / 400, 500 / 300, 500 / 400), never the points 500 / 300 and 500 / 200 its last healthy levels give
    ratio = result["repeats"]["ratio"]
    assert (ratio["median"], ratio["min"], ratio["max"]) == (1.25, 1.25, 1.67)
    assert set(ratio["bounds"].values()) == {"lower"}


def test_the_modes_shown_are_the_median_repetition(repeated):
    _, result = repeated
    platform = result["modes"]["platform"]
    assert platform["sustained_rps"] == 300 and platform["repetition"] == 1 and platform["folder"] == "rep-1/platform"
    assert result["virtual_over_platform"] == round(500 / 400, 2)  # a lower bound: 500 over the knee's high end
    assert [r["valid"] for r in result["repetitions"]] == [True, True, True]


def test_the_page_shows_every_repetition_and_names_the_noise(repeated):
    run, _ = repeated
    html = (run / "index.html").read_text()
    assert 'id="repeats"' in html and "Repetitions (3)" in html
    assert 'href="rep-2/index.html"' in html and "no: noise" in html
    assert "median of 3 repetitions, 200–300; noisy" in html
    # the charts of the median repetition are drawn from its own server.csv
    assert "no data" not in html.split('data-chart="server-cpu"')[1].split("</figure>")[0]


def test_an_invalid_repetition_is_not_counted():
    reps = [
        (k, RunSummary.from_mapping({"modes": {"platform": {"sustained_rps": rate, "valid": valid}}}))
        for k, rate, valid in ((1, 300, True), (2, 100, False), (3, 320, True))
    ]
    got = (repeats.aggregate(reps).modes or {})["platform"]
    assert (got.median, got.min, got.repetitions_used, got.noise) == (310, 300, 2, False)
    assert repeats.median_repetition("platform", reps) == 1


def test_the_console_names_an_invalid_repetition_the_median_table_does_not_show(tmp_path, capsys):
    """Every repetition must be valid for the run to pass (bench.conclude): the one that is not is named, with why."""
    from loadlab.run import console

    run = tmp_path / "20261121-130501"
    synthrun.write_params(run, modes=("platform",), completed=["rep-1/platform", "rep-2/platform"], REPEAT=2)
    synthrun.write_mode(run / "rep-1", "platform", ModeSpec(stairs(RATES, 400)))
    synthrun.write_mode(run / "rep-2", "platform", ModeSpec(stairs(RATES, sent_share=0.7, ok_share=0.7)))
    result = summarised(run)
    assert result["modes"]["platform"]["valid"] and [r["valid"] for r in result["repetitions"]] == [True, False]
    console.table(RunSummary.from_mapping(result), run)
    out = capsys.readouterr().out
    assert "platform: repetition 2 INVALID (rep-2/platform): the injector fell behind" in out, out


def test_the_console_names_a_median_of_zero_without_a_spread(capsys):
    """A mode whose only valid repetition had no healthy level: median 0, no spread (seen for real: the bench's last
    line crashed on it)."""
    from loadlab.run import console

    agg = {"modes": {"virtual": {"median": 0, "min": 0, "max": 0, "spread_ratio": None, "repetitions_used": 1}}}
    console._repeat_notes(RepeatsRecord.from_mapping(agg))
    assert "virtual: median 0 rps of 1 repetitions (0–0)" in capsys.readouterr().out
