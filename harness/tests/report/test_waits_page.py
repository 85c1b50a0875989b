"""The page's "Where the time went": a bar per profiled level of each mode, the knee's line and each mode's
waits_at_knee sentence, a level without a profile drawn absent and named, and a run without any profile said in
one sentence with no figure."""

import re
from html import escape
from pathlib import Path

from loadlab.analysis.wait_profile import profile
from loadlab.analysis.wait_sites import CATEGORY_WORDS, DOWNSTREAM, QUEUED
from loadlab.report import waits_section
from loadlab.report.charts.wait_charts import bar_id
from loadlab.report.page import document
from loadlab.summary.reading import waits
from loadlab.summary.verdicts.records import RunSummary

DATA = Path(__file__).resolve().parents[1] / "data" / "waits"
# The real platform run of tests/data/waits (10 Tomcat threads, DELAY_MS=100): its two levels' seconds.
REAL_LEVELS = ((40, range(1795850732, 1795850738), 4.0), (106.667, range(1795850738, 1795850744), 80.8))
TOO_FEW = "too few samples to say where the time went (2 thread dumps, 3 request threads in them)"


def site(category, mean, share=0.5):
    return {"category": category, "site": f"the {category} site", "mean_requests": mean, "share": share}


def level(index, rate, waits_json, healthy=True):
    return {"index": index, "target_rps": rate, "healthy": healthy, "waits": waits_json}


def profiled(*sites):
    return {"samples": 20, "request_samples": 100, "inflight": 10.0, "too_few": None, "sites": list(sites)}


def page(modes: dict) -> str:
    return document(RunSummary.from_mapping({"run_id": "t", "modes": modes}), [], {})


def waits_part(html: str) -> str:
    found = re.search(r'<section id="waits">.*?</section>', html, re.S)
    assert found, "no Where the time went section"
    return found.group(0)


def bars(html: str) -> set[str]:
    return set(re.findall(r'id="waits-(bar-[^"]+)"', html))


def test_a_real_profile_gets_a_bar_per_level_and_its_knee_sentence(tmp_path):
    mode = tmp_path / "platform"
    (mode / "raw" / "thread").mkdir(parents=True)
    (mode / waits.RAW_FILE).write_text((DATA / "platform-10-threads.tsv").read_text())
    agent, _ = waits.read(mode)
    levels = [
        level(
            i,
            rate,
            waits.record(profile((agent.seconds[s] for s in window), dict.fromkeys(window, inflight))).as_json(),
            healthy=i == 0,
        )
        for i, (rate, window, inflight) in enumerate(REAL_LEVELS)
    ]
    knee = "the queue <Tomcat's> grew"  # markup in a sentence is shown, never parsed
    html = page({"platform": {"levels": levels, "first_unhealthy_level": 1, "waits_at_knee": knee, "collapsed": True}})
    part = waits_part(html)
    assert "<h2>Where the time went</h2>" in part and 'data-chart="waits"' in part and "<svg" in part
    # the 10 threads wait on the downstream at both levels; at 107 rps the other 70 requests queue for one
    assert bars(part) == {
        bar_id("platform", DOWNSTREAM, 40),
        bar_id("platform", DOWNSTREAM, 106.667),
        bar_id("platform", QUEUED, 106.667),
    }
    assert "platform at its knee: the queue &lt;Tomcat&#x27;s&gt; grew." in part and "<Tomcat" not in part
    assert "knee: first unhealthy level, 106.7 rps" in part
    assert f"queued: {CATEGORY_WORDS[QUEUED]}" in part and f"downstream: {CATEGORY_WORDS[DOWNSTREAM]}" in part
    assert "Every level has a profile." in part
    # after the verdict, where the reader has just seen which mode collapsed
    assert html.index('<section id="verdict">') < html.index('<section id="waits">')


def test_each_mode_has_its_panel_and_a_level_without_a_profile_has_no_bar_but_its_reason():
    platform = [
        level(0, 100, profiled(site(DOWNSTREAM, 10.0))),
        level(1, 200, profiled(site(DOWNSTREAM, 10.0), site(QUEUED, 12.0)), healthy=False),
        level(2, 300, {**profiled(), "too_few": TOO_FEW}, healthy=False),
    ]
    virtual = [
        level(0, 100, profiled(site(DOWNSTREAM, 10.0))),
        level(1, 200, None),
        level(2, 300, profiled(site(DOWNSTREAM, 30.0))),
    ]
    part = waits_part(
        page(
            {
                "platform": {"levels": platform, "first_unhealthy_level": 1, "waits_at_knee": "the queue grew"},
                "virtual": {"levels": virtual},
            }
        )
    )
    assert bars(part) == {
        bar_id("platform", DOWNSTREAM, 100),
        bar_id("platform", DOWNSTREAM, 200),
        bar_id("platform", QUEUED, 200),
        bar_id("virtual", DOWNSTREAM, 100),
        bar_id("virtual", DOWNSTREAM, 300),
    }
    assert "Where the requests waited per level — platform" in part and "— virtual" in part
    assert part.count(">no profile<") == 2  # marked where the bar would stand, on the chart itself
    assert (
        escape(
            'No bar where a level has no profile ("no profile" is written where it would stand): '
            f"platform at 300 rps ({TOO_FEW}); virtual at 200 rps ({waits_section.NO_DUMP})."
        )
        in part
    )
    assert "platform at its knee: the queue grew." in part
    assert "virtual: no knee was placed, so there is none to explain." in part


def test_a_run_without_a_profile_says_why_in_one_sentence_and_draws_nothing(tmp_path):
    mode = tmp_path / "virtual"
    _, why = waits.read(mode)  # the summary's own words for an agent that never wrote its file
    part = waits_part(
        page(
            {
                "platform": {"levels": [level(0, 100, None)], "waits_at_knee": "at 100 rps: " + TOO_FEW},
                "virtual": {"levels": [level(0, 100, None)], "missing": ["something else", why]},
            }
        )
    )
    assert "<svg" not in part and "<figure" not in part
    sentences = re.findall(r'<p class="muted" id="waits-none">([^<]*)</p>', part)
    assert sentences == [
        f"This run has no wait profile — platform: at 100 rps: {TOO_FEW}; "
        "virtual: virtual/raw/thread/waits.tsv was not written (the wait agent did not run)."
    ]
