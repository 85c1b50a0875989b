"""Scenarios in summary.json and on the page: the scenario and its prediction per mode, mode labels per JDK with
ratios per JDK, the live JDK checked against the one asked, the db pool's evidence, the pinned count per column."""

import json
import re

import synthrun
from builders import run_params
from conftest import summarised
from synthrun import SLOW_TAIL, LevelSpec, ModeSpec, stairs

from loadlab import report
from loadlab.core import params
from loadlab.core.asked import Asked
from loadlab.summary.reading import labels


def test_base_mode_and_jdk_of_a_label():
    assert labels.base_mode("virtual-jdk21") == "virtual" and labels.base_mode("platform") == "platform"
    assert labels.mode_jdk("virtual-jdk21", Asked.of(run_params(jdks=(21, 25))).jdk) == 21
    assert labels.mode_jdk("virtual", Asked.of(run_params(jdks=(25,))).jdk) == 25
    assert labels.mode_jdk("virtual", Asked.of(params.from_json({})).jdk) is None  # a run from before JDKS


def test_several_jdks_give_four_columns_ratios_per_jdk_and_the_headline_on_the_newest(tmp_path):
    labels = ["platform-jdk21", "virtual-jdk21", "platform-jdk25", "virtual-jdk25"]
    synthrun.write_params(tmp_path, JDKS=[21, 25], SCENARIO="pinned", completed=labels)
    synthrun.write_mode(
        tmp_path,
        "platform-jdk21",
        ModeSpec(stairs([10, 20, 30, 40]), pinned=0, live_config={"java_version_feature": 21}),
    )
    synthrun.write_mode(
        tmp_path,
        "virtual-jdk21",
        ModeSpec(
            stairs([10, 20, 30, 40], slow_from=20),
            pinned=1234,
            live_config={"java_version_feature": 21, "virtual_scheduler_parallelism": 2},
        ),
    )
    synthrun.write_mode(tmp_path, "platform-jdk25", ModeSpec(stairs([10, 20, 30, 40], slow_from=30), pinned=0))
    synthrun.write_mode(
        tmp_path,
        "virtual-jdk25",
        ModeSpec(stairs([10, 20, 30, 40]), pinned=0, live_config={"java_version_feature": 25}),
    )
    result = report.rebuild(tmp_path).as_json()
    assert list(result["modes"]) == labels and result["missing_modes"] == []
    assert result["scenario"] == "pinned"
    # each ratio a bound, the end its brackets carry: 20 / 40 on JDK 21 (platform held the top), 40 / 30 on 25
    assert result["ratios"] == {"21": 0.5, "25": 1.33} and result["virtual_over_platform"] == 1.33
    pinned21 = result["modes"]["virtual-jdk21"]
    assert (pinned21["predicted_by"], pinned21["predicted_rps"], pinned21["carriers"]) == ("pinned", 10, 2)
    assert pinned21["prediction"] == "pinned: 2 carriers (virtual scheduler parallelism) × 1000 / 200 ms = 10 rps"
    assert pinned21["prediction_agrees"] is True and pinned21["jdk"] == 21
    assert result["modes"]["virtual-jdk25"]["predicted_rps"] is None
    html = (tmp_path / "index.html").read_text()
    head = re.search(r'<section id="verdict">.*?</tr>', html).group(0)
    assert [h for h in re.findall(r"<th>([^<]*)</th>", head) if h] == labels
    assert re.search(r"pinned virtual threads \(JFR\)</th><td>0</td><td>1,234</td><td>0</td><td>0</td>", html)
    assert re.search(r"carriers \(virtual scheduler parallelism\)</th><td>—</td><td>2</td>", html)
    assert "virtual-jdk21 sustained 10 rps = ≤ 0.50× platform-jdk21 (an upper bound)" in result_headline(tmp_path)
    assert "with 1,234 pinned virtual threads" in result_headline(tmp_path)


def result_headline(run):
    return re.search(r'id="headline">([^<]*)<', (run / "index.html").read_text()).group(1)


def test_a_mode_that_ran_on_another_jdk_is_invalid(tmp_path):
    synthrun.write_params(tmp_path, modes=("virtual",), JDKS=[21])
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(stairs([100, 200]), live_config={"java_version_feature": 25}))
    mode = summarised(tmp_path)["modes"]["virtual"]
    assert not mode["valid"]
    assert "the thread-service ran on Java 25, not the JDK 21 asked for" in mode["invalid_reasons"]


def test_db_run_predicts_the_pool_for_both_modes_and_shows_its_evidence(tmp_path):
    synthrun.write_params(tmp_path, SCENARIO="db", DB_POOL=2, DELAY_MS=100)
    for mode in ("platform", "virtual"):
        # the delay host's probe answers its query's 100 ms (its database is not saturated: no level is set aside)
        levels = [
            LevelSpec(r, db_active=min(2, r / 10), db_pending=0 if r < 20 else 30, probe_ms=102.0)
            for r in (10, 15, 20, 25)
        ]
        levels[-1].latency = SLOW_TAIL
        synthrun.write_mode(tmp_path, mode, ModeSpec(levels, db_pool_size=2))
    result = report.rebuild(tmp_path).as_json()
    assert result["scenario"] == "db"
    for mode in ("platform", "virtual"):
        m = result["modes"][mode]
        assert (m["predicted_by"], m["predicted_rps"], m["sustained_rps"]) == ("pool", 10, 20)
        assert m["db_pool"] == {"size": 2, "active_max": 2, "pending_max": 30, "first_level_with_pending": 3}
        assert [lv["evidence"]["db_pool_pending"] for lv in m["levels"]] == [0, 0, 30, 30]
    assert result["modes"]["platform"]["prediction"].startswith("pool: min(200 threads, 2 connections) / 0.201 s")
    server = (tmp_path / "virtual" / "server.csv").read_text().splitlines()
    assert ",delay_probe_ms,db_pool_active,db_pool_pending," in server[0]
    html = (tmp_path / "index.html").read_text()
    assert 'data-chart="server-pool"' in html and "db pool: size / most in use / most waiting" in html
    assert "virtual threads were not expected to win" in result_headline(tmp_path)
    assert result_headline(tmp_path).startswith("db scenario: ")


def test_cpu_run_draws_cpu_per_request_and_predicts_the_cores_less_the_other_roles(tmp_path):
    synthrun.write_params(tmp_path, SCENARIO="cpu", CPU_MS=20)
    # 80 rps: thread-service 160% (20 ms per request); delay 2% + injector 14% = 16% of a core = 2 ms per request
    levels = [LevelSpec(r, thread_cpu=2 * r, delay_cpu=2, injector_cpu=14 * r / 80) for r in (40, 60, 80)]
    levels.append(LevelSpec(100, thread_cpu=195, latency=SLOW_TAIL, ok_share=0.9))
    synthrun.write_mode(tmp_path, "platform", ModeSpec(levels))
    result = report.rebuild(tmp_path).as_json()
    m = result["modes"]["platform"]
    assert m["predicted_by"] == "cpu" and m["sustained_rps"] == 80
    assert m["prediction"] == (
        "cpu: 90% of 2 cores × 1000 / (20 ms + 2.0 ms of other roles' CPU per request) = 82 rps (every core busy at 91)"
    )
    assert m["predicted_interval_rps"] == [81.82, 90.91]
    assert m["prediction_agrees"] is True
    assert [lv["thread_cpu_ms_per_request"] for lv in m["levels"][:3]] == [20, 20, 20]
    html = (tmp_path / "index.html").read_text()
    assert 'data-chart="cpu-per-request"' in html and 'data-chart="server-pool"' not in html
    assert "cpu scenario:" in result_headline(tmp_path)
    assert json.loads((tmp_path / "summary.json").read_text())["scenario"] == "cpu"
