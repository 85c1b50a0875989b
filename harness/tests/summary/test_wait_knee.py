"""The knee explained by the wait profile, or why it cannot be: a dead agent, too few dumps, no healthy level to
compare with, nothing that grew. Never a site it did not measure."""

from types import SimpleNamespace

from loadlab.analysis.wait_profile import LevelWaits, SecondSamples, Site
from loadlab.analysis.wait_profile import profile as profile_of
from loadlab.analysis.wait_sites import Sample
from loadlab.summary.judge import wait_knee
from loadlab.summary.verdicts import records


def level(rate, waits):
    return SimpleNamespace(target_rps=rate, waits=waits)


def profile(**means):
    sites = tuple(Site(cat, f"the {cat} site", n, n / sum(means.values())) for cat, n in means.items())
    return LevelWaits(10, 200, None, sites)


def knee(healthy, closing, collapsed=True):
    return SimpleNamespace(collapsed=collapsed, closing=closing, fit_levels=[healthy] if healthy else [])


def test_the_site_that_grew_is_named_with_its_figures_and_the_other_threads():
    k = knee(level(40, profile(downstream=8.0)), level(60, profile(pool=22.7, downstream=5.0)))
    sentence = wait_knee.at_knee(k, None)
    assert sentence.startswith("waiting for a pooled resource: the pool site — at 60 rps 22.7 requests were there")
    assert (
        "against 0.0 at 40 rps" in sentence and "the other request threads: 5.0 waiting on the downstream" in sentence
    )
    found = wait_knee.of(k, None, expected=True)
    assert found.limit_met_first("the HTTP client's connection pool: …").endswith(wait_knee.INTRO + sentence)
    assert found.missing == []


def test_a_dead_agent_is_said_and_missing_never_a_guess():
    k = knee(level(40, profile(downstream=8.0)), level(60, None))
    found = wait_knee.of(k, None, expected=True, stopped="java.io.IOException: No space left on device")
    assert found.sentence == (
        "no wait profile at 60 rps: the wait agent had stopped sampling (java.io.IOException: No space left on device)"
    )
    assert found.limit_met_first("none of the models") == "none of the models"  # no site was measured
    assert found.missing == ["the wait agent stopped sampling: java.io.IOException: No space left on device"]


def test_a_run_without_the_agent_misses_nothing_one_with_it_names_the_missing_file():
    k = knee(level(40, None), level(60, None))
    why = "no wait profile: platform/raw/thread/waits.tsv was not written (the wait agent did not run)"
    before = wait_knee.of(k, why, expected=False)
    assert before.sentence == why and before.missing == []
    assert wait_knee.of(k, why, expected=True).missing == [why]


def test_no_growth_no_baseline_and_no_knee_are_said_in_words():
    flat = knee(level(40, profile(downstream=8.0)), level(60, profile(downstream=8.2)))
    assert wait_knee.at_knee(flat, None).startswith("no site's waiting grew from 40 rps to 60 rps")
    alone = knee(None, level(60, profile(downstream=8.0)))
    assert wait_knee.at_knee(alone, None).startswith("no healthy level below 60 rps has a profile")
    assert wait_knee.at_knee(knee(None, None, collapsed=False), None) is None
    assert wait_knee.explained(flat, None)[1] is None  # a reason, never a record of a site


def test_the_site_at_the_knee_is_a_record_and_its_sentence_is_written_from_it():
    """Issue 51 §3: `waits_at_knee_site` holds what the sentence says — site, category, the class blocked on, the mean
    requests at both levels, the share, the dumps — and the sentence is that record in words, never a second
    source."""
    healthy = level(40, profile(downstream=8.0))
    pool = Site("pool", "HikariCP's connection pool (HikariPool)", 22.7, 0.8, "java.util.concurrent.SynchronousQueue")
    closing = level(60, LevelWaits(12, 300, None, (pool, Site("downstream", "the downstream site", 5.0, 0.2))))
    sentence, site = wait_knee.explained(knee(healthy, closing), None)
    assert site is not None and sentence == wait_knee.words(site)
    assert site.as_json() == {
        "site": "HikariCP's connection pool (HikariPool)",
        "category": "pool",
        "blocked_on": "java.util.concurrent.SynchronousQueue",
        "at_rps": 60,
        "mean_requests": 22.7,
        "share": 0.8,
        "dumps": 12,
        "before_rps": 40,
        "mean_requests_before": 0.0,
        "dumps_before": 10,
        "others": [{"category": "downstream", "site": "the downstream site", "mean_requests": 5.0, "share": 0.2}],
    }
    assert "(its threads blocked on java.util.concurrent.SynchronousQueue)" in sentence
    # what summary.json keeps is what the page says: the record read back gives the same sentence
    mode = records.ModeRecord.from_mapping({"waits_at_knee": sentence, "waits_at_knee_site": site.as_json()})
    limit = mode.limit
    assert limit.waits_at_knee_site is not None and wait_knee.words(limit.waits_at_knee_site) == limit.waits_at_knee
    assert wait_knee.of(knee(healthy, closing), None, expected=True).site == site


def test_no_profile_no_record_and_the_sentence_says_why():
    why = "no wait profile: platform/raw/thread/waits.tsv was not written (the wait agent did not run)"
    found = wait_knee.of(knee(level(40, None), level(60, None)), why, expected=False)
    assert found.site is None and found.sentence == why


def test_a_site_is_blocked_on_the_class_most_of_its_threads_parked_on():
    stack = "org.apache.catalina.connector.CoyoteAdapter.service;com.zaxxer.hikari.pool.HikariPool.getConnection"
    stack += ";jdk.internal.misc.Unsafe.park"
    queue, other = "java.util.concurrent.SynchronousQueue", "java.lang.Object"
    threads = (
        (3, Sample("platform", "TIMED_WAITING", queue, stack)),
        (1, Sample("platform", "TIMED_WAITING", other, stack)),
        (5, Sample("platform", "TIMED_WAITING", "-", stack)),
    )
    found = profile_of([SecondSamples(1, 4, 0.0, threads)])
    assert found is not None and [(s.category, s.blocked_on) for s in found.sites] == [("pool", queue)]
    nothing = profile_of([SecondSamples(1, 4, 0.0, ((2, Sample("platform", "TIMED_WAITING", "-", stack)),))])
    assert nothing is not None and nothing.sites[0].blocked_on is None
