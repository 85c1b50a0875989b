"""The README is a first screen that links out to pages under docs/: a reader must find the two commands, the
measured answer and every parameter, and no link may lead nowhere. The parameter reference is held to
params.PARAMS, the one table `make help` and the checks read, so a new parameter cannot go undocumented."""

import re
from pathlib import Path

import pytest
from conftest import REPO

from loadlab.core.params import PARAMS

README = REPO / "README.md"
PARAMETERS = REPO / "docs" / "PARAMETERS.md"
FIRST_SCREEN_LINES = 40


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
    answer = section(first + "\n## end\n", "The answer measured here")
    run_ids = re.findall(r"`(\d{8}-\d{6})`", answer)
    assert len(run_ids) >= 5, "the measured answer quotes its runs by id"


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


def test_the_readme_names_every_parameter_and_links_the_reference():
    body = section(README.read_text(encoding="utf-8"), "Parameters")
    missing = [p.name for p in PARAMS if f"`{p.name}`" not in body]
    assert not missing, f"the README's Parameters section does not name {missing}"
    assert "(docs/PARAMETERS.md)" in body and "make help" in body
