"""The sampler's probe of the delay-service when the service stalls: an unanswered probe is evidence of a slow
service from the first row it spans, not a blank cell until it ends (a starved delay-service once read as healthy
because the level it stalled in had only its fast probes from before the stall)."""

import importlib.machinery
import importlib.util
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from loadlab.run.hosts import HOST_SCRIPTS

STALL_S = 2.5  # the stand-in delay-service's answer time: far beyond the 100 ms the probe asks for


def sampler_module():
    loader = importlib.machinery.SourceFileLoader("loadlab_sample", str(HOST_SCRIPTS / "loadlab-sample"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Stalling(BaseHTTPRequestHandler):
    def do_GET(self):
        time.sleep(STALL_S)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


@pytest.fixture
def stalling_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Stalling)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/delay?ms=100"
    server.shutdown()


def test_a_probe_still_waiting_is_reported_as_a_lower_bound_above_the_wait_it_asked_for(stalling_url):
    probe = sampler_module().Probe(stalling_url, timeout_ms=10_000)
    probe.take()
    # The probe is sent mid-second; wait until it has been in flight for a while, then take a row as the sampler does.
    deadline = time.time() + 10
    while probe.waiting_since is None and time.time() < deadline:
        time.sleep(0.05)
    assert probe.waiting_since is not None, "the probe was never sent"
    time.sleep(0.5)
    waited_ms, failed = probe.take()
    assert waited_ms is not None and waited_ms > 100 and failed == 0, waited_ms
    # When it answers, the row holds its real latency, longer than any lower bound before it.
    while probe.waiting_since is not None and time.time() < deadline:
        time.sleep(0.05)
    answered_ms, failed = probe.take()
    assert answered_ms is not None and answered_ms > waited_ms and failed == 0, (answered_ms, waited_ms)


def test_a_probe_within_the_wait_it_asked_for_leaves_the_cell_blank(stalling_url):
    """A probe of a long delay (seconds) is still waiting at most rows while the service is healthy: those rows stay
    blank rather than holding times shorter than the wait itself."""
    probe = sampler_module().Probe(stalling_url.replace("ms=100", "ms=8000"), timeout_ms=20_000)
    deadline = time.time() + 10
    while probe.waiting_since is None and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    assert probe.take() == (None, 0)
