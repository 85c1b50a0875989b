import random
from pathlib import Path

import pytest
import synthrun
from hdrh.histogram import HdrHistogram

from loadlab.analysis import hlog

JAVA_LOG = Path(__file__).parents[1] / "data" / "java-latency.hlog"
PERCENTILES = [0.0, 1.0, 25.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0]


def test_reads_the_log_written_by_javas_histogram_log_writer():
    log = hlog.read_log(JAVA_LOG)
    assert log.malformed_lines == 0
    assert [(i.tag, i.second, i.length_s) for i in log.intervals] == [
        ("ok", 1763730301, 1.0),
        ("ko", 1763730301, 1.0),
        ("ok", 1763730302, 1.0),
    ]

    ok, ko, ok_resized = (hlog.stats(hlog.decode(i.payload)) for i in log.intervals)
    # Java scales its max column by 1e6 ("0.001"); the figures come from the histogram itself.
    assert ok == hlog.LatencyStats(count=100, p50_ms=200, p95_ms=250, p99_ms=250, max_ms=900)
    # Above 2048 ms a bucket is wider than 1 ms; like Java, percentiles report its highest equivalent value.
    assert ko == hlog.LatencyStats(count=2, p50_ms=10_007, p95_ms=10_007, p99_ms=10_007, max_ms=10_007)
    # An auto-resizing Java histogram has a smaller range; it decodes all the same.
    assert ok_resized == hlog.LatencyStats(count=100, p50_ms=201, p95_ms=4001, p99_ms=4001, max_ms=4001)


def test_merging_java_histograms_of_different_ranges_keeps_every_count():
    log = hlog.read_log(JAVA_LOG)
    oks = [hlog.decode(i.payload) for i in log.intervals if i.tag == "ok"]
    merged = hlog.merge(oks)
    assert merged.get_total_count() == 200
    assert bucket_counts(merged) == {200: 90, 201: 50, 250: 9, 900: 1, 4000: 50}


@pytest.mark.parametrize(
    "line",
    [
        "#[Histogram log format version 1.3]",
        "#[BaseTime: 0.000 (seconds since epoch)]",
        '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
        "",
    ],
)
def test_comments_and_the_legend_are_not_intervals(line):
    assert hlog.parse_line(line) is None


def test_untagged_lines_are_read_with_no_tag():
    payload = synthrun.encode([(42, 3)])
    interval = hlog.parse_line(f"1763730301.000,1.000,0.000,{payload}")
    assert interval.tag is None and interval.second == 1763730301


def test_a_line_cut_short_is_counted_not_fatal(tmp_path):
    good = synthrun.java_line("ok", 1763730301, [(200, 10)])
    cut = synthrun.java_line("ok", 1763730302, [(200, 10)])[:-12]
    path = tmp_path / "latency.hlog"
    path.write_text("\n".join([good, "Tag=ok,1763730303.000", cut]) + "\n")
    log = hlog.read_log(path)
    assert [i.second for i in log.intervals] == [1763730301]
    assert log.malformed_lines == 2


def test_python_encoded_lines_round_trip_as_java_writes_them(tmp_path):
    path = tmp_path / "latency.hlog"
    path.write_text(synthrun.java_line("ok", 1763730301, [(201, 50), (205, 45), (230, 4), (260, 1)]) + "\n")
    (interval,) = hlog.read_log(path).intervals
    assert hlog.stats(hlog.decode(interval.payload)) == hlog.LatencyStats(100, 201, 205, 230, 260)


def _histogram(values):
    h = HdrHistogram(1, 3_600_000, 3)
    for v in values:
        h.record_value(v)
    return h


def test_merging_two_injectors_equals_the_histogram_of_the_union():
    rng = random.Random(7)
    # Two injectors with different latency mixes, over the whole range a request can take (1 ms .. 60 s timeout).
    first = [rng.choice([rng.randint(195, 240), rng.randint(1, 60_000)]) for _ in range(5000)]
    second = [rng.choice([rng.randint(200, 900), int(rng.expovariate(1 / 400)) + 1]) for _ in range(3000)]
    payloads = [_histogram(first).encode().decode(), _histogram(second).encode().decode()]

    merged = hlog.merge_payloads(payloads)
    union = _histogram(first + second)

    assert merged.get_total_count() == union.get_total_count() == 8000
    assert bucket_counts(merged) == bucket_counts(union)
    assert [merged.get_value_at_percentile(p) for p in PERCENTILES] == [
        union.get_value_at_percentile(p) for p in PERCENTILES
    ]
    assert merged.get_max_value() == union.get_max_value()
    u = hlog.stats(union)
    assert hlog.stats(merged) == u and u.p50_ms == union.get_value_at_percentile(50)


def test_values_beyond_the_usual_range_widen_the_sum():
    wide = HdrHistogram(1, 86_400_000, 3)
    wide.record_value(7_200_000, 2)
    merged = hlog.merge([_histogram([200, 300]), wide])
    assert merged.get_total_count() == 4 and hlog.stats(merged).max_ms == wide.get_max_value()


def test_stats_of_an_empty_histogram_is_none():
    assert hlog.stats(hlog.new_histogram()) is None
    assert hlog.stats(hlog.merge_payloads([])) is None


def bucket_counts(histogram: HdrHistogram) -> dict[int, int]:
    """Non-empty buckets keyed by their lowest value: comparable across histograms of different ranges."""
    return {
        histogram.get_value_from_index(i): histogram.get_count_at_index(i)
        for i in range(histogram.counts_len)
        if histogram.get_count_at_index(i)
    }


def test_the_mean_is_the_librarys_own_over_the_non_empty_buckets():
    """hlog.mean skips the library's walk over every empty bucket; it must give exactly what get_mean_value gives,
    over a spread of latencies with a far outlier (every bucket size from 1 ms to seconds)."""
    rng = random.Random(7)
    histogram = HdrHistogram(hlog.LOWEST_TRACKABLE_MS, hlog.HIGHEST_TRACKABLE_MS, hlog.SIGNIFICANT_FIGURES)
    for _ in range(5000):
        histogram.record_value(rng.randint(180, 4000))
    histogram.record_value(1_800_000)
    assert hlog.mean(histogram) == histogram.get_mean_value()
    assert hlog.mean(HdrHistogram(1, 1000, 3)) == 0.0
