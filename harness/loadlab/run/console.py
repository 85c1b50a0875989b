"""What a person sees in the terminal: a few step lines, one live progress line per second, the final table.
Maven, Spring and Gatling output goes to the run's logs/ folder, never here."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

from loadlab.analysis import prediction_text, ratio_interval
from loadlab.core.app import service_label
from loadlab.core.reactive import REACTIVE

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
        if _ticking:
            sys.stdout.write("\r\033[K")
            _ticking = False
        print(line, flush=True)


def follow_progress(
    proc: subprocess.Popen, mode: str, ended: threading.Event | None = None, ready: threading.Event | None = None
) -> None:
    """Shows one injector's progress: the simulation prints `LOADLAB ` lines; per-second ones carry `phase=`,
    level verdicts, the early stop and the end are kept on screen. `ready` is set once its JVM waits for the go
    (GoSignal.java; not shown), `ended` once the injector printed its end."""
    _followers.append(proc)
    for line in proc.stdout:
        m = PROGRESS.match(line.rstrip())
        if not m:
            continue
        text = f"   [{mode}] {m.group(1)}"
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


_followers: list[subprocess.Popen] = []


def end_progress() -> None:
    for p in _followers:
        p.terminate()
    _followers.clear()


def table(summary: dict, run_dir: Path) -> None:
    """The short verdict: one row per mode, with the bracket of its knee and the prediction it was checked against;
    then each mode's notes, the repetitions' spread, the ratios and what is missing."""
    rows = _rows(summary.get("modes", {}))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    _print("")
    params = summary.get("params") or {}
    if params.get("APP"):
        _print(f"app: {service_label(params)} at {params.get('APP_PATH') or '/'}")
    elif summary.get("scenario"):
        _print(f"scenario: {summary['scenario']}")
    for r in rows:
        _print("  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1])
    for mode, m in summary.get("modes", {}).items():
        _mode_notes(mode, m)
    _brownout_lines(summary)
    agg = summary.get("repeats") or {}
    _repeat_notes(agg)
    _ratio_lines(summary, agg)
    for mode in summary.get("missing_modes", []):
        _print(f"missing: {mode} (not run to the end)")
    _print(f"\nreport: {run_dir / 'index.html'}")


def _brownout_lines(summary: dict) -> None:
    """PROFILE=brownout: each mode's figures through it beside the predictions (report/brownout_words.py)."""
    from loadlab.report import brownout_words  # here: the console is imported before the page's stage is needed
    from loadlab.summary.records import RunSummary

    modes = RunSummary.from_mapping({"modes": summary.get("modes") or {}}).modes
    table = brownout_words.rows(modes)
    if not table:
        return
    _print("\n" + brownout_words.headline(modes))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]) - 1)]
    for r in table:
        _print("  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1])
    for note in brownout_words.notes(modes):
        _print(f"  {note}")


def _rows(modes: dict) -> list[tuple[str, ...]]:
    rows = [
        ("mode", "sustained rps", "knee between", "predicted rps", "agrees", "p99 at sustained", "collapsed", "verdict")
    ]
    for mode, m in modes.items():
        verdict = "valid" if m.get("valid") else "INVALID: " + "; ".join(m.get("invalid_reasons", []))
        if m.get("crashed"):
            verdict = "CRASHED, " + verdict
        predicted = prediction_text.predicted(m)
        agrees = prediction_text.verdict_word(m)
        rows.append(
            (
                mode,
                _fmt(m.get("sustained_rps")),
                _bracket(m),
                predicted,
                agrees,
                _fmt(m.get("p99_ms_at_sustained"), " ms"),
                "yes" if m.get("collapsed") else "no",
                verdict,
            )
        )
    return rows


def _mode_notes(mode: str, m: dict) -> None:
    """Under the table: the prediction with its interval and fit, how the knee compares with it, and why a knee was
    not localised."""
    for line in prediction_text.lines(mode, m):
        _print(f"  {line}")
    if m.get("prediction_agrees") is False and m.get("evidence_at_knee"):
        _print(f"  {mode}: the first unhealthy level, {m['evidence_at_knee']}")
    for gap in m.get("evidence_gaps") or []:
        where = "" if gap["pass"] == "coarse" else f"{gap['pass']}'s "
        _print(
            f"  {mode}: NO SERVER EVIDENCE for {where}measured seconds {gap['first_second']}–{gap['last_second']}"
            f" ({gap['role']}'s sampler {gap['cause']})"
        )
    for entry in m.get("set_aside_levels") or []:
        where = f"level {entry['level']}" if entry["pass"] == "coarse" else f"{entry['pass']}'s level {entry['level']}"
        rate = _fmt(entry["target_rps"])
        _print(f"  {mode}: SET ASIDE {where} ({rate} rps), its instrument saturated: {entry['reason']}")
    if m.get("knee_bound"):
        _print(f"  {mode}: a lower bound, no knee: {m['knee_bound']}")
    refined = m.get("refine") or {}
    if m.get("collapsed") and refined.get("not_refined"):
        _print(f"  {mode}: knee not localised to {refined.get('resolution', 0.05):.0%}: {refined['not_refined']}")
    if refined.get("not_reproduced"):
        _print(f"  {mode}: no knee: {refined['not_reproduced']}")
    for transient in refined.get("transients") or []:
        if not (refined.get("not_reproduced") or "").startswith(transient):  # said just above
            _print(f"  {mode}: {transient}")


def _repeat_notes(agg: dict) -> None:
    for mode, s in (agg.get("modes") or {}).items():
        # the table shows the median repetition; a run fails when ANY repetition is invalid (bench.judge): name it
        for rep in s.get("repetitions") or []:
            if not rep.get("valid"):
                why = "; ".join(rep.get("invalid_reasons") or []) or "not valid"
                _print(f"  {mode}: repetition {rep['repetition']} INVALID (rep-{rep['repetition']}/{mode}): {why}")
        if s.get("median") is None:
            _print(f"  {mode}: no valid repetition")
            continue
        # no spread of a median of 0 (no repetition had a healthy level): the range says it
        spread = "" if s.get("spread_ratio") is None else f", spread {s['spread_ratio']:.0%}"
        _print(
            f"  {mode}: median {_fmt(s['median'])} rps of {s['repetitions_used']} repetitions "
            f"({_fmt(s['min'])}–{_fmt(s['max'])}{spread})"
            + (" — NOISE: above 10% of the median" if s.get("noise") else "")
        )


def _ratio_lines(summary: dict, agg: dict) -> None:
    intervals = summary.get("ratios_intervals") or {}
    for jdk, r in (summary.get("ratios") or {}).items():
        if r:
            _print(f"JDK {jdk}: virtual / platform sustained throughput: {ratio_interval.text(r, intervals.get(jdk))}")
            _rough_line(intervals.get(jdk))
    ratio = summary.get("virtual_over_platform")
    if ratio:
        span = summary.get("virtual_over_platform_interval")
        kind = summary.get("virtual_over_platform_bound")
        extra = ""
        if kind:
            held = summary["modes"].get("virtual" if kind == "lower" else summary.get("virtual_over_platform_basis"))
            extra += f" ({prediction_text.bound_words(kind, held)})"
        spread = agg.get("ratio") or {}
        if spread.get("median") is not None:
            extra += (
                f"; across {agg.get('n')} repetitions {spread['min']:.2f}–{spread['max']:.2f}× "
                f"(median {spread['median']:.2f}×{_bounds_among(spread)})"
            )
        _print(f"virtual / platform sustained throughput: {ratio_interval.text(ratio, span, kind)}{extra}")
        _rough_line(span)
    elif len(summary.get("modes", {})) > 1 and summary.get("virtual_over_platform_reason"):
        _print(f"no virtual / platform ratio: {summary['virtual_over_platform_reason']}")
    if "virtual_over_reactive" in summary:  # MODES named reactive
        _print(_reactive_ratio_line(summary))
        if summary["virtual_over_reactive"]:
            _rough_line(summary.get("virtual_over_reactive_interval"))


def _bounds_among(spread: dict) -> str:
    """`; 2 of them lower bounds`: repetitions whose ratio is a bound, so the spread is not all measures."""
    kinds = list((spread.get("bounds") or {}).values())
    if not kinds:
        return ""
    said = " or ".join(sorted(set(kinds)))
    return f"; {len(kinds)} of them {said} bound{'s' if len(kinds) > 1 else ''}"


def _rough_line(span) -> None:
    words = ratio_interval.rough(span)
    if words:
        _print(f"  {words}")


def _reactive_ratio_line(summary: dict) -> str:
    reactive = summary["virtual_over_reactive"]
    if not reactive:
        return f"no virtual / reactive ratio: {summary.get('virtual_over_reactive_reason')}"
    kind = summary.get("virtual_over_reactive_bound")
    figure = ratio_interval.text(reactive, summary.get("virtual_over_reactive_interval"), kind)
    if not kind:
        return f"virtual / reactive sustained throughput: {figure}"
    held = summary["modes"].get("virtual" if kind == "lower" else REACTIVE)
    words = prediction_text.bound_words(kind, held, REACTIVE)
    return f"virtual / reactive sustained throughput: {figure} ({words})"


def _bracket(m: dict) -> str:
    interval = m.get("knee_interval_rps")
    if m.get("knee_bound"):
        return f"≥ {_fmt(m.get('sustained_rps'))} (bound)"
    if not m.get("collapsed") or not interval:
        return "-"
    low, high = interval
    # a missing healthy side: the first level was already unhealthy
    between = f"{_fmt(low)}–{_fmt(high)}" if low is not None else f"below {_fmt(high)}"
    return between + (" (coarse)" if not (m.get("refine") or {}).get("localised") else "")


def _fmt(value, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        value = round(value)
    return f"{value}{unit}"
