"""`make compare RUN=<a> AGAINST=<b>`: two run folders side by side on what they share (the modes both measured
validly, knees at any stairs, latency where a rate is shared), each difference with its 95% interval; or one line
naming the side that cannot be read (exit 2), before any page is written."""

import re
import subprocess
import sys

import pytest
import synthrun
from conftest import summarised
from synthrun import ModeSpec, stairs

from loadlab import cli


def _run(folder, platform_levels, virtual_levels=None, **params):
    synthrun.write_params(folder, modes=("platform", "virtual") if virtual_levels else ("platform",), **params)
    # four seconds a level: the fewest a rank test needs on the per-second latencies
    synthrun.write_mode(folder, "platform", ModeSpec(platform_levels, seconds_per_level=4))
    if virtual_levels:
        synthrun.write_mode(folder, "virtual", ModeSpec(virtual_levels, seconds_per_level=4))
    summarised(folder)  # compare reads summary.json and the .hgrm files, never a run's own page
    return folder


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    # A pool of 100 threads against one of 400: the same stairs, platform's knee moves from 100-200 to 300-400 rps.
    before = _run(root / "20261121-130501", stairs((100, 200, 300, 400), slow_from=200), stairs((100, 200, 300, 400)))
    after = _run(
        root / "20261121-140501",
        stairs((100, 200, 300, 400), slow_from=400),
        stairs((100, 200, 300, 400)),
        platform_threads=400,
    )
    return before, after


def _changes(page: str) -> str:
    return page[page.index('id="moved"') : page.index('id="verdicts"')]


def test_the_page_sets_both_runs_side_by_side(two_runs, capsys):
    before, after = two_runs
    assert cli.main(["compare", str(after), str(before)]) == 0
    page = (after / "compare-20261121-130501.html").read_text()
    assert str(after / "compare-20261121-130501.html") in capsys.readouterr().out
    # The change from the brackets: RUN's knee in 300-400, AGAINST's in 100-200, so +50% to +300%.
    assert "platform sustained 300 rps in RUN and 100 rps in AGAINST: +200% (95%: +50% to +300%)" in page
    # Virtual held the top of both runs' stairs: no knee to compare, said in words, never a figure.
    moved = _changes(page)
    assert '<th class="text">virtual.sustained</th><td>400 rps (held the top)</td>' in moved
    assert moved.count("cannot tell") == 2, moved
    assert "platform.p99@100" in moved and "no change detected (the same values)" in moved
    # virtual held the top of both runs' stairs: each run's ratio is a lower bound with the bound its knees' brackets
    # allow (platform's knee somewhere in 300-400 and 100-200: 400 / 400 and 400 / 200), as its own page says
    verdicts = page[page.index('id="verdicts"') : page.index('id="differences"')]
    assert "virtual over platform</th><td>≥ 1.00×</td><td>≥ 2.00×</td>" in verdicts, verdicts
    # What differs: the pool size, and nothing else of the parameters.
    differs = page[page.index('id="differences"') : page.index('id="spectra"')]
    assert 'PLATFORM_THREADS</th><td class="text">400</td><td class="text">200</td>' in differs
    assert differs.count("<tr>") == 2  # the header and PLATFORM_THREADS
    # Each mode's spectra: platform's at 100 (both held) and 200 (the first rate one run did not), curves per run.
    assert 'data-chart="compare-platform-100"' in page and 'data-chart="compare-platform-200"' in page
    assert "platform · RUN 20261121-140501" in page and "platform · AGAINST 20261121-130501" in page
    assert 'href="../20261121-130501/index.html"' in page and 'href="index.html"' in page
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org", "")


def _refusal(capsys, *args) -> str:
    assert cli.main(["compare", *map(str, args)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_missing_folder_is_refused_naming_it(two_runs, tmp_path, capsys):
    before, _ = two_runs
    line = _refusal(capsys, tmp_path / "nope", before)
    assert line.startswith(f"loadlab: RUN='{tmp_path / 'nope'}' is not a folder")
    assert _refusal(capsys, before, "").startswith("loadlab: AGAINST='' is empty")


def test_runs_of_different_modes_compare_the_mode_they_share_and_name_the_other(two_runs, tmp_path, capsys):
    before, _ = two_runs
    alone = _run(tmp_path / "20261121-150501", stairs((100, 200, 300), slow_from=300))
    assert cli.main(["compare", str(alone), str(before)]) == 0
    out = capsys.readouterr().out
    assert "compared platform; set aside: virtual only in AGAINST" in out
    assert "platform.sustained" in out and "virtual.sustained" not in out
    page = (alone / "compare-20261121-130501.html").read_text()
    assert "virtual not compared (only in AGAINST)" in page


def test_stairs_that_share_no_rate_still_compare_their_knees(two_runs, tmp_path, capsys):
    before, _ = two_runs
    other = _run(tmp_path / "20261121-160501", stairs((150, 250, 350), slow_from=350), stairs((150, 250, 350)))
    assert cli.main(["compare", str(other), str(before)]) == 0
    out = capsys.readouterr().out
    # RUN's knee in 250-350, AGAINST's in 100-200: +25% to +250%, and no latency at equal load.
    assert re.search(r"platform\.knee +250–350 rps +100–200 rps +\+100% \(95%: \+25% to \+250%\)", out), out
    assert "platform: no offered rate both runs held healthy, so no latency at equal load here" in out
    assert "p99" not in out.split("-- the comparison page")[0]
    page = (other / "compare-20261121-130501.html").read_text()
    assert "share no offered rate: no latency at equal load" in page


def test_an_invalid_mode_is_set_aside_with_its_reason(two_runs, tmp_path, capsys):
    before, _ = two_runs
    folder = tmp_path / "20261121-170501"
    synthrun.write_params(folder)
    synthrun.write_mode(folder, "platform", ModeSpec(stairs((100, 200, 300), slow_from=300)))
    # The injector sent half of what virtual's schedule asked: not the service's verdict to compare.
    synthrun.write_mode(folder, "virtual", ModeSpec(stairs((100, 200, 300), sent_share=0.5, ok_share=0.5)))
    summarised(folder)
    assert cli.main(["compare", str(folder), str(before)]) == 0
    assert "set aside: virtual invalid in RUN (" in capsys.readouterr().out
    # ... and a gate on it cannot be read: refused, not passed
    line = _refusal(capsys, folder, before, "--fail-if", "virtual.sustained < -10%")
    assert line.startswith("loadlab: FAIL_IF='virtual.sustained < -10%' names virtual, which RUN and AGAINST cannot")


def test_runs_with_no_valid_mode_in_common_are_refused(two_runs, tmp_path, capsys):
    before, _ = two_runs
    other = tmp_path / "20261121-180501"
    synthrun.write_params(other, modes=("virtual",))
    synthrun.write_mode(other, "virtual", ModeSpec(stairs((100, 200), sent_share=0.5, ok_share=0.5)))
    summarised(other)
    line = _refusal(capsys, before, other)
    assert line.startswith(f"loadlab: AGAINST='{other}' shares no valid mode with RUN (RUN: platform virtual"), line
    assert "virtual invalid in AGAINST" in line
    assert not list(before.glob("compare-20261121-180501.html"))


def test_make_help_lists_compare():
    out = subprocess.run(["make", "-s", "help"], capture_output=True, text=True, cwd=synthrun.Path(__file__).parents[3])
    assert "compare     did it move? RUN=results/<a> against AGAINST=results/<b>" in out.stdout, out.stdout[:2000]
    assert "FAIL_IF='virtual.sustained < -10%' exits 1 when certain" in out.stdout


def test_the_cli_names_the_verb():
    out = subprocess.run([sys.executable, "-m", "loadlab", "--help"], capture_output=True, text=True)
    assert "compare" in out.stdout
