"""Whether two run folders can be set side by side (`make compare RUN=<a> AGAINST=<b>`), decided before any page is
drawn: each refusal is one line naming RUN or AGAINST, its value, and what would make it comparable (exit 2)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.report.spectrum_section import Place, common, places
from loadlab.summary.records import RunSummary


@dataclass(frozen=True)
class Side:
    """One run of the comparison: the parameter that named it (RUN or AGAINST), its folder and summary."""

    name: str
    value: str
    folder: Path
    summary: RunSummary

    @property
    def run_id(self) -> str:
        return str(self.summary.run_id or self.folder.name)

    def mode_folder(self, mode: str) -> Path:
        return self.folder / (self.summary.modes[mode].folder or mode)


def refuse(side_name: str, value: str, why: str) -> LoadlabError:
    return LoadlabError(f"{side_name}={value!r} {why}", ExitCode.USAGE)


def load(name: str, value: str) -> Side:
    """A run folder with its summary.json; refused when either is missing."""
    if not value.strip():
        raise refuse(name, value, "is empty; allowed: a run folder, e.g. results/<run-id>")
    folder = Path(value).resolve()
    if not folder.is_dir():
        raise refuse(name, value, "is not a folder; allowed: a run folder, e.g. results/<run-id>")
    try:
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise refuse(name, value, f"has no readable summary.json; run `make report RUN={value}` first") from None
    if not isinstance(summary, dict) or not isinstance(summary.get("modes"), dict):
        raise refuse(name, value, "has a summary.json without modes; run `make report` on it again")
    try:
        return Side(name, value, folder, RunSummary.from_mapping(summary))
    except (TypeError, ValueError) as e:  # written by another version of loadlab
        why = f"has a summary.json this version cannot read ({e}); run `make report` on it again"
        raise refuse(name, value, why) from None


def check(run: Side, against: Side) -> dict[str, dict[float, list[Place]]]:
    """The rates both runs measured, per mode (every mode both ran); refused, naming the side at fault, when a
    mode is missing from one run or invalid in either, or when a mode shares no offered rate."""
    if run.folder == against.folder:
        raise refuse(against.name, against.value, "is the same folder as RUN; allowed: another run folder")
    for side, other in ((run, against), (against, run)):
        measured, wanted = _measured(side), _measured(other)
        missing = [m for m in wanted if m not in measured]
        if missing:
            raise refuse(
                side.name,
                side.value,
                f"has no {missing[0]} mode measured ({_listed(measured)}), {other.name} has it ({_listed(wanted)});"
                " allowed: two runs of the same MODES",
            )
    for side in (run, against):
        for mode in _measured(side):
            result = side.summary.modes[mode]
            if not result.valid:
                reasons = result.invalid_reasons or ["its verdict is not valid"]
                raise refuse(
                    side.name,
                    side.value,
                    f"has an invalid {mode} mode ({reasons[0]}); allowed: runs whose modes are valid",
                )
    rates = {}
    for mode in _measured(run):
        columns = [
            places(s.summary.modes[mode], f"{mode} · {s.name} {s.run_id}", s.mode_folder(mode)) for s in (run, against)
        ]
        rates[mode] = common(columns)
        if not rates[mode]:
            raise refuse(
                against.name,
                against.value,
                f"shares no offered rate with RUN in {mode} mode (RUN: {_span(columns[0])}, AGAINST: "
                f"{_span(columns[1])} rps); allowed: runs whose stairs meet at one rate at least",
            )
    return rates


def _label(side: Side, mode: str) -> str:
    """A curve's name: `platform · RUN 20261125-200400` (the side too: a copied folder keeps its run id)."""
    return f"{mode} · {side.name} {side.run_id}"


def _measured(side: Side) -> list[str]:
    return [m for m, result in side.summary.modes.items() if result.levels]


def _listed(modes: list[str]) -> str:
    return " ".join(modes) or "none"


def _span(column: dict[float, Place]) -> str:
    return f"{min(column):g}–{max(column):g}" if column else "none"
