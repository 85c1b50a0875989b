"""Failed requests' kinds have one source, the simulation's ErrorKind
(gatling/src/test/java/loadlab/gatling/recorder/ErrorKind.java), which every injector publishes in meta.json
(`error_kinds`, `error_kind_meanings`): the harness reads them as they come. Here: the few kinds the Python side names,
and the synthetic runs' list, are the simulation's, and the summary and the page pass the simulation's meanings on.
(ErrorKindTest holds synthrun.py's list to the enum from the Java side.)"""

import json
import re

import synthrun
from builders import run_params
from conftest import REPO
from synthrun import LevelSpec, ModeSpec

from loadlab import report
from loadlab.core import upgrade
from loadlab.core.asked import Asked
from loadlab.report import errors_table
from loadlab.summary.judge import judging
from loadlab.summary.reading import raw
from loadlab.summary.verdicts.records import RunSummary

ERROR_KIND_JAVA = REPO / "gatling" / "src" / "test" / "java" / "loadlab" / "gatling" / "recorder" / "ErrorKind.java"


def java_error_kinds() -> list[str]:
    """The ids of ErrorKind's constants, in their order: `    NAME("id", "meaning..."),`."""
    return re.findall(r'^ {4}[A-Z][A-Z0-9_]*\("([a-z0-9_]+)"', ERROR_KIND_JAVA.read_text(encoding="utf-8"), re.M)


def test_the_simulations_list_is_read_and_well_formed():
    kinds = java_error_kinds()
    assert len(kinds) >= 8 and len(kinds) == len(set(kinds)), kinds
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", k) for k in kinds), kinds


def test_the_synthetic_runs_use_the_simulations_list():
    assert synthrun.ERROR_KINDS == java_error_kinds()
    assert list(synthrun.ERROR_KIND_MEANINGS) == java_error_kinds()


def test_every_kind_the_harness_names_is_the_simulations():
    kinds = set(java_error_kinds())
    assert {raw.TIMEOUT_INJECTOR, raw.STATUS_504} <= kinds
    # every limit of the request chain that can cut a request is told by a kind the injectors write
    recorded = {"injector_request_timeout_ms": 10_000, "thread_service_timeout_ms": 5_000, "database_timeout_ms": 5_000}
    empty = raw.RawMode(injectors=[], thread_samples={}, jvm={}, delay_samples={}, pinned=None, live_config={})
    limits = judging.limits_in_force(empty, recorded, Asked.of(run_params(scenario="db")))
    assert len(limits) == 3 and {limit.kind for limit in limits} <= kinds
    # the meanings given to injectors that gave none (upgrade.py)
    assert set(upgrade.KNOWN_KIND_MEANINGS) <= kinds


def test_the_contracts_example_kinds_are_the_simulations():
    # ../shared/CONTRACT.md, summary.json per level: `errors_by_kind` (e.g. connect_refused, timeout_injector,
    # status_502, status_504, status_5xx).
    assert {"connect_refused", "timeout_injector", "status_502", "status_504", "status_5xx"} <= set(java_error_kinds())


def test_the_simulations_readme_lists_every_kind():
    readme = (REPO / "gatling" / "README.md").read_text(encoding="utf-8")
    assert [k for k in java_error_kinds() if f"`{k}`" not in readme] == []


def test_the_summary_and_the_page_pass_the_simulations_meanings_on(tmp_path):
    levels = [LevelSpec(100), LevelSpec(200), LevelSpec(300, ok_share=0.9, ko_share=0.1)]
    spec = ModeSpec(levels, ko_kind="status_502")
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(tmp_path, "platform", spec)
    platform = report.rebuild(tmp_path).as_json()["modes"]["platform"]
    assert platform["error_kinds"] == synthrun.ERROR_KINDS
    assert platform["error_kind_meanings"] == synthrun.ERROR_KIND_MEANINGS
    html = (tmp_path / "index.html").read_text()
    legend = re.search(r'<p class="muted" id="error-kind-meanings">(.*?)</p>', html).group(1)
    # only the kinds that occurred, each with the simulation's meaning
    assert legend == "status_502: what status_502 means, as the simulation says."


def test_a_run_from_before_the_meanings_still_says_which_kinds_were_the_harnesss(tmp_path):
    """An injector whose meta.json lists no meanings (an older simulation) is upgraded as it is read."""
    levels = [LevelSpec(100), LevelSpec(200), LevelSpec(300, ok_share=0.9, ko_share=0.1)]
    synthrun.write_params(tmp_path, modes=["platform"])
    synthrun.write_mode(tmp_path, "platform", ModeSpec(levels, ko_kind="timeout_injector"))
    meta_path = tmp_path / "platform" / "raw" / "injector-0" / "meta.json"
    meta = json.loads(meta_path.read_text())
    del meta["error_kind_meanings"]
    meta_path.write_text(json.dumps(meta))
    platform = report.rebuild(tmp_path).as_json()["modes"]["platform"]
    assert platform["error_kind_meanings"] == upgrade.KNOWN_KIND_MEANINGS
    legend = re.search(r'id="error-kind-meanings">(.*?)</p>', (tmp_path / "index.html").read_text()).group(1)
    assert legend == "timeout_injector: the injector&#x27;s own request timeout (a harness limit)."


def test_a_kind_the_simulation_no_longer_lists_is_still_shown_as_written():
    mode = {
        "error_kinds": ["timeout_injector"],
        "levels": [{"index": 0, "target_rps": 10, "errors_by_kind": {"connection_failed": 1, "timeout_injector": 2}}],
    }
    html = errors_table.section(RunSummary.from_mapping({"modes": {"platform": mode}}))
    assert "<th>timeout_injector</th><th>connection_failed</th>" in html
