"""The delay-service is warmed to its steady state before a run's first measured level (loadlab-host warm-http):
here against a stand-in that answers its first requests slowly, as a cold JVM does (no fixed port, no service)."""

import http.server
import os
import socketserver
import subprocess
import threading
import time

import pytest
from conftest import REPO

COLD_REQUESTS, COLD_S, WARM_S = 40, 0.3, 0.1


class ColdThenWarm(http.server.BaseHTTPRequestHandler):
    served = 0
    lock = threading.Lock()

    def do_GET(self):
        with ColdThenWarm.lock:
            ColdThenWarm.served += 1
            cold = ColdThenWarm.served <= COLD_REQUESTS
        time.sleep(COLD_S if cold else WARM_S)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 128


@pytest.fixture
def stand_in():
    ColdThenWarm.served = 0
    server = Server(("127.0.0.1", 0), ColdThenWarm)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/delay?ms=100"
    server.shutdown()


def warm(url: str, tmp_path, max_s: int = 20) -> list[str]:
    env = {**os.environ, "LOADLAB_STATE": str(tmp_path)}
    tool = REPO / "infra" / "host" / "loadlab-host"
    out = subprocess.run(
        [str(tool), "warm-http", url, "100", "20", str(max_s)], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_rounds_go_on_until_the_service_answers_at_its_steady_latency(stand_in, tmp_path):
    lines = warm(stand_in, tmp_path)
    rounds = [[int(x) for x in line.split()[1:]] for line in lines if line.startswith("round ")]
    assert lines[-1] == "steady 1" and len(rounds) >= 3, lines
    (first_median, _, _), (_, last_p90, failed) = rounds[0][1:], rounds[-1][1:]
    assert first_median > last_p90 and failed == 0, rounds  # the cold answers are behind the run's first level
    assert ColdThenWarm.served >= COLD_REQUESTS


def test_a_service_that_never_answers_is_reported_unsettled_not_waited_for_forever(tmp_path):
    lines = warm("http://127.0.0.1:9/delay?ms=100", tmp_path, max_s=1)  # the discard port: refused
    assert lines[-1] == "steady 0" and lines[0].split()[-1] == "48", lines  # every request of a round failed
