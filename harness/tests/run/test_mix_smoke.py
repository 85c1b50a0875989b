"""APP_REQUESTS before any load: every kind sent once, with its method, its body and its content type, through the
harness's own probe (loadlab-host http-status on the app's host, curl) against a loopback server; a kind answering 404
refuses the run in one line naming its line and kind."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest
from bench_run import service_of
from builders import run_params

from loadlab.core.errors import ExitCode
from loadlab.run import appservice
from loadlab.run.hosts import LocalHost

HEADER = "name,weight,method,path,body,content_type\n"


class Shop(BaseHTTPRequestHandler):
    """GET /items/<n> 200; POST /carts 201 for a JSON body with a quantity, else 400; anything else 404."""

    seen: list = []

    def do_GET(self):  # noqa: N802 - the standard library's name
        self.seen.append(("GET", self.path, None))
        self._answer(200 if self.path.startswith("/items/") else 404)

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        self.seen.append(("POST", self.path, body))
        ok = self.headers.get("Content-Type") == "application/json" and json.loads(body).get("quantity")
        self._answer(201 if self.path == "/carts" and ok else 400)

    def _answer(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def shop():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Shop)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Shop.seen = []
    yield server.server_address[1]
    server.shutdown()


def run_with(tmp_path, monkeypatch, port, rows):
    (tmp_path / "mix.csv").write_text(HEADER + rows)
    (tmp_path / "cart.json").write_text('{"customer": {c:1..9}, "quantity": 2}')
    host = LocalHost("local", "127.0.0.1", state_dir=str(tmp_path / "state"), app_dir=str(tmp_path / "app"))
    monkeypatch.setattr(appservice, "url", lambda run, path: f"http://127.0.0.1:{port}{path}")
    monkeypatch.setattr(appservice.time, "sleep", lambda s: None)
    values = run_params(app="/apps/shop.jar", app_path="/", app_requests=str(tmp_path / "mix.csv"))
    return SimpleNamespace(
        service=service_of(values),
        topo=SimpleNamespace(thread=host),
        limits=SimpleNamespace(injector_request_timeout_ms=2000),
    )


def test_every_kind_is_sent_once_with_its_method_and_body_before_any_load(tmp_path, monkeypatch, shop):
    rows = "items,9,GET,/items/{id:5..50:zipf},,\ncart,1,POST,/carts,cart.json,application/json\n"
    appservice.check_path(run_with(tmp_path, monkeypatch, shop, rows), "platform")
    assert Shop.seen == [("GET", "/items/5", None), ("POST", "/carts", '{"customer": 1, "quantity": 2}')]
    assert appservice.probe_path(run_with(tmp_path, monkeypatch, shop, rows).service.requests) == "/items/5"


def test_a_kind_answering_404_is_refused_in_one_line_naming_its_line(tmp_path, monkeypatch, shop):
    rows = "items,9,GET,/items/{id:1..9},,\nsearch,1,GET,/search?q={q:1..3},,\n"
    with pytest.raises(appservice.AppRefused) as refused:
        appservice.check_path(run_with(tmp_path, monkeypatch, shop, rows), "virtual")
    text = str(refused.value)
    assert "\n" not in text and refused.value.exit_code == ExitCode.USAGE == 2
    named = f"APP_REQUESTS={tmp_path / 'mix.csv'} line 3 (kind search: GET /search?q=1) answered HTTP 404"
    assert text.startswith(named), text
    assert "on shop.jar in virtual mode, before any load" in text, text
