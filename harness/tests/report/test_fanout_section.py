"""The page's "One request, N calls": the shape the service reported, each checked percentile with its interval or
in words where the level's count cannot place it, the calls left behind; nothing for a run without a fan-out."""

import json

from partial_records import partial

from loadlab.report import fanout_section
from loadlab.summary.verdicts.fanout_record import FanoutLevelRecord, FanoutRecord, TailRecord
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

LEVEL = FanoutLevelRecord(
    level=2,
    target_rps=300.0,
    answered=2400,
    p50_ms=246.0,
    own_ms_interval=[0.0, 9.0],
    tail=[
        partial(
            TailRecord,
            percentile=90.0,
            measured_ms=570.0,
            measured_interval_ms=[554.0, 587.0],
            predicted_interval_ms=[568.0, 577.0],
            agrees=True,
        ),
        partial(TailRecord, percentile=99.0, predicted_interval_ms=[1228.0, 1237.0]),
    ],
    orphaned_calls=0,
    cancelled_calls=12,
)


def summary(**fields) -> RunSummary:
    record = partial(
        FanoutRecord,
        calls=4,
        shape="structured-scope",
        shape_words="a StructuredTaskScope per request",
        request_wait="the slowest of 4 calls",
        levels=[LEVEL],
        tail_checked=1,
        tail_agreed=1,
        orphaned_calls=0,
        cancelled_calls=12,
        **fields,
    )
    return partial(RunSummary, modes={"virtual": partial(ModeRecord, fanout=record), "platform": partial(ModeRecord)})


def test_each_percentile_is_shown_with_its_interval_or_said_unplaced():
    html = fanout_section.section(summary())
    assert "570 ms (554–587) / 568 ms–577 ms, agrees" in html
    assert "too few answers to place it / 1,228 ms–1,237 ms" in html
    assert "a StructuredTaskScope per request" in html and "12 cancelled" in html
    assert 'data-mode="platform"' not in html  # a mode without a fan-out record has no table


def test_a_fail_deadline_says_why_the_tail_is_not_predicted():
    html = fanout_section.section(summary(deadline_ms=500, on_timeout="fail"))
    assert "The tail is not predicted: past the deadline a request is a 504" in html


def test_a_run_without_fan_out_has_no_section_and_the_record_round_trips():
    assert fanout_section.section(partial(RunSummary, modes={"virtual": partial(ModeRecord)})) == ""
    record = summary().modes["virtual"].fanout
    again = FanoutRecord.from_mapping(json.loads(json.dumps(record.as_json())))
    assert again.as_json() == record.as_json()
