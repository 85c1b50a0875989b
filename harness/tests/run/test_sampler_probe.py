"""The sampler's probe of the delay-service when the service stalls: an unanswered probe is evidence of a slow
service from the first row it spans, not a blank cell until it ends (a starved delay-service once read as healthy
because the level it stalled in had only its fast probes from before the stall).

The stand-in delay-service holds the probe's request until the test lets it answer, so what is checked is the order
of events (rows taken while the probe waits, then the answer), never how long anything took."""

import importlib.machinery
import importlib.util
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import WAIT_S, wait_for

from loadlab.run.hosts import HOST_SCRIPTS


def sampler_module():
    loader = importlib.machinery.SourceFileLoader("loadlab_sample", str(HOST_SCRIPTS / "loadlab-sample"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def row_with_a_value(probe) -> tuple | None:
    row = probe.take()  # what the sampler writes into one row
    return row if row[0] is not None else None


class Held:
    """A delay-service that answers its first request only once `release` is set, and holds every later one until
    the test ends: the probe's first answer is the only one, so no later probe can stand in for it."""

    def __init__(self):
        self.release, self.closing, self.seen = threading.Event(), threading.Event(), 0
        held = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                held.seen += 1
                (held.release if held.seen == 1 else held.closing).wait(WAIT_S)
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    def url(self, ms: int) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/delay?ms={ms}"


@pytest.fixture
def held():
    h = Held()
    threading.Thread(target=h.server.serve_forever, daemon=True).start()
    yield h
    h.release.set()
    h.closing.set()
    h.server.shutdown()


def test_a_probe_still_waiting_is_reported_as_a_lower_bound_above_the_wait_it_asked_for(held):
    probe = sampler_module().Probe(held.url(100), timeout_ms=10 * WAIT_S * 1000)
    # Rows taken while the probe is unanswered: the first one with a value holds how long it has waited so far.
    waited_ms, failed = wait_for(lambda: row_with_a_value(probe), "a row with a value while the probe waits")
    assert probe.waiting_since is not None and held.seen == 1, "the probe had already been answered"
    assert waited_ms > 100 and failed == 0, waited_ms  # a lower bound: already beyond the wait it asked for
    # Once it is answered, the next row holds its real latency, longer than any lower bound before it.
    held.release.set()
    wait_for(lambda: probe.last_ms is not None, "the probe's answer recorded", poll_s=0.02)
    answered_ms, failed = probe.take()
    assert answered_ms is not None and answered_ms > waited_ms and failed == 0, (answered_ms, waited_ms)


def test_a_probe_within_the_wait_it_asked_for_leaves_the_cell_blank(held):
    """A probe of a long delay (seconds) is still waiting at most rows while the service is healthy: those rows stay
    blank rather than holding times shorter than the wait itself; its answer, when it comes, is a row's value."""
    probe = sampler_module().Probe(held.url(8000), timeout_ms=10 * WAIT_S * 1000)
    wait_for(lambda: probe.waiting_since is not None, "the probe sent", poll_s=0.02)
    assert [probe.take() for _ in range(5)] == [(None, 0)] * 5
    held.release.set()
    wait_for(lambda: probe.last_ms is not None, "the probe's answer recorded", poll_s=0.02)
    answered_ms, failed = probe.take()
    assert answered_ms is not None and failed == 0
