"""`make compare RUN=<a> AGAINST=<b>`: one self-contained page setting two runs side by side (each run's verdict,
knees and predictions, what differs in their parameters, and each mode's spectra at the rates both runs measured),
written as `<RUN>/compare-<AGAINST's folder name>.html` (the folder's, not the run id: a copied folder keeps its id)."""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from urllib.parse import quote

from loadlab.report import prediction_cells
from loadlab.report.comparability import Side, check
from loadlab.report.formats import bracket_text, rps, times
from loadlab.report.headline import headline
from loadlab.report.page_style import CSS
from loadlab.report.spectrum_section import Place, blocks
from loadlab.summary.outputs import write_text
from loadlab.summary.records import ModeRecord

# What a run records beside its parameters that can explain a difference between two runs.
CONTEXT = ("target", "machine", "scenario")


def write(run: Side, against: Side) -> Path:
    """Checks the two runs (comparability.check refuses what cannot be compared) and writes the page."""
    rates = check(run, against)
    path = run.folder / f"compare-{against.folder.name}.html"
    write_text(path, document(run, against, rates, path.parent))
    return path


def document(run: Side, against: Side, rates: dict[str, dict[float, list[Place]]], home: Path) -> str:
    title = f"{run.run_id} against {against.run_id}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>loadlab compare: {escape(title)}</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<h1>Run against run <small>RUN {escape(run.run_id)} against AGAINST {escape(against.run_id)}</small></h1>",
        f'<p class="headline" id="headline">{escape(sentence(run, against))}</p>',
        verdicts(run, against, home),
        differences(run, against),
        '<section id="spectra"><h2>The whole spectrum at the rates both runs measured</h2>',
        *(
            f"<h3>{escape(mode)}</h3>" + blocks(by_rate, "both runs", f"compare-{mode}")
            for mode, by_rate in rates.items()
        ),
        "</section></main></body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def sentence(run: Side, against: Side) -> str:
    """Each mode's sustained rate in both runs, and how far apart they are."""
    phrases = []
    for mode, result in run.summary.modes.items():
        other = against.summary.modes.get(mode) or ModeRecord()
        a, b = result.sustained_rps, other.sustained_rps
        if a is None or b is None:
            continue
        change = f" ({times(a / b)} of AGAINST)" if b else ""
        phrases.append(f"{mode} sustained {rps(a)} rps in RUN and {rps(b)} rps in AGAINST{change}")
    return "; ".join(phrases) or "neither run names a sustained rate"


def verdicts(run: Side, against: Side, home: Path) -> str:
    modes = list(run.summary.modes)
    head = "".join(
        f'<th><a href="{quote(_relative(s.folder / "index.html", home))}">{escape(s.name)}: {escape(s.run_id)}</a></th>'
        for s in (run, against)
    )
    rows = [("verdict", lambda s: escape(headline(s.summary)))]
    for mode in modes:
        rows += [
            (f"{mode}: sustained", lambda s, m=mode: f"{rps(_mode(s, m).sustained_rps)} rps"),
            (f"{mode}: knee between", lambda s, m=mode: bracket_text(_mode(s, m).knee_interval_rps)),
            (f"{mode}: prediction", lambda s, m=mode: prediction_cells.predicted_cell(_mode(s, m))),
            (f"{mode}: knee meets it", lambda s, m=mode: prediction_cells.agreement_cell(_mode(s, m))),
        ]
    rows.append(("virtual over platform", lambda s: times(s.summary.virtual_over_platform)))
    body = "".join(
        f'<tr><th class="text">{escape(label)}</th>' + "".join(f"<td>{cell(s)}</td>" for s in (run, against)) + "</tr>"
        for label, cell in rows
    )
    table = f'<table class="columns"><tr><th></th>{head}</tr>{body}</table>'
    return f'<section id="verdicts"><h2>Verdicts</h2>{table}</section>'


def differences(run: Side, against: Side) -> str:
    """Every parameter (and target, machine, scenario) whose value differs; the rest were the same."""
    a, b = run.summary.params or {}, against.summary.params or {}
    rows = [(name, a.get(name), b.get(name)) for name in sorted(set(a) | set(b)) if a.get(name) != b.get(name)]
    rows += [(name, getattr(run.summary, name), getattr(against.summary, name)) for name in CONTEXT]
    rows = [r for r in rows if r[1] != r[2]]
    if not rows:
        same = "<p>Every parameter and the machine were the same.</p>"
        return f'<section id="differences"><h2>What differs</h2>{same}</section>'
    body = "".join(
        f'<tr><th class="text">{escape(name)}</th><td class="text">{escape(_shown(x))}</td>'
        f'<td class="text">{escape(_shown(y))}</td></tr>'
        for name, x, y in rows
    )
    return (
        '<section id="differences"><h2>What differs</h2><table class="columns"><tr><th></th><th>RUN</th>'
        f"<th>AGAINST</th></tr>{body}</table></section>"
    )


def _mode(side: Side, mode: str) -> ModeRecord:
    return side.summary.modes.get(mode) or ModeRecord()


def _shown(value) -> str:
    if value is None or value == "":
        return "—"
    return " ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _relative(path: Path, home: Path) -> str:
    return Path(os.path.relpath(path, home)).as_posix()
