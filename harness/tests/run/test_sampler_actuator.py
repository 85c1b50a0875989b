"""The sampler's reading of an app's own Actuator metrics: a gauge's value, and one statistic of a timer
(`hikaricp.connections.usage:TOTAL_TIME`), as Spring Boot's /actuator/metrics/<name> answers them. A real HTTP server
on an ephemeral loopback port answers like Actuator; the real script samples it for a few seconds."""

import csv
import os

from conftest import wait_for
from standin import json_server, start_sampler

from loadlab.core.app import ACTUATOR_METRICS, HIKARI_MAX, HIKARI_USAGE, HIKARI_USAGE_COUNT, HIKARI_USAGE_TOTAL_S

# As Boot answers: a gauge has one VALUE measurement, a timer COUNT, TOTAL_TIME (seconds) and MAX.
ANSWERS = {
    HIKARI_MAX: [{"statistic": "VALUE", "value": 2.0}],
    HIKARI_USAGE: [
        {"statistic": "COUNT", "value": 1500.0},
        {"statistic": "TOTAL_TIME", "value": 45.5},
        {"statistic": "MAX", "value": 0.04},
    ],
}


def read_rows(out) -> list[dict]:
    """actuator.csv's rows that hold a reading (the first second may come before the reader's first answer)."""
    return [r for r in csv.DictReader(out.open()) if r[HIKARI_MAX]] if out.exists() else []


def actuator(path: str) -> dict | None:
    """GET /actuator/metrics/<name> as Boot answers it; None (404) for a metric the app does not have."""
    name = path.rsplit("/", 1)[-1]
    return {"name": name, "measurements": ANSWERS[name]} if name in ANSWERS else None


def test_a_gauge_and_a_timers_statistics_are_recorded_each_in_its_column(tmp_path):
    server = json_server(actuator)
    (tmp_path / "p.pid").write_text(str(os.getpid()))
    out = tmp_path / "actuator.csv"
    try:
        sampler = start_sampler(
            tmp_path / "p.pid",
            tmp_path / "samples.csv",
            "--actuator-url",
            f"http://127.0.0.1:{server.server_port}/actuator/metrics",
            "--actuator-out",
            str(out),
            "--actuator-metrics",
            ",".join(ACTUATOR_METRICS),
        )
        try:
            rows = wait_for(lambda: read_rows(out), "a row of actuator.csv with the app's gauges")
        finally:
            sampler.terminate()
            sampler.wait(timeout=10)
    finally:
        server.shutdown()
    assert {r[HIKARI_USAGE_TOTAL_S] for r in rows} == {"45.5"}, rows
    assert {r[HIKARI_USAGE_COUNT] for r in rows} == {"1500.0"}, rows
    assert {r[HIKARI_MAX] for r in rows} == {"2.0"}, rows
    assert {r["hikaricp.connections.pending"] for r in rows} == {""}, rows  # not exposed: a blank cell
