"""SERVICE_CPUS reaching the hosts (run/cpushare.py; the parameter: core/test_servicecpus.py): local hosts get the
split, aws ignores it and says so."""

from loadlab.core import servicecpus


def test_aws_ignores_the_split_and_says_so(capsys):
    from loadlab.run import cpushare
    from loadlab.run.hosts import LocalHost
    from loadlab.run.topology import Topology

    host = LocalHost("h", "127.0.0.1")
    topo = Topology(host, host, [host])
    recorded = cpushare.apply(1, "aws", topo)
    assert recorded["ignored"].startswith("ignored on aws") and servicecpus.ENV not in host.env
    said = capsys.readouterr()
    assert "SERVICE_CPUS=1 is ignored on aws" in said.out + said.err
    assert cpushare.apply(None, "local", topo) is None


def test_local_hosts_get_the_split(monkeypatch):
    from loadlab.run import cpushare
    from loadlab.run.hosts import LocalHost
    from loadlab.run.topology import Topology

    monkeypatch.setattr(servicecpus, "machine_cpus", lambda: (0, 1))
    host = LocalHost("h", "127.0.0.1")
    recorded = cpushare.apply(0.5, "local", Topology(host, host, [host]))
    assert host.env[servicecpus.ENV] == "service=1 others=0 quota_us=50000 period_us=100000"
    assert recorded["quota_us"] == 50_000
