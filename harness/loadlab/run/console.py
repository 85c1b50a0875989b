"""What a person sees in the terminal: a few step lines, one live progress line per second, the final table.
Maven, Spring and Gatling output goes to the run's logs/ folder, never here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from loadlab.analysis.gc_bound import counted_with_the_crash
from loadlab.core import app
from loadlab.core.app import service_label
from loadlab.run import console_ratios
from loadlab.run.console_ratios import fmt

if TYPE_CHECKING:  # `check`, `java-home` and the rest print through this module before .venv exists
    from loadlab.summary.schema.detail_records import RepeatsRecord
    from loadlab.summary.verdicts.records import ModeRecord, RunSummary

_lock = threading.Lock()
_tty = sys.stdout.isatty()
PROGRESS = re.compile(r"^LOADLAB (.*)$")


def heading(mode: str) -> None:
    # reactive has no threads of its own per request: its column is named for the shape, not a kind of thread.
    _print(f"\n== {mode} threads ==" if not mode.startswith("reactive") else f"\n== {mode} (Netty event loops) ==")


def step(text: str) -> None:
    _print(f"-- {text}")


def warn(text: str) -> None:
    _print(f"!! {text}")


def error(text: str) -> None:
    print(f"loadlab: {text}", file=sys.stderr, flush=True)


_ticking = False


def _tick(line: str) -> None:
    """The once-a-second line: rewritten in place on a terminal, left out of logs and CI output."""
    global _ticking
    if _tty:
        with _lock:
            sys.stdout.write("\r\033[K" + line[:150])
            sys.stdout.flush()
            _ticking = True


def _print(line: str) -> None:
    global _ticking
    with _lock:
        try:
            if _ticking:
                sys.stdout.write("\r\033[K")
                _ticking = False
            print(line, flush=True)
        except BrokenPipeError:
            _console_gone()


def _console_gone() -> None:
    """The terminal or pipe reading the console went away (a closed ssh session, a killed `| tee`): the run goes on
    and stops its processes as it would, its files keep what is written; what it would have printed goes nowhere
    (Python's own advice for a closed stdout: point it at /dev/null so the exit's flush cannot fail again)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


# A level's live verdict as the simulation prints it (ProgressLines.verdict): `inj=0 level 3/8 (target 40 rps) healthy`.
LIVE_VERDICT = re.compile(r" level \d+/\d+ \(target [^)]*\) (healthy|UNHEALTHY)")


def follow_progress(
    proc: subprocess.Popen[str],
    mode: str,
    ended: threading.Event | None = None,
    ready: threading.Event | None = None,
    live_differs: str | None = None,
) -> None:
    """Shows one injector's progress: the simulation prints `LOADLAB ` lines; per-second ones carry `phase=`,
    level verdicts, the early stop and the end are kept on screen. `ready` is set once its JVM waits for the go
    (GoSignal.java; not shown), `ended` once the injector printed its end. live_differs: why the live verdict is not
    the analysis's in this run (simulation.live_verdict_differs): each verdict line says it is a live reading."""
    _followers.append(proc)
    for line in proc.stdout or ():  # hosts.Host.follow pipes it
        m = PROGRESS.match(line.rstrip())
        if not m:
            continue
        text = f"   [{mode}] {live_reading(m.group(1), live_differs)}"
        if " ready: waiting for the go" in text:
            if ready is not None:
                ready.set()
            continue
        if " phase=" in text:
            _tick(text)
        else:
            _print(text)
        if " done " in text:
            if ended is not None:
                ended.set()
            break


def live_reading(line: str, live_differs: str | None) -> str:
    """A live verdict line marked as what it is where the analysis judges the level otherwise, so the console never
    shows a verdict the page will contradict as if it were the run's."""
    if live_differs is None or not LIVE_VERDICT.search(line):
        return line
    return f"{line} [live reading only, the summary judges this level: {live_differs}]"


_followers: list[subprocess.Popen[str]] = []


def end_progress() -> None:
    for p in _followers:
        p.terminate()
    _followers.clear()


def table(summary: RunSummary, run_dir: Path) -> None:
    """The short verdict: one row per mode, with the bracket of its knee and the prediction it was checked against;
    then each mode's notes, the repetitions' spread, the ratios and what is missing."""
    _print("")
    params = summary.params
    if params.app:
        _print(f"app: {service_label(params)} {app.what_is_sent(params)}")
    elif summary.scenario:
        _print(f"scenario: {summary.scenario}")
    if any(m.brownout is not None for m in summary.modes.values()):
        # PROFILE=brownout holds one rate: no knee, so no knee table; each mode's verdict, then its brownout figures
        for mode, m in summary.modes.items():
            reasons = "; ".join(m.validity.invalid_reasons or [])
            _print(f"{mode}: {'valid' if m.validity.valid else 'INVALID: ' + reasons}")
    else:
        rows = _rows(summary.modes)
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
        for r in rows:
            _print("  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1])
        for mode, m in summary.modes.items():
            _mode_notes(mode, m)
    _brownout_lines(summary)
    agg = summary.repeats
    _repeat_notes(agg)
    _ratio_lines(summary, agg)
    _prescription_lines(summary)
    for mode in summary.missing_modes or []:
        _print(f"missing: {mode} (not run to the end)")
    _print(f"\nreport: {run_dir / 'index.html'}")


def _prescription_lines(summary: RunSummary) -> None:
    """What would lift each mode's limit, one line a mode (the page's "What to change": report/prescription_section)."""
    for mode, m in summary.modes.items():
        if m.limit.prescription is not None and m.limit.prescription.words:
            _print(f"{mode}: what to change: {m.limit.prescription.words}")


def _brownout_lines(summary: RunSummary) -> None:
    """PROFILE=brownout: each mode's figures through it beside the predictions (report/brownout_words.py)."""
    from loadlab.report import brownout_words  # here: the console is imported before the page's stage is needed

    modes = summary.modes
    table = brownout_words.rows(modes)
    if not table:
        return
    _print("\n" + brownout_words.headline(modes))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]) - 1)]
    for r in table:
        _print("  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1])
    for note in brownout_words.notes(modes):
        _print(f"  {note}")


def _rows(modes: dict[str, ModeRecord]) -> list[tuple[str, ...]]:
    from loadlab.summary.verdicts import prediction_text

    rows: list[tuple[str, ...]] = [
        ("mode", "sustained rps", "knee between", "predicted rps", "agrees", "p99 at sustained", "collapsed", "verdict")
    ]
    for mode, m in modes.items():
        verdict = "valid" if m.validity.valid else "INVALID: " + "; ".join(m.validity.invalid_reasons or [])
        if m.crashed:
            verdict = "CRASHED, " + verdict
        predicted = prediction_text.predicted(m)
        agrees = prediction_text.verdict_word(m)
        rows.append(
            (
                mode,
                fmt(m.sustained_rps),
                _bracket(m),
                predicted,
                agrees,
                fmt(m.p99_ms_at_sustained, " ms"),
                collapsed_word(m),
                verdict,
            )
        )
    return rows


def _mode_notes(mode: str, m: ModeRecord) -> None:
    """Under the table: the prediction with its interval and fit, how the knee compares with it, and why a knee was
    not localised."""
    from loadlab.summary.verdicts import prediction_text

    for line in prediction_text.lines(mode, m):
        _print(f"  {line}")
    if m.predicted.agrees is False and m.limit.evidence_at_knee:
        _print(f"  {mode}: the first unhealthy level, {m.limit.evidence_at_knee}")
    for gap in m.evidence_gaps or []:
        where = "" if gap.pass_name == "coarse" else f"{gap.pass_name}'s "
        _print(
            f"  {mode}: NO SERVER EVIDENCE for {where}measured seconds {gap.first_second}–{gap.last_second}"
            f" ({gap.role}'s sampler {gap.cause})"
        )
    for entry in m.knee.set_aside_levels or []:
        where = f"level {entry.level}" if entry.pass_name == "coarse" else f"{entry.pass_name}'s level {entry.level}"
        rate = fmt(entry.target_rps)
        if counted_with_the_crash(entry.reason or ""):  # the crash's own: not an instrument (summary/judge/gc_crash.py)
            _print(f"  {mode}: {where} ({rate} rps) {entry.reason}")
        else:
            _print(f"  {mode}: SET ASIDE {where} ({rate} rps), its instrument saturated: {entry.reason}")
    if m.knee.bound:
        _print(f"  {mode}: a lower bound, no knee: {m.knee.bound}")
    if m.kinds:  # APP_REQUESTS: each kind of the mix on its own
        # Imported here: the verbs that run before .venv exists (java-home, check) import this module too.
        from loadlab.report import kinds_section

        for line in kinds_section.console_lines(mode, m.kinds, m.kind_first):
            _print(f"  {line}")
    refined = m.knee.refine
    if refined is None:
        return
    if m.collapsed and refined.not_refined:
        _print(f"  {mode}: knee not localised to {refined.resolution_or_default:.0%}: {refined.not_refined}")
    if refined.not_reproduced:
        _print(f"  {mode}: no knee: {refined.not_reproduced}")
    for transient in refined.transients or []:
        if not (refined.not_reproduced or "").startswith(transient):  # said just above
            _print(f"  {mode}: {transient}")


def _repeat_notes(agg: RepeatsRecord | None) -> None:
    for line in console_ratios.repeat_notes(agg):
        _print(line)


def _ratio_lines(summary: RunSummary, agg: RepeatsRecord | None) -> None:
    for line in console_ratios.ratio_lines(summary, agg):
        _print(line)


def _bracket(m: ModeRecord) -> str:
    interval = m.knee.interval_rps
    if m.knee.bound:
        return f"≥ {fmt(m.sustained_rps)} (bound)"
    if not m.collapsed or not interval:
        return "-"
    low, high = interval
    # a missing healthy side: the first level was already unhealthy
    between = f"{fmt(low)}–{fmt(high)}" if low is not None else f"below {fmt(high)}"
    return between + (" (coarse)" if not (m.knee.refine and m.knee.refine.localised) else "")


def collapsed_word(m: ModeRecord) -> str:
    """`yes`/`no`; a virtual-limited knee made of its own 503s is load shed by design (summary/judge/shedding.py)."""
    if m.shed_load:
        return "shed load"
    return "yes" if m.collapsed else "no"
