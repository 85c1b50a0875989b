"""server.csv's columns are named once (summary/writing/server_columns.py): the rows the summary computes from the
samplers' and the JVM's files, the file it writes, and what the page reads back all hold to that one list. A column
computed but never written, written but never computed (always blank), or drawn but not in the file fails here. The
thread-service's own gauges are metrics.tsv's names, held to the Java side by test_metrics.py."""

import shutil

import pytest
from conftest import REPO, summarised

from loadlab.report.charts import chart_style, server_charts
from loadlab.report.series import read_series
from loadlab.summary.reading import raw, seconds
from loadlab.summary.writing import server_columns as col

REAL_RUNS = ["app_ignores_switch", "fine_pass_all_healthy", "warmup_empty_first_second"]


@pytest.fixture(params=REAL_RUNS, scope="module")
def rebuilt(request, tmp_path_factory):
    """A real run's mode folder with its server.csv written (no test here changes it)."""
    run = tmp_path_factory.mktemp("real") / request.param
    shutil.copytree(REPO / "harness" / "tests" / "data" / request.param, run)
    summarised(run)
    (mode,) = [p for p in run.iterdir() if (p / "server.csv").exists()]
    return mode


def test_the_written_file_has_exactly_the_named_columns(rebuilt):
    header = (rebuilt / "server.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.split(",") == col.COLUMNS


def test_every_computed_value_has_a_column_and_every_column_a_value(rebuilt):
    tables = seconds.build_tables(raw.load_mode(rebuilt))
    assert tables.server, "a real run has server rows"
    for row in tables.server:
        assert set(row) == set(col.COLUMNS)


def test_the_page_reads_only_columns_the_file_has(rebuilt):
    written = read_series(rebuilt / "server.csv")
    for name, (_, _, columns, _) in server_charts.SERVER_PANELS.items():
        for column, _ in columns:
            assert column in written, (name, column)
    drawn = {column for _, _, columns, _ in server_charts.SERVER_PANELS.values() for column, _ in columns}
    coloured = set(chart_style.COLORS) & set(col.COLUMNS)
    assert drawn <= coloured, drawn - coloured
    # the sampled CPU reaches the page as numbers, not blanks
    assert any(v is not None for v in written[col.THREAD_CPU_PCT])
