"""The comparison page as a person sees it: opened from disk in headless Chromium (Debian's, installed by
`make test-deps`), screenshotted, and checked that every chart was drawn with a real size and nothing logged an error.

Playwright drives the system Chromium (it never downloads a browser of its own). The flags keep Chromium quiet on a
closed network: without the background-networking ones it keeps trying to reach its update and sync services.
"""

import shutil

import pytest
import synthrun
from synthrun import SLOW_TAIL, LevelSpec, ModeSpec

from loadlab import report

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Per chart: its size on screen, and per panel (one per mode) the data lines and bars drawn in it: paths of at least
# two points directly under an axes group (tick and grid lines sit deeper, inside the tick groups), not counting the
# white background and the unfilled axis spines.
MEASURE = """() => [...document.querySelectorAll('details').forEach(d => { d.open = true; }) || [],
                    ...document.querySelectorAll('figure[data-chart]')].map(figure => {
  const svg = figure.querySelector('svg');
  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  const panels = svg ? [...svg.querySelectorAll('g[id*="axes_"]')].map(axes =>
      [...axes.querySelectorAll(':scope > g[id*="line2d_"] > path, :scope > g[id*="patch_"] > path')]
        .filter(p => /[LlHhVvCcz]/.test(p.getAttribute('d') || ''))
        .filter(p => p.parentNode.id.includes('line2d_') || !/fill: (none|#ffffff)/.test(p.getAttribute('style')))
        .length) : [];
  return {name: figure.dataset.chart, width: box.width, height: box.height, panels: panels};
})"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    run = tmp_path_factory.mktemp("results") / "20261121-130501"
    synthrun.write_params(run)
    synthrun.write_mode(
        run, "platform", ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300, latency=SLOW_TAIL)], pinned=0)
    )
    synthrun.write_mode(run, "virtual", ModeSpec([LevelSpec(100), LevelSpec(200), LevelSpec(300)], pinned=0))
    report.rebuild(run)
    return run


@pytest.fixture(scope="module")
def browser_page(run_dir, tmp_path_factory):
    if CHROMIUM is None:
        pytest.skip("chromium is not installed: `make test-deps` installs Debian's chromium (needs root)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not in the venv (make venv)")
    problems = []
    with sync_api.sync_playwright() as pw:
        # A persistent context is how Playwright takes a --user-data-dir: a fresh one per test run.
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
            page.goto((run_dir / "index.html").as_uri(), wait_until="load")
            shot = run_dir / "screenshot.png"
            page.screenshot(path=str(shot), full_page=True)
            yield {
                "charts": page.evaluate(MEASURE),
                "problems": problems,
                "screenshot": shot,
                "headline": page.inner_text("#headline"),
                "title": page.title(),
            }
        finally:
            context.close()


def test_every_chart_is_drawn_with_a_real_size(browser_page):
    charts = browser_page["charts"]
    assert [c["name"] for c in charts] == [
        # Right after the headline: what the field reads first. The spectra: the highest rate both modes held,
        # platform's first unhealthy rate, then (in a closed <details>, opened here) every other rate both ran.
        "percentiles-over-time",
        "spectrum-200",
        "spectrum-300",
        "spectrum-100",
        "throughput",
        "latency",
        "errors",
        "server-threads",
        "server-heap",
        "server-cpu",
        "server-host",
        "server-delay",
    ]
    # A panel per mode; percentiles over time: a latency and an errors panel per mode; a spectrum: both modes in one.
    panels = {"percentiles-over-time": 4, "spectrum-200": 1, "spectrum-300": 1, "spectrum-100": 1}
    for chart in charts:
        assert chart["width"] > 300 and chart["height"] > 100, chart
        assert len(chart["panels"]) == panels.get(chart["name"], 2), chart
        assert all(chart["panels"]), f"{chart['name']}: a panel drew no data: {chart}"


def test_no_console_error_and_nothing_fetched(browser_page):
    assert browser_page["problems"] == []


def test_the_screenshot_shows_the_page(browser_page):
    shot = browser_page["screenshot"].read_bytes()
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 50_000
    assert browser_page["headline"].startswith("http scenario: platform sustained 200 rps")
    assert "platform vs virtual threads" in browser_page["title"]
