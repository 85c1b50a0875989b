"""The knee explained by the wait profile, or why it cannot be: a dead agent, too few dumps, no healthy level to
compare with, nothing that grew. Never a site it did not measure."""

from types import SimpleNamespace

from loadlab.analysis.wait_profile import LevelWaits, Site
from loadlab.summary import wait_knee


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
    assert not wait_knee.named_site(wait_knee.at_knee(flat, None))
