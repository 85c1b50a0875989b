"""A kept real run's `prescription` in summary.json and its "What to change" on the page: the platform pool whose knee
met Little's law is lifted by PLATFORM_THREADS to the next limit the run predicts, the CPU's."""

import math
import shutil
from pathlib import Path

from loadlab import report
from loadlab.summary import records

DATA = Path(__file__).parents[1] / "data"


def test_ten_platform_threads_are_raised_to_carry_the_cpu_s_predicted_knee(tmp_path):
    run = tmp_path / "set_aside_injector"
    shutil.copytree(DATA / "set_aside_injector", run)  # 10 threads, DELAY_MS=100: knee 94–98, Little 83–98
    m = report.rebuild(run).modes["platform"]
    p = m.prescription
    assert (p.limit, p.setting, p.app_setting) == (
        "threads (Little's law)",
        "PLATFORM_THREADS",
        "server.tomcat.threads.max",
    )
    assert p.current == 10 and p.applicable and p.rate_rps == 1208.5  # the CPU's predicted knee, the next rung
    assert math.isclose(p.hold_ms, 118.0)  # the model's hold: 10 threads / 85 rps
    assert p.to == math.ceil(1208.5 * 0.118) and p.to_p99 > p.to
    assert p.words.startswith(f"threads (Little's law): PLATFORM_THREADS 10 → {p.to}")
    assert records.read(run).modes["platform"].prescription == p
    page = (run / "index.html").read_text(encoding="utf-8")
    assert '<section id="what-to-change"><h2>What to change</h2>' in page and f"PLATFORM_THREADS 10 → {p.to}" in page
