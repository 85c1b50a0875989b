import re
from html.parser import HTMLParser

import pytest
import synthrun
from partial_records import partial
from synthrun import ModeSpec, stairs

from loadlab import report
from loadlab.report.headline import headline, verdict_class
from loadlab.summary.verdicts.records import RunSummary

CHARTS = [
    # The percentile charts first; the spectra: platform's 300 and 400 rps levels are unhealthy (slow tail), so the
    # highest both held is 200 and the first platform lost is 300; 100 and 400 wait in a <details>.
    "percentiles-over-time",
    "spectrum-200",
    "spectrum-300",
    "spectrum-100",
    "spectrum-400",
    "throughput",
    "latency",
    "errors",
    "server-threads",
    "server-heap",
    "server-cpu",
    "server-host",
    "server-delay",
]


class Outline(HTMLParser):
    """What a browser test would look for: chart wrappers holding an <svg>, links, external references."""

    def __init__(self):
        super().__init__()
        self.stack, self.charts, self.links, self.external, self.tags = [], {}, [], [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.add(tag)
        chart = attrs.get("data-chart")
        if chart:
            self.charts[chart] = False
        if tag == "svg" and self.stack:
            self.charts[self.stack[-1]] = True
        if tag == "a":
            self.links.append(attrs.get("href"))
        for name in ("src", "href", "xlink:href"):
            value = attrs.get(name) or ""
            if re.match(r"^(https?:)?//", value):
                self.external.append(value)
        if tag in ("figure",):
            self.stack.append(chart)

    def handle_endtag(self, tag):
        if tag == "figure" and self.stack:
            self.stack.pop()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    run = tmp_path_factory.mktemp("results") / "20261121-130501"
    synthrun.write_params(run)
    synthrun.write_mode(run, "platform", ModeSpec(stairs(n=4, slow_from=300)))
    synthrun.write_mode(run, "virtual", ModeSpec(stairs(n=4), injectors=2))
    return run, report.rebuild(run).as_json()


def outline(html):
    parser = Outline()
    parser.feed(html)
    return parser


def test_every_chart_is_an_inline_svg_in_a_named_wrapper(run):
    html = (run[0] / "index.html").read_text()
    assert outline(html).charts == {name: True for name in CHARTS}


def test_page_is_self_contained(run):
    html = (run[0] / "index.html").read_text()
    found = outline(html)
    assert found.external == []
    assert not {"script", "link", "img", "iframe", "object"} & found.tags
    assert "@import" not in html
    assert re.findall(r"url\((?!#)", html) == []  # only references to the page's own elements
    assert "<?xml" not in html and "<!DOCTYPE svg" not in html and "<metadata>" not in html


def test_ids_are_unique_and_every_reference_resolves(run):
    html = (run[0] / "index.html").read_text()
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    refs = set(re.findall(r'(?:url\(|href=")#([^")]+)', html))
    assert refs and refs <= set(ids)


def test_gatling_reports_are_linked_relatively_and_exist(run):
    run_dir, _ = run
    links = [h for h in outline((run_dir / "index.html").read_text()).links if h.endswith("index.html")]
    assert len(links) == 3  # one platform injector, two virtual injectors
    assert all(not h.startswith("/") and (run_dir / h).is_file() for h in links)


def test_headline_states_both_results_and_the_verdict(run):
    _, result = run
    assert headline(RunSummary.from_mapping(result)) == (
        "http scenario: platform sustained 200 rps, knee between 200 and 300 (little predicted 995, 978–995 rps; "
        "knee does not agree), "
        "virtual sustained 400 rps = ≥ 1.33× platform (a lower bound) (the peak; it never collapsed) — "
        "valid: no injector or delay-service saturation, every level sent on time"
    )
    html = (run[0] / "index.html").read_text()
    assert 'class="headline valid"' in html


def test_headline_gives_the_reasons_of_an_invalid_run():
    result = {
        "modes": {
            "platform": {
                "sustained_rps": 0,
                "collapsed": True,
                "levels": [{}],
                "invalid_reasons": ["only 1 level measured; a knee needs at least 2"],
            }
        },
        "missing_modes": ["virtual"],
    }
    text = headline(RunSummary.from_mapping(result))
    assert text == (
        "http scenario: platform sustained 0 rps, virtual was not measured — invalid because platform: "
        "only 1 level measured; a knee needs at least 2"
    )
    assert verdict_class(RunSummary.from_mapping(result)) == "invalid"


def test_page_holds_the_tables_a_reader_needs(run):
    html = (run[0] / "index.html").read_text()
    for text in [
        "<h3>platform</h3>",
        "<h3>virtual</h3>",
        "PLATFORM_THREADS",
        "Test CPU @ 2.0GHz",
        "p99 900 ms is above the 402 ms limit",
        "injector-0",
        'id="verdict"',
    ]:
        assert text in html, text
    assert 'id="missing"' not in html


def test_render_is_deterministic(run):
    run_dir, result = run
    first = (run_dir / "index.html").read_bytes()
    report.render(run_dir, RunSummary.from_mapping(result))
    assert (run_dir / "index.html").read_bytes() == first


def test_page_with_no_mode_still_renders(tmp_path):
    result = {"run_id": "x", "modes": {}, "missing_modes": ["platform", "virtual"], "missing": ["params.json"]}
    html = report.render(tmp_path, RunSummary.from_mapping(result)).read_text()
    assert 'id="missing"' in html and "platform</b>: not measured" in html and "data-chart" not in html


def test_a_mode_without_levels_says_no_data(tmp_path):
    result = {"run_id": "x", "modes": {"platform": {"levels": [], "missing": ["platform: no measured phase"]}}}
    html = report.render(tmp_path, RunSummary.from_mapping(result)).read_text()
    # No spectrum: no rate was run by two modes.
    assert outline(html).charts == {name: True for name in CHARTS if not name.startswith("spectrum")}
    assert "no data" in html and "no measured level" in html


def test_fallback_page_keeps_the_verdict():
    html = report.fallback_page(partial(RunSummary, missing_modes=["virtual"]), "ValueError: boom")
    assert "ValueError: boom" in html and "virtual was not measured" in html


def test_a_scenario_mix_whose_pool_binds_every_mode_says_virtual_threads_were_not_expected_to_win():
    def mode(by):
        return {"sustained_rps": 240, "collapsed": True, "predicted_by": by, "levels": [{}]}

    pooled = {"scenario": "http:70 db:20 cpu:10", "modes": {"platform": mode("pool"), "virtual": mode("pool")}}
    assert "the mix's db kind waits for the same DB_POOL connections in every mode" in headline(
        RunSummary.from_mapping(pooled)
    )
    apart = {**pooled, "modes": {"platform": mode("little"), "virtual": mode("pool")}}
    assert "not expected to win" not in headline(RunSummary.from_mapping(apart))


def test_a_run_without_the_wait_agent_says_so_where_the_time_went_would_be(run):
    html = (run[0] / "index.html").read_text()
    part = re.search(r'<section id="waits">.*?</section>', html, re.S).group(0)
    # platform collapsed: its waits_at_knee gives the summary's reason; virtual held, and its summary gives none
    assert re.findall(r'id="waits-none">([^<]*)<', part) == [
        "This run has no wait profile — platform: platform/raw/thread/waits.tsv was not written (the wait agent did "
        "not run); virtual: summary.json holds no profile and no reason (a run from before the wait agent, or "
        "LOADLAB_WAIT_PROFILE=off)."
    ]
    assert "<svg" not in part
