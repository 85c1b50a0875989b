"""The typed raw rows (summary/reading/raw_rows.py): their columns are what the writers write, and each cell reads as
the summary has always read it (a blank or -1 is "not measured", None; an unwritten count is 0)."""

import re

from conftest import REPO

from loadlab.core import app, metrics
from loadlab.summary.reading.raw_rows import (
    MEASURE_PHASE,
    NO_METRICS,
    NO_SAMPLE,
    WARMUP_PHASE,
    ErrorCount,
    HostSample,
    InjectorSecond,
    MetricSample,
    RequestPoolSample,
    columns,
    read_error_counts,
    read_table,
)


def _written(path: str, pattern: str) -> tuple[str, ...]:
    found = re.search(pattern, (REPO / path).read_text(encoding="utf-8"))
    assert found, f"{path}: no header found by {pattern}"
    return tuple(found.group(1).split(","))


def test_columns_are_the_writers_headers():
    java = _written("gatling/src/test/java/loadlab/gatling/recorder/RawFiles.java", r'CSV_HEADER = "([^"]+)"')
    assert columns(InjectorSecond) == java
    sampler = _written("infra/host/loadlab-sample", r'csv_out\(\s*args\.out,\s*"([^"]+)"')
    assert columns(HostSample) == sampler
    pool = _written("infra/host/loadlab-sample", r'csv_out\(args\.request_pool_out, "([^"]+)"')
    assert columns(RequestPoolSample) == pool
    schedule = "gatling/src/test/java/loadlab/gatling/config/Schedule.java"
    assert _written(schedule, r'String WARMUP = "([^"]+)"') == (WARMUP_PHASE,)
    assert _written(schedule, r'String MEASURE = "([^"]+)"') == (MEASURE_PHASE,)
    errors = _written("gatling/src/test/java/loadlab/gatling/recorder/RawFiles.java", r'ERRORS_HEADER = "([^"]+)"')
    assert columns(ErrorCount) == errors


def test_injector_second_reads_blanks_as_before(tmp_path):
    path = tmp_path / "seconds.csv"
    path.write_text(
        "second,phase,level,target_rps,sent,ok,ko,inflight\n"
        "100,warmup,-1,39.5,38,37,0,1\n"
        "101,measure,0,,,x,-1,\n"
        "102,measure,0,40\n"  # cut short by an interrupted writer
    )
    table = read_table(path, InjectorSecond.parse)
    assert table is not None
    assert table.rows[100] == InjectorSecond("warmup", -1, 39.5, 38, 37, 0, 1.0)
    assert table.rows[100].warming_up and not table.rows[100].measured and table.rows[101].measured
    assert table.rows[101] == InjectorSecond("measure", 0, None, 0, 0, 0, None)
    assert 102 not in table.rows


def test_an_older_seconds_file_without_inflight(tmp_path):
    path = tmp_path / "seconds.csv"
    path.write_text("second,phase,level,target_rps,sent,ok,ko\n100,measure,2,10,10,9,1\n")
    table = read_table(path, InjectorSecond.parse)
    assert table is not None and table.rows[100].inflight is None and table.rows[100].level == 2


def test_host_sample_reads_the_samplers_unknowns_as_none(tmp_path):
    path = tmp_path / "samples.csv"
    path.write_text(
        "second,proc_cpu_pct,host_cpu_pct,host_cores,probe_ms,probe_failed,os_threads,context_switches\n"
        "100,20.9,89.5,2,,,40,14842\n"
        "101,-1,-1,0,216.7,0,n/a,\n"
    )
    table = read_table(path, HostSample.parse)
    assert table is not None and table.header == columns(HostSample)
    assert table.rows[100] == HostSample(20.9, 89.5, 2.0, None, None, 40.0, 14842.0)
    assert table.rows[101] == HostSample(None, None, 0.0, 216.7, 0.0, None, None)
    assert table.rows[100].cpu_per_core() == 20.9 / 2
    assert table.rows[101].cpu_per_core() == NO_SAMPLE.cpu_per_core() == -1.0


def test_an_unreadable_file_is_none(tmp_path):
    assert read_table(tmp_path / "absent.csv", HostSample.parse) is None


def test_a_metric_sample_keeps_only_numbers(tmp_path):
    """jvm.csv's and actuator.csv's columns are their lists' names (metrics.tsv, app.ACTUATOR_METRICS)."""
    path = tmp_path / "jvm.csv"
    path.write_text(f"second,{metrics.INFLIGHT_REQUESTS},{metrics.DB_POOL_ACTIVE},{app.HIKARI_MAX}\n100,12,-1,\n")
    table = read_table(path, MetricSample.parse)
    assert table is not None
    row = table.rows[100]
    assert row.metric(metrics.INFLIGHT_REQUESTS) == 12.0
    assert row.metric(metrics.DB_POOL_ACTIVE) is None  # -1: the service has no pool
    assert row.metric(app.HIKARI_MAX) is None and row.metric("second") is None
    assert NO_METRICS.metric(metrics.INFLIGHT_REQUESTS) is None


def test_error_counts_add_up_by_second_and_kind(tmp_path):
    path = tmp_path / "errors.csv"
    path.write_text("second,kind,count\n100,status_504,2\n100,status_504,1\n100,timeout_injector,4\n101,,3\n102,x\n")
    assert read_error_counts(path) == {100: {"status_504": 3, "timeout_injector": 4}}
    assert read_error_counts(tmp_path / "absent.csv") == {}
    assert RequestPoolSample.parse({"named_threads": "-1"}) == RequestPoolSample(None)


def test_each_field_reads_its_own_column():
    """A parse that read one column into another field would still match the header: each column here carries its
    own number, and each field must come back with its column's."""
    for row_type in (InjectorSecond, HostSample, RequestPoolSample, ErrorCount):
        names = columns(row_type)
        row = row_type.parse({name: str(i) for i, name in enumerate(names)})
        assert row is not None
        for i, name in enumerate(names[1:], start=1):
            assert str(getattr(row, name)) in (str(i), f"{i}.0"), f"{row_type.__name__}.{name}"
