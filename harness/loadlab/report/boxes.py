"""The boxes above the verdict: a test's fault injection, what is missing, why the run is invalid, notes."""

from __future__ import annotations

from html import escape

from loadlab.summary.verdicts.records import RunSummary


def test_fault(summary: RunSummary) -> str:
    fault = summary.test_fault
    if not fault:
        return ""
    return (
        '<div class="box invalid" id="test-fault"><h3>A test starved this run on purpose</h3>'
        f"<p><code>LOADLAB_FAULT_CPU_QUOTA={escape(str(fault))}</code> capped these processes' CPU to check "
        "that the verdict catches it; its numbers say nothing about the thread modes.</p></div>"
    )


def missing(summary: RunSummary) -> str:
    items = [f"<li>run: {escape(x)}</li>" for x in summary.missing or []]
    items += [
        f"<li><b>{escape(m)}</b>: not measured in this run (no load data), so it has no numbers below</li>"
        for m in summary.missing_modes or []
    ]
    for mode, m in summary.modes.items():
        items += [f"<li>{escape(mode)}: {escape(_missing_text(x))}</li>" for x in m.missing or []]
    for mode, problems in (summary.problems or {}).items():
        items += [f"<li>{escape(mode)}: {escape(p)}</li>" for p in problems]
    if not items:
        return ""
    return (
        '<div class="box missing" id="missing"><h3>Missing</h3>'
        "<p>This run folder is incomplete; everything else on this page comes from what is there.</p>"
        f"<ul>{''.join(items)}</ul></div>"
    )


# What the page can no longer say when a raw file is absent (summary.json lists the bare paths).
MISSING_MEANS = {
    "seconds.csv": "no per-second counts from this injector",
    "latency.hlog": "no latencies from this injector",
    "meta.json": "no schedule: levels were read from seconds.csv",
    "thread/samples.csv": "no thread-service CPU",
    "thread/jvm.csv": "no JVM threads, heap or GC, and no downstream times",
    "delay/samples.csv": "no delay-service CPU or latency, so the delay-service was not judged",
    "samples.csv": "no CPU of this injector, so its saturation was not judged",
}


def _missing_text(entry: str) -> str:
    if " " in entry:  # already a sentence
        return entry
    why = next((text for end, text in MISSING_MEANS.items() if entry.endswith(end)), "")
    return f"{entry} is missing" + (f": {why}" if why else "")


def invalid(summary: RunSummary) -> str:
    entries = {mode: m.validity.invalid_reasons or [] for mode, m in summary.modes.items()}
    return _per_mode_box(entries, "invalid", "invalid", "Why this run cannot be trusted")


def notes(summary: RunSummary) -> str:
    return _per_mode_box({mode: m.validity.notes or [] for mode, m in summary.modes.items()}, "note", "notes", "Note")


def _per_mode_box(entries: dict[str, list[str]], kind: str, box_id: str, title: str) -> str:
    """A box listing each mode's entries, the mode in bold; nothing when none has any."""
    items = [f"<li><b>{escape(mode)}</b>: {escape(entry)}</li>" for mode, listed in entries.items() for entry in listed]
    if not items:
        return ""
    return f'<div class="box {kind}" id="{box_id}"><h3>{title}</h3><ul>{"".join(items)}</ul></div>'
