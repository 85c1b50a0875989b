"""`make compare RUN=<a> AGAINST=<b>`: two run folders side by side, or one line naming the side that cannot be
compared (exit 2), before any page is written."""

import subprocess
import sys

import pytest
import synthrun
from conftest import summarised
from synthrun import SLOW_TAIL, LevelSpec, ModeSpec

from loadlab import cli


def _run(folder, platform_levels, virtual_levels=None, **params):
    synthrun.write_params(folder, modes=("platform", "virtual") if virtual_levels else ("platform",), **params)
    synthrun.write_mode(folder, "platform", ModeSpec(platform_levels))
    if virtual_levels:
        synthrun.write_mode(folder, "virtual", ModeSpec(virtual_levels))
    summarised(folder)  # compare reads summary.json and the .hgrm files, never a run's own page
    return folder


def stairs(*rates, slow_from=None):
    return [LevelSpec(r, latency=SLOW_TAIL if slow_from and r >= slow_from else synthrun.HEALTHY) for r in rates]


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    # A pool of 200 threads against one of 400: the same stairs, platform's knee moves from 200 to 300 rps.
    before = _run(root / "20261121-130501", stairs(100, 200, 300, 400, slow_from=300), stairs(100, 200, 300, 400))
    after = _run(
        root / "20261121-140501",
        stairs(100, 200, 300, 400, slow_from=400),
        stairs(100, 200, 300, 400),
        platform_threads=400,
    )
    return before, after


def test_the_page_sets_both_runs_side_by_side(two_runs, capsys):
    before, after = two_runs
    assert cli.main(["compare", str(after), str(before)]) == 0
    page = (after / "compare-20261121-130501.html").read_text()
    assert str(after / "compare-20261121-130501.html") in capsys.readouterr().out
    assert "platform sustained 300 rps in RUN and 200 rps in AGAINST (1.50× of AGAINST)" in page
    # What differs: the pool size, and nothing else of the parameters.
    differs = page[page.index('id="differences"') : page.index('id="spectra"')]
    assert 'PLATFORM_THREADS</th><td class="text">400</td><td class="text">200</td>' in differs
    assert differs.count("<tr>") == 2  # the header and PLATFORM_THREADS
    # Each mode's spectra: platform's at 200 (both held) and 300 (the first rate one run did not), curves per run.
    assert 'data-chart="compare-platform-200"' in page and 'data-chart="compare-platform-300"' in page
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


def test_a_mode_missing_from_one_run_is_refused(two_runs, tmp_path, capsys):
    before, _ = two_runs
    alone = _run(tmp_path / "20261121-150501", stairs(100, 200, 300, slow_from=300))
    line = _refusal(capsys, alone, before)
    assert "RUN=" in line and "has no virtual mode measured (platform), AGAINST has it (platform virtual)" in line
    assert not list(alone.glob("compare-*.html"))


def test_no_rate_in_common_is_refused(two_runs, tmp_path, capsys):
    before, _ = two_runs
    other = _run(tmp_path / "20261121-160501", stairs(150, 250, 350, slow_from=350), stairs(150, 250, 350))
    line = _refusal(capsys, before, other)
    assert (
        "AGAINST=" in line
        and "shares no offered rate with RUN in platform mode (RUN: 100–400, AGAINST: 150–350" in line
    )


def test_an_invalid_mode_is_refused(two_runs, tmp_path, capsys):
    before, _ = two_runs
    folder = tmp_path / "20261121-170501"
    synthrun.write_params(folder)
    synthrun.write_mode(folder, "platform", ModeSpec(stairs(100, 200, 300, slow_from=300)))
    # The injector sent half of what virtual's schedule asked: not the service's verdict to compare.
    synthrun.write_mode(
        folder, "virtual", ModeSpec([LevelSpec(r, sent_share=0.5, ok_share=0.5) for r in (100, 200, 300)])
    )
    summarised(folder)
    line = _refusal(capsys, folder, before)
    assert line.startswith(f"loadlab: RUN='{folder}' has an invalid virtual mode (")


def test_make_help_lists_compare():
    out = subprocess.run(["make", "-s", "help"], capture_output=True, text=True, cwd=synthrun.Path(__file__).parents[2])
    assert "compare     one page setting RUN=results/<a> beside AGAINST=results/<b>" in out.stdout, out.stdout[:2000]


def test_the_cli_names_the_verb():
    out = subprocess.run([sys.executable, "-m", "loadlab", "--help"], capture_output=True, text=True)
    assert "compare" in out.stdout
