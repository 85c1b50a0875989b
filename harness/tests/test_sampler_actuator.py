"""The sampler's reading of an app's own Actuator metrics: a gauge's value, and one statistic of a timer
(`hikaricp.connections.usage:TOTAL_TIME`), as Spring Boot's /actuator/metrics/<name> answers them. A real HTTP server
on an ephemeral loopback port answers like Actuator; the real script samples it for a few seconds."""

import csv
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from loadlab.core.app import ACTUATOR_METRICS, HIKARI_MAX, HIKARI_USAGE, HIKARI_USAGE_COUNT, HIKARI_USAGE_TOTAL_S
from loadlab.run.hosts import HOST_SCRIPTS

# As Boot answers: a gauge has one VALUE measurement, a timer COUNT, TOTAL_TIME (seconds) and MAX.
ANSWERS = {
    HIKARI_MAX: [{"statistic": "VALUE", "value": 2.0}],
    HIKARI_USAGE: [
        {"statistic": "COUNT", "value": 1500.0},
        {"statistic": "TOTAL_TIME", "value": 45.5},
        {"statistic": "MAX", "value": 0.04},
    ],
}


class Actuator(BaseHTTPRequestHandler):
    def do_GET(self):
        name = self.path.rsplit("/", 1)[-1]
        if name not in ANSWERS:
            self.send_response(404)
            self.end_headers()
            return
        body = json.dumps({"name": name, "measurements": ANSWERS[name]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_gauge_and_a_timers_statistics_are_recorded_each_in_its_column(tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Actuator)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    (tmp_path / "p.pid").write_text(str(os.getpid()))
    out = tmp_path / "actuator.csv"
    try:
        sampler = subprocess.Popen(
            [
                sys.executable,
                str(HOST_SCRIPTS / "loadlab-sample"),
                "--pid-file",
                str(tmp_path / "p.pid"),
                "--out",
                str(tmp_path / "samples.csv"),
                "--actuator-url",
                f"http://127.0.0.1:{server.server_port}/actuator/metrics",
                "--actuator-out",
                str(out),
                "--actuator-metrics",
                ",".join(ACTUATOR_METRICS),
            ]
        )
        time.sleep(3.5)
        sampler.terminate()
        sampler.wait(timeout=10)
    finally:
        server.shutdown()
    rows = [r for r in csv.DictReader(out.open()) if r[HIKARI_MAX]]
    assert rows, out.read_text()
    assert {r[HIKARI_USAGE_TOTAL_S] for r in rows} == {"45.5"}, rows
    assert {r[HIKARI_USAGE_COUNT] for r in rows} == {"1500.0"}, rows
    assert {r[HIKARI_MAX] for r in rows} == {"2.0"}, rows
    assert {r["hikaricp.connections.pending"] for r in rows} == {""}, rows  # not exposed: a blank cell
