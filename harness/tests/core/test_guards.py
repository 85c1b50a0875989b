"""The guards as parameters and modes (core/guards.py): DOWNSTREAM_TIMEOUT_MS, MODES=virtual-limited with VIRTUAL_LIMIT,
SERVICE_MEMORY_MB — refused in one line where they cannot act, handed to the service as its settings, and read back
in the verdict: a 504 named as the service's own timeout, a virtual-limited 503 as a rejection, its knee predicted
by its limit."""

import re

import pytest

from loadlab.analysis import models
from loadlab.core import guards, param_limits, params, runplan
from loadlab.core.modelabel import ModeLabel
from loadlab.core.repo import REPO
from loadlab.summary.judge import shedding
from loadlab.summary.schema.detail_records import RejectionsRecord
from loadlab.summary.schema.level_records import LevelRecord

THREAD_MODE_JAVA = REPO / "thread-service/src/main/java/loadlab/thread/mode/ThreadMode.java"


def test_the_harness_and_the_thread_service_name_the_same_thread_modes():
    """MODES names what the thread-service's ThreadMode enum accepts (its ids: lower case, `_` as `-`), plus reactive,
    which is another service."""
    body = THREAD_MODE_JAVA.read_text()
    constants = re.search(r"public enum ThreadMode \{\s*([A-Z_,\s]+);", body)[1]
    java = [c.strip().lower().replace("_", "-") for c in constants.split(",") if c.strip()]
    assert java == [m for m in param_limits.THREAD_MODES if m != "reactive"]
    assert guards.VIRTUAL_LIMITED in java


@pytest.mark.parametrize(
    "env, expected",
    [
        (
            {"DOWNSTREAM_TIMEOUT_MS": "5000"},
            "DOWNSTREAM_TIMEOUT_MS=5000 is not below the lab's own safety net of 1400 ms",
        ),
        ({"DOWNSTREAM_TIMEOUT_MS": "200"}, "DOWNSTREAM_TIMEOUT_MS=200 is at or below DELAY_MS=200"),
        ({"DOWNSTREAM_TIMEOUT_MS": "x"}, "DOWNSTREAM_TIMEOUT_MS='x' is not a whole number"),
        ({"DOWNSTREAM_TIMEOUT_MS": "800", "SCENARIO": "db"}, "and SCENARIO=db makes none"),
        ({"MODES": "platform virtual-limited", "SCENARIO": "cpu", "CPU_MS": "5"}, "runs virtual-limited, whose limit"),
        ({"MODES": "virtual-limited virtual-limited"}, "MODES='virtual-limited virtual-limited' is not allowed"),
        ({"VIRTUAL_LIMIT": "0"}, "VIRTUAL_LIMIT=0 is out of range; allowed: 1..100000"),
        ({"SERVICE_MEMORY_MB": "128"}, "SERVICE_MEMORY_MB=128 is out of range; allowed: empty"),
    ],
)
def test_a_guard_that_cannot_act_is_refused_in_one_line_naming_it(env, expected):
    with pytest.raises(params.ParamError) as e:
        params.parse(env)
    assert len(str(e.value).splitlines()) == 1 and expected in str(e.value), str(e.value)


def test_guards_parse_and_default_to_none():
    values = params.parse({})
    assert (values.downstream_timeout_ms, values.virtual_limit, values.service_memory_mb) == (None, 200, None)
    values = params.parse(
        {"MODES": "platform virtual virtual-limited reactive", "VIRTUAL_LIMIT": "40", "DOWNSTREAM_TIMEOUT_MS": "800"}
    )
    assert values.modes == ("platform", "virtual", "virtual-limited", "reactive")
    assert [r.label for r in runplan.mode_runs(values.modes, [21, 25])][2:4] == [
        "virtual-limited-jdk21",
        "reactive-jdk21",
    ]
    assert ModeLabel.parse("virtual-limited-jdk21") == ModeLabel("virtual-limited", 21)


def test_the_service_gets_the_timeout_in_every_mode_and_the_limit_in_its_own():
    values = params.parse({"MODES": "platform virtual-limited", "VIRTUAL_LIMIT": "40", "DOWNSTREAM_TIMEOUT_MS": "800"})
    assert guards.thread_service_args(values, "platform") == ["--delay-service.client-timeout=800ms"]
    assert guards.thread_service_args(values, "virtual-limited") == [
        "--delay-service.client-timeout=800ms",
        "--delay-service.concurrency-limit=40",
    ]
    assert guards.thread_service_args(params.parse({}), "virtual") == []


def test_a_504_is_named_as_the_services_own_timeout_and_a_limited_503_as_load_shed():
    meanings = {"status_503": "503 from the thread-service: its database pool was exhausted", "status_504": "504 …"}
    values = params.parse({"MODES": "virtual virtual-limited", "VIRTUAL_LIMIT": "40", "DOWNSTREAM_TIMEOUT_MS": "800"})
    limited = guards.kind_meanings(meanings, "virtual-limited-jdk21", values)
    assert "own client timeout" in limited["status_504"] and "DOWNSTREAM_TIMEOUT_MS=800" in limited["status_504"]
    assert "shed by its concurrency limit (VIRTUAL_LIMIT=40" in limited["status_503"]
    assert guards.kind_meanings(meanings, "virtual", values)["status_503"] == meanings["status_503"]
    assert guards.kind_meanings(meanings, "virtual", params.parse({})) == meanings


def level(index, rps, ok, **errors):
    return LevelRecord.from_mapping({"index": index, "target_rps": rps, "ok": ok, "errors_by_kind": errors})


def test_rejections_are_counted_apart_and_a_knee_of_503s_is_load_shed_not_a_collapse():
    values = params.parse({"MODES": "virtual-limited", "VIRTUAL_LIMIT": "40"})
    levels = [level(0, 100, 1000), level(1, 200, 1900, status_503=100), level(2, 300, 2000, status_503=1000)]
    found = shedding.rejections("virtual-limited", values.virtual_limit, levels, collapsed=True, first_bad=1)
    assert found == RejectionsRecord(limit=40, requests=1100, share=0.1833, from_rps=200, shed_load=True)
    assert "its knee is the limit shedding load by design, not a collapse" in shedding.words(found)
    # a knee of timeouts is not the limit's doing
    timeouts = [level(0, 100, 1000), level(1, 200, 1000, timeout_injector=900, status_503=10)]
    assert shedding.rejections("virtual-limited", values.virtual_limit, timeouts, True, 1).shed_load is False
    assert shedding.rejections("virtual", values.virtual_limit, levels, True, 1) is None


def test_the_limited_column_is_predicted_by_its_limit_over_the_downstream_wait():
    x = models.Inputs(mode="virtual-limited", delay_ms=200, concurrency_limit=40, max_connections=8192, baseline_ms=201)
    best = models.predict(x)
    assert (best.predicted_by, best.rps) == ("limit", 200.0), best
    assert "40 calls at once (VIRTUAL_LIMIT)" in best.formula
    assert (
        models.predict(models.Inputs(mode="virtual", delay_ms=200, max_connections=8192, baseline_ms=201)).predicted_by
        == "connections"
    )


def test_a_knee_of_its_own_503s_is_said_as_load_shed_on_the_console_and_the_page():
    from loadlab.report.verdict_table import collapsed_cell
    from loadlab.run.console import collapsed_word
    from loadlab.summary.verdicts.records import ModeRecord

    shed = {"collapsed": True, "rejections": {"shed_load": True}}
    yes = ModeRecord.from_mapping({"collapsed": True})
    assert collapsed_word(ModeRecord.from_mapping(shed)) == "shed load" and collapsed_word(yes) == "yes"
    assert "shed load" in collapsed_cell("virtual-limited", ModeRecord.from_mapping(shed))
    assert "shed" not in collapsed_cell("virtual", ModeRecord.from_mapping({"collapsed": True}))


def test_the_verdict_table_gives_the_limit_and_what_it_shed():
    from loadlab.report.verdict_table import _limit_cell
    from loadlab.summary.verdicts.records import ModeRecord

    shed = ModeRecord.from_mapping({"rejections": {"limit": 50, "requests": 838, "share": 0.8208}})
    assert _limit_cell(shed) == "50 / 838 (82.1%)"
    assert _limit_cell(ModeRecord.from_mapping({})) == "—"
