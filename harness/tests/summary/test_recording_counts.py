"""pinned.json read once into flight.RecordingCounts: "no recording read" stays apart from "none of the events"."""

from loadlab.summary.reading.flight import RecordingCounts


def test_no_recording_is_not_zero_events():
    assert RecordingCounts.parse({}).count("jdk.VirtualThreadStart") is None
    assert RecordingCounts.parse({"event_counts": {}}).count("jdk.VirtualThreadStart") == 0


def test_counts_and_pauses_read_as_numbers_or_none():
    counts = RecordingCounts.parse(
        {
            "virtual_thread_pinned_events": 3,
            "event_counts": {"jdk.VirtualThreadStart": 120, "jdk.JavaMonitorEnter": "x"},
            "gc_pause_total_ms": 12.5,
            "gc_pause_max_ms": -1,
        }
    )
    assert counts.pinned_events == 3 and counts.count("jdk.VirtualThreadStart") == 120
    assert counts.count("jdk.JavaMonitorEnter") is None  # unreadable, not zero
    assert (counts.gc_pause_total_ms, counts.gc_pause_max_ms) == (12.5, None)
    assert RecordingCounts.parse({"virtual_thread_pinned_events": True}).pinned_events is None
