"""The page's percentile charts as a reader meets them: right after the headline, percentiles over time for both
modes, and the whole spectrum at the rates both modes ran, with the key two shown and the thin ones greyed."""

import re

import pytest
import synthrun
from synthrun import SLOW_TAIL, LevelSpec, ModeSpec, stairs

from loadlab import report


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    run = tmp_path_factory.mktemp("results") / "20261121-130501"
    synthrun.write_params(run)
    synthrun.write_mode(
        run, "platform", ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300, latency=SLOW_TAIL, ko_share=0.1)])
    )
    synthrun.write_mode(run, "virtual", ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300)]))
    report.rebuild(run)
    return (run / "index.html").read_text()


def test_the_answer_comes_first_then_the_percentile_charts(page):
    assert page.index('id="answer"') < page.index('id="headline"')
    assert "Virtual threads held at least 1.00× the load of a 200-thread pool here" in page
    order = [page.index(m) for m in ('id="headline"', 'data-chart="percentiles-over-time"', 'id="spectra"')]
    assert order == sorted(order)
    assert page.index('id="spectra"') < page.index('id="verdict"') < page.index('data-chart="throughput"')


def test_percentiles_over_time_draw_every_line_for_both_modes(page):
    figure = re.search(r'data-chart="percentiles-over-time">(.*?)</figure>', page, re.S).group(1)
    for words in ("— platform", "— virtual", "p99.9", "max", "first unhealthy level (300 rps)", "errors/s"):
        assert words in figure, words


def test_the_two_rates_that_tell_the_story_are_drawn_first(page):
    spectra = page[page.index('id="spectra"') :]
    shown, hidden = spectra.split("<details>", 1)
    # 200 rps: the highest both held; 300 rps: platform's first unhealthy level. 100 rps waits in <details>.
    assert re.findall(r'data-chart="(spectrum-[^"]+)"', shown) == ["spectrum-200", "spectrum-300"]
    assert 'data-chart="spectrum-100"' in hidden


def test_the_spectrum_table_greys_what_the_requests_cannot_resolve(page):
    table = page[page.index("<h3>300 rps offered</h3>") :].split("</table>", 1)[0]
    platform = re.search(r"<tr><th>platform.*?</tr>", table).group(0)
    # 900 OK requests: p99 (needs 100) is data; p99.9 (1,000) and p99.99 (10,000) are greyed, in brackets.
    assert "<td>900 ms</td>" in platform and '<span class="no">unhealthy</span>' in platform
    assert platform.count('class="muted"') == 2 and "needs 10,000 requests, the level has 900" in platform
    assert "<td>900</td>" in platform  # the count behind the percentiles


def test_a_knee_no_other_mode_reached_gets_its_own_spectrum(tmp_path):
    # Platform stopped at 300 rps; virtual broke at 500, a rate platform never ran: its own tail, 400 against 500.
    synthrun.write_params(tmp_path)
    synthrun.write_mode(
        tmp_path, "platform", ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300, latency=SLOW_TAIL)])
    )
    virtual = stairs(slow_from=500)
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(virtual))
    report.rebuild(tmp_path)
    page = (tmp_path / "index.html").read_text()
    block = page[page.index("<h3>virtual on both sides of its knee (400 and 500 rps)</h3>") :]
    assert block.index('data-chart="knee-virtual-500"') < block.index("</table>")
    rows = re.findall(r"<tr><th>(virtual at \d+ rps)", block.split("</table>", 1)[0])
    assert rows == ["virtual at 400 rps", "virtual at 500 rps"]
    assert 'data-chart="knee-platform' not in page  # platform's knee is on the equal-load charts already
