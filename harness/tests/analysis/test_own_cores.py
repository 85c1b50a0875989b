"""A run with SERVICE_CPUS (core/test_servicecpus.py): each side judged on its own cores, and the CPU prediction read
off the service's own CPU on its share."""

import pytest
from builders import level, stairs
from test_validity import aside, notes, reasons

from loadlab.analysis import cpufit
from loadlab.analysis.validity import ValidityContext
from loadlab.core import servicecpus

ONE = ValidityContext(delay_ms=200, shared_machine=True, split=servicecpus.split(1, (0, 1)))


def test_the_other_roles_saturating_their_core_set_that_level_aside():
    levels = stairs((3, dict(delay_cpu_pct=40, injector_cpu_pct=55, other_roles_cpu_pct=95)))
    assert reasons(levels, ONE) == []
    (r,) = aside(levels, ONE).values()
    assert r.startswith("the other roles' cores were saturated: the delay-service and the injectors used 95%")
    assert r.endswith("of the 1 core(s) SERVICE_CPUS left them (limit 90%)")


def test_a_busy_machine_is_not_blamed_when_each_side_had_its_own_cores():
    # The service's core full and the others' half: the machine is 75% busy and each side is within its own.
    levels = stairs((4, dict(host_cpu_pct=97, thread_cpu_pct=96, other_roles_cpu_pct=50, p99=900)))
    assert reasons(levels, ONE) == []
    (n,) = notes(levels, ONE)
    assert n.startswith("the service used 96% of one core at the first unhealthy level 5 (500 rps), 96% of the 1")
    assert "this knee is the service's own CPU" in n


def fit_levels(ms_per_request, others_ms, rates=(500, 1000, 1500, 2000)):
    return [
        level(
            i,
            r,
            thread_cpu_pct=5 + r * ms_per_request / 10,
            delay_cpu_pct=r * others_ms / 20,
            injector_cpu_pct=r * others_ms / 20,
            other_roles_cpu_pct=r * others_ms / 10,
        )
        for i, r in enumerate(rates)
    ]


@pytest.mark.parametrize("share", [1, 0.5])
def test_the_cpu_prediction_is_the_services_own_share_over_its_own_cpu(share):
    split = servicecpus.split(share, (0, 1))
    ceiling = cpufit.ceiling_of_levels(fit_levels(0.3, 0.1), True, 1, 2, split)
    assert ceiling.host == cpufit.SERVICE_SIDE
    assert [r.role for r in ceiling.roles] == ["thread-service"]
    # (share − 0.05 fixed) × 1000 / 0.3 ms: the other roles' CPU and the machine's second core do not count.
    assert ceiling.rps == pytest.approx((share - 0.05) * 1000 / 0.3)
    prediction = ceiling.prediction()
    low, high = prediction.interval
    assert low <= prediction.rps <= high


def test_the_other_roles_core_sets_the_ceiling_when_they_run_out_first():
    ceiling = cpufit.ceiling_of_levels(fit_levels(0.1, 0.5), True, 1, 2, servicecpus.split(1, (0, 1)))
    assert ceiling.host == "the other roles' cores"
    assert ceiling.rps == pytest.approx(1 * 1000 / 0.5)
