"""A level read healthy while the service's own threads started fewer requests than its rate: named, from the
service's counter over the level's seconds (the platform pool full behind a heavy-tailed fan-out)."""

from types import SimpleNamespace

from builders import level

from loadlab.summary.judge import service_count
from loadlab.summary.reading.raw_rows import MetricSample

T0 = 1_795_000_000


def raw_started(per_second: float, seconds: int = 20) -> SimpleNamespace:
    """jvm.csv's rows: requests_total climbing at per_second."""
    return SimpleNamespace(
        jvm={T0 + s: MetricSample.parse({"requests_total": str(per_second * s)}) for s in range(seconds)}
    )


def test_a_full_pool_starts_only_what_it_finishes():
    lv = level(2, 140, seconds=6)  # its first second: 2 x 6 = 12
    assert service_count.started_rps(raw_started(90), T0, lv) == 90
    assert 90 < service_count.BEHIND_RATIO * 140  # the level would be named


def test_no_counter_no_figure():
    lv = level(2, 140, seconds=6)  # its first second: 2 x 6 = 12
    assert service_count.started_rps(raw_started(90, seconds=5), T0, lv) is None
    assert service_count.started_rps(raw_started(90), None, lv) is None


def test_the_levels_read_at_one_rate_by_several_passes_are_one_note_naming_each():
    why = "the service's threads started only 160 requests a second there"
    found = [
        (250, "level 4 (250 rps)", why),
        (200, "refine-1's level at 200 rps", why),
        (250, "refine-1's level at 250 rps", why),
        (250, "refine-2's level at 250 rps", why),
    ]
    notes = service_count.said_by_rate(found)
    assert len(notes) == 2
    assert notes[0].startswith(f"level 4 (250 rps) was read healthy, but {why}")
    assert notes[0].endswith(
        "; refine-1's level at 250 rps and refine-2's level at 250 rps, at the same rate, read the same way"
    )
    assert notes[1].startswith("refine-1's level at 200 rps was read healthy") and "same rate" not in notes[1]
