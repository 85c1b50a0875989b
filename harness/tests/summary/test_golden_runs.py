"""Every real run kept under data/ summarises to the summary.json and the page text kept for it in data/golden/,
byte for byte: the records summary.json is written from may change shape, the file may not without it being seen
here (a change that means to alter the file regenerates the goldens, `LOADLAB_GOLDEN=write`, and the diff is
reviewed like any other)."""

import os
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from loadlab import report
from loadlab.summary.verdicts import records

DATA = Path(__file__).parents[1] / "data"
GOLDEN = DATA / "golden"
RUNS = [
    "app_ignores_switch",
    "app_warmup_backlog",
    "fine_pass_all_healthy",
    "set_aside_first_level",
    "set_aside_injector",
    "warmup_empty_first_second",
]


class PageText(HTMLParser):
    """What a reader sees on the page: its text, one line per piece, without its style."""

    def __init__(self):
        super().__init__()
        self.lines: list[str] = []
        self.in_style = 0

    def handle_starttag(self, tag, attrs):
        self.in_style += tag in ("style", "script")

    def handle_endtag(self, tag):
        self.in_style -= tag in ("style", "script")

    def handle_data(self, data):
        if not self.in_style and data.strip():
            self.lines.append(data.strip())


def page_text(html: str) -> str:
    parser = PageText()
    parser.feed(html)
    return "\n".join(parser.lines) + "\n"


@pytest.mark.parametrize("name", RUNS)
def test_a_kept_run_summarises_to_its_golden_summary_and_page(tmp_path, name):
    run = tmp_path / name
    shutil.copytree(DATA / name, run)
    record = report.rebuild(run)
    written = (run / records.SUMMARY_JSON).read_text(encoding="utf-8")
    page = page_text((run / "index.html").read_text(encoding="utf-8"))
    golden = GOLDEN / name
    if os.environ.get("LOADLAB_GOLDEN") == "write":
        golden.mkdir(parents=True, exist_ok=True)
        (golden / records.SUMMARY_JSON).write_text(written, encoding="utf-8")
        (golden / "page.txt").write_text(page, encoding="utf-8")
    assert written == (golden / records.SUMMARY_JSON).read_text(encoding="utf-8")
    assert page == (golden / "page.txt").read_text(encoding="utf-8")
    # what the page and `make compare` read back is the record it was written from
    assert records.read(run) == record and records.json_text(records.read(run)) == written
