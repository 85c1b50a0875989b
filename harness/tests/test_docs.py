"""The README is a front door that links out to pages under docs/: one screen (at most 100 lines) where a reader
finds the two commands, the measured answer and where every parameter is, meets each term of the lab where it is
defined, and follows no link to nowhere. The ledger behind the answer (run ids, footnotes, dated reruns) lives in
docs/studies/README.md. The parameter reference is held to params.PARAMS, the one table `make help` and the checks
read, so a new parameter cannot go undocumented."""

import re
from pathlib import Path

import pytest
from conftest import REPO

from loadlab.core.params import PARAMS

README = REPO / "README.md"
PARAMETERS = REPO / "docs" / "PARAMETERS.md"
STUDIES = REPO / "docs" / "studies" / "README.md"
FIRST_SCREEN_LINES = 40
README_MAX_LINES = 100
# The lab's own words a newcomer cannot know: wherever the README uses one, its first use is its definition, in bold.
GLOSSARY = ("roles", "healthy", "knee", "limit met first", "Little's law", "wait profile", "netns", "fuzzy")
RUN_ID = r"`(\d{8}-\d{6})`"


def markdown_pages() -> list[Path]:
    return [README, *sorted((REPO / "docs").rglob("*.md"))]


def section(text: str, heading: str) -> str:
    """The body of a `## heading` section, up to the next heading of the same level."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no '## {heading}' section"
    return match.group(1)


def without_code(text: str) -> str:
    """A fenced block's `#` lines are shell comments and its `](` is code: neither is a heading or a link."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", without_code(page.read_text(encoding="utf-8")), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def relative_links(page: Path) -> list[str]:
    text = without_code(page.read_text(encoding="utf-8"))
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)]


def reference_rows() -> dict[str, str]:
    """docs/PARAMETERS.md's table: each name in a row's first cell (`START_RPS`, `PEAK_RPS` share one) -> the row."""
    rows = {}
    for line in PARAMETERS.read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if line.startswith("| `") and len(cells) > 3:
            for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", cells[1]):
                rows[name] = line
    return rows


def test_the_first_screen_has_the_commands_the_answer_and_the_picture():
    first = "\n".join(README.read_text(encoding="utf-8").splitlines()[:FIRST_SCREEN_LINES])
    for wanted in ("make bench", "make test", "## The answer measured here", "docs/img/comparison.png"):
        assert wanted in first, f"{wanted!r} is not in the README's first {FIRST_SCREEN_LINES} lines"


def test_the_readme_is_one_screen_and_its_answer_carries_no_run_ids():
    text = README.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    assert lines <= README_MAX_LINES, f"the README has {lines} lines, over {README_MAX_LINES}: move the ledger out"
    assert not re.findall(RUN_ID, section(text, "The answer measured here")), "run ids go to docs/studies/README.md"


def test_the_studies_keep_the_ledger_behind_the_readmes_answer():
    ledger = section(STUDIES.read_text(encoding="utf-8"), "The README's answer, run by run")
    assert len(re.findall(RUN_ID, ledger)) >= 5, "the ledger quotes the answer's runs by id"
    assert "20261128-093519" in section(STUDIES.read_text(encoding="utf-8"), "The default run over time")


def first_use(text: str, term: str) -> int | None:
    """Where the README first uses a term (any case; `knee` also as `knees`, never inside `waits_at_knee`)."""
    match = re.search(rf"(?<![\w-]){re.escape(term)}", text, re.I)
    return match.start() if match else None


@pytest.mark.parametrize("term", GLOSSARY)
def test_every_term_the_readme_uses_is_defined_at_its_first_use(term):
    text = README.read_text(encoding="utf-8")
    used = first_use(text, term)
    if used is None:
        return
    defined = text.lower().find(f"**{term.lower()}**")
    line = text.count("\n", 0, used) + 1
    assert defined >= 0, f"the README uses {term!r} (line {line}) but never defines it (in bold where it says it)"
    assert used == defined + 2, f"the README uses {term!r} on line {line}, before its definition (in bold)"


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path) if path else page
        assert dest.exists(), f"{page.relative_to(REPO)}: {target} does not exist"
        if anchor and dest.suffix == ".md":
            assert anchor in anchors(dest), f"{page.relative_to(REPO)}: {target} names no heading of {path}"


def test_the_parameter_reference_has_every_parameter_with_its_default():
    rows = reference_rows()
    assert set(rows) == {p.name for p in PARAMS}, "docs/PARAMETERS.md's table and params.PARAMS differ"
    for p in PARAMS:
        default = f"`{p.default}`" if p.default else "empty"
        assert default in rows[p.name], f"{p.name}: the reference does not give its default {default}"


def test_the_readme_says_where_every_parameter_is():
    """The list itself is `make help`'s (core/test_params.py checks it names every parameter) and the reference's."""
    text = README.read_text(encoding="utf-8")
    assert "(docs/PARAMETERS.md)" in text and "`make help`" in text
