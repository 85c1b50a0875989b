"""`make compare RUN=<a> AGAINST=<b>`: one self-contained page setting two runs side by side (did it move? each
figure they share with its change and 95% interval; each run's verdict, knees and predictions; what differs in their
parameters; each shared mode's spectra at the rates both runs measured), written as
`<RUN>/compare-<AGAINST's folder name>.html` (the folder's, not the run id: a copied folder keeps its id)."""

from __future__ import annotations

import os
from collections.abc import Callable
from html import escape
from pathlib import Path
from urllib.parse import quote

from loadlab.analysis import ratio_interval
from loadlab.report import prediction_cells
from loadlab.report.changes import Row, capacity_text, change_text, headline_rows
from loadlab.report.comparability import Shared, Side
from loadlab.report.formats import bracket_text, small
from loadlab.report.headline import headline
from loadlab.report.page_style import CSS
from loadlab.report.spectrum_section import blocks
from loadlab.summary.verdicts.records import ModeRecord
from loadlab.summary.writing.outputs import write_text

# What a run records beside its parameters that can explain a difference between two runs.
CONTEXT = ("target", "machine", "scenario")
# A row of the verdicts table: its label, and its cell from one run.
VerdictRow = tuple[str, Callable[[Side], str]]


def write(run: Side, against: Side, shared: Shared, found: list[Row]) -> Path:
    """Writes the page of two checked runs (comparability.check) and their changes (changes.rows)."""
    path = run.folder / f"compare-{against.folder.name}.html"
    write_text(path, document(run, against, shared, found, path.parent))
    return path


def document(run: Side, against: Side, shared: Shared, found: list[Row], home: Path) -> str:
    title = f"{run.run_id} against {against.run_id}"
    spectra = {mode: by_rate for mode, by_rate in shared.rates.items() if by_rate}
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>loadlab compare: {escape(title)}</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<h1>Run against run <small>RUN {escape(run.run_id)} against AGAINST {escape(against.run_id)}</small></h1>",
        f'<p class="headline" id="headline">{escape(sentence(shared, found))}</p>',
        moved(shared, found),
        verdicts(run, against, home),
        differences(run, against),
        '<section id="spectra"><h2>The whole spectrum at the rates both runs measured</h2>',
        *(f"<h3>{escape(m)}</h3>" + blocks(rates, "both runs", f"compare-{m}") for m, rates in spectra.items()),
        "" if spectra else "<p>The two runs' stairs share no offered rate: no latency at equal load.</p>",
        "</section></main></body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def sentence(shared: Shared, found: list[Row]) -> str:
    """Each shared mode's sustained rate in both runs and how far it moved; the modes set aside."""
    phrases = [
        f"{r.mode} sustained {r.run_text} in RUN and {r.against_text} in AGAINST: {change_text(r.change)}"
        for r in found
        if r.figure == "sustained"
    ]
    phrases += [f"{mode} not compared ({why})" for mode, why in shared.aside.items()]
    return "; ".join(phrases)


def moved(shared: Shared, found: list[Row]) -> str:
    """Every figure both runs have, RUN's change against AGAINST with its 95% interval and what it stands on."""
    first = set(map(id, headline_rows(found, shared)))
    muted = ' class="muted"'
    body = "".join(
        f'<tr{"" if id(r) in first else muted}><th class="text">{escape(r.name)}</th>'
        f"<td>{escape(r.run_text)}</td><td>{escape(r.against_text)}</td>"
        f'<td class="text">{escape(change_text(r.change))}</td><td class="text">{escape(r.change.basis)}</td></tr>'
        for r in found
    )
    aside = "".join(f"<li>{escape(mode)}: {escape(why)}</li>" for mode, why in shared.aside.items())
    return (
        "<section id=\"moved\"><h2>Did it move?</h2><p>RUN's change in % of AGAINST's, with its 95% interval: the "
        "sustained rate and the knee from the knee brackets (and the repetitions when both runs repeated), each "
        "latency from the level's per-second values (a bootstrap of the ratio of medians, with a Mann-Whitney U rank "
        "test said beside it). One rule for every row, FAIL_IF's too: where the interval holds 0%, no change was "
        "detected, whatever the rank test alone would say (the row says when it would); a mode that held the top of "
        "its stairs gives a bound. Rows in grey: latencies at rates other than the highest both runs held.</p>"
        '<table class="columns"><tr><th>figure</th><th>RUN</th><th>AGAINST</th><th>change</th><th>from</th></tr>'
        f"{body}</table>" + (f"<p>Not compared:</p><ul>{aside}</ul>" if aside else "") + "</section>"
    )


def verdicts(run: Side, against: Side, home: Path) -> str:
    modes = list(dict.fromkeys([*run.summary.modes, *against.summary.modes]))
    head = "".join(
        f'<th><a href="{quote(_relative(s.folder / "index.html", home))}">{escape(s.name)}: {escape(s.run_id)}</a></th>'
        for s in (run, against)
    )
    rows: list[VerdictRow] = [("verdict", lambda s: escape(headline(s.summary)))]
    for mode in modes:
        rows += _mode_rows(mode)
    rows.append(("virtual over platform", _ratio))
    body = "".join(
        f'<tr><th class="text">{escape(label)}</th>' + "".join(f"<td>{cell(s)}</td>" for s in (run, against)) + "</tr>"
        for label, cell in rows
    )
    table = f'<table class="columns"><tr><th></th>{head}</tr>{body}</table>'
    return f'<section id="verdicts"><h2>Verdicts</h2>{table}</section>'


def _mode_rows(mode: str) -> list[VerdictRow]:
    return [
        (f"{mode}: sustained", lambda s: _sustained(s, mode)),
        (f"{mode}: knee between", lambda s: bracket_text(_mode(s, mode).knee.interval_rps)),
        (f"{mode}: prediction", lambda s: prediction_cells.predicted_cell(_mode(s, mode))),
        (f"{mode}: knee meets it", lambda s: prediction_cells.agreement_cell(_mode(s, mode))),
    ]


def differences(run: Side, against: Side) -> str:
    """Every parameter (and target, machine, scenario) whose value differs; the rest were the same."""
    a, b = run.summary.params.to_json(), against.summary.params.to_json()  # by the names the page shows
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


def _sustained(side: Side, mode: str) -> str:
    if mode not in side.summary.modes:
        return "not measured"
    return capacity_text(side.summary.modes[mode], "sustained")


def _ratio(side: Side) -> str:
    """With the interval its knees' brackets allow, as the run's own page says it (`2.12× (2.03–2.42)`); a bound
    stays a bound, by the end its brackets carry (`≥ 2.40×` where virtual held the top of the stairs)."""
    summary = side.summary
    if summary.virtual_over_platform is None:
        return "—"
    span = summary.virtual_over_platform_interval
    said = ratio_interval.text(summary.virtual_over_platform, span, summary.virtual_over_platform_bound)
    return escape(said) + small(ratio_interval.rough(span))


def _mode(side: Side, mode: str) -> ModeRecord:
    return side.summary.modes.get(mode) or ModeRecord.unknown()


def _shown(value: object) -> str:
    if value is None or value == "":
        return "—"
    return " ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _relative(path: Path, home: Path) -> str:
    return Path(os.path.relpath(path, home)).as_posix()
