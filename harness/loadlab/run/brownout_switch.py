"""PROFILE=brownout: the delay-service told, once per mode, when its brownout begins and ends (absolute instants,
core/brownout_profile.py's phases from the start of the measured phase), so it switches on time by itself; the
instants and its answer recorded in `<mode>/raw/brownout.json`, which the summary checks its served delays against.

The measured phase starts where the injectors anchored their seconds (meta.json's measure_start_epoch_ms, written as
the first user arrives); the command goes out during the warm-up and BROWNOUT_BEFORE, well ahead of the window.
"""

from __future__ import annotations

import json
import threading
import time

from loadlab.core import brownout_profile as brownout
from loadlab.run.context import Run
from loadlab.run.hosts import HostError
from loadlab.run.simulation import COARSE
from loadlab.run.topology import DELAY_PORT
from loadlab.summary.reading.raw import read_json

# The delay-service's own command (delay-service/…/BrownoutController.java) and the record beside the raw files.
COMMAND_PATH = "/loadlab/brownout"
RECORD = "brownout.json"
POLL_S = 0.2
COMMAND_TIMEOUT_S = 5


def start(run: Run, folder: str, start_at_ms: int) -> threading.Thread:
    """Schedules the mode's window in the background (the load goes on meanwhile); join it after the load."""
    thread = threading.Thread(target=schedule, args=(run, folder, start_at_ms), name="brownout", daemon=True)
    thread.start()
    return thread


def schedule(run: Run, folder: str, start_at_ms: int) -> dict[str, object]:
    plan = run.plan.brownout
    assert plan is not None  # started for PROFILE=brownout alone (bench.run_mode)
    measure_start, source = _measure_start(run, folder, start_at_ms, plan)
    window: dict[str, object] = {
        "from_epoch_ms": measure_start + plan.start_s * 1000,
        "to_epoch_ms": measure_start + plan.end_s * 1000,
        "ms": plan.ms,
        "measure_start_epoch_ms": measure_start,
        "measure_start_from": source,
    }
    window.update(_command(run, window))
    path = run.run_dir / folder / "raw" / RECORD
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(window, indent=2) + "\n")
    return window


def _measure_start(run: Run, folder: str, start_at_ms: int, plan: brownout.Schedule) -> tuple[int, str]:
    """The measured phase's first instant as the first injector anchored it, or, when it did not say so in time,
    the whole second after the go plus the warm-up (SecondAnchor's rule for a lone injector)."""
    meta = run.run_dir.joinpath(*COARSE.raw(folder, 0), "meta.json")
    deadline = time.time() + COARSE.warmup_seconds(run.plan) + plan.before_s / 2 + 2
    while time.time() < deadline:
        anchored = read_json(meta).get("measure_start_epoch_ms")
        if isinstance(anchored, (int, float)):
            return int(anchored), "meta.json"
        time.sleep(POLL_S)
    return (-(-start_at_ms // 1000) + COARSE.warmup_seconds(run.plan)) * 1000, "go instant"


def _command(run: Run, window: dict[str, object]) -> dict[str, object]:
    """The delay-service's answer: `scheduled` true with its own echo of the window, or false with why."""
    h = run.topo.delay
    url = (
        f"http://{h.address}:{DELAY_PORT}{COMMAND_PATH}?from={window['from_epoch_ms']}&to={window['to_epoch_ms']}"
        f"&ms={window['ms']}"
    )
    sent = int(time.time() * 1000)
    try:
        cp = h.run(
            ["curl", "-sS", "--max-time", str(COMMAND_TIMEOUT_S), "-X", "POST", "-w", "\n%{http_code}", url],
            check=False,
            timeout=COMMAND_TIMEOUT_S + 10,
        )
    except HostError as e:
        return {"scheduled": False, "commanded_epoch_ms": sent, "why": str(e)}
    body, _, code = cp.stdout.rpartition("\n")
    if code.strip() != "200":
        why = (body or cp.stderr).strip() or f"curl exit {cp.returncode}"
        return {"scheduled": False, "commanded_epoch_ms": sent, "why": f"HTTP {code.strip() or '-'}: {why}"}
    try:
        echo: object = json.loads(body)
    except ValueError:
        echo = body
    return {"scheduled": True, "commanded_epoch_ms": sent, "delay_service": echo}
