"""Issue 44 item 5: a model whose interval starts far above every rate the run offered (Tomcat's max-connections
over a request's hold: 8,192 / 0.2 s = 40,960 rps, where the run offered 400) bounds nothing the run could see. It
is said as "no limit below N", never as the mode's prediction (summary.json, the console's "predicted rps", the
page's verdict table), never judged against the knee, never named as the limit met first; it stays listed in
`predictions`, flagged `beyond_run`."""

from pathlib import Path

import pytest
import synthrun
from synthrun import ModeSpec, stairs

from loadlab import report
from loadlab.analysis.prediction import FAR_ABOVE_RUN, Prediction, lowest
from loadlab.core import params
from loadlab.run import console
from loadlab.summary.verdicts.records import RunSummary

RATES = (100, 200, 300, 400)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Platform's 50 threads break at 300 rps (Little's law: 50 / 0.201 s = 249); virtual holds the top, 400 rps,
    with no limit but Tomcat's 8,192 connections."""
    folder = tmp_path_factory.mktemp("beyond") / "20261128-100000"
    synthrun.write_params(
        folder, platform_threads=50, START_RPS=100, PEAK_RPS=400, STEPS=4, REFINE=0, MAX_CONNECTIONS=8192
    )
    synthrun.write_mode(folder, "platform", ModeSpec(stairs(RATES, slow_from=300)))
    synthrun.write_mode(folder, "virtual", ModeSpec(stairs(RATES)))
    return folder, report.rebuild(folder).as_json()


def test_summary_json_gives_no_prediction_and_flags_the_model(run):
    _, result = run
    virtual = result["modes"]["virtual"]
    connections = next(p for p in virtual["predictions"] if p["predicted_by"] == "connections")
    assert connections["beyond_run"] is True and connections["interval_rps"][0] > FAR_ABOVE_RUN * 400
    assert (virtual["predicted_rps"], virtual["predicted_by"], virtual["prediction"]) == (None, None, None)
    assert virtual["prediction_agrees"] is None and virtual["prediction_verdict"] == "beyond the run"
    assert "connections: no limit below" in virtual["prediction_check"]
    assert "above 10× the highest rate it offered, 400 rps" in virtual["prediction_check"]
    # never the limit met first: said as what it is
    assert not virtual["limit_met_first"].startswith("Tomcat's max-connections"), virtual["limit_met_first"]
    assert "; beyond the run, naming no limit: Tomcat's max-connections: no limit below" in virtual["limit_met_first"]
    # platform's own limit is within the run: predicted, judged, and its connections flagged beside it
    platform = result["modes"]["platform"]
    assert platform["predicted_by"] == "little" and platform["prediction_verdict"] in ("agrees", "disagrees")
    assert [p["beyond_run"] for p in platform["predictions"]] == [False, True]


def test_the_console_never_prints_it_as_the_prediction(run, capsys):
    folder, result = run
    console.table(RunSummary.from_mapping(result), folder)
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("virtual "))
    cells = row.split("  ")
    assert "beyond the run" in row and "40,9" not in row and "connections" not in row, row
    assert "-" in cells  # the predicted rps column
    assert "virtual: beyond the run, not a prediction: Tomcat's max-connections: no limit below 40," in out, out
    assert "virtual: not judged: no model limits this mode within the run" in out, out


def test_the_page_says_none_within_the_run(run):
    folder, _ = run
    page = (Path(folder) / "index.html").read_text()
    verdict = page[page.index('<section id="verdict">') : page.index("</section>", page.index('id="verdict"'))]
    assert "none within the run" in verdict and "connections: no limit below 40," in verdict
    assert "no model limits this mode within the run" in verdict
    assert "connections predicted" not in page and "connections: beyond the run" in verdict


def test_a_model_far_above_the_run_is_never_the_lowest():
    near = Prediction(900, "little", "little", interval=(880, 920))
    far = Prediction(500, "cpu", "cpu", interval=(4100, None))
    assert lowest([near, far], top_offered=400) is near
    assert lowest([far], top_offered=400) is None and lowest([far], top_offered=None) is far
    # at the edge: a low end at exactly 10× the top is still the run's to judge
    edge = Prediction(4000, "pool", "pool", interval=(4000, 4100))
    assert lowest([edge], top_offered=400) is edge


def test_the_multiple_is_the_default_stairs_span():
    defaults = {p.name: p.default for p in params.PARAMS}
    assert FAR_ABOVE_RUN == int(defaults["PEAK_RPS"]) / int(defaults["START_RPS"])
