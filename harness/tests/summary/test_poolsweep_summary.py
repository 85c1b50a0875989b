"""A pool sweep (PLATFORM_THREADS="20 40 80") and the per-thread object (THREADLOCAL_KB) in summary.json, from
synthetic run folders: a column per pool size beside virtual, each judged on its own pool; virtual over the best
pool as the headline and over each pool beside it; builds per request per mode; the connections ceiling."""

import pytest
import synthrun
from conftest import summarised
from synthrun import ModeSpec, stairs

from loadlab import report
from loadlab.analysis import models
from loadlab.analysis.models import Inputs

SWEEP = ["platform-t20", "platform-t40", "platform-t80", "virtual"]


def sweep_run(tmp_path, completed=SWEEP, pages=False, **params):
    """Little's law at 201 ms: 20 threads ≈ 100 rps, 40 ≈ 200, 80 ≈ 400; virtual holds the peak, 500. pages: the page
    drawn too (report.rebuild)."""
    synthrun.write_params(
        tmp_path, modes=("platform", "virtual"), platform_threads=[20, 40, 80], completed=completed, **params
    )
    for label, threads, slow_from in (("platform-t20", 20, 200), ("platform-t40", 40, 300), ("platform-t80", 80, 500)):
        synthrun.write_mode(
            tmp_path, label, ModeSpec(stairs(slow_from=slow_from), live_config={"tomcat_threads_max": threads})
        )
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs()))
    return report.rebuild(tmp_path).as_json() if pages else summarised(tmp_path)


def test_each_pool_is_a_column_judged_on_its_own_pool_and_the_headline_is_virtual_over_the_best(tmp_path):
    """The numbers; the page's headline naming the pool it divides by is the next page test's (one sweep page drawn,
    not two)."""
    result = sweep_run(tmp_path)
    assert list(result["modes"]) == SWEEP and result["missing_modes"] == []
    sustained = {label: m["sustained_rps"] for label, m in result["modes"].items()}
    assert sustained == {"platform-t20": 100, "platform-t40": 200, "platform-t80": 400, "virtual": 500}
    t40 = result["modes"]["platform-t40"]
    assert t40["predicted_by"] == "little" and t40["prediction"].startswith("little: 40 threads / 0.201 s")
    assert t40["valid"], t40["invalid_reasons"]
    # virtual held the top: each ratio a lower bound, carried to 500 over the pool's first unhealthy rate
    assert result["ratios_by_pool"] == {"platform-t20": 2.5, "platform-t40": 1.67, "platform-t80": 1.0}
    assert result["virtual_over_platform"] == 1.0 and result["virtual_over_platform_basis"] == "platform-t80"
    assert result["ratios_by_pool_reasons"] == {} and "ratios" not in result
    assert result["params"]["PLATFORM_THREADS"] == [20, 40, 80]


def test_a_pool_that_cannot_be_judged_is_never_the_divisor(tmp_path):
    result = sweep_run(tmp_path, completed=["platform-t20", "platform-t40", "virtual"])
    assert not result["modes"]["platform-t80"]["valid"]
    assert result["virtual_over_platform"] == 1.67 and result["virtual_over_platform_basis"] == "platform-t40"
    assert result["ratios_by_pool"]["platform-t80"] is None
    assert result["ratios_by_pool_reasons"]["platform-t80"].startswith("platform-t80 is invalid: this mode did not")


def test_no_judgeable_pool_leaves_no_headline_and_says_why(tmp_path):
    result = sweep_run(tmp_path, completed=["virtual"])
    assert result["virtual_over_platform"] is None and result["virtual_over_platform_basis"] is None
    assert result["virtual_over_platform_reason"].startswith("no platform pool can be judged (platform-t20 is invalid")


def test_a_pool_that_ran_with_another_size_than_its_label_is_invalid(tmp_path):
    synthrun.write_params(tmp_path, platform_threads=[20, 40], modes=("platform",), completed=["platform-t20"])
    synthrun.write_mode(
        tmp_path, "platform-t20", ModeSpec(stairs(slow_from=200), live_config={"tomcat_threads_max": 40})
    )
    mode = summarised(tmp_path)["modes"]["platform-t20"]
    assert "the thread-service ran with 40 Tomcat threads, not PLATFORM_THREADS=20" in mode["invalid_reasons"]


@pytest.fixture(scope="module")
def threadlocal_run(tmp_path_factory):
    """THREADLOCAL_KB=64: platform's 20 pooled threads and virtual's threads per request each build one; the run
    folder (page drawn) and its summary, read by the tests below, never changed."""
    run = tmp_path_factory.mktemp("threadlocal")
    synthrun.write_params(run, THREADLOCAL_KB=64)
    synthrun.write_mode(run, "platform", ModeSpec(stairs(slow_from=300), threadlocal_pool=20))
    synthrun.write_mode(run, "virtual", ModeSpec(stairs(), threadlocal_pool=0))
    return run, report.rebuild(run).as_json()


def test_threadlocal_builds_once_per_pooled_thread_and_once_per_virtual_request(threadlocal_run):
    modes = threadlocal_run[1]["modes"]
    virtual, platform = modes["virtual"]["threadlocal"], modes["platform"]["threadlocal"]
    assert virtual["builds_per_request"] == 1.0 and virtual["bytes_built_per_request"] == 64 * 1024
    assert virtual["builds"] == virtual["requests"] > 1000
    # the 20 pooled threads built theirs during the warm-up: none in the measured phase
    assert platform["builds"] == 0 and platform["builds_per_request"] == 0 and platform["builds_since_start"] == 20
    assert platform["kb"] == 64


def test_without_a_per_thread_object_there_is_no_threadlocal_evidence(tmp_path):
    synthrun.write_params(tmp_path, THREADLOCAL_KB=0)
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs(), threadlocal_pool=0))
    assert summarised(tmp_path)["modes"]["virtual"]["threadlocal"] is None


def test_the_connections_ceiling_is_max_connections_over_the_baseline_in_both_modes():
    p = models.connections(8192, 204.8)
    assert p.rps == pytest.approx(40_000) and p.predicted_by == "connections"
    assert p.formula == "connections: 8192 max-connections / 0.205 s (baseline p50) = 40,000 rps"
    assert models.connections(None, 200) is None and models.connections(8192, None) is None
    small = dict(threads=200, baseline_ms=200, max_connections=100)
    assert models.predict(Inputs("virtual", **small)).predicted_by == "connections"
    assert models.predict(Inputs("platform", **small)).rps == pytest.approx(500)


def test_the_connections_ceiling_and_its_live_value_reach_summary_json(tmp_path):
    synthrun.write_params(tmp_path, MAX_CONNECTIONS=100)
    synthrun.write_mode(
        tmp_path, "platform", ModeSpec(stairs(slow_from=300), live_config={"tomcat_max_connections": 50})
    )
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs()))
    modes = summarised(tmp_path)["modes"]
    assert modes["virtual"]["predicted_by"] == "connections" and modes["virtual"]["predicted_rps"] == 498
    assert "Tomcat's max-connections was 50, not MAX_CONNECTIONS=100" in modes["platform"]["invalid_reasons"]
    assert any(p["predicted_by"] == "connections" and p["rps"] == 249 for p in modes["platform"]["predictions"])


def test_the_page_puts_every_pool_beside_virtual_with_its_ratio_and_the_threadlocal_costs(tmp_path):
    sweep_run(tmp_path, pages=True, THREADLOCAL_KB=64)
    html = (tmp_path / "index.html").read_text()
    verdict = html[html.index('<section id="verdict">') : html.index("</section>", html.index('id="verdict"'))]
    assert verdict.count('<table class="columns">') == 1
    assert "".join(f"<th>{label}</th>" for label in SWEEP) in verdict
    assert "virtual over this pool" in verdict and "the best pool" in verdict
    assert "≥ 1.00×" in verdict and "1.25×" not in verdict  # a bound by its brackets' end, never 500 / 400
    assert "<td>20</td><td>40</td><td>80</td>" in verdict  # each column's own pool, as the service reported it
    assert "none: a thread per request" in verdict
    assert "table.columns { width: 100%; table-layout: fixed; }" in html  # the columns share the page's width
    # the headline names the pool the ratio divides by
    assert "virtual sustained 500 rps = ≥ 1.00× platform-t80 (the best pool) (a lower bound)" in html


def test_the_threadlocal_section_shows_builds_per_request_per_column(threadlocal_run):
    html = (threadlocal_run[0] / "index.html").read_text()
    section = html[html.index('<section id="threadlocal">') :]
    section = section[: section.index("</section>")]
    assert "a 64 KB object per thread" in section
    assert "<td>0<br>" in section and "<td>1<br>" in section  # builds per request: platform, virtual
    assert "65,536 B" in section
