"""SERVICE_CPUS: the parameter's refusals and the split of the cores (what the analysis makes of a run with it:
analysis/test_own_cores.py; how the hosts get it: run/test_cpushare.py)."""

import pytest

from loadlab.core import params, servicecpus


def parse(**env):
    return params.parse({k: str(v) for k, v in env.items()})


def test_empty_shares_the_machine_as_before():
    assert parse().service_cpus is None


@pytest.mark.parametrize("raw,value", [("1", 1), ("0.5", 0.5), (" 0.25 ", 0.25)])
def test_whole_cores_or_a_share_of_one(raw, value, monkeypatch):
    monkeypatch.setattr(servicecpus, "machine_cpus", lambda: (0, 1))
    assert parse(SERVICE_CPUS=raw).service_cpus == value


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
    assert parse(SERVICE_CPUS=8, TARGET="aws").service_cpus == 8


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
