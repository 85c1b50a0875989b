"""APP_PATH that never answers: the app started, but a GET of the path the load would ask for hangs. The run is
refused before any load, in one line that says so and names the timeout, with the harness's own probe (loadlab-host
http-status on the app's host) against a loopback server that accepts connections and never replies."""

import socket
import threading
from types import SimpleNamespace

import pytest
from bench_run import service_of
from builders import run_params

from loadlab.core.errors import ExitCode
from loadlab.run import appservice
from loadlab.run.hosts import LocalHost


@pytest.fixture
def silent_port():
    """A listening socket whose connections are accepted and then left without an answer."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    stop.set()
    for conn in held:
        conn.close()
    server.close()


def test_an_app_path_that_hangs_is_refused_in_one_line_before_any_load(tmp_path, silent_port, monkeypatch):
    host = LocalHost("local", "127.0.0.1", state_dir=str(tmp_path / "state"), app_dir=str(tmp_path / "app"))
    run = SimpleNamespace(
        service=service_of(run_params(app="/apps/orders.jar", app_path="/orders?customer=42")),
        topo=SimpleNamespace(thread=host),
        limits=SimpleNamespace(injector_request_timeout_ms=1000),
    )
    monkeypatch.setattr(appservice, "url", lambda run, path: f"http://127.0.0.1:{silent_port}{path}")
    monkeypatch.setattr(appservice.time, "sleep", lambda s: None)  # the retries' pauses, not the probe's timeout
    with pytest.raises(appservice.AppRefused) as refused:
        appservice.check_path(run, "virtual")
    text = str(refused.value)
    assert "\n" not in text and refused.value.exit_code == ExitCode.USAGE == 2
    assert text.startswith("APP_PATH=/orders?customer=42 did not answer within 1 s (the load's request timeout)")
    assert "on orders.jar in virtual mode, before any load" in text, text
