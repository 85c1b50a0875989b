"""Which fine passes a mode runs: at most refine.MAX_PASSES to localise one bracket, a climb above a level that did
not reproduce never counted among them, fewer only under the test-only seam."""

from types import SimpleNamespace

import pytest

from loadlab.analysis import refine
from loadlab.analysis.bracket import Bracket
from loadlab.run import finepasses
from loadlab.summary.judge.fine_plan import FineStep

FINE = FineStep([100.0, 105.0], Bracket(100.0, 105.0), 200.0, 50.0)
CLIMB = FineStep([300.0, 400.0], None, 200.0, 150.0, climb=True)


def _passes_run(monkeypatch, planned: list[FineStep]) -> list[str]:
    """The passes refine_knee runs when the plan after each pass is the next of `planned` (then nothing)."""
    plan, ran = iter(planned), []
    monkeypatch.setattr(finepasses.collect, "collect", lambda run: None)
    monkeypatch.setattr(finepasses.fine_plan, "next_fine_pass", lambda *a: next(plan, FineStep()))
    monkeypatch.setattr(finepasses, "launch", lambda run, folder, load: load)
    monkeypatch.setattr(finepasses, "drain", lambda run: None)
    monkeypatch.setattr(finepasses.console, "step", lambda line: None)
    monkeypatch.setattr(
        finepasses, "run_load", lambda run, folder, load, pending: (ran.append(load.name), ([], None))[1]
    )
    run = SimpleNamespace(
        run_dir=None, meta={}, plan=SimpleNamespace(stairs=SimpleNamespace(step_seconds=10, warmup_seconds=30))
    )
    assert finepasses.refine_knee(run, "virtual") == ([], None)
    return ran


@pytest.fixture(autouse=True)
def _no_seam(monkeypatch):
    monkeypatch.delenv("LOADLAB_REFINE_PASSES", raising=False)


def test_a_bracket_is_refined_by_at_most_max_passes(monkeypatch):
    ran = _passes_run(monkeypatch, [FINE] * (refine.MAX_PASSES + 2))
    assert len(ran) == refine.MAX_PASSES


def test_a_transient_does_not_end_the_climb_when_the_passes_run_out(monkeypatch):
    """spring-petclinic's virtual mode: a fine pass, a climb, a fine pass whose top did not reproduce: the stairs
    go on above it, and the new bracket gets its own passes."""
    planned = [FINE, CLIMB, FINE, CLIMB, FINE, FINE, FINE, FINE]
    ran = _passes_run(monkeypatch, planned)
    assert ran == [f"refine-{k}" for k in range(1, 5 + refine.MAX_PASSES)]


def test_the_seam_caps_the_passes_a_bracket_gets_never_a_climb(monkeypatch):
    """The sample app's run on a slow machine: its 55 rps level did not reproduce in the one pass the seam allows,
    and the mode ended holding 55.6 rps below a pool that breaks at 65: the climb above it must still run."""
    monkeypatch.setenv("LOADLAB_REFINE_PASSES", "1")
    assert finepasses.max_passes() == 1
    assert _passes_run(monkeypatch, [FINE, CLIMB, FINE, FINE]) == ["refine-1", "refine-2", "refine-3"]
    monkeypatch.setenv("LOADLAB_REFINE_PASSES", "99")
    assert finepasses.max_passes() == refine.MAX_PASSES
