"""The comparison page's HTML: one self-contained file, no script, no external resource.

This module puts the sections in order; each section is built by the module named for it."""

from __future__ import annotations

from html import escape

from loadlab.report import (
    app_section,
    boxes,
    costs_table,
    downstream_section,
    errors_table,
    fanout_section,
    kinds_section,
    levels_table,
    plan_section,
    prescription_section,
    repeats_table,
    setup_section,
    threadlocal_section,
    verdict_table,
    waits_section,
)
from loadlab.report.answer import answer
from loadlab.report.headline import headline, mode_names, subject, verdict_class
from loadlab.report.page_style import CSS
from loadlab.summary.verdicts.records import RunSummary


def document(
    summary: RunSummary,
    charts: list[tuple[str, str, str, str]],
    gatling: dict[str, list[str]],
    over_time: tuple[str, str, str, str] | None = None,
    spectra: str = "",
    plan: dict[str, object] | None = None,
    brownout: str = "",
) -> str:
    """charts: (section title, data-chart name, svg, caption); gatling: mode -> relative links; over_time: the
    percentiles-over-time chart and spectra the spectrum section, shown right after the headline (what the field
    reads first), before the evidence; plan: the run's plan.json (`make plan`), drawn as "On other hardware" when
    there is one; brownout: PROFILE=brownout's section (brownout_section.py), first after the headline."""
    run_id = str(summary.run_id or "")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>loadlab {escape(run_id)}: platform vs virtual threads</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<h1>Platform vs virtual threads <small>{escape(subject(summary))}, run {escape(run_id)}"
        f"{' on ' + escape(str(summary.target)) if summary.target else ''}</small></h1>",
        f'<p class="answer" id="answer">{escape(said)}</p>' if (said := answer(summary)) else "",
        f'<p class="headline {verdict_class(summary)}" id="headline">{escape(headline(summary))}</p>',
        boxes.test_fault(summary),
        boxes.missing(summary),
        boxes.invalid(summary),
        brownout,
        f'<section id="percentiles">{chart_figure(*over_time)}</section>' if over_time else "",
        spectra,
        boxes.notes(summary),
        verdict_table.section(summary),
        waits_section.section(summary),
        prescription_section.section(summary),
        fanout_section.section(summary),
        kinds_section.section(summary),
        costs_table.section(summary),
        plan_section.section(plan),
        threadlocal_section.section(summary),
        app_section.section(summary),
        downstream_section.section(summary),
        repeats_table.section(summary),
        '<section id="charts">',
        *(chart_figure(*chart) + (errors_table.section(summary) if chart[1] == "errors" else "") for chart in charts),
        "</section>",
        levels_table.section(summary),
        setup_section.section(summary),
        gatling_section(summary, gatling),
        "</main></body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def chart_figure(title: str, name: str, svg: str, caption: str) -> str:
    return (
        f"<h2>{escape(title)}</h2>"
        f'<figure class="chart" data-chart="{escape(name)}">{svg}'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def gatling_section(summary: RunSummary, gatling: dict[str, list[str]]) -> str:
    items = []
    for mode in mode_names(summary):
        links = gatling.get(mode) or []
        if links:
            items += [f'<li>{escape(mode)}: <a href="{escape(href)}">{escape(href)}</a></li>' for href in links]
        else:
            items.append(f'<li>{escape(mode)}: <span class="muted">no Gatling report in this folder</span></li>')
    return f'<section id="gatling"><h2>Gatling reports</h2><ul>{"".join(items)}</ul></section>'
