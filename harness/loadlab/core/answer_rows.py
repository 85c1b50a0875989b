"""The README's answer table as rows to run (docs/studies/answers-rows.json) and `make answers`' own parameters, ROWS
and REPEAT, checked in one line each before anything starts (stdlib only: checked before .venv exists).

A row is one line of the README's table with its `make bench` parameters written out in full: the defaults too, so a
default that changes later does not move a published row unseen.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.core.param_limits import REPEAT_MAX
from loadlab.core.repo import REPO

STUDIES = REPO / "docs" / "studies"
ROWS_FILE = STUDIES / "answers-rows.json"
ANSWERS_JSON = STUDIES / "answers.json"
ANSWERS_MD = STUDIES / "answers.md"
# Three repetitions: the fewest that show whether a row's runs agree (issue 51); one is `make bench`'s default.
DEFAULT_REPEAT = 3
# The only names `make answers` reads from its command line; every other parameter is a row's, fixed in the file.
OWN_NAMES = ("ROWS", "REPEAT")


@dataclass(frozen=True)
class Needs:
    """A file a row cannot run without (a jar built from a fetched repository), as a parameter names it, and how to
    make it."""

    param: str
    path: str
    how: str


@dataclass(frozen=True)
class Row:
    id: str
    workload: str  # the row's words as the README shows them
    params: dict[str, str]
    ledger: str  # the runs docs/studies/README.md quotes for the row
    needs: Needs | None = None
    # the ledger's figures for the row (platform, virtual, ratio), one run each, shown until `make answers` measures
    # the row: a table with a row not yet measured again still says what was measured, and says it is one run
    ledger_cells: tuple[str, str, str] | None = None

    def command(self, repeat: int) -> str:
        """The row's command as a user would type it, every parameter written out."""
        words = [f"{name}={shlex.quote(value)}" for name, value in self.params.items()]
        return " ".join(["make bench", *words, f"REPEAT={repeat}"])

    def missing(self) -> str | None:
        """Why the row cannot run here (its external file is absent), or None."""
        if self.needs is None or (REPO / self.needs.path).exists():
            return None
        return f"skipped: needs {self.needs.param}={self.needs.path} ({self.needs.how})"


def _needs(raw: object) -> Needs | None:
    if not isinstance(raw, Mapping):
        return None
    ((param, path),) = [(k, v) for k, v in raw.items() if k != "how"]
    return Needs(str(param), str(path), str(raw["how"]))


def _ledger_cells(raw: object) -> tuple[str, str, str] | None:
    if not isinstance(raw, Mapping):
        return None
    return str(raw["platform"]), str(raw["virtual"]), str(raw["ratio"])


def load(path: Path = ROWS_FILE) -> list[Row]:
    """Every row of the file, in the README's order."""
    values = json.loads(path.read_text(encoding="utf-8"))
    return [
        Row(
            id=str(r["id"]),
            workload=str(r["workload"]),
            params={str(k): str(v) for k, v in r["params"].items()},
            ledger=str(r.get("ledger", "")),
            needs=_needs(r.get("needs")),
            ledger_cells=_ledger_cells(r.get("ledger_cells")),
        )
        for r in values["rows"]
    ]


def _repeat(text: str) -> tuple[int | None, str | None]:
    value = text.strip() or str(DEFAULT_REPEAT)
    if value.isdigit() and 1 <= int(value) <= REPEAT_MAX:
        return int(value), None
    return None, (
        f"REPEAT={text!r} is not allowed; allowed: a whole number 1..{REPEAT_MAX} "
        f"(make answers' default: {DEFAULT_REPEAT})"
    )


def select(
    rows: Sequence[Row], rows_text: str, repeat_text: str, given: Mapping[str, str] | None = None
) -> tuple[list[Row], int]:
    """The rows ROWS names (all when empty, in the file's order) and REPEAT; LoadlabError (exit 2) with one line per
    bad name or value, naming what is allowed. `given`: the other names on make's command line, with their values."""
    known = [r.id for r in rows]
    problems = [
        f"{name}={value!r} is not a parameter of make answers; allowed: {', '.join(OWN_NAMES)} "
        f"(each row's make bench parameters are fixed in {ROWS_FILE.relative_to(REPO)})"
        for name, value in (given or {}).items()
        if name not in OWN_NAMES
    ]
    wanted = rows_text.split()
    unknown = [w for w in wanted if w not in known]
    if unknown:
        problems.append(f"ROWS={rows_text!r} names unknown row ids {', '.join(unknown)}; allowed: {' '.join(known)}")
    repeat, bad_repeat = _repeat(repeat_text)
    if bad_repeat:
        problems.append(bad_repeat)
    if problems or repeat is None:
        raise LoadlabError("\n".join(problems), ExitCode.USAGE)
    return [r for r in rows if not wanted or r.id in wanted], repeat
