"""The page's first line: each mode's result, the ratio, and whether the run can be trusted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from loadlab.analysis import ratio_interval
from loadlab.core import app, scenario_mix
from loadlab.core.modelabel import ModeLabel
from loadlab.report import brownout_words, prediction_cells
from loadlab.report.formats import num, rps
from loadlab.summary.judge import crash
from loadlab.summary.schema.detail_records import CrashRecord
from loadlab.summary.verdicts.prediction_text import bound_words
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

Span = Sequence[float | None]  # a ratio's interval: [low, high], an end None where it has no bound

# Scenarios where the models give both thread modes the same limit: the page says so before anyone reads a ratio.
NOT_EXPECTED_TO_WIN = {
    "db": "virtual threads were not expected to win: both modes wait for the same DB_POOL connections",
    "cpu": "virtual threads were not expected to win: both modes share the same cores",
}
# A SCENARIO mix, by the limit its prediction names in every mode.
MIX_NOT_EXPECTED = {
    "pool": "virtual threads were not expected to win: the mix's db kind waits for the same DB_POOL connections in "
    "every mode",
    "cpu": "virtual threads were not expected to win: the mix's lowest limit is the cores every mode shares",
}


def scenario_of(summary: RunSummary) -> str:
    """summary.json always names it (upgrade.py gives old runs theirs); a page drawn from nothing says http."""
    return str(summary.scenario or "http")


def subject(summary: RunSummary) -> str:
    """What was measured: `http scenario`, or an app at its path (it runs none of the thread-service's scenarios)."""
    params = summary.params
    if params.app:
        return f"{app.service_label(params)} {app.what_is_sent(params)}"
    return f"{scenario_of(summary)} scenario"


def headline(summary: RunSummary) -> str:
    modes = summary.modes
    scenario = scenario_of(summary)
    phrases = [_mode_phrase(summary, mode, modes.get(mode)) for mode in mode_names(summary)]
    text = f"{subject(summary)}: " + (", ".join(phrases) or "no mode was measured")
    if scenario in NOT_EXPECTED_TO_WIN:
        text += f"; {NOT_EXPECTED_TO_WIN[scenario]}"
    shared = {m.predicted.predicted_by or "" for m in modes.values()}
    if scenario_mix.is_mix(scenario) and len(modes) > 1 and len(shared) == 1 and shared <= set(MIX_NOT_EXPECTED):
        # A mix whose lowest limit is, in every mode, one the modes share: its db kind's pool or the cores.
        text += f"; {MIX_NOT_EXPECTED[shared.pop()]}"
    if summary.virtual_over_platform is None and summary.virtual_over_platform_reason and len(modes) > 1:
        # The reason's first clause only ("platform crashed"): its details follow in the invalid reasons.
        text += f"; no virtual/platform ratio ({summary.virtual_over_platform_reason.split(':')[0]})"
    if "virtual_over_reactive" not in summary.absent:  # MODES named reactive
        reactive, span = summary.virtual_over_reactive, summary.virtual_over_reactive_interval
        reason = str(summary.virtual_over_reactive_reason or "").split(":")[0]
        kind = ratio_interval.bound_of(span) or summary.virtual_over_reactive_bound
        bound = f" ({kind} bound)" if kind else ""
        if reactive:
            text += f"; virtual/reactive {ratio_interval.text(reactive, span, kind)}{bound}"
            text += _rough(span)
        else:
            text += f"; no virtual/reactive ratio ({reason})"
    reasons = [f"{mode}: {r}" for mode, m in modes.items() for r in m.validity.invalid_reasons or []]
    missing = summary.missing_modes or []
    if reasons:
        text += " — invalid because " + "; ".join(reasons)
    elif missing or not modes:
        text += " — incomplete: " + (", ".join(missing) + " missing" if missing else "nothing measured")
    else:
        text += " — valid: no injector or delay-service saturation, every level sent on time"
    limited = [mode for mode, m in modes.items() if m.brownout is None and _cpu_notes(m)]
    if limited:
        text += f"; at {' and '.join(limited)}'s knee this machine ran out of CPU (see the note)"
    return text


def _cpu_notes(m: ModeRecord) -> list[str]:
    """A mode's notes that say the CPU ran out at its knee: all of them but an app's sentence for a limit no model
    explains (an app whose CPU had room was said to have run out of it)."""
    if not m.collapsed:
        return []  # its unhealthy level did not reproduce: no knee (a note may still describe that level)
    unexplained = m.app_evidence.unexplained_limit if m.app_evidence else None
    return [n for n in m.validity.notes or [] if n != unexplained]


def crash_when(crashed: CrashRecord) -> str:
    """`the thread-service died at second 23 of the measured phase (SIGKILL)`: what died and when, in a line."""
    how = crashed.signal or (f"exit {crashed.exit}" if crashed.exit is not None else "")
    return f"the {crashed.role} on {crashed.host} died {crash.when(crashed)}" + (f" ({how})" if how else "")


def _ratio_for(summary: RunSummary, label: ModeLabel) -> tuple[float | None, Span | None, str | None]:
    """virtual over platform on the same JDK, with its interval and bound: `virtual` uses the headline ratio,
    `virtual-jdk21` its JDK's."""
    if label.mode != "virtual":
        return None, None, None
    if label.jdk is None:
        span = summary.virtual_over_platform_interval
        return summary.virtual_over_platform, span, ratio_interval.bound_of(span) or summary.virtual_over_platform_bound
    span = (summary.ratios_intervals or {}).get(str(label.jdk))
    return (summary.ratios or {}).get(str(label.jdk)), span, ratio_interval.bound_of(span)


def _rough(span: Span | None, said_above: bool = False) -> str:
    """`, rough: …` after a ratio too wide to tell (ratio_interval.ROUGH_FACTOR), with what to do about it unless the
    page's first sentence already says it (said_above: the headline ratio)."""
    words = ratio_interval.rough(span, short=said_above)
    return f", {words}" if words else ""


def _divisor(summary: RunSummary, label: ModeLabel) -> str:
    """What a virtual column's ratio divides by: its platform column, or with a pool sweep the best pool (ratio.py)."""
    if not summary.ratios_by_pool:
        return str(replace(label, mode="platform"))
    basis = summary.virtual_over_platform_basis
    if basis and ModeLabel.parse(basis).jdk == label.jdk:
        return f"{basis} (the best pool)"
    return "the best platform pool on its JDK"


def verdict_class(summary: RunSummary) -> str:
    modes = summary.modes
    if modes and all(m.validity.valid for m in modes.values()) and not summary.missing_modes:
        return "valid"
    return "invalid"


def mode_names(summary: RunSummary) -> list[str]:
    modes = list(summary.modes)
    return modes + [m for m in summary.missing_modes or [] if m not in modes]


def _crash_first(mode: str, m: ModeRecord, phrase: str) -> str:
    """A crashed mode is said as one before anything it measured."""
    return f"{mode} CRASHED: {crash_when(m.crashed)}; before it, {phrase}" if m.crashed else phrase


def _mode_phrase(summary: RunSummary, mode: str, m: ModeRecord | None) -> str:
    """One mode's clause of the headline."""
    if m is None:
        return f"{mode} was not measured"
    if m.brownout is not None:  # one rate held: no knee, no sustained rate
        return _crash_first(mode, m, f"{mode}: {brownout_words.mode_phrase(m.brownout)}")
    phrase = f"{mode} sustained {rps(m.sustained_rps)} rps"
    label = ModeLabel.parse(mode)
    ratio, span, kind = _ratio_for(summary, label)
    if ratio is not None:
        phrase += f" = {ratio_interval.text(ratio, span, kind)} {_divisor(summary, label)}" + (
            f" ({bound_words(kind).split(':')[0]})" if kind else ""
        )
        phrase += _rough(span, said_above=label.jdk is None)
    interval = m.knee.interval_rps
    if m.collapsed and interval and interval[0]:
        phrase += f", knee between {rps(interval[0])} and {rps(interval[1])}"
    spread = summary.spread_of(mode)
    if spread and spread.median is not None:
        phrase += (
            f" (median of {spread.repetitions_used} repetitions, {rps(spread.min)}–"
            f"{rps(spread.max)}{'; noisy' if spread.noise else ''})"
        )
    if m.crashed:
        phrase = _crash_first(mode, m, phrase)
    elif m.knee.bound:
        phrase += " (a lower bound: the highest rate held on levels that can be trusted; those above were set aside)"
    elif m.knee.refine and m.knee.refine.not_reproduced:
        phrase += " (the highest rate measured healthy: its coarse unhealthy level did not reproduce, no knee)"
    elif not m.collapsed and m.levels:
        phrase += " (the peak; it never collapsed)"
    phrase += prediction_cells.headline_phrase(m)
    if m.jvm.pinned_virtual_threads:
        phrase += f" with {num(m.jvm.pinned_virtual_threads)} pinned virtual threads"

    return phrase
