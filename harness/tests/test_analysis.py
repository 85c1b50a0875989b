import pytest

from loadlab import analysis
from loadlab.analysis import Evidence, Level, Thresholds
from loadlab.hlog import LatencyStats

TH = Thresholds()


def level(index, target, p50=201, p99=230, ok_share=1.0, ko_share=0.0, sent_share=1.0, seconds=10, **evidence):
    ok, ko = round(target * ok_share * seconds), round(target * ko_share * seconds)
    stats = LatencyStats(ok, p50, p99, p99, p99 + 20) if ok else None
    quiet = dict(
        thread_cpu_pct=60,
        delay_cpu_pct=20,
        delay_cores=2,
        injector_cpu_pct=30,
        injector_cores=2,
        injector_host_cpu_pct=50,
        host_cpu_pct=50,
        downstream_ms_mean=201,
    )
    return Level(
        index,
        target,
        seconds,
        round(target * sent_share * seconds),
        ok,
        ko,
        stats,
        index * seconds,
        Evidence(**{**quiet, **evidence}),
    )


def stairs(*changes, n=6, step=100):
    """n healthy levels 100, 200, ...; changes = (position, overrides) applied to single levels."""
    levels = {i: {} for i in range(n)}
    for position, overrides in changes:
        levels[position] = overrides
    return [level(i, step * (i + 1), **levels[i]) for i in range(n)]


# --- health and knee ---------------------------------------------------------------------------------------------


def test_healthy_throughout_never_collapses_and_reports_the_peak():
    v = analysis.judge(stairs(), TH)
    assert (v.collapsed, v.sustained_rps, v.first_unhealthy, v.p99_ms_at_sustained) == (False, 600, None, 230)
    assert all(healthy for healthy, _ in v.health)


def test_latency_collapse_in_the_middle():
    v = analysis.judge(stairs((3, dict(p99=900)), (4, dict(p99=2000)), (5, dict(p99=5000))), TH)
    assert (v.collapsed, v.sustained_rps, v.first_unhealthy) == (True, 300, 3)
    assert v.health[3] == (False, ["p99 900 ms is above the 402 ms limit"])


def test_errors_alone_make_a_level_unhealthy():
    v = analysis.judge(stairs((2, dict(ko_share=0.02))), TH)
    assert (v.collapsed, v.sustained_rps) == (True, 200)
    assert v.health[2][1] == ["error ratio 2.0% is above 1.0% (60 errors)"]


def test_throughput_alone_makes_a_level_unhealthy():
    v = analysis.judge(stairs((4, dict(ok_share=0.94))), TH)
    assert (v.collapsed, v.sustained_rps) == (True, 400)
    assert v.health[4][1] == ["OK throughput 470 rps is below 95% of the 500 rps target"]


def test_exactly_at_the_thresholds_is_still_healthy():
    limit = TH.p99_limit_ms(201)
    v = analysis.judge(stairs((1, dict(ok_share=0.95, ko_share=0.0095, p99=int(limit)))), TH)
    assert not v.collapsed


def test_first_level_unhealthy_sustains_nothing():
    v = analysis.judge(stairs((0, dict(ko_share=0.5))), TH)
    assert (v.collapsed, v.sustained_rps, v.sustained_position, v.p99_ms_at_sustained) == (True, 0, None, None)


def test_a_later_healthy_level_does_not_move_the_knee_back_up():
    v = analysis.judge(stairs((2, dict(p99=900))), TH)
    assert v.sustained_rps == 200


def test_a_level_without_any_ok_response_is_unhealthy():
    v = analysis.judge(stairs((3, dict(ok_share=0.0, ko_share=1.0))), TH)
    assert "no successful response, so no latency" in v.health[3][1]


@pytest.mark.parametrize("baseline, limit", [(201, 402), (50, 150), (100, 200)])
def test_p99_limit_is_the_larger_of_factor_and_slack(baseline, limit):
    v = analysis.judge(stairs((0, dict(p50=baseline))), TH)
    assert (v.baseline_p50_ms, v.p99_limit_ms) == (baseline, limit)


def test_thresholds_come_from_params_json_with_contract_defaults():
    th = Thresholds.from_mapping({"ok_ratio": 0.9, "p99_slack_ms": "oops"})
    assert th == Thresholds(ok_ratio=0.9, max_error_ratio=0.01, p99_factor=2.0, p99_slack_ms=100.0)
    assert Thresholds.from_mapping(None) == TH


def test_littles_law_prediction_for_platform_only():
    assert analysis.predicted_rps("platform", 200, 202) == pytest.approx(990.1, abs=0.05)
    assert analysis.predicted_rps("virtual", 200, 202) is None
    assert analysis.predicted_rps("platform", None, 202) is None
    assert analysis.predicted_rps("platform", 200, None) is None


def test_shared_machine_targets():
    assert analysis.shares_one_machine("local") and analysis.shares_one_machine("netns")
    assert analysis.shares_one_machine(None)
    assert not analysis.shares_one_machine("aws")
