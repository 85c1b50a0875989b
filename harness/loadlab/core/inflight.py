"""The injectors' in-flight valve and the lab's rule for a healthy load under it.

The simulation stops its load above INJECTOR_MAX_INFLIGHT outstanding requests per injector (loadlab.maxInflight),
well below Gatling's 20,000 open files, which cannot be raised (MACHINE-NOTES). A healthy level must be able to double
its in-flight count (Little's law: rate x mean request time) before that valve cuts it, so a level the valve stops
has collapsed rather than merely being long: a run whose healthy load would keep more than HEALTHY_INFLIGHT_MAX in
flight per injector is refused before anything starts (`range_errors`), and a brownout's rate is held under it
(brownout_profile.cap).

Standard library only: params.py (run before the venv exists) checks the parameters with it.
"""

from __future__ import annotations

from loadlab.core import fanout
from loadlab.core.run_params import RunParams

INJECTOR_MAX_INFLIGHT = 5000  # the simulation's valve per injector (LoadConfig's maxInflight)
INFLIGHT_HEADROOM = 2.0  # a healthy level may double its in-flight count before the valve cuts it
HEALTHY_INFLIGHT_MAX = INJECTOR_MAX_INFLIGHT / INFLIGHT_HEADROOM
INFLIGHT_RULE = f"PEAK_RPS / INJECTORS x (mean delay + CPU_MS) / 1000 <= {HEALTHY_INFLIGHT_MAX:.0f}"


def range_errors(values: RunParams) -> list[str]:
    """One line when a healthy service at PEAK_RPS would keep more requests in flight per injector than the rule
    allows (INFLIGHT_RULE)."""
    injectors = values.injectors
    dist = fanout.request_distribution(values)
    mean = dist.mean_ms() + values.cpu_ms
    inflight = float(values.peak_rps) / injectors * mean / 1000.0
    if inflight <= HEALTHY_INFLIGHT_MAX:
        return []
    top = int(HEALTHY_INFLIGHT_MAX * injectors * 1000 // max(mean, 1))
    return [
        f"PEAK_RPS={values.peak_rps} with requests of {mean:.0f} ms"
        f"{'' if dist.is_constant else ' (mean)'} keeps "
        f"{inflight:.0f} requests in flight per injector even on a healthy service, over "
        f"{HEALTHY_INFLIGHT_MAX:.0f} (half the injector's safety cap of {INJECTOR_MAX_INFLIGHT} "
        f"outstanding requests, below its 20,000 open files); allowed: PEAK_RPS <= {top} at DELAY_MS="
        f"{values.delay_ms} with INJECTORS={injectors} (or more INJECTORS)"
    ]
