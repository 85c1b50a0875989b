"""Stand-ins the sampler tests share: an HTTP server answering JSON on an ephemeral loopback port, and the real
loadlab-sample script started against it."""

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from loadlab.run.hosts import HOST_SCRIPTS


def json_server(answer: Callable[[str], object | None]) -> ThreadingHTTPServer:
    """Serves answer(path) as JSON (404 when it is None) until .shutdown()."""

    class Endpoint(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found = answer(self.path)
            if found is None:
                self.send_response(404)
                self.end_headers()
                return
            body = json.dumps(found).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def start_sampler(pid_file: Path, out: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(HOST_SCRIPTS / "loadlab-sample"), "--pid-file", str(pid_file), "--out", str(out), *args]
    )
