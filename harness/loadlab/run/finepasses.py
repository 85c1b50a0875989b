"""REFINE=1: the fine passes of a collapsed mode, each planned by summary/judge/fine_plan.py from the raw files so far
(the same code `make report` judges them with), run on the same, drained thread-service (drain.py); each pass's
Gatling boots during the drain and waits for its go."""

from __future__ import annotations

import itertools
import os

from loadlab.analysis import refine
from loadlab.run import collect, console
from loadlab.run.context import Run
from loadlab.run.drain import drain
from loadlab.run.load import cancel, launch, run_load
from loadlab.run.simulation import LoadPass
from loadlab.run.watch import Crash
from loadlab.summary.judge import fine_plan


def max_passes() -> int:
    """refine.MAX_PASSES a bracket, or fewer under the test-only seam LOADLAB_REFINE_PASSES (never set by a real run):
    an end-to-end test whose claim is that a fine pass ran and reached the page needs only one. A climb is never one
    of them, under the seam too: a transient must not end any run's climb."""
    seam = os.environ.get("LOADLAB_REFINE_PASSES", "")
    return min(refine.MAX_PASSES, int(seam)) if seam.isdigit() else refine.MAX_PASSES


def refine_knee(run: Run, folder: str, refining: bool = True) -> tuple[list[str], Crash | None]:
    """Fine passes until the knee is localised (refine.py); returns the problems seen and a crash, if any.
    refining False (REFINE=0): only the stairs measured again after a second warm-up, when the coarse warm-up ended
    before the service had caught up (summary/judge/warmup.py), never a fine pass.

    At most max_passes() passes localise one bracket. A climb, the stairs going on above an unhealthy level
    that did not reproduce, is not one of them: it opens a new bracket, or reaches the top of the stairs, so a
    transient never leaves a mode's answer at a rate the passes ran out at (a lower bound only the transient made).
    Each climb starts above the highest rate held so far, so the climbs end within the coarse stairs' levels."""
    passes, most = 0, max_passes()
    for k in itertools.count(1):
        collect.collect(run)  # on aws the injectors' files are on their hosts until collected
        step = fine_plan.next_fine_pass(run.run_dir, folder, run.meta)
        if not refining and not step.rewarm:
            return [], None
        if not step.rates:
            if step.reason:
                run.meta.setdefault("refine_skipped", {})[folder] = step.reason
                console.step(f"not refined: {step.reason}")
            return [], None
        passes = 0 if step.climb or step.rewarm else passes + 1
        if passes > most:
            return [], None
        load = LoadPass(f"refine-{k}", tuple(step.rates), step.baseline_p50_ms, step.warmup_rps, step.rewarm)
        pending = launch(run, folder, load)  # its Gatling boots while the service drains
        try:
            why = drain(run)
        except BaseException:
            cancel(run, pending)
            raise
        if why:
            cancel(run, pending)
            run.meta.setdefault("refine_skipped", {})[folder] = why
            console.warn(f"not refined: {why}")
            return [], None
        console.step(f"{describe(step, run.plan.stairs.step_seconds, run.plan.stairs.warmup_seconds)} (pass {k})")
        problems, crash = run_load(run, folder, load, pending)
        if problems or crash is not None:
            return problems, crash
    return [], None


def describe(step: fine_plan.FineStep, step_seconds: int, warmup_seconds: int) -> str:
    """The console line that announces a pass: a fine pass between its bracket's rates, or a climb on above a level
    that did not reproduce."""
    levels = f"{len(step.rates)} {'' if step.climb or step.again else 'fine '}level{'s' if len(step.rates) > 1 else ''}"
    after = f"after {refine.warmup_seconds(warmup_seconds)} s at {step.warmup_rps:,.1f} rps"
    if step.climb and step.set_aside:
        return (
            f"climbing on: the level set aside was held healthy on trusted levels, so the stairs go on above it: "
            f"{levels} of {step_seconds} s from {step.rates[0]:,.1f} to {step.rates[-1]:,.1f} rps, {after}"
        )
    if step.rewarm:
        return (
            f"warming up again: the warm-up ended before the service had caught up with it, so the first level "
            f"measured its backlog; {warmup_seconds} s more at {step.warmup_rps:,.1f} rps, then the stairs again from "
            f"their first level: {levels} of {step_seconds} s from {step.rates[0]:,.1f} to {step.rates[-1]:,.1f} rps"
        )
    if step.again:
        return (
            f"measuring the stairs again from their first level: none was healthy, and a service still warming up at "
            f"the warm-up's end reads unhealthy at rates it holds once warm: {levels} of {step_seconds} s from "
            f"{step.rates[0]:,.1f} to {step.rates[-1]:,.1f} rps, {after}"
        )
    if step.climb:
        return (
            f"climbing on: the unhealthy level did not reproduce, so the stairs go on above it: {levels} of "
            f"{step_seconds} s from {step.rates[0]:,.1f} to {step.rates[-1]:,.1f} rps, {after}"
        )
    bracket = step.bracket
    assert bracket is not None  # fine_plan gives every pass but a climb the bracket it looks in
    if step.set_aside:
        return (
            f"looking for the knee below the level set aside at {bracket.unhealthy:,.1f} rps (its instrument was "
            f"saturated), from {bracket.healthy:,.1f} rps, the highest rate held: {levels} of {step_seconds} s "
            f"from {step.rates[0]:,.1f} rps, {after}"
        )
    return (
        f"refining the knee between {bracket.healthy:,.1f} and {bracket.unhealthy:,.1f} rps: {levels} of "
        f"{step_seconds} s from {step.rates[0]:,.1f} rps, {after}"
    )
