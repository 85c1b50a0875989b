"""How many fine passes a mode may run: refine.MAX_PASSES, fewer only under the test-only seam."""

from loadlab.analysis import refine
from loadlab.run import finepasses


def test_a_real_run_may_run_every_pass_and_the_seam_only_lowers_it(monkeypatch):
    monkeypatch.delenv("LOADLAB_REFINE_PASSES", raising=False)
    assert finepasses.max_passes() == refine.MAX_PASSES
    monkeypatch.setenv("LOADLAB_REFINE_PASSES", "1")
    assert finepasses.max_passes() == 1
    monkeypatch.setenv("LOADLAB_REFINE_PASSES", "99")
    assert finepasses.max_passes() == refine.MAX_PASSES
    monkeypatch.setenv("LOADLAB_REFINE_PASSES", "many")
    assert finepasses.max_passes() == refine.MAX_PASSES
