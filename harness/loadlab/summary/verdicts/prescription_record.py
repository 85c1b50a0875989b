"""A mode's `prescription`: what would lift its limit (analysis/prescription.py), gathered from its verdict — the
model its knee met first, every limit predicted, the sizes it ran with, the wait profile at the knee — and spelled
as summary.json's record."""

from __future__ import annotations

from dataclasses import dataclass, fields

from loadlab.analysis import prescription
from loadlab.analysis.knee import Knee
from loadlab.analysis.levels import Level
from loadlab.analysis.model_inputs import Inputs
from loadlab.analysis.prediction import Prediction
from loadlab.analysis.wait_profile import Site, grew
from loadlab.core.asked import Asked
from loadlab.summary.judge.wait_knee import last_healthy
from loadlab.summary.schema.record_fields import Fields


@dataclass(frozen=True, kw_only=True)
class PrescriptionRecord(Fields):
    """`prescription` (docs/RESULTS.md): the limit, the setting that sizes it, its value now and the value to set,
    the rate and hold that give it, what it costs, or the code to change where no setting exists."""

    limit: str | None
    named_by: str | None
    setting: str | None
    app_setting: str | None
    current: float | None
    to: int | None
    to_p99: int | None
    rate_rps: float | None
    rate_from: str | None
    hold_ms: float | None
    hold_p99_ms: float | None
    hold_from: str | None
    applicable: bool | None
    reason: str | None
    code: str | None
    frames: list[str] | None
    costs: list[str] | None
    holders_elsewhere: str | None
    words: str | None


def record(p: prescription.Prescription) -> PrescriptionRecord:
    """The analysis's prescription as summary.json spells it: every field of the same name (a field the record does
    not declare is refused), lists as lists, the rate to 0.1."""
    values = {f.name: getattr(p, f.name) for f in fields(p)}
    rate = None if p.rate_rps is None else round(p.rate_rps, 1)
    return PrescriptionRecord.from_mapping({**values, "rate_rps": rate})


def sizes(x: Inputs) -> dict[str, float]:
    """Each sized limit's size as the run had it (live config, else its parameter), by the model's name."""
    found = {
        "little": x.threads if x.mode == "platform" else None,
        "pool": x.db_pool if x.scenario == "db" or any(k.name == "db" for k in x.kinds) else x.app_pool,
        "client_pool": x.client_pool.slots if x.client_pool else None,
        "connections": x.max_connections,
        "executor": x.fanout.executor_threads if x.fanout else None,
        "limit": x.concurrency_limit,
        "measured_pool": x.measured_pool_size,
    }
    return {k: float(v) for k, v in found.items() if v}


def of(
    x: Inputs,
    knee: Knee,
    within: tuple[Prediction, ...],
    met: Prediction | None,
    asked: Asked,
    memory_per_inflight_kb: float | None,
    out_of_cpu: bool = False,
) -> PrescriptionRecord:
    """The mode's prescription from its verdict's parts (summary/verdicts/verdict.py)."""
    good, bad = last_healthy(knee), knee.closing
    latency = good.latency if good is not None else None
    case = prescription.Case(
        mode=x.mode,
        collapsed=knee.collapsed,
        sustained_rps=knee.sustained_rps,
        named=met,
        predictions=within,
        current=sizes(x),
        client=None if asked.app else asked.client,
        app=bool(asked.app),
        target_rps=asked.target_rps,
        tail_ratio=latency.p99_ms / latency.p50_ms if latency and latency.p50_ms else None,
        site=_grown(good, bad),
        at_knee=bad.waits if bad is not None else None,
        healthy=good.waits if good is not None else None,
        healthy_rps=good.ok_rps if good is not None else None,
        host_threads=x.host_request_threads,
        memory_per_inflight_kb=memory_per_inflight_kb,
        out_of_cpu=out_of_cpu,
    )
    return record(prescription.prescribe(case))


def _grown(good: Level | None, bad: Level | None) -> Site | None:
    """The site whose waiting grew at the knee (wait_profile.grew), None when the profile names none."""
    growth = grew(good.waits if good else None, bad.waits if bad else None)
    return growth.site if growth is not None else None
