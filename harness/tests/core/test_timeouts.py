"""Every limit of the request chain follows the workload (timeouts.py): for every DELAY_MS the parameters allow, the
injector waits longer than the thread-service, which waits longer than the slowest request the health rule calls
healthy, which is longer than what a request should take. Where a cap cannot follow, the parameters say so first."""

import pytest
from builders import run_params

from loadlab.core import params, timeouts
from loadlab.core.thresholds import Thresholds


def ordered(values, thresholds=None):
    lim = timeouts.derive(values, thresholds)
    return (
        lim.injector_request_timeout_ms > lim.thread_service_timeout_ms > lim.healthy_max_ms >= lim.expected_ms + 100
        and lim.injector_connect_timeout_ms > lim.thread_service_connect_timeout_ms > lim.healthy_max_ms
        and lim.database_timeout_ms == lim.thread_service_timeout_ms
        and lim.delay_probe_timeout_ms > values.delay_ms
        and lim.injector_request_timeout_ms <= timeouts.GATLING_MAX_TIMEOUT_MS
    )


def test_every_allowed_delay_gives_injector_over_service_over_expected():
    lo, hi = 1, 60000
    assert params.BY_NAME["DELAY_MS"].allowed.startswith(f"{lo}..{hi}")
    bad = [d for d in range(lo, hi + 1) if not ordered(run_params(delay_ms=d))]
    assert bad == []


@pytest.mark.parametrize("cpu_ms", [1, 50, 2000])
def test_cpu_work_counts_as_part_of_a_request(cpu_ms):
    for delay in (1, 200, 11000, 60000):
        values = run_params(delay_ms=delay, cpu_ms=cpu_ms)
        assert ordered(values)
        lim = timeouts.derive(values)
        assert lim.expected_ms == delay + cpu_ms
        # the service's own computation fits between its downstream limit and the injector's
        assert lim.injector_request_timeout_ms - lim.thread_service_timeout_ms > cpu_ms


def test_the_health_rule_thresholds_move_the_limits():
    th = Thresholds(p99_factor=1.2, p99_slack_ms=50)
    strict = timeouts.derive(run_params(delay_ms=1000), th)
    assert strict.healthy_max_ms == 1200 and ordered(run_params(delay_ms=1000), th)
    assert timeouts.derive(run_params(delay_ms=200)).healthy_max_ms == Thresholds().p99_limit_ms(200)


def test_an_11_s_request_is_not_cut_by_any_limit():
    lim = timeouts.derive(run_params(delay_ms=11000))
    assert lim.injector_request_timeout_ms == 25000 and lim.thread_service_timeout_ms == 23000
    assert timeouts.injector_props(lim) == {"requestTimeoutMs": 25000, "connectTimeoutMs": 25000, "maxInflight": 5000}
    assert timeouts.thread_service_args(lim) == [
        "--delay-service.timeout=23000ms",
        "--delay-service.connect-timeout=23000ms",
    ]
    assert timeouts.database_timeouts_ms(lim) == {"connection_timeout_ms": 23000, "query_timeout_ms": 23000}


@pytest.mark.parametrize("expected, lag", [(1, 0), (200, 0), (499, 0), (500, 0), (1000, 1), (11000, 11), (11600, 12)])
def test_completion_lag(expected, lag):
    assert timeouts.completion_lag_s(expected) == lag


def test_a_healthy_level_that_would_trip_the_injectors_safety_cap_is_refused_before_the_run():
    with pytest.raises(params.ParamError) as e:
        params.parse({"DELAY_MS": "2000"})
    (line,) = str(e.value).splitlines()
    assert line.startswith("PEAK_RPS=3000 with requests of 2000 ms keeps 6000 requests in flight per injector")
    assert "allowed: PEAK_RPS <= 1250 at DELAY_MS=2000 with INJECTORS=1" in line
    # the same rate split over more injectors fits
    assert params.parse({"DELAY_MS": "2000", "INJECTORS": "3"}).delay_ms == 2000
    # the long-delay run fits
    assert params.parse({"DELAY_MS": "11000", "START_RPS": "2", "PEAK_RPS": "4"}).delay_ms == 11000
    assert "PEAK_RPS / INJECTORS x (mean delay + CPU_MS) / 1000 <= 2500" in params.BY_NAME["DELAY_MS"].allowed
