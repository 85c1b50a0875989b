"""The delay-service's witness of calls whose caller had gone (issue 45): the header a call carries and the served
log's two tags are named alike in Java (ServedDelays) and here (analysis/served.py), and the harness reads each
second's orphaned and cancelled calls off the log. The real server's side (a closed connection cancels the request,
a late answer is an orphan) is delay-service's CallerGoneTests."""

import re

import pytest
import synthrun
from conftest import REPO
from synthrun import START_EPOCH

from loadlab.analysis import served
from loadlab.analysis.served import CallerGone

SERVED_DELAYS_JAVA = REPO / "delay-service/src/main/java/loadlab/delay/downstream/ServedDelays.java"

# The head of a served log as ServedDelays writes it (HistogramLogWriter's lines, its own comment first).
HEAD = [
    "#delay-service: the delay each answer was served in, ms; ...",
    "#[Histogram log format version 1.3]",
    f"#[StartTime: {START_EPOCH}.000 (seconds since epoch), Fri Nov 21 13:00:00 UTC 2025]",
    "#[BaseTime: 0.000 (seconds since epoch)]",
    '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"',
]


@pytest.mark.parametrize(
    "java_name, python",
    [
        ("CALLER_WAITS_HEADER", served.CALLER_WAITS_HEADER),
        ("ORPHAN_TAG", served.ORPHAN_TAG),
        ("CANCELLED_TAG", served.CANCELLED_TAG),
    ],
)
def test_the_header_and_the_tags_are_named_as_the_delay_service_names_them(java_name, python):
    java = re.search(rf'public static final String {java_name} = "([^"]+)";', SERVED_DELAYS_JAVA.read_text())
    assert java, f"no constant {java_name} in {SERVED_DELAYS_JAVA.name}"
    assert java.group(1) == python


def test_each_second_counts_its_orphaned_and_its_cancelled_calls_and_nothing_else(tmp_path):
    s = START_EPOCH
    lines = [
        *HEAD,
        synthrun.java_line("served", s, [(200, 40), (900, 3)]),
        synthrun.java_line("orphan", s, [(900, 3)]),
        synthrun.java_line("error", s, [(200, 2)]),
        synthrun.java_line("cancelled", s + 1, [(150, 4), (310, 1)]),
        synthrun.java_line("brownout", s + 2, [(1000, 7)]),
        synthrun.java_line("served", s + 3, [(950, 2)]),
        synthrun.java_line("orphan", s + 3, [(950, 2)]),
        synthrun.java_line("cancelled", s + 3, [(400, 6)]),
        # the same tag twice in a second (a log joined from two writers) adds up
        synthrun.java_line("cancelled", s + 3, [(420, 1)]),
    ]
    log = tmp_path / "served.hlog"
    log.write_text("\n".join(lines) + "\n")
    assert served.caller_gone_by_second(log) == {
        s: CallerGone(orphan=3, cancelled=0),
        s + 1: CallerGone(orphan=0, cancelled=5),
        s + 3: CallerGone(orphan=2, cancelled=7),
    }
    assert served.count_by_second(log, served.ORPHAN_TAG) == {s: 3, s + 3: 2}


def test_a_log_without_them_or_no_log_has_none(tmp_path):
    log = tmp_path / "served.hlog"
    assert served.caller_gone_by_second(log) == {}
    log.write_text("\n".join([*HEAD, synthrun.java_line("served", START_EPOCH, [(200, 40)])]) + "\n")
    assert served.caller_gone_by_second(log) == {}


# Two served logs the real delay-service wrote in CallerGoneTests (its tests' logs, under
# delay-service/target/caller-gone-tests/ after `mvnw verify`): two late answers among five, and two requests whose
# caller closed the connection mid-delay before one answer.
REAL = REPO / "harness/tests/data/served-caller-gone"


def test_the_real_delay_services_logs_read_as_their_calls_were():
    ((_, orphans),) = served.caller_gone_by_second(REAL / "orphans.hlog").items()
    assert orphans == CallerGone(orphan=2, cancelled=0)
    ((_, cancelled),) = served.caller_gone_by_second(REAL / "cancelled.hlog").items()
    assert cancelled == CallerGone(orphan=0, cancelled=2)
    assert sum(served.count_by_second(REAL / "orphans.hlog", served.TAG).values()) == 5
