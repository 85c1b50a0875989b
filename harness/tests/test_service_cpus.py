"""SERVICE_CPUS: the parameter's refusals, the split of the cores, and what the analysis makes of a run with it —
each side judged on its own cores, and the CPU prediction read off the service's own CPU on its share."""

import pytest
from test_validity import aside, level, notes, reasons, stairs

from loadlab.analysis import cpufit
from loadlab.analysis.validity import ValidityContext
from loadlab.core import params, servicecpus


def parse(**env):
    return params.parse({k: str(v) for k, v in env.items()})


def test_empty_shares_the_machine_as_before():
    assert parse()["SERVICE_CPUS"] is None


@pytest.mark.parametrize("raw,value", [("1", 1), ("0.5", 0.5), (" 0.25 ", 0.25)])
def test_whole_cores_or_a_share_of_one(raw, value, monkeypatch):
    monkeypatch.setattr(servicecpus, "machine_cpus", lambda: (0, 1))
    assert parse(SERVICE_CPUS=raw)["SERVICE_CPUS"] == value


@pytest.mark.parametrize("raw", ["0", "-1", "abc", "0.05", "0.333", "nan", "inf"])
def test_a_bad_share_is_refused_in_one_line_naming_it(raw):
    with pytest.raises(params.ParamError) as e:
        parse(SERVICE_CPUS=raw)
    (line,) = str(e.value).splitlines()
    assert line.startswith(f"SERVICE_CPUS={raw!r}") and "allowed:" in line


@pytest.mark.parametrize("raw", ["2", "1.5"])
def test_a_share_that_leaves_the_other_roles_no_core_is_refused(raw, monkeypatch):
    monkeypatch.setattr(servicecpus, "machine_cpus", lambda: (0, 1))
    with pytest.raises(params.ParamError) as e:
        parse(SERVICE_CPUS=raw)
    assert str(e.value) == (
        f"SERVICE_CPUS={float(raw):g} leaves the other roles no core of this machine's 2; allowed: 0.1..1"
    )


def test_aws_is_not_refused_for_this_machines_cores(monkeypatch):
    monkeypatch.setattr(servicecpus, "machine_cpus", lambda: (0, 1))
    assert parse(SERVICE_CPUS=8, TARGET="aws")["SERVICE_CPUS"] == 8


def test_the_service_gets_the_last_cores_and_a_fraction_a_quota():
    whole = servicecpus.split(2, (0, 1, 2, 3))
    assert (whole.service_set, whole.others_set, whole.quota_us) == ((2, 3), (0, 1), None)
    assert whole.env_value() == "service=2,3 others=0,1 quota_us=-1 period_us=100000"
    half = servicecpus.split(0.5, (0, 1))
    assert (half.service_set, half.others_set, half.quota_us) == ((1,), (0,), 50_000)
    assert "capped at 0.5 of a core" in half.describe()


def test_a_finished_run_knows_its_split_from_its_record():
    assert servicecpus.of_run(None, 2) is None
    assert servicecpus.of_run(1, 2).other_cores == 1
    assert servicecpus.of_run(1, 1) is None  # a record that cannot have been: nothing claimed


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


def test_aws_ignores_the_split_and_says_so(capsys):
    from loadlab.run import cpushare
    from loadlab.run.hosts import LocalHost
    from loadlab.run.topology import Topology

    host = LocalHost("h", "127.0.0.1")
    topo = Topology(host, host, [host])
    recorded = cpushare.apply({"SERVICE_CPUS": 1, "TARGET": "aws"}, topo)
    assert recorded["ignored"].startswith("ignored on aws") and servicecpus.ENV not in host.env
    said = capsys.readouterr()
    assert "SERVICE_CPUS=1 is ignored on aws" in said.out + said.err
    assert cpushare.apply({"SERVICE_CPUS": None, "TARGET": "local"}, topo) is None


def test_local_hosts_get_the_split(monkeypatch):
    from loadlab.run import cpushare
    from loadlab.run.hosts import LocalHost
    from loadlab.run.topology import Topology

    monkeypatch.setattr(servicecpus, "machine_cpus", lambda: (0, 1))
    host = LocalHost("h", "127.0.0.1")
    recorded = cpushare.apply({"SERVICE_CPUS": 0.5, "TARGET": "local"}, Topology(host, host, [host]))
    assert host.env[servicecpus.ENV] == "service=1 others=0 quota_us=50000 period_us=100000"
    assert recorded["quota_us"] == 50_000
