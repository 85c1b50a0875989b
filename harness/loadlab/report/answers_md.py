"""The README's answer table from answers.json, and docs/studies/answers.md: the same table with each row's detail.

One rule for a cell, here: a mode's median sustained rate — limit met first; its min–max over the repetitions when
they differ; a mode that held the top written as a bound (`≥ x (held)`); repetitions that disagree beyond their
intervals said in words with their range, never as one run's figure; a knee with no healthy level below it in words.
A row not measured yet shows the ledger's figures (one run each), marked so, or says it was not measured; a row
whose run failed shows its valid repetitions' figures, marked so, and no ratio.
The ratio is written by analysis/ratio_interval.text (`2.12× (2.03–2.42)`, `≥ 2.55×`), never a bound's point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loadlab.core.answer_rows import Row
from loadlab.core.modelabel import ModeLabel
from loadlab.report import formats
from loadlab.report.answers_json import platform_labels

HEADER = ("| workload | platform threads | virtual threads | virtual / platform |", "|---|---|---|---|")
NOT_MEASURED = "not yet measured by `make answers`"
# a row `make answers` has not measured yet shows the ledger's figures (one run each), marked as such
FROM_LEDGER = " *(one run, from the ledger: not yet measured again by `make answers`)*"
# a row whose make bench failed (an invalid repetition, a crash, Ctrl-C) shows what its valid repetitions measured,
# marked so, and claims no ratio: the lab's rule holds every repetition of a run to be valid
FAILED_RUN = " *(its run failed: no ratio claimed; answers.md says why)*"


def _limit(sentence: object) -> str:
    """limit_met_first's name of the limit, before its sentence's explanation (`threads (Tomcat's pool, Little's
    law)`); a knee no model met is said so (its sentence, with what the machine showed there, is the detail's)."""
    name = str(sentence).split(":", 1)[0].strip() if sentence else ""
    if name.startswith("none within"):  # the median repetition held the top: no limit to name
        return ""
    return "a limit no model predicted" if name.startswith(("the knee", "no model")) else name


def _num(value: object) -> str:
    return formats.num(value) if isinstance(value, (int, float)) else "—"


def mode_cell(mode: Mapping[str, object]) -> str:
    rates = mode.get("sustained_rps")
    rates = rates if isinstance(rates, Mapping) else {}
    mid, low, high = rates.get("median"), rates.get("min"), rates.get("max")
    n = mode.get("repetitions") or 1
    limit = _limit(mode.get("limit_met_first"))
    tail = f" — {limit}" if limit else ""
    if mode.get("valid") is False:
        return "invalid (answers.md says why)"
    if mode.get("disagree"):
        return f"{_num(low)}–{_num(high)} over {n} runs that disagree{tail}"
    spread = f" ({_num(low)}–{_num(high)} over {n})" if low != high else ""
    if not mid:  # 0 or unknown: unhealthy from its first level, a knee below the stairs said in words
        return "no healthy level"
    if not mode.get("collapsed"):
        return f"≥ {_num(mid)} (held{f'; {_num(low)}–{_num(high)} over {n}' if low != high else ''})"
    return f"{_num(mid)}{spread}{tail}"


def _column(modes: Mapping[str, object], labels: Sequence[str]) -> str:
    cells = [mode_cell(m) for label in labels if isinstance(m := modes.get(label), Mapping)]
    return " / ".join(cells) or "—"


def _ratio(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, (int, float)) else "—"


def ratio_cell(ratio: object) -> str:
    if not isinstance(ratio, Mapping):
        return "—"
    text = str(ratio.get("text") or "—")
    if text == "—" and ratio.get("reason"):
        text = "none claimed"
    repeats = ratio.get("repeats")
    if isinstance(repeats, Mapping) and repeats.get("min") != repeats.get("max"):
        bounds = repeats.get("bounds") or {}
        said = f", {len(bounds)} of them bounds (each the end its brackets carry)" if bounds else ""
        text += f"; over the repetitions {_ratio(repeats.get('min'))}–{_ratio(repeats.get('max'))}×{said}"
    basis = ratio.get("basis")
    if basis and ModeLabel.parse(str(basis)).threads is not None:
        text += f" over {basis}"
    return text


def row_cells(row: Row, entry: Mapping[str, object] | None) -> list[str]:
    if entry is None and row.ledger_cells is not None:
        return [row.workload + FROM_LEDGER, *row.ledger_cells]
    if entry is None:
        return [row.workload, NOT_MEASURED, NOT_MEASURED, "—"]
    modes = entry.get("modes")
    modes = modes if isinstance(modes, Mapping) else {}
    if not modes:
        said = "skipped" if entry.get("status") == "skipped" else "failed"
        return [row.workload, f"{said} (answers.md says why)", "—", "—"]
    virtual = [m for m in modes if ModeLabel.parse(m).mode == "virtual"]
    platform = _column(modes, platform_labels(dict(modes)))
    if entry.get("status") == "failed":
        return [row.workload + FAILED_RUN, platform, _column(modes, virtual), "none claimed"]
    return [row.workload, platform, _column(modes, virtual), ratio_cell(entry.get("ratio"))]


def by_id(answers: Mapping[str, object] | None) -> dict[str, Mapping[str, object]]:
    rows = answers.get("rows") if answers else None
    return {str(e["id"]): e for e in rows if isinstance(e, Mapping)} if isinstance(rows, list) else {}


def table(rows: Sequence[Row], answers: Mapping[str, object] | None) -> list[str]:
    """The README's table: a line per row of the rows file, as answers.json gives it."""
    entries = by_id(answers)
    lines = (" | ".join(c.replace("|", "\\|") for c in row_cells(r, entries.get(r.id))) for r in rows)
    return [*HEADER, *(f"| {line} |" for line in lines)]  # a `|` inside a cell would split it


def _minutes(seconds: object) -> str:
    s = int(seconds) if isinstance(seconds, (int, float)) else 0
    return f"{s // 60} min {s % 60} s"


def _detail(row: Row, entry: Mapping[str, object]) -> list[str]:
    machine = entry.get("machine")
    machine = machine if isinstance(machine, Mapping) else {}
    lines = [
        f"### `{row.id}`: {row.workload}",
        f"- command: `{entry.get('command')}`",
        f"- {entry.get('status')} on {entry.get('date')} in {_minutes(entry.get('seconds'))}, exit "
        f"{entry.get('exit_code')}; {machine.get('cores')} cores, load average before it began "
        f"{machine.get('load_before')} (right after another row, that row's own bench is in it: a sign of other "
        f"work only when the row began idle); run `{entry.get('run_folder') or 'none'}`",
    ]
    if entry.get("reason"):
        lines.append(f"- why: {entry['reason']}")
    modes = entry.get("modes")
    for label, mode in modes.items() if isinstance(modes, Mapping) else []:
        if not isinstance(mode, Mapping):
            continue
        knees = ", ".join(str(k) for k in mode.get("knees") or [])
        lines.append(f"- {label}: {mode_cell(mode)}; knees {knees}; limit met first: {mode.get('limit_met_first')}")
        if mode.get("spread"):
            lines.append(f"  - spread: {mode['spread']}")
        for reason in [*(mode.get("invalid_reasons") or []), *(mode.get("invalid_repetitions") or [])]:
            lines.append(f"  - invalid: {reason}")
    if entry.get("ratio") and entry.get("status") == "failed":
        lines.append("- virtual / platform: none claimed: the run failed (why: above)")
    elif entry.get("ratio"):
        lines.append(f"- virtual / platform: {ratio_cell(entry['ratio'])}")
        over_reactive = entry["ratio"].get("virtual_over_reactive") if isinstance(entry["ratio"], Mapping) else None
        if over_reactive:
            lines.append(f"- virtual / reactive: {over_reactive}")
    return [*lines, ""]


def _not_measured(row: Row) -> list[str]:
    said = f"; the table shows the ledger's figures, runs {row.ledger}" if row.ledger_cells else ""
    return [f"### `{row.id}`: {NOT_MEASURED}{said}", ""]


def page(rows: Sequence[Row], answers: Mapping[str, object] | None) -> str:
    """docs/studies/answers.md: the table, then each measured row's command, run, machine and figures."""
    entries = by_id(answers)
    lines = [
        "# The README's answer table, as `make answers` last measured it",
        "[← the studies](README.md) · written by `make answers` from [answers.json](answers.json); do not edit: "
        "[how it is regenerated](README.md#the-readmes-table-regenerated-make-answers)",
        "",
        *table(rows, answers),
        "",
        "## Row by row",
        "",
    ]
    for row in rows:
        entry = entries.get(row.id)
        lines += _detail(row, entry) if entry is not None else _not_measured(row)
    return "\n".join(lines).rstrip("\n") + "\n"
