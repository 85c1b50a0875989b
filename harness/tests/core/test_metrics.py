"""The /actuator/loadlab field names have one source, service-contract's loadlab/metrics.tsv (each service refuses to
start unless it emits exactly those). Here: every field of it reaches what the harness records and writes, and every
name the Python side spells is in it, so a new metric is one line in metrics.tsv and a renamed or forgotten one
fails here."""

import ast
import json
import os
import subprocess

import synthrun
from bench_run import bench_run
from builders import run_params
from conftest import REPO, summarised, wait_for
from standin import json_server, start_sampler
from synthrun import LevelSpec, ModeSpec

from loadlab.core import metrics
from loadlab.report.charts import server_charts as server_charts
from loadlab.run import liveconfig, samplers
from loadlab.run.hosts import Host
from loadlab.run.topology import Topology
from loadlab.summary.writing import outputs
from loadlab.summary.writing import server_columns as col


def test_the_list_is_read_from_the_service_and_is_well_formed():
    fields = metrics.load()
    assert metrics.METRICS_TSV == REPO / "service-contract" / "src" / "main" / "resources" / "loadlab" / "metrics.tsv"
    names = [m.name for m in fields]
    assert len(names) == len(set(names)) and len(names) >= 10
    assert {m.kind for m in fields} <= set(metrics.KINDS)
    assert set(metrics.names(*metrics.SAMPLED_KINDS)) | set(metrics.names("info")) == set(names)


def test_every_name_the_python_side_spells_is_in_the_list():
    gauges, counters = set(metrics.names("gauge")), set(metrics.names("counter"))
    live = set(metrics.names(*metrics.LIVE_CONFIG_KINDS))
    # derived server.csv columns read metrics by name
    for column, inputs in col.DERIVED.items():
        assert set(inputs) <= gauges | counters, (column, inputs)
    # the fixed server.csv columns are the samplers', derived ones, or the thread-service's own gauges
    for column in col.BASE_COLUMNS:
        assert column in {"second", *col.ROLE_COLUMNS, *col.DERIVED} | gauges, column
    # the fields read by meaning (the live-config check, the pool evidence, the drain)
    assert set(metrics.READ_BY_NAME) <= gauges | counters | live, set(metrics.READ_BY_NAME) - set(metrics.names())
    # every column a chart draws is one server.csv has
    for name, (_, _, columns, _) in server_charts.SERVER_PANELS.items():
        for column, _ in columns:
            assert column in outputs.SERVER_COLUMNS, (name, column)
    # the synthetic runs' jvm.csv values
    assert set(synthrun.jvm_values(1, 1, 1, 1, 1.0)) <= gauges | counters | live


# The one module that spells metric names (server.csv's columns use its constants: summary/writing/server_columns.py).
COLUMN_MODULES = {"core/metrics.py"}


def test_no_module_spells_a_metric_name_of_its_own():
    """A metric read by meaning is read through its constant in metrics.py (held to the list above), so renaming one
    in metrics.tsv fails here instead of, say, making the drain read every service as idle."""
    every = set(metrics.names())
    package = REPO / "harness" / "loadlab"
    spelled = []
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        if where in COLUMN_MODULES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in every:
                spelled.append(f"{where}:{node.lineno} {node.value!r}")
    assert not spelled, "use the constant in metrics.py: " + ", ".join(spelled)


def test_every_field_reaches_server_csv_or_the_live_config(tmp_path):
    """A gauge is copied, a counter becomes a rate unless a derived column reads it: nothing is dropped."""
    read_by_derived = {name for inputs in col.DERIVED.values() for name in inputs}
    for name in metrics.names("gauge"):
        assert name in outputs.SERVER_COLUMNS or name in read_by_derived, name
    for name in metrics.names("counter"):
        assert name + col.RATE_SUFFIX in outputs.SERVER_COLUMNS or name in read_by_derived, name
    # and with real rows: a synthetic run's server.csv carries them, counters as rates per second
    synthrun.write_params(tmp_path, modes=["virtual"])
    synthrun.write_mode(tmp_path, "virtual", ModeSpec([LevelSpec(100), LevelSpec(200)]))
    summarised(tmp_path)
    header, *rows = (tmp_path / "virtual" / "server.csv").read_text().splitlines()
    assert header.split(",") == outputs.SERVER_COLUMNS
    first = dict(zip(header.split(","), rows[1].split(",")))
    assert first["requests_total" + col.RATE_SUFFIX] == "100" and first["jvm_threads_daemon"] == "20"


class FakeHost(Host):
    def __init__(self, answer: str = ""):
        super().__init__("fake", "127.0.0.1", work_root="/w")
        self.calls, self.answer = [], answer

    def tool(self, *args, check=True, timeout=None):
        self.calls.append(args)
        return ""

    def run(self, argv, *, check=True, timeout=120, capture=True):
        self.calls.append(tuple(argv))
        return subprocess.CompletedProcess(argv, 0, self.answer, "")


def test_bench_hands_the_sampler_every_field_and_keeps_every_config_field(tmp_path):
    every = {m.name: f"v-{m.name}" for m in metrics.load()}
    host = FakeHost(json.dumps(every))
    run = bench_run(run_params(delay_ms=200), Topology(host, host, [host]), tmp_path)
    samplers.start_service_samplers(run, "virtual")
    (sampler,) = [c for c in host.calls if c[:2] == ("sampler", "sampler-thread")]
    (fields,) = [a for a in sampler if a.startswith("--jvm-fields=")]
    assert fields.split("=", 1)[1].split(",") == metrics.names(*metrics.SAMPLED_KINDS)
    liveconfig.record_live_config(run, "virtual")
    live = json.loads((tmp_path / "virtual" / "raw" / "thread" / "config.json").read_text())
    assert live == {name: every[name] for name in metrics.names(*metrics.LIVE_CONFIG_KINDS)}


def test_the_sampler_records_the_fields_it_is_given(tmp_path):
    """loadlab-sample itself, against a stand-in endpoint: the header is the names, each row their values."""
    names = metrics.names(*metrics.SAMPLED_KINDS)
    server = json_server(lambda path: {name: i for i, name in enumerate(names)})
    (tmp_path / "x.pid").write_text(str(os.getpid()))
    out = tmp_path / "jvm.csv"
    proc = start_sampler(
        tmp_path / "x.pid",
        tmp_path / "samples.csv",
        "--jvm-url",
        f"http://127.0.0.1:{server.server_port}/",
        "--jvm-out",
        str(out),
        "--jvm-fields",
        ",".join(names),
    )
    try:
        lines = lambda: out.read_text().splitlines() if out.exists() else []
        wait_for(lambda: len(lines()) >= 2, "a row of jvm.csv after its header")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        server.shutdown()
    header, row = out.read_text().splitlines()[:2]
    assert header.split(",") == ["second", *names]
    assert row.split(",")[1:] == [str(i) for i in range(len(names))]
