"""The page's "Where the time went": each mode's wait profile level by level (charts/wait_charts.py), the sentence
that names where its requests waited at the knee (`waits_at_knee`), and every level the profile could not place,
in words. A run with no profile at all gets one sentence saying why, and no figure."""

from __future__ import annotations

from html import escape

from loadlab.analysis.knee_words import rate_words
from loadlab.report.charts import wait_charts
from loadlab.summary.schema.level_records import LevelRecord
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

TITLE = "Where the time went"
# How summary/reading/waits.read says a mode has no profile at all (its file missing or unreadable); the item of
# `missing` that starts so is the reason. at_knee's "no wait profile at <rate>" is about one level, hence the colon.
NO_PROFILE = "no wait profile: "
# wait_knee.at_knee's words for a level of a profiled mode that has none.
NO_DUMP = "no thread dump fell in the level's seconds"
# A summary without a profile and without a reason: written before the wait agent existed, or with it switched off.
NOT_RECORDED = (
    "summary.json holds no profile and no reason (a run from before the wait agent, or LOADLAB_WAIT_PROFILE=off)"
)
CAPTION = (
    "Each bar is one level of the coarse pass: the requests in flight at the service on average, placed by where the "
    "wait agent's thread dumps found them (Little's law at each site) and stacked as the legend lists them; every "
    "mode on the same axes. The dashed line is the knee, the first unhealthy level."
)

SET_ASIDE = "Hatched: a level set aside, its instrument saturated; the knee is not placed on it."


def section(summary: RunSummary) -> str:
    modes = summary.modes
    if not modes:
        return ""
    head = f'<section id="waits"><h2>{escape(TITLE)}</h2>'
    if not any(wait_charts.profiled(lv) for m in modes.values() for lv in m.levels or []):
        return f'{head}<p class="muted" id="waits-none">{escape(no_profile_sentence(modes))}</p></section>'
    caption = f"{CAPTION} {absent_sentence(modes)}"
    if any(lv.set_aside and wait_charts.profiled(lv) for m in modes.values() for lv in m.levels or []):
        caption += f" {SET_ASIDE}"
    knees = "".join(
        f'<p class="waits-knee" data-mode="{escape(mode)}">{escape(knee_sentence(mode, m))}</p>'
        for mode, m in modes.items()
    )
    return (
        f'{head}<figure class="chart" data-chart="{wait_charts.NAME}">{wait_charts.chart(modes)}'
        f"<figcaption>{escape(caption)}</figcaption></figure>{knees}</section>"
    )


def knee_sentence(mode: str, m: ModeRecord) -> str:
    if m.limit.waits_at_knee:
        return f"{mode} at its knee: {m.limit.waits_at_knee}."
    # summary/judge/wait_knee.at_knee writes none for a mode that did not collapse: there is no knee to explain.
    return f"{mode}: no knee was placed, so there is none to explain."


def mode_reason(m: ModeRecord) -> str | None:
    """Why the mode has no profile at all, in summary/reading/waits.read's words without their lead, when the summary
    says."""
    for text in [*(m.missing or []), m.limit.waits_at_knee]:
        if text and text.startswith(NO_PROFILE):
            return text[len(NO_PROFILE) :]
    return None


def level_reason(m: ModeRecord, level: LevelRecord) -> str:
    """Why a level has no bar: its own `too_few`, the mode's missing file, or no dump in its seconds."""
    if level.waits is not None:
        return level.waits.too_few or "the profile placed no request"
    if any(lv.waits is not None for lv in m.levels or []):
        return NO_DUMP  # the agent's file was read: this level's seconds simply had no sample
    return mode_reason(m) or NOT_RECORDED


def absent_sentence(modes: dict[str, ModeRecord]) -> str:
    """The levels drawn without a bar, grouped by mode and reason, so a gap is never read as zero requests."""
    said = []
    for mode, m in modes.items():
        levels = [(lv, lv.target_rps) for lv in m.levels or [] if lv.target_rps is not None]
        groups: dict[str, list[float]] = {}
        for lv, rate in levels:
            if not wait_charts.profiled(lv):
                groups.setdefault(level_reason(m, lv), []).append(rate)
        for reason, rates in groups.items():
            where = "every level" if len(rates) == len(levels) else "at " + _rates(rates)
            said.append(f"{mode} {where} ({reason})")
    if not said:
        return "Every level has a profile."
    mark = wait_charts.NO_PROFILE_MARK
    return f'No bar where a level has no profile ("{mark}" is written where it would stand): {"; ".join(said)}.'


def no_profile_sentence(modes: dict[str, ModeRecord]) -> str:
    """One sentence: the run has no profile, and each mode's reason as its summary gives it."""
    reasons = [f"{mode}: {_whole_mode_reason(m)}" for mode, m in modes.items()]
    return f"This run has no wait profile — {'; '.join(reasons)}."


def _whole_mode_reason(m: ModeRecord) -> str:
    """The mode's `missing` item, else its `waits_at_knee`, else what its first level says."""
    found = mode_reason(m) or m.limit.waits_at_knee
    if found:
        return found
    levels = m.levels or []
    return level_reason(m, levels[0]) if levels else "no level was measured"


def _rates(rates: list[float]) -> str:
    words = [rate_words(r) for r in rates]
    listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
    return f"{listed} rps"
