"""The `.hgrm` text: Java's exact text, read back with its counts and percentiles (one file per mode and level in a
run folder: summary/test_hgrm_files.py)."""

from pathlib import Path

from loadlab.analysis import hgrm, hlog

DATA = Path(__file__).parents[1] / "data"


def test_the_text_is_javas_byte_for_byte():
    # java.hgrm and java.payload were written by HdrHistogram 2.2.2 itself (data/hgrm/JavaHgrmFixture.java).
    histogram = hlog.decode((DATA / "hgrm/java.payload").read_text().strip())
    assert hgrm.distribution_text(histogram) == (DATA / "hgrm/java.hgrm").read_text()


def test_javas_file_reads_back_with_its_counts_and_percentiles():
    histogram = hlog.decode((DATA / "hgrm/java.payload").read_text().strip())
    read = hgrm.parse((DATA / "hgrm/java.hgrm").read_text())
    assert read.total_count == histogram.get_total_count() == 5041
    assert read.max_ms == histogram.get_max_value()
    assert [(p.value_ms, p.total_count) for p in read.points if p.percentile == 50.0] == [(220, 2558)]


def test_a_percentile_finer_than_the_requests_is_not_resolved():
    assert hlog.resolved(99.9, 5041) and not hlog.resolved(99.99, 5041)
    assert hlog.resolved(99.0, 100) and not hlog.resolved(99.0, 99)
