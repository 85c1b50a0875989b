"""MODES=reactive (reactive-service, the thread-service's requests on WebFlux and Netty): what it refuses before
anything starts, its live-config check (Netty's event loops, no Tomcat, no virtual threads), its predictions and
`virtual_over_reactive` beside `virtual_over_platform`, on synthetic run folders."""

import pytest
import synthrun
import test_app
from conftest import summarised
from synthrun import START_EPOCH, ModeSpec, stairs

from loadlab import report
from loadlab.core import params
from loadlab.run import console
from loadlab.summary.verdicts.records import RunSummary

MODES = ("platform", "virtual", "reactive")
REACTIVE_LIVE = {
    "thread_mode": "reactive",
    "java_version_feature": 25,
    "tomcat_threads_max": -1,
    "tomcat_max_connections": -1,
    "db_pool_max": 10,
    "threadlocal_kb": 0,
}


def event_loops(run_dir, mode: str, count: int) -> None:
    """The host sampler's count of the service's threads named as Netty's event loops, one row per second."""
    rows = "".join(f"{START_EPOCH + s},{count}\n" for s in range(30))
    (run_dir / mode / "raw" / "thread" / "request_pool.csv").write_text("second,named_threads\n" + rows)


def three_columns(
    tmp_path, reactive_live=REACTIVE_LIVE, loops: int | None = 4, reactive_top: int = 400, pages=True, **extra
):
    """platform, virtual and reactive judged; pages=False: the numbers only (conftest.summarised)."""
    synthrun.write_params(tmp_path, modes=MODES, **extra)
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs(failing_above=200)))
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs(failing_above=400)))
    synthrun.write_mode(tmp_path, "reactive", ModeSpec(stairs(failing_above=reactive_top), live_config=reactive_live))
    if loops is not None:
        event_loops(tmp_path, "reactive", loops)
    return report.rebuild(tmp_path).as_json() if pages else summarised(tmp_path)


@pytest.mark.parametrize(
    "env, expected",
    [
        (
            {"MODES": "virtual reactive", "SCENARIO": "pinned"},
            "SCENARIO=pinned has no reactive form (it holds a monitor across a blocking call) but MODES='virtual "
            "reactive' runs reactive; allowed: SCENARIO http, db or cpu with reactive, or MODES without reactive",
        ),
        (
            {"MODES": "reactive", "APP": "{jar}"},
            "APP='{jar}' replaces the thread-service and has no reactive form, but MODES='reactive' runs "
            "reactive; allowed: MODES of platform and/or virtual with APP",
        ),
    ],
)
def test_what_has_no_reactive_form_is_refused_in_one_line(tmp_path, env, expected):
    app_jar = test_app.jar(tmp_path / "orders.jar", test_app.boot_manifest("3.2.0")).resolve()
    with pytest.raises(params.ParamError) as e:
        params.parse({k: v.format(jar=app_jar) for k, v in env.items()})
    assert str(e.value) == expected.format(jar=app_jar)


def test_reactive_joins_modes_and_the_default_stays_platform_and_virtual():
    assert params.parse({}).modes == ("platform", "virtual")
    assert params.parse({"MODES": "platform virtual reactive"}).modes == tuple(MODES)
    assert params.parse({"MODES": "reactive", "SCENARIO": "db"}).modes == ("reactive",)


def test_three_judged_columns_and_virtual_over_reactive_beside_virtual_over_platform(tmp_path):
    result = three_columns(tmp_path, MAX_CONNECTIONS=8192)
    reactive = result["modes"]["reactive"]
    assert reactive["valid"] is True, reactive["invalid_reasons"]
    assert reactive["sustained_rps"] == 400 and reactive["collapsed"] is True
    assert result["virtual_over_platform"] == 2.0
    assert result["virtual_over_reactive"] == 1.0 and result["virtual_over_reactive_reason"] is None
    # Netty has no connection cap: no connections model for it, while virtual keeps Tomcat's.
    assert "connections" not in {p["predicted_by"] for p in reactive["predictions"]}
    assert "connections" in {p["predicted_by"] for p in result["modes"]["virtual"]["predictions"]}
    page = (tmp_path / "index.html").read_text()
    assert "virtual/reactive 1.00×" in page and "none: Netty event loops" in page


def test_a_reactive_column_that_held_the_top_makes_virtual_over_reactive_an_upper_bound(tmp_path, capsys):
    """Seen on a real run: virtual's knee at 1,980 rps, reactive held 3,105 — 0.64× is a ceiling, not a measure."""
    result = three_columns(tmp_path, reactive_top=500)
    assert result["modes"]["reactive"]["collapsed"] is False and result["modes"]["virtual"]["collapsed"] is True
    assert result["virtual_over_reactive"] == 1.0 and result["virtual_over_reactive_bound"] == "upper"
    assert "virtual/reactive ≤ 1.00× (upper bound)" in (tmp_path / "index.html").read_text()
    console.table(RunSummary.from_mapping(result), tmp_path)
    out = capsys.readouterr().out
    assert "virtual / reactive sustained throughput: ≤ 1.00× (an upper bound: reactive held the top" in out, out


def test_a_reactive_column_that_did_not_run_on_event_loops_is_invalid_and_gives_no_ratio(tmp_path):
    result = three_columns(tmp_path, loops=0)
    reactive = result["modes"]["reactive"]
    assert reactive["valid"] is False
    assert any("no Netty event loop (reactor-http-… or webflux-http-…) ran" in r for r in reactive["invalid_reasons"])
    assert result["virtual_over_reactive"] is None
    assert result["virtual_over_reactive_reason"].startswith("reactive is invalid: ")
    assert "no virtual/reactive ratio (reactive is invalid)" in (tmp_path / "index.html").read_text()
    # virtual over platform does not depend on it
    assert result["virtual_over_platform"] == 2.0


def test_missing_evidence_and_tomcat_in_its_place_are_said(tmp_path):
    result = three_columns(
        tmp_path, reactive_live={**REACTIVE_LIVE, "tomcat_threads_max": 200}, loops=None, pages=False
    )
    reasons = result["modes"]["reactive"]["invalid_reasons"]
    assert "the service ran Tomcat's request pool (200 threads), not Netty's event loops" in reasons
    assert any(r.startswith("the service's threads were not sampled by name") for r in reasons)


def test_a_run_without_reactive_has_no_reactive_ratio(tmp_path):
    synthrun.write_params(tmp_path)
    synthrun.write_mode(tmp_path, "platform", ModeSpec(stairs(failing_above=200)))
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs(failing_above=400)))
    assert "virtual_over_reactive" not in summarised(tmp_path)
