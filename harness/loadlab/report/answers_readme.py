"""The README's answer table, generated from docs/studies/answers.json between two markers (`loadlab answers-readme
--write`, run by `make answers` too) and checked against it (`--check`, and a unit test `make check` runs).

Before `make answers` has written answers.json the table is "not yet generated": the block keeps the figures quoted
from the ledger (docs/studies/README.md) and nothing is checked, so no hand-written figure is overwritten by a table
of empty rows.
"""

from __future__ import annotations

from pathlib import Path

from loadlab.core import answer_rows
from loadlab.core.repo import REPO
from loadlab.report import answers_json, answers_md

README = REPO / "README.md"
BEGIN = "<!-- answers:begin -->"
END = "<!-- answers:end -->"


def _parts(text: str) -> tuple[str, str, str]:
    """The README around the block and the block itself; ValueError when the markers are not there once, in order."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(f"the README needs one {BEGIN} and one {END} after it around the answer table")
    head, rest = text.split(BEGIN + "\n", 1)
    block, tail = rest.split(END, 1)
    return head, block, tail


def block(answers: dict[str, object] | None, rows_file: Path = answer_rows.ROWS_FILE) -> str:
    return "\n".join(answers_md.table(answer_rows.load(rows_file), answers)) + "\n"


def rewritten(text: str, new_block: str) -> str:
    head, _, tail = _parts(text)
    return f"{head}{BEGIN}\n{new_block}{END}{tail}"


def problems(readme: Path = README, answers: Path = answer_rows.ANSWERS_JSON) -> list[str]:
    """Why the README's block is not what answers.json gives (nothing before answers.json exists)."""
    values = answers_json.read(answers)
    if values is None:
        return []
    try:
        _, current, _ = _parts(readme.read_text(encoding="utf-8"))
    except ValueError as e:
        return [str(e)]
    expected = block(values)
    if current == expected:
        return []
    differ = [
        f"README: {have!r}; {answers.name}: {want!r}"
        for have, want in zip(current.splitlines(), expected.splitlines())
        if have != want
    ]
    first = differ[0] if differ else "a row more or less"
    return [
        f"the README's answer table differs from {answers.name} ({first}); "
        "regenerate it: .venv/bin/loadlab answers-readme --write"
    ]


def write(readme: Path = README, answers: Path = answer_rows.ANSWERS_JSON) -> bool:
    """Rewrites the block from answers.json; False (nothing written) before answers.json exists."""
    values = answers_json.read(answers)
    if values is None:
        return False
    text = readme.read_text(encoding="utf-8")
    readme.write_text(rewritten(text, block(values)), encoding="utf-8")
    return True
