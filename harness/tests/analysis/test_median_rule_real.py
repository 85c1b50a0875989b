"""Real raw files of a queue the p99's limit could not see (the health rule's median and completions criteria).

data/fanout_tail_queue: platform's coarse pass of `make bench SCENARIO=fanout FANOUT=4 DELAY_DIST=lognormal
DELAY_MS=400 DELAY_P99_MS=3200 SERVICE_CPUS=1 START_RPS=50 PEAK_RPS=450 STEPS=5 STEP_SECONDS=8` (run 20261128-112044
on this machine, docs/studies/fanout.md). Each request waits for the slowest of four calls whose p99 is 3.2 s, so the
p99's limit is 9.8 s; 200 Tomcat threads over the slowest call's 1.2 s mean hold about 160 requests a second, and at
250 rps the service's own counter started 156-162 a second while Tomcat's queue grew. Its requests still came back
within 9.8 s: the p99 rule alone read 250 rps healthy and put the knee above it. The files are the simulation's and
the samplers' as written; the fine passes (run at the time above 250), the flight recording, the wait agent's dumps,
the virtual and reactive columns and the page are left out."""

from conftest import summarised_copy


def test_a_queue_inside_a_tail_of_seconds_is_caught_by_the_median_and_the_completions_and_the_knee_brackets_littles_law(
    tmp_path,
):
    platform = summarised_copy(tmp_path, "fanout_tail_queue")[1]["modes"]["platform"]
    by_rate = {level["target_rps"]: level for level in platform["levels"]}
    queued = by_rate[250]
    assert not queued["healthy"]
    # the p99's limit did not see it (the level's p99 is within it); its median did, and what the service completed
    # in the level's own seconds: about what its 200 threads hold, Little's law's 162 a second
    assert queued["p99_ms"] < platform["p99_limit_ms"]
    late, median = queued["unhealthy_reasons"]
    assert "the median's" in median
    assert late.startswith("it completed 158.9 OK answers a second in its own seconds, below 95% of the 219.1 rps")
    assert by_rate[150]["healthy"] and by_rate[50]["healthy"]
    low, high = platform["knee_interval_rps"]
    little = 200 * 1000 / 1236  # Tomcat's threads over the slowest of four calls' mean (docs/studies/fanout.md)
    assert low <= little <= high, (low, high)
