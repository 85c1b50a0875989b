"""What a person sees in the terminal: a few step lines, one live progress line per second, the final table.
Maven, Spring and Gatling output goes to the run's logs/ folder, never here."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

_lock = threading.Lock()
_tty = sys.stdout.isatty()
PROGRESS = re.compile(r"^LOADLAB (.*)$")


def heading(mode: str) -> None:
    _print(f"\n== {mode} threads ==")


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
        if _ticking:
            sys.stdout.write("\r\033[K")
            _ticking = False
        print(line, flush=True)


def follow_progress(proc: subprocess.Popen, mode: str) -> None:
    """Shows one injector's progress: the simulation prints `LOADLAB ` lines; per-second ones carry `phase=`,
    level verdicts, the early stop and the end are kept on screen."""
    _followers.append(proc)
    for line in proc.stdout:
        m = PROGRESS.match(line.rstrip())
        if not m:
            continue
        text = f"   [{mode}] {m.group(1)}"
        if " phase=" in text:
            _tick(text)
        else:
            _print(text)
        if " done " in text:
            break


_followers: list[subprocess.Popen] = []


def end_progress() -> None:
    for p in _followers:
        p.terminate()
    _followers.clear()


def table(summary: dict, run_dir: Path) -> None:
    """The short verdict: one row per mode."""
    rows = [("mode", "sustained rps", "predicted rps", "p99 at sustained", "collapsed", "verdict")]
    for mode, m in summary.get("modes", {}).items():
        verdict = "valid" if m.get("valid") else "INVALID: " + "; ".join(m.get("invalid_reasons", []))
        if m.get("crashed"):
            verdict = "CRASHED, " + verdict
        predicted = _fmt(m.get("predicted_rps")) + (f" ({m['predicted_by']})" if m.get("predicted_by") else "")
        rows.append(
            (
                mode,
                _fmt(m.get("sustained_rps")),
                predicted,
                _fmt(m.get("p99_ms_at_sustained"), " ms"),
                "yes" if m.get("collapsed") else "no",
                verdict,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    _print("")
    if summary.get("scenario"):
        _print(f"scenario: {summary['scenario']}")
    for r in rows:
        _print("  ".join(c.ljust(w) for c, w in zip(r[:5], widths)) + "  " + r[5])
    for mode, m in summary.get("modes", {}).items():
        if m.get("prediction"):
            agrees = {True: "knee agrees", False: "knee does NOT agree"}.get(m.get("prediction_agrees"), "not judged")
            _print(f"  {mode}: {m['prediction']} — {agrees} (±15%)")
    for jdk, r in (summary.get("ratios") or {}).items():
        if r:
            _print(f"JDK {jdk}: virtual / platform sustained throughput: {r:.2f}x")
    ratio = summary.get("virtual_over_platform")
    if ratio:
        _print(f"virtual / platform sustained throughput: {ratio:.2f}x")
    elif len(summary.get("modes", {})) > 1 and summary.get("virtual_over_platform_reason"):
        _print(f"no virtual / platform ratio: {summary['virtual_over_platform_reason']}")
    for mode in summary.get("missing_modes", []):
        _print(f"missing: {mode} (not run to the end)")
    _print(f"\nreport: {run_dir / 'index.html'}")


def _fmt(value, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        value = round(value)
    return f"{value}{unit}"
