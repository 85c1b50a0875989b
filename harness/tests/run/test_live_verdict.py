"""Issue 51 §3 (left from the last round): the simulation's live verdict (its console line per level, its early stop)
and the analysis judged long requests and the downstream's injected failures differently, and the console showed the
live verdict as if it were the run's. Where they cannot agree (simulation.live_verdict_differs says why: a decision,
docs/RESULTS.md) the load is never stopped on it and every live verdict line says it is a live reading."""

from types import SimpleNamespace

from support.builders import run_params

from loadlab.core.load_plan import of_values
from loadlab.run import console
from loadlab.run.simulation import live_verdict_differs

VERDICT = "LOADLAB inj=0 level 3/8 (target 40 rps) UNHEALTHY: ok 35.0 rps < 0.95 x target 40.0 rps ok_rps=35.0\n"
SECOND = "LOADLAB inj=0 phase=measure level=3/8 target=40 sent=40 ok=35 ko=0 p99=900ms inflight=80\n"


def test_the_live_verdict_is_the_analysis_only_for_short_requests_without_injected_failures():
    assert live_verdict_differs(of_values(run_params()), 200) is None
    long = live_verdict_differs(of_values(run_params(delay_ms=2000)), 2000)
    assert long is not None and "by send second" in long
    injected = live_verdict_differs(of_values(run_params(downstream_errors=5.0)), 200)
    assert injected is not None and "DOWNSTREAM_ERRORS" in injected


def test_a_live_verdict_the_summary_judges_otherwise_is_said_to_be_a_live_reading(capsys):
    why = live_verdict_differs(of_values(run_params(downstream_errors=5.0)), 200)
    console.follow_progress(
        SimpleNamespace(terminate=lambda: None, stdout=iter([SECOND, VERDICT, "LOADLAB inj=0 done sent=1\n"])),
        "p",
        None,
        None,
        why,
    )
    console.end_progress()
    out = capsys.readouterr().out
    verdict = next(line for line in out.splitlines() if "UNHEALTHY" in line)
    assert verdict.endswith(f"[live reading only, the summary judges this level: {why}]"), verdict
    assert "live reading" not in console.live_reading(SECOND.removeprefix("LOADLAB ").strip(), why)
    assert console.live_reading("inj=0 level 3/8 (target 40 rps) healthy ok_rps=40.0", None).endswith("ok_rps=40.0")
