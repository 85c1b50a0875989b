"""The readers of loadlab-sample that ask over HTTP, each in a thread of its own or with a short timeout, so a slow
answer never delays the once-a-second CPU samples: the JVM metrics of /actuator/loadlab, the probe of the
delay-service's own latency, an app's Actuator gauges. Standard library only, like loadlab-sample beside it."""

import json
import threading
import time
import urllib.parse
import urllib.request


def read_jvm(url, fields):
    try:
        with urllib.request.urlopen(url, timeout=0.8) as r:
            data = json.load(r)
        return [data.get(k, -1) for k in fields]
    except Exception:  # noqa: BLE001 -- a sample missed under load is a blank row, never a dead sampler
        return None


class Probe:
    """GETs a URL once a second in its own thread, so a slow answer never delays the CPU samples.

    Probes run one after another: a service slower than a second is probed less often rather than piled on.
    The timeout is the harness's (--probe-timeout-ms, derived from DELAY_MS in harness/loadlab/core/timeouts.py);
    without it, 2 s beyond the `ms` the URL asks for (the delay-service's own wait).

    A probe still unanswered when a row is written is evidence too: a service that stalls mid-level would otherwise
    leave only blank cells until the probe ends, and a level judged on the fast probes before the stall would read
    as a healthy delay-service. Once the probe has waited longer than the wait it asked for, a row holds how long it
    has waited so far: a lower bound of its answer, already slower than the service's own wait.
    """

    def __init__(self, url, timeout_ms=None):
        self.url = url
        wait_ms = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("ms", ["0"])[0]
        self.asks_ms = int(wait_ms) if wait_ms.isdigit() else 0
        self.timeout = 2.0 + self.asks_ms / 1000.0
        if timeout_ms:
            self.timeout = timeout_ms / 1000.0
        self.lock = threading.Lock()
        self.last_ms, self.failed = None, 0
        self.waiting_since = None  # perf_counter() when the probe in flight was sent
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            # Mid-second, away from the CPU sample instants: a normal answer ends within the second it started in.
            time.sleep((0.5 - time.time() % 1.0) % 1.0 or 1.0)
            started = time.perf_counter()
            with self.lock:
                self.waiting_since = started
            try:
                with urllib.request.urlopen(self.url, timeout=self.timeout) as r:
                    r.read()
                    ok = 200 <= r.status < 300
            except Exception:  # noqa: BLE001 -- refused, timed out, 5xx: a failed probe, never a dead sampler
                ok = False
            elapsed_ms = 1000.0 * (time.perf_counter() - started)
            with self.lock:
                self.waiting_since = None
                if ok:
                    self.last_ms = elapsed_ms
                else:
                    self.failed += 1

    def take(self):
        """(latency of the last probe that ended since the previous call, else how long the probe in flight has
        waited so far, else None; failures since then)."""
        with self.lock:
            last = self.last_ms
            if last is None and self.waiting_since is not None:
                waited = 1000.0 * (time.perf_counter() - self.waiting_since)
                last = waited if waited > self.asks_ms else None
            taken = last, self.failed
            self.last_ms, self.failed = None, 0
        return taken


class Actuator:
    """Reads each metric (GET <base>/<name>) once a second in its own thread, so an app slow to answer under load
    never delays the CPU samples; a read that failed is a blank cell. A name is a gauge's (its first measurement) or
    `<name>:<STATISTIC>`, one measurement of a timer (COUNT, TOTAL_TIME, MAX); one GET per metric and second."""

    def __init__(self, base, names):
        self.base, self.names = base, names
        self.lock = threading.Lock()
        self.cells = [""] * len(names)
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            time.sleep((0.5 - time.time() % 1.0) % 1.0 or 1.0)
            read = {}
            for metric in dict.fromkeys(n.split(":", 1)[0] for n in self.names):
                try:
                    with urllib.request.urlopen(f"{self.base}/{metric}", timeout=0.4) as r:
                        read[metric] = json.load(r)["measurements"]
                except Exception:  # noqa: BLE001 -- absent or slow under load: blank cells, never a dead sampler
                    pass
            cells = [self.cell(read, name) for name in self.names]
            with self.lock:
                self.cells = cells

    @staticmethod
    def cell(read, name):
        metric, _, statistic = name.partition(":")
        found = [m for m in read.get(metric) or [] if not statistic or m.get("statistic") == statistic]
        return str(found[0]["value"]) if found else ""

    def take(self):
        with self.lock:
            taken, self.cells = self.cells, [""] * len(self.names)
        return taken
