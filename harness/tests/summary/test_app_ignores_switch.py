"""Real raw files of the sample app told to ignore the switch (`--orders.own-request-threads=4`: it serves every
request on its own 4 platform threads whatever Spring says), run in virtual mode on this machine (`make bench
MODES=virtual APP=<sample app> APP_PATH=/orders/42 DELAY_MS=200 START_RPS=10 PEAK_RPS=15 STEPS=2`), judged as `make
report` judges them. The recording (service.jfr, flight.json) is left out: the verdict reads its counts
(pinned.json), and the costs it would add are not what is tested here. test_e2e_app.py proves the positive case on
a live run: the same app, switching, valid in both modes."""

import re
from pathlib import Path

import pytest
from builders import run_params
from conftest import rebuilt_copy

from loadlab.core.app import service_label
from loadlab.report.service_name import named

DATA = Path(__file__).parents[1] / "data" / "app_ignores_switch"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    return rebuilt_copy(tmp_path_factory, DATA)


def test_the_files_hold_an_app_that_served_on_platform_threads(rebuilt):
    run, _ = rebuilt
    assert "--orders.own-request-threads=4" in (run / "virtual/raw/thread/app.json").read_text()


def test_virtual_mode_is_invalid_because_no_virtual_thread_served_the_requests(rebuilt):
    _, result = rebuilt
    virtual = result["modes"]["virtual"]
    assert virtual["valid"] is False
    reason = next(x for x in virtual["invalid_reasons"] if x.startswith("the app did not switch to virtual threads"))
    assert f"0 virtual threads started for {virtual['requests']} requests" in reason, reason
    assert virtual["app_evidence"]["virtual_threads_started"] == 0, virtual["app_evidence"]
    # no ratio can be claimed from a mode that never ran as labelled
    assert result["virtual_over_platform"] is None


def test_the_page_says_why(rebuilt):
    run, _ = rebuilt
    assert "the app did not switch to virtual threads" in (run / "index.html").read_text()


def test_the_page_calls_the_app_by_its_jar_name_not_the_thread_service(rebuilt):
    """The app took the thread-service's place: the page's words (captions, tables, legends) name the jar; links to
    its files keep the role's name they were written under."""
    run, _ = rebuilt
    page = (run / "index.html").read_text()
    assert "sample-app-0.1.0.jar" in page
    prose = re.sub(r"<[^>]*>", " ", page)  # text only: tags and their attributes (hrefs) left out
    assert "thread-service" not in prose.replace("thread-service.log", ""), [
        prose[max(0, i - 60) : i + 40] for i in (m.start() for m in re.finditer("thread-service", prose))
    ][:3]


def test_a_run_of_the_thread_service_keeps_its_name():
    assert named("the thread-service's CPU", service_label(run_params())) == "the thread-service's CPU"
    assert named("the thread-service's CPU", service_label(run_params(app="/x/orders.jar"))) == ("the orders.jar's CPU")
    assert named("logs/platform-thread-service.log", "orders.jar") == "logs/platform-thread-service.log"


def test_the_page_shows_the_apps_own_evidence_per_column(rebuilt):
    run, result = rebuilt
    page = (run / "index.html").read_text()
    section = page[page.index('id="app-evidence"') : page.index("</section>", page.index('id="app-evidence"'))]
    assert "virtual threads started (JFR)</th><td>0<br>" in section, section
    assert "0.00 per request measured" in section
    assert result["modes"]["virtual"]["app_evidence"]["gc_count"] == 7 and "GCs (JFR)</th><td>7<br>" in section
