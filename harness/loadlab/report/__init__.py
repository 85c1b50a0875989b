"""index.html: the comparison page, drawn from the run's records (summary/verdicts/records.py) and each mode's
server.csv.

`rebuild` is what `make bench` (at its end) and `make report` call: the summary writes the
numbers (summary.write), then each folder's page is drawn from them.

`page_charts` picks and draws the charts (`charts/`), `page` lays out the sections (one module each),
`page_style` and `formats` are how everything looks.
"""

from __future__ import annotations

import os
import sys
import traceback
from html import escape
from pathlib import Path
from urllib.parse import quote

from loadlab import summary as summaries
from loadlab.core.app import service_label
from loadlab.report import brownout_section, kind_spectra, over_time_figure, plan_section, spectrum_section
from loadlab.report.headline import headline
from loadlab.report.page import document
from loadlab.report.page_charts import figures
from loadlab.report.page_style import CSS
from loadlab.report.service_name import named_page
from loadlab.summary.verdicts import records
from loadlab.summary.verdicts.records import RunSummary
from loadlab.summary.writing.outputs import write_text


def rebuild(run_dir: str | os.PathLike[str]) -> RunSummary:
    """Every derived file of a run folder, pages included; returns the run's summary (what summary.json holds)."""
    written = summaries.write(run_dir)
    for folder, summary in written:
        _render_or_say_why(folder, summary)
    return written[-1][1]


def redraw(run_dir: str | os.PathLike[str]) -> Path:
    """The page again from the summary.json a run folder holds (`make plan` adds its section)."""
    return render(run_dir, records.read(Path(run_dir)))


def _render_or_say_why(folder: Path, summary: RunSummary) -> None:
    try:
        render(folder, summary)
    except Exception as e:  # noqa: BLE001 - summary.json is already written; say what broke instead of no page
        traceback.print_exc(file=sys.stderr)
        write_text(folder / "index.html", fallback_page(summary, f"{type(e).__name__}: {e}"))


def render(run_dir: str | os.PathLike[str], record: RunSummary) -> Path:
    """Writes run_dir/index.html and returns its path."""
    run_dir = Path(run_dir)
    modes = record.modes
    # With REPEAT > 1 each mode shown is one repetition's (`folder`: rep-<k>/<mode>).
    folders = {mode: (m.folder or mode) for mode, m in modes.items()}
    links = gatling_links(run_dir, list(modes) + list(record.missing_modes or []), folders)
    page = document(
        record,
        figures(run_dir, record, folders),
        links,
        over_time_figure.figure(run_dir, record, folders),
        spectrum_section.section(run_dir, record, folders) + kind_spectra.section(run_dir, record, folders),
        plan_section.read(run_dir),
        brownout_section.section(run_dir, record, folders),
    )
    html = named_page(page, service_label(record.params))
    path = run_dir / "index.html"
    write_text(path, html)
    return path


def fallback_page(summary: RunSummary, error: str) -> str:
    """A page that still gives the verdict when the charts could not be drawn."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>loadlab run</title>'
        f"<style>{CSS}</style></head><body><main><h1>Platform vs virtual threads</h1>"
        f'<p class="headline invalid" id="headline">{escape(headline(summary))}</p>'
        f'<div class="box missing" id="missing"><h3>The page could not be drawn</h3><p>{escape(error)}</p>'
        "<p>summary.json in this folder has every number.</p></div></main></body></html>\n"
    )


def gatling_links(run_dir: Path, modes: list[str], folders: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Relative links to each injector's Gatling report (the coarse pass's, then each fine pass's), so the folder
    can move and still open offline."""
    links = {}
    for mode in modes:
        found = sorted((run_dir / (folders or {}).get(mode, mode) / "gatling").glob("*/*/index.html"))
        links[mode] = [quote(p.relative_to(run_dir).as_posix()) for p in found]
    return links
