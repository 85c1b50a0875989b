"""APP_REQUESTS: each kind's whole spectrum at equal load. Per mode, at the highest rate of the mix every kind held
and at the first where one crossed its own limit, every kind's latency by percentile on one chart, each from its own
`.hgrm` file (`<mode>/kinds/<name>/hgrm/`): where a slow write's tail parts from the reads'."""

from __future__ import annotations

from html import escape
from pathlib import Path

from loadlab.report.charts.percentile_charts import Curve, spectrum
from loadlab.report.spectrum_section import CAPTION
from loadlab.summary.judge.kinds import FOLDER, KindRecord
from loadlab.summary.verdicts.records import RunSummary
from loadlab.summary.writing import hgrm_files


def key_rates(kinds: list[KindRecord]) -> list[tuple[str, float]]:
    """(pass, rate) of the highest level every kind held and of the first where one crossed its limit (levels set
    aside left out)."""
    at: dict[tuple[float, str], list[bool]] = {}
    for kind in kinds:
        for lv in (lv for lv in kind.levels if not lv.set_aside):
            at.setdefault((lv.mix_rps, lv.pass_name), []).append(lv.crossed is None)
    full = {key: held for key, held in at.items() if len(held) == len(kinds)}
    held = [key for key, all_held in full.items() if all(all_held)]
    broke = [key for key, all_held in full.items() if not all(all_held)]
    chosen = [max(held, default=None), min(broke, default=None)]
    return [(p, rate) for rate, p in (key for key in chosen if key is not None)]


def chart(mode: str, folder: Path, kinds: list[KindRecord], pass_name: str, rate: float) -> str:
    curves = []
    for kind in kinds:
        lv = next((lv for lv in kind.levels if lv.pass_name == pass_name and lv.mix_rps == rate), None)
        found = lv and hgrm_files.read(folder / FOLDER / kind.name, pass_name, lv.level, rate)
        if lv and found:
            curves.append(Curve(kind.name, found, lv.crossed is None))
    if not curves:
        return ""
    name = f"kinds-{mode}-{pass_name or 'coarse'}-{rate:g}".replace(".", "_")
    where = f" ({pass_name})" if pass_name else ""
    title = f"{mode}: each kind at {rate:g} rps of the mix{where}"
    return (
        f'<figure class="chart" data-chart="{escape(name)}">{spectrum(name, title, curves)}'
        f"<figcaption>{escape(CAPTION.replace('<mode>/hgrm/', '<mode>/kinds/<name>/hgrm/'))}</figcaption></figure>"
    )


def section(run_dir: Path, summary: RunSummary, folders: dict[str, str]) -> str:
    parts = []
    for mode, m in summary.modes.items():
        kinds = m.kinds or []
        for pass_name, rate in key_rates(kinds):
            parts.append(chart(mode, run_dir / folders.get(mode, mode), kinds, pass_name, rate))
    if not any(parts):
        return ""
    return '<section id="kind-spectra"><h2>Each kind\'s spectrum at equal load</h2>' + "".join(parts) + "</section>"
