"""CLIENT and CLIENT_POOL: each bad value or pair refused in one line naming it, the thread-service's arguments, the
live config's check, the pool the client_pool model reads and what a 503 means with a pooled client."""

import pytest
from builders import run_params
from refusals import refusal

from loadlab.core import client, guards, params


def test_the_default_is_the_jdk_client_and_its_own_pool():
    v = params.parse({})
    assert v.client == "jdk" and v.client_pool is None
    assert client.thread_service_args(v) == ["--delay-service.client=jdk"]


def test_a_pooled_client_and_its_pool_reach_the_thread_service():
    v = params.parse({"CLIENT": "apache", "CLIENT_POOL": "50"})
    assert client.thread_service_args(v) == ["--delay-service.client=apache", "--delay-service.client-pool=50"]


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"CLIENT": "okhttp"}, "CLIENT='okhttp' is not allowed; allowed: jdk | apache | reactor"),
        ({"CLIENT": "apache", "CLIENT_POOL": "0"}, "CLIENT_POOL=0 is out of range; allowed: empty"),
        ({"CLIENT": "reactor", "CLIENT_POOL": "many"}, "CLIENT_POOL='many' is not a whole number; allowed: empty"),
        ({"CLIENT_POOL": "8"}, "CLIENT_POOL=8 sets a pool but CLIENT=jdk has none"),
        ({"CLIENT": "reactor", "MODES": "reactive"}, "CLIENT=reactor has no effect on MODES='reactive'"),
    ],
)
def test_a_bad_value_or_pair_is_refused_in_one_line(env, said):
    line = refusal(**env)
    assert line.startswith(said), line
    assert "allowed" in line


def test_a_users_jar_keeps_its_own_client():
    (line,) = client.cross_checks(run_params(client="apache", app="/x/app.jar", modes=("platform",)))
    assert line == (
        "CLIENT=apache cannot change the client of APP='/x/app.jar' (a user's jar keeps its own); allowed: CLIENT=jdk "
        "with APP"
    )


def test_the_reactive_service_beside_a_thread_mode_is_allowed():
    v = params.parse({"CLIENT": "reactor", "MODES": "platform reactive"})
    assert v.client == "reactor"


def test_the_live_config_must_name_the_client_and_pool_asked_for():
    asked = run_params(client="apache", client_pool=50)
    ran = {"downstream_client": "apache", "downstream_client_pool_per_route": 50}
    assert client.mismatches(ran, asked) == []
    assert client.mismatches({**ran, "downstream_client": "jdk"}, asked) == [
        "the thread-service called its downstream through the jdk client, not CLIENT=apache"
    ]
    assert client.mismatches({**ran, "downstream_client_pool_per_route": 5}, asked) == [
        "the apache client's pool had 5 connections per route, not CLIENT_POOL=50"
    ]
    # nothing said (an APP, an older run) or the reactive service's own client: nothing to compare
    assert client.mismatches({}, asked) == []
    assert client.mismatches({"downstream_client": "webclient"}, asked) == []


def test_the_pool_the_model_reads():
    assert client.pool("platform", {}, run_params(client="jdk"), 2) is None
    assert client.pool("reactive", {}, run_params(client="apache"), 2) is None
    assert client.pool("virtual", {}, run_params(client="apache"), 2).slots == 5
    assert client.pool("virtual", {}, run_params(client="apache", client_pool=40), 2).slots == 40
    assert client.pool("platform", {}, run_params(client="reactor"), 2).slots == 16
    assert client.pool("platform", {}, run_params(client="reactor"), 12).slots == 24
    reported = client.pool("platform", {"downstream_client_pool_per_route": 32}, run_params(client="reactor"), 2)
    assert reported.slots == 32 and "reported" in reported.source


def test_a_503_with_a_pooled_client_and_no_database_is_its_pool():
    meanings = {"status_503": "503 from the thread-service: its database pool was exhausted"}
    said = guards.kind_meanings(meanings, "virtual", run_params(client="apache", scenario="http"))
    assert "delay-service-client-pool-full" in said["status_503"]
    assert guards.kind_meanings(meanings, "virtual", run_params(client="apache", scenario="db")) == meanings
    assert guards.kind_meanings(meanings, "virtual", run_params(client="jdk", scenario="http")) == meanings
