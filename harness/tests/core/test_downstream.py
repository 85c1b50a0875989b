"""The downstream's distributions: their figures computed once (core/downstream.py), the parameters that choose them
refused in one line when wrong, and the shared fixture the delay-service's draws are held to
(DelayDistributionAgreementTest draws each case and compares its quantiles with these figures)."""

import json

import pytest
from builders import run_params
from conftest import REPO

from loadlab.core import downstream, params, stubs, timeouts
from loadlab.core.downstream import Distribution

FIXTURE = REPO / "harness" / "tests" / "data" / "delay_distributions.json"
RECORDED = REPO / "harness" / "tests" / "data" / "hgrm" / "java.hgrm"
QUANTILES = (0.5, 0.9, 0.99, 0.999)


def cases() -> dict[str, Distribution]:
    return {
        "constant 200": Distribution("constant", 200),
        "lognormal 100 p99 1000": Distribution("lognormal", 100, p99_ms=1000),
        "lognormal 200 p99 2000": Distribution("lognormal", 200, p99_ms=2000),
        "bimodal 100, 5% at 1000": Distribution("bimodal", 100, slow_ms=1000, slow_pct=5),
        "recorded java.hgrm": downstream.distribution(run_params(delay_dist=f"hgrm:{RECORDED}", delay_ms=1)),
    }


def figures(d: Distribution) -> dict:
    return {
        "spring_args": d.spring_args(),
        "mean_ms": round(d.mean_ms(), 3),
        "quantiles_ms": {str(q): round(d.quantile_ms(q), 3) for q in QUANTILES},
    }


def test_the_fixture_the_delay_service_is_held_to_is_what_the_harness_computes():
    """Regenerate with: PYTHONPATH=harness:harness/tests python3 harness/tests/core/test_downstream.py"""
    expected = {name: figures(d) for name, d in cases().items()}
    assert json.loads(FIXTURE.read_text()) == expected


def test_a_lognormal_with_p99_ten_times_the_median_has_a_mean_of_1_63_medians():
    d = Distribution("lognormal", 200, p99_ms=2000)
    assert d.quantile_ms(0.5) == pytest.approx(200) and d.quantile_ms(0.99) == pytest.approx(2000)
    assert d.mean_ms() / 200 == pytest.approx(1.632, abs=0.001)  # e^(sigma^2 / 2), sigma = ln 10 / 2.326
    assert d.wait_words() == "(median 0.2 s, lognormal p99 2 s)"


def test_a_bimodal_mean_weighs_its_two_delays():
    d = Distribution("bimodal", 100, slow_ms=1000, slow_pct=5)
    assert d.mean_ms() == pytest.approx(145) and d.quantile_ms(0.94) == 100 and d.quantile_ms(0.99) == 1000


def test_a_recorded_distribution_is_read_from_a_runs_hgrm_and_keeps_its_figures():
    d = cases()["recorded java.hgrm"]
    assert d.points[0] == (0.0, 200.0) and d.points[-1] == (1.0, 61023.0)
    assert d.quantile_ms(0.5) == pytest.approx(220) and d.quantile_ms(0.9) == pytest.approx(250)
    assert Distribution.from_dict(d.as_dict()) == d


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"DELAY_DIST": "weibull"}, "DELAY_DIST='weibull' is not allowed; allowed: constant | lognormal"),
        ({"DELAY_DIST": "lognormal"}, "DELAY_DIST=lognormal needs DELAY_P99_MS"),
        (
            {"DELAY_DIST": "lognormal", "DELAY_MS": "200", "DELAY_P99_MS": "150"},
            "DELAY_P99_MS=150 is not above the median DELAY_MS=200; allowed: DELAY_P99_MS > 200",
        ),
        ({"DELAY_P99_MS": "900"}, "DELAY_P99_MS=900 has no effect with DELAY_DIST=constant"),
        ({"DELAY_DIST": "bimodal", "DELAY_SLOW_MS": "900"}, "DELAY_DIST=bimodal needs DELAY_SLOW_PCT"),
        (
            {"DELAY_DIST": "bimodal", "DELAY_SLOW_MS": "900", "DELAY_SLOW_PCT": "120"},
            "DELAY_SLOW_PCT=120 is outside 0..100; allowed: a percentage 0..100",
        ),
        ({"DELAY_DIST": "hgrm:/no/such.hgrm"}, "DELAY_DIST='hgrm:/no/such.hgrm' cannot be read"),
        ({"DOWNSTREAM_ERRORS": "-1"}, "DOWNSTREAM_ERRORS=-1 is outside 0..100"),
        ({"DOWNSTREAM_ERRORS": "60", "DOWNSTREAM_RESETS": "50"}, "add up to more than 100%"),
        ({"DELAY_DIST": "lognormal", "DELAY_P99_MS": "900", "SCENARIO": "db"}, "which SCENARIO=db does not call"),
    ],
)
def test_each_bad_downstream_combination_is_refused_in_one_line(env, expected):
    with pytest.raises(params.ParamError) as e:
        params.parse(env)
    (line,) = str(e.value).splitlines()
    assert expected in line


def test_an_empty_hgrm_is_refused_in_one_line(tmp_path):
    empty = tmp_path / "empty.hgrm"
    empty.write_text("       Value     Percentile TotalCount 1/(1-Percentile)\n\n#[Mean = 0]\n")
    with pytest.raises(params.ParamError) as e:
        params.parse({"DELAY_DIST": f"hgrm:{empty}"})
    (line,) = str(e.value).splitlines()
    assert "holds no percentile distribution" in line


def test_an_app_must_call_the_drawn_downstream_for_a_distribution_to_apply():
    jar = REPO / "harness" / "tests" / "sample-app" / "target"
    found = next(jar.glob("sample-app-*.jar"), None)
    if found is None:
        pytest.skip("the sample app is built by `make build`")
    env = {"APP": str(found), "APP_ARGS": "--orders.backend-url={delay_url}", "DOWNSTREAM_ERRORS": "1"}
    with pytest.raises(params.ParamError) as e:
        params.parse(env)
    assert "which APP_ARGS does not use" in str(e.value)
    params.parse({**env, "APP_ARGS": "--orders.pricing-base-url={downstream_url}"})


def test_the_timeouts_and_the_health_limit_follow_the_distributions_high_end():
    values = params.parse({"DELAY_DIST": "lognormal", "DELAY_MS": "100", "DELAY_P99_MS": "1000", "PEAK_RPS": "1000"})
    dist = downstream.distribution(values)
    limits = timeouts.derive(values)
    # The health rule: at a baseline of the median, the limit is the constant rule's for a delay of the p99.
    assert limits.healthy_max_ms == 2000
    # The service's own limit lets the high end through (p99.99: one answer in 10,000 slower).
    assert limits.thread_service_timeout_ms >= dist.high_end_ms() > 3000
    constant = timeouts.derive(params.parse({}))
    assert constant.healthy_max_ms == 400 and constant.thread_service_timeout_ms == 1400


def test_the_lab_calls_the_drawn_path_only_when_the_delay_is_drawn():
    assert downstream.service_base_url("h", 8081, params.parse({})) == "http://h:8081"
    shaped = params.parse({"DOWNSTREAM_ERRORS": "0.5"})
    assert downstream.service_base_url("h", 8081, shaped) == "http://h:8081/drawn"
    assert "--downstream.errors-pct=0.5" in downstream.delay_service_args(shaped, "/x/served.hlog")


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({n: figures(d) for n, d in cases().items()}, indent=2) + "\n")
    print(f"wrote {FIXTURE}")


def test_littles_law_on_a_drawn_delay_uses_its_mean_and_says_so():
    from loadlab.analysis import models

    wait = Distribution("lognormal", 200, p99_ms=2000)
    x = models.Inputs(mode="platform", threads=200, baseline_ms=203, baseline_mean_ms=330, wait=wait)
    (little,) = [p for p in models.applicable(x) if p.predicted_by == "little"]
    # 200 / (0.326 s mean + 3 ms the service adds beyond the median)
    assert little.rps == pytest.approx(200_000 / (wait.mean_ms() + 3))
    assert "little: 200 threads / 0.329 s mean wait (median 0.2 s, lognormal p99 2 s)" in little.formula
    low, high = little.interval
    assert low <= little.rps <= high and low == pytest.approx(200_000 / 330)
    constant = models.Inputs(mode="platform", threads=200, baseline_ms=203)
    (plain,) = [p for p in models.applicable(constant) if p.predicted_by == "little"]
    assert plain.formula.startswith("little: 200 threads / 0.203 s (baseline p50)")


def stubs_file(tmp_path, entries, bodies=None) -> str:
    for name, text in (bodies or {}).items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "stubs.json"
    path.write_text(entries if isinstance(entries, str) else json.dumps(entries))
    return str(path)


def test_a_stubs_file_is_read_with_its_bodies_for_the_delay_service(tmp_path):
    path = stubs_file(
        tmp_path, [{"path": "/posts/{id}", "method": "get", "body": "post.json"}], {"post.json": '{"id": 1}'}
    )
    (stub,) = stubs.read(downstream.Path(path))
    assert stub == {
        "path": "/posts/{id}",
        "method": "GET",
        "status": 200,
        "content_type": "application/json",
        "body": '{"id": 1}',
    }


@pytest.mark.parametrize(
    "entries, expected",
    [
        ("[{", "is not JSON"),
        ("{}", "is not a non-empty JSON list"),
        ([{"method": "GET"}], "entry 1 is not an object with a path"),
        ([{"path": "posts"}], "entry 1 has path 'posts', not a path pattern starting with /"),
        ([{"path": "/a/**/b"}], "(** only as its last segment)"),
        ([{"path": "/a", "method": "FETCH"}], "entry 1 has method 'FETCH'"),
        ([{"path": "/a", "status": 700}], "entry 1 has status 700, not 100..599"),
        ([{"path": "/a", "body": "missing.json"}], "entry 1 has a body file 'missing.json' that cannot be read"),
        ([{"path": "/a", "delay": 5}], "entry 1 has unknown keys delay"),
    ],
)
def test_a_bad_stubs_file_is_refused_in_one_line_naming_the_entry(tmp_path, entries, expected):
    with pytest.raises(params.ParamError) as e:
        params.parse({"DOWNSTREAM_STUBS": stubs_file(tmp_path, entries)})
    (line,) = str(e.value).splitlines()
    assert line.startswith("DOWNSTREAM_STUBS=") and expected in line, line


def test_stubs_without_an_app_are_refused(tmp_path):
    with pytest.raises(params.ParamError) as e:
        params.parse({"DOWNSTREAM_STUBS": stubs_file(tmp_path, [{"path": "/a"}])})
    assert "allowed: empty, or APP with {downstream_url} in APP_ARGS" in str(e.value)
