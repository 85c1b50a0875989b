"""What two run folders share (`make compare RUN=<a> AGAINST=<b>`), decided before any page is drawn: the modes both
measured validly (each other mode named with why it was set aside) and the rates both ran. Two runs of different
MODES or stairs compare on what they share; a folder that cannot be read, RUN's own folder, or two runs with no
valid mode in common are refused in one line naming RUN or AGAINST, its value, and what is allowed (exit 2)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.report.spectrum_section import Place, common, places
from loadlab.summary.verdicts import records
from loadlab.summary.verdicts.records import RunSummary


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
        return Side(name, value, folder, records.read(folder))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        raise refuse(name, value, f"has no readable summary.json; run `make report RUN={value}` first") from None
    except records.NoModes:
        raise refuse(name, value, "has a summary.json without modes; run `make report` on it again") from None
    except (TypeError, ValueError) as e:  # written by another version of loadlab
        why = f"has a summary.json this version cannot read ({e}); run `make report` on it again"
        raise refuse(name, value, why) from None


@dataclass(frozen=True)
class Shared:
    """What two runs share: the modes both measured validly (RUN's order), why each other mode was set aside, and
    per shared mode the offered rates both ran (none when their stairs never met: the knees still compare)."""

    modes: list[str]
    aside: dict[str, str]
    rates: dict[str, dict[float, list[Place]]]


def check(run: Side, against: Side) -> Shared:
    """The modes both runs measured and can be trusted in, with the rates both ran; every other mode named with the
    reason. Refused, naming the side, when it is RUN's own folder or when no mode is left to compare."""
    if run.folder == against.folder:
        raise refuse(against.name, against.value, "is the same folder as RUN; allowed: another run folder")
    aside: dict[str, str] = {}
    for side, other in ((run, against), (against, run)):
        for mode in _measured(side):
            if mode not in _measured(other):
                aside[mode] = f"only in {side.name}"
    shared = [m for m in _measured(run) if m not in aside]
    for mode in shared:
        for side in (run, against):
            why = _untrusted(side.summary.modes[mode])
            if why and mode not in aside:
                aside[mode] = f"invalid in {side.name} ({why})"
    modes = [m for m in shared if m not in aside]
    if not modes:
        raise refuse(
            against.name,
            against.value,
            f"shares no valid mode with RUN (RUN: {_listed(_measured(run))}, AGAINST: {_listed(_measured(against))}"
            f"{'; ' + aside_text(aside) if aside else ''}); allowed: runs with a valid mode in common",
        )
    rates = {}
    for mode in modes:
        columns = [places(s.summary.modes[mode], _label(s, mode), s.mode_folder(mode)) for s in (run, against)]
        rates[mode] = common(columns)
    return Shared(modes, aside, rates)


def _untrusted(result: records.ModeRecord) -> str | None:
    """Why a mode's figures cannot be compared (an instrument's fault is not a difference between runs), or None."""
    if result.crashed:
        return "it crashed"
    if not result.validity.valid:
        return (result.validity.invalid_reasons or ["its verdict is not valid"])[0]
    return None


def aside_text(aside: dict[str, str]) -> str:
    return "; ".join(f"{mode} {why}" for mode, why in aside.items())


def _label(side: Side, mode: str) -> str:
    """A curve's name: `platform · RUN 20261125-200400` (the side too: a copied folder keeps its run id)."""
    return f"{mode} · {side.name} {side.run_id}"


def _measured(side: Side) -> list[str]:
    return [m for m, result in side.summary.modes.items() if result.levels]


def _listed(modes: list[str]) -> str:
    return " ".join(modes) or "none"
