"""SCENARIO=fanout's parameters: each bad value or pair refused in one line naming it before anything starts, what
reaches the service and the injector, and the wait of the slowest of N calls the lab's limits follow."""

import random
import re

import pytest
from conftest import REPO
from refusals import refusal

from loadlab.analysis import served
from loadlab.core import downstream, fanout, params, timeouts


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"SCENARIO": "fanout", "FANOUT": "0"}, "FANOUT=0 is out of range; allowed: 1..64"),
        ({"SCENARIO": "fanout", "FANOUT": "65"}, "FANOUT=65 is out of range; allowed: 1..64"),
        ({"FANOUT": "8"}, "FANOUT=8 has no effect with SCENARIO=http; allowed: SCENARIO=fanout"),
        ({"SCENARIO": "fanout", "FANOUT_ON_TIMEOUT": "partial"}, "FANOUT_ON_TIMEOUT=partial answers at a deadline"),
        ({"SCENARIO": "fanout", "FANOUT_ON_TIMEOUT": "maybe"}, "FANOUT_ON_TIMEOUT='maybe' is not allowed"),
        ({"SCENARIO": "fanout", "FANOUT_TIMEOUT_MS": "1400"}, "FANOUT_TIMEOUT_MS=1400 is not below the lab's own"),
        ({"SCENARIO": "fanout", "FANOUT_POOL": "10", "MODES": "virtual"}, "FANOUT_POOL=10 sizes platform mode's"),
        ({"SCENARIO": "fanout:1 http:1"}, "'fanout' cannot be a kind of a mix"),
    ],
)
def test_a_bad_fan_out_is_refused_in_one_line_naming_it(env, said):
    assert said in refusal(**env)


def test_the_default_fan_out_sends_four_calls_and_sizes_the_executor_as_a_team_would():
    v = params.parse({"SCENARIO": "fanout"})
    assert fanout.query(v) == "n=4"
    assert fanout.thread_service_args(v, 200) == ["--fanout.pool=800"]
    # every run passes it: an empty FANOUT_POOL in the environment (make exports it) would not start the service
    assert fanout.thread_service_args(params.parse({}), 200) == ["--fanout.pool=200"]


def test_a_deadline_reaches_the_injectors_query():
    v = params.parse({"SCENARIO": "fanout", "FANOUT": "16", "FANOUT_TIMEOUT_MS": "300", "FANOUT_ON_TIMEOUT": "partial"})
    assert fanout.query(v) == "n=16&timeoutMs=300&onTimeout=partial"
    assert fanout.pool(params.parse({"SCENARIO": "fanout", "FANOUT_POOL": "50"}), 200) == 50


def test_the_slowest_of_n_has_the_quantile_of_one_call_at_q_to_the_one_over_n():
    one = downstream.Distribution("lognormal", 100, p99_ms=800)
    slowest = fanout.SlowestOf(one, 10)
    assert slowest.p50_ms() == pytest.approx(one.quantile_ms(0.5**0.1))
    # "The Tail at Scale": ten calls' median is one call's p93 (0.5 ** 0.1 = 0.933).
    assert one.quantile_ms(0.933) == pytest.approx(slowest.p50_ms(), rel=0.001)


def test_the_slowest_of_ns_mean_is_what_drawing_gives():
    one = downstream.Distribution("lognormal", 100, p99_ms=800)
    draw = random.Random(7)
    drawn = [max(one.quantile_ms(draw.random()) for _ in range(4)) for _ in range(40_000)]
    assert fanout.SlowestOf(one, 4).mean_ms() == pytest.approx(sum(drawn) / len(drawn), rel=0.02)
    assert fanout.SlowestOf(downstream.Distribution("constant", 200), 16).mean_ms() == pytest.approx(200)


def test_the_labs_limits_follow_the_slowest_call_not_one_call():
    one = {"DELAY_DIST": "lognormal", "DELAY_MS": "100", "DELAY_P99_MS": "800"}
    single = timeouts.derive(params.parse(one))
    fanned = timeouts.derive(params.parse({**one, "SCENARIO": "fanout", "FANOUT": "16"}))
    assert fanned.expected_ms > 2 * single.expected_ms
    assert fanned.healthy_max_ms > single.healthy_max_ms
    assert fanned.thread_service_timeout_ms > single.thread_service_timeout_ms


# The request's limits and the call's header are the contract both services share (service-contract/).
JAVA = REPO / "service-contract" / "src" / "main" / "java" / "loadlab" / "thread"


def java_string(path, name: str) -> str:
    found = re.search(rf"\b{name}\s*=\s*(\"[^\"]*\"|\d+)", path.read_text())
    assert found, (path, name)
    return found.group(1).strip('"')


def test_the_java_and_python_sides_name_the_fan_out_alike():
    assert int(java_string(JAVA / "fanout" / "FanOutRequest.java", "MAX_CALLS")) == fanout.FANOUT_MAX
    assert int(java_string(JAVA / "fanout" / "FanOutRequest.java", "DEFAULT_CALLS")) == fanout.FANOUT_DEFAULT
    # the header each call carries is the one the delay-service reads (served.py holds it to ServedDelays)
    assert java_string(JAVA / "forward" / "DelayCall.java", "CALLER_WAITS_HEADER") == served.CALLER_WAITS_HEADER
    ids = set(
        re.findall(
            r"\"([a-z-]+)\"", "".join(p.read_text() for p in (REPO).glob("*-service/src/main/java*/**/*FanOut*.java"))
        )
    )
    assert set(fanout.SHAPES) <= ids, set(fanout.SHAPES) - ids
