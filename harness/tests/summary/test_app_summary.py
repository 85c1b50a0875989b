"""An application under test, round 2 (issue 24), on synthetic run folders: its own HikariCP pool predicted and named
as the limit, a prediction with no upper end never counted, no ratio from two modes that never broke, no cost printed
where its data cannot carry it, and words that fit an app (no "missing jvm.csv", no "http scenario", its name)."""

import synthrun
from conftest import summarised
from partial_records import partial
from synthrun import START_EPOCH, LevelSpec, stairs
from test_app_verdict import APP, write_app_mode

from loadlab import report
from loadlab.analysis import models
from loadlab.analysis.prediction import MeasuredKnee, Prediction, agreement
from loadlab.core.app import HIKARI_ACTIVE, HIKARI_MAX, HIKARI_PENDING, HIKARI_USAGE_COUNT, HIKARI_USAGE_TOTAL_S
from loadlab.report import costs_table
from loadlab.summary.judge import cost_fits, slope_fit
from loadlab.summary.judge.slope_fit import Fit
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.schema.fit_records import CostsRecord
from loadlab.summary.schema.level_records import LevelCostsRecord, LevelRecord
from loadlab.summary.verdicts.records import ModeRecord, RequestCostRecord, RunSummary

WARMUP, PER_LEVEL = 2, 3  # synthrun.ModeSpec's defaults: the seconds each level covers


def write_pool_gauges(run_dir, mode, rates, *, size, hold_ms, full_from):
    """actuator.csv as the sampler writes it for an app with HikariCP: per second its gauges, and the usage timer's
    cumulative total (seconds) growing by rate × hold (hold_ms: one for every level, or one per level); from the level
    at full_from on, every connection is busy and requests wait."""
    holds = hold_ms if isinstance(hold_ms, (list, tuple)) else [hold_ms] * len(rates)
    header = ["second", HIKARI_ACTIVE, HIKARI_PENDING, HIKARI_MAX, HIKARI_USAGE_TOTAL_S, HIKARI_USAGE_COUNT]
    lines, total, count = [",".join(header)], 0.0, 0
    second = START_EPOCH
    for _ in range(WARMUP):
        lines.append(f"{second},0,0,{size},{total:.3f},{count}")
        second += 1
    for rate, hold_ms in zip(rates, holds):
        full = rate >= full_from
        for _ in range(PER_LEVEL):
            total += rate * hold_ms / 1000
            count += rate
            active, pending = (size, 40) if full else (min(size, rate * hold_ms / 1000), 0)
            lines.append(f"{second},{active:g},{pending},{size},{total:.3f},{count}")
            second += 1
    (run_dir / mode / "raw" / "thread" / "actuator.csv").write_text("\n".join(lines) + "\n")


def test_an_app_limited_by_its_own_connection_pool_is_named_with_the_pool_models_prediction(tmp_path):
    """Two connections held 10 ms per request once warm (12 ms at the JIT-cold first level): 200 rps in both modes;
    the knee at 200-250 with the pool full. The cold first level widens the interval but does not set the figure
    (issue 33: a pool prediction read at one cold level, 884–884, "disagreed" with its knee)."""
    rates = [100, 150, 200, 250, 300]
    synthrun.write_params(tmp_path, APP=APP, APP_PATH="/owners/1", platform_threads=200)
    for mode, starts, pool in (("platform", 0, 200), ("virtual", 5_000, 0)):
        write_app_mode(tmp_path, mode, stairs(rates, slow_from=250), virtual_starts=starts, pool_threads=pool)
        write_pool_gauges(tmp_path, mode, rates, size=2, hold_ms=[12, 10, 10, 10, 10], full_from=250)
    result = summarised(tmp_path)
    for mode in ("platform", "virtual"):
        m = result["modes"][mode]
        assert m["predicted_by"] == "pool" and m["predicted_rps"] == 200, m["predictions"]
        assert "2 connections" in m["prediction"], m["prediction"]
        assert "/ 0.010 s (hikaricp.connections.usage, per request) = 200 rps" in m["prediction"], m["prediction"]
        assert m["predicted_interval_rps"] == [167, 200], m["predicted_interval_rps"]
        assert m["predicted_fitted_on_rps"] == [100, 200] and m["prediction_quality"] is None
        assert m["prediction_verdict"] == "agrees", m["prediction_check"]
        first = m["limit_met_first"]
        assert first.startswith("the app's connection pool (HikariCP): at 250 rps all 2 of its connections"), first
        assert "up to 40 requests waited" in first and "is met by the knee" in first, first
    from loadlab.report.answer import answer

    said = answer(RunSummary.from_mapping(result))
    assert "the limit was the app's own connection pool" in said, said
    # Platform's 200 threads are not the limit: min(threads, connections) = 2 connections.
    assert "min(200 threads, 2 connections)" in result["modes"]["platform"]["prediction"]


def test_a_pool_that_was_not_full_at_the_knee_is_not_named():
    """The app's pool busy now and then (no second with every connection in use and requests waiting) is no limit:
    the sentence falls back to the models."""
    from loadlab.summary.judge import app_pool
    from loadlab.summary.reading.raw import RawMode
    from loadlab.summary.reading.raw_rows import MetricSample

    def gauges(active: str, pending: str, size: str) -> MetricSample:
        return MetricSample.parse({HIKARI_ACTIVE: active, HIKARI_PENDING: pending, HIKARI_MAX: size})

    raw = RawMode([], {}, {}, {}, None)
    raw.actuator = {START_EPOCH + s: gauges("1", "0", "2") for s in range(10)}
    from loadlab.analysis.levels import Level

    level = Level(3, 250, 3, 750, 750, 0, None, first_second=2)
    assert app_pool.at_knee(raw, START_EPOCH, level) is None
    raw.actuator = {START_EPOCH + s: gauges("2", "7", "2") for s in range(10)}
    assert app_pool.at_knee(raw, START_EPOCH, level).pending_max == 7


def test_a_prediction_with_no_upper_end_never_agrees_nor_wins_over_a_bounded_one():
    unbounded = Prediction(413, "cpu", "cpu: … = 413 rps", interval=(413, None))
    bounded = Prediction(740, "pool", "pool: … = 740 rps", interval=(700, 780))
    knee = MeasuredKnee(True, (740, 780), None)
    judged = agreement(unbounded, knee)
    assert judged.agrees is None and judged.verdict == "no upper end", judged
    assert "excludes no knee" in judged.words
    # Below its low end it is still a real disagreement.
    assert agreement(unbounded, MeasuredKnee(True, (200, 300), None)).verdict == "disagrees"
    # The lowest bounded limit is the prediction; the unbounded one only when nothing bounded exists.
    x = models.Inputs(mode="virtual", cpu_ceiling=unbounded, memory_ceiling=bounded)
    assert models.predict(x) is bounded
    assert models.predict(models.Inputs(mode="virtual", cpu_ceiling=unbounded)) is unbounded


def test_the_cpu_with_no_upper_end_is_not_the_limit_met_first_when_a_bounded_limit_exists(tmp_path):
    from loadlab.analysis.bracket import Bracket
    from loadlab.analysis.knee import Knee
    from loadlab.analysis.validity import ValidityContext
    from loadlab.summary.judge import knee_record

    unbounded = Prediction(413, "cpu", "cpu", interval=(413, None))
    threads = Prediction(2000, "little", "little", interval=(1900, 2100))
    knee = Knee(700, 250, 200, Bracket(700, 800), Bracket(700, 800), [], None)
    ctx = ValidityContext(delay_ms=200, shared_machine=True)
    text = knee_record.limit_met_first([unbounded, threads], knee, True, 900, ctx)
    assert not text.startswith("CPU"), text
    assert "has no upper end, so it excludes nothing and names no limit" in text, text
    alone = knee_record.limit_met_first([unbounded], knee, True, 900, ctx)
    assert alone.startswith("CPU (utilization law): the knee 700 rps meets its predicted ≥ 413 rps"), alone
    assert "no upper end" in alone


def test_no_ratio_when_neither_mode_reached_its_knee_and_a_bound_when_one_did(tmp_path):
    held = tmp_path / "held"
    synthrun.write_params(held)  # the lab's own service: the same rule
    for mode in ("platform", "virtual"):
        synthrun.write_mode(held, mode, synthrun.ModeSpec(stairs([100, 200, 300])))
    result = report.rebuild(held).as_json()
    assert result["virtual_over_platform"] is None
    assert result["virtual_over_platform_reason"].startswith("neither mode reached its knee"), result
    assert "raise PEAK_RPS" in result["virtual_over_platform_reason"]
    assert "1.00×" not in (held / "index.html").read_text() and "1.0×" not in (held / "index.html").read_text()

    one = tmp_path / "one"
    synthrun.write_params(one, APP=APP)
    write_app_mode(one, "platform", stairs([100, 200, 300], slow_from=300), virtual_starts=0, pool_threads=200)
    write_app_mode(one, "virtual", stairs([100, 200, 300]), virtual_starts=5_000, pool_threads=0)
    result = report.rebuild(one).as_json()
    assert result["virtual_over_platform"] == 1.0 and result["virtual_over_platform_bound"] == "lower", result
    assert "= ≥ 1.00× platform (a lower bound)" in (one / "index.html").read_text()


def test_a_cost_whose_interval_includes_zero_or_whose_range_is_too_narrow_is_no_figure():
    wide = Fit(9727.3, (-25391.0, 44846.0), 0.41, 12, (5.0, 30.0))
    narrow = Fit(240.0, (200.0, 280.0), 0.9, 12, (0.2, 1.1))
    sure = Fit(164.0, (150.0, 178.0), 0.98, 12, (20.0, 80.0))
    assert "includes zero" in wide.not_a_figure(5, "requests in flight")
    assert "too narrow" in narrow.not_a_figure(5, "requests in flight")
    assert sure.not_a_figure(5, "requests in flight") is None
    fits = partial(CostsRecord, memory_per_inflight=wide.record(1, 5, "requests in flight"))
    mode = partial(ModeRecord, request_cost=RequestCostRecord(None, None, None, fits=fits))
    cell = dict(costs_table.rows(mode))[next(label for label, _ in costs_table.rows(mode))]
    assert "no figure" in cell and "includes zero" in cell and "9,727" not in cell, cell


def test_a_narrow_in_flight_range_gives_a_null_memory_figure_and_no_memory_ceiling(tmp_path):
    costs = partial(CostsRecord, memory_per_inflight=Fit(240.0, (200.0, 280.0), 0.9, 12, (0.2, 1.1)).record(1, 5, "x"))
    lightest = LevelRecord.from_mapping(
        {
            "index": 0,
            "healthy": True,
            "rss_mb": 200.0,
            "ok_rps": 100.0,
            "costs": partial(LevelCostsRecord, live_heap_mb=50.0),
        }
    )
    assert cost_fits.memory_ceiling(RawMode([], {}, {}, {}, None), costs, [lightest], 200) is None
    assert slope_fit.figure(Fit(240.0, (200.0, 280.0), 0.9, 12, (0.2, 1.1)), 1, 5) is None


def test_an_app_page_says_neither_missing_jvm_csv_nor_http_scenario_and_names_the_app(tmp_path):
    synthrun.write_params(tmp_path, APP=APP, APP_PATH="/orders/42")
    for mode, starts, pool in (("platform", 0, 200), ("virtual", 5_000, 0)):
        write_app_mode(tmp_path, mode, stairs([100, 200, 300], slow_from=300), virtual_starts=starts, pool_threads=pool)
        (tmp_path / mode / "raw" / "thread" / "jvm.csv").unlink()  # an app has no /actuator/loadlab
    result = report.rebuild(tmp_path).as_json()
    html = (tmp_path / "index.html").read_text()
    assert "jvm.csv" not in html and "This run folder is incomplete" not in html
    assert "http scenario" not in html and "orders.jar at /orders/42:" in html
    assert result["modes"]["platform"]["evidence_at_knee"].count("orders.jar") == 1
    assert "thread-service" not in result["modes"]["platform"]["evidence_at_knee"]


def test_a_knee_where_the_app_answered_errors_says_so_not_threads(tmp_path):
    synthrun.write_params(tmp_path, APP=APP)
    levels = [LevelSpec(100), LevelSpec(200), LevelSpec(300, ok_share=0.7, ko_share=0.3)]
    spec = synthrun.ModeSpec(levels, ko_kind="status_503", ko_ms=5)
    synthrun.write_mode(tmp_path, "platform", spec)
    result = summarised(tmp_path)
    first = result["modes"]["platform"]["limit_met_first"]
    assert first.startswith("the orders.jar answered errors: at 300 rps"), first
    assert "status_503" in first, first


def test_a_pool_named_at_the_knee_is_not_also_a_limit_no_model_explains(tmp_path):
    """spring-petclinic with open-in-view and 1 connection (run 20261125-235748): at the knee its one connection was
    in use with requests waiting, so the pool was named first, but its prediction (1 / 1.21 ms = 824 rps) lay far
    above the knee (a single connection's queue grows long before it is busy all the time). The page also said "a
    limit inside the application that none of the lab's models explains", and "all 1 of its connections were in use
    and up to 1 requests waited"."""
    rates = [100, 150, 200, 250, 300]
    synthrun.write_params(tmp_path, APP=APP, APP_PATH="/owners/1", platform_threads=200)
    write_app_mode(tmp_path, "platform", stairs(rates, slow_from=250), virtual_starts=0, pool_threads=200)
    write_pool_gauges(tmp_path, "platform", rates, size=1, hold_ms=2, full_from=250)
    m = report.rebuild(tmp_path).as_json()["modes"]["platform"]
    first = m["limit_met_first"]
    assert first.startswith("the app's connection pool (HikariCP): at 250 rps its one connection was in use"), first
    assert "is not met by the knee" in first, first
    assert m["app_evidence"]["unexplained_limit"] is None
    assert not any("none of the lab's models explains" in n for n in m["notes"]), m["notes"]
    assert "none of the lab's models explains" not in (tmp_path / "index.html").read_text()


def test_one_waiting_request_is_said_in_the_singular():
    from loadlab.summary.judge.app_pool import PoolAtKnee

    assert PoolAtKnee(1, 1, 420).sentence() == (
        "the app's connection pool (HikariCP): at 420 rps its one connection was in use and 1 request waited for it"
    )
    assert PoolAtKnee(2, 22, 69).sentence() == (
        "the app's connection pool (HikariCP): at 69 rps all 2 of its connections were in use and up to 22 "
        "requests waited for one"
    )
