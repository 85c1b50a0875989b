"""REPEAT=n: the whole comparison run n times into one run folder (`rep-<k>/<mode>/…`), and what the repetitions
say together: per mode the median sustained rate with its range, the ratio's median and range, and whether the
spread is the machine's noise rather than a property of the thread model.

Only valid repetitions count towards a median (an invalid one measured something else); the mode shown on the page
and in summary.json's `modes` is the repetition whose sustained rate is the median (the lower of the two middle ones
for an even count), so every number next to it comes from one real run.
"""

from __future__ import annotations

import statistics

from loadlab.analysis import ratio_interval
from loadlab.summary.schema.detail_records import (
    ModeSpreadRecord,
    RatioSpreadRecord,
    RatioValueRecord,
    RepeatsRecord,
    RepetitionRow,
)
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

# A spread (max − min) above this share of the median is named as noise on the page.
NOISE_SPREAD = 0.10


def aggregate(repetitions: list[tuple[int, RunSummary]]) -> RepeatsRecord:
    """repetitions: (k, that repetition's summary) in order; returns summary.json's `repeats`."""
    labels: list[str] = []
    for _, rep in repetitions:
        labels += [label for label in rep.modes if label not in labels]
    # a bound's figure is the end its brackets carry, never its point (ratio_interval.figure): the spread is of those
    known = [
        ratio_interval.quotable(float(rep.virtual_over_platform), rep.virtual_over_platform_interval)
        for _, rep in repetitions
        if isinstance(rep.virtual_over_platform, (int, float))
    ]
    return RepeatsRecord(
        n=len(repetitions),
        noise_threshold=NOISE_SPREAD,
        modes={label: _mode(label, repetitions) for label in labels},
        ratio=RatioSpreadRecord(
            median=_round(statistics.median(known), 2) if known else None,
            min=min(known, default=None),
            max=max(known, default=None),
            # the repetitions whose ratio is a bound (a mode held the top of the stairs): their spread is no measure
            bounds={
                str(k): kind
                for k, rep in repetitions
                if rep.virtual_over_platform is not None
                and (kind := ratio_interval.bound_of(rep.virtual_over_platform_interval))
            },
            # each repetition's ratio with its own interval (its knees' brackets): the spread across repetitions
            # (min, max) beside what each one could tell
            values=[
                RatioValueRecord(
                    repetition=k,
                    virtual_over_platform=rep.virtual_over_platform,
                    virtual_over_platform_interval=rep.virtual_over_platform_interval,
                )
                for k, rep in repetitions
            ],
        ),
    )


def median_repetition(label: str, repetitions: list[tuple[int, RunSummary]]) -> int | None:
    """The repetition whose sustained rate is the median of the valid ones (else of all) for this mode."""
    entries = [(k, rep.modes[label]) for k, rep in repetitions if label in rep.modes]
    pool = [(k, m) for k, m in entries if m.validity.valid] or entries
    if not pool:
        return None
    ordered = sorted(pool, key=lambda e: (e[1].sustained_rps or 0, e[0]))
    return ordered[(len(ordered) - 1) // 2][0]


def _mode(label: str, repetitions: list[tuple[int, RunSummary]]) -> ModeSpreadRecord:
    rows = [
        RepetitionRow(
            repetition=k,
            sustained_rps=m.sustained_rps,
            collapsed=m.collapsed,
            knee_interval_rps=m.knee.interval_rps,
            valid=bool(m.validity.valid),
            invalid_reasons=list(m.validity.invalid_reasons or []),
            host_cpu_pct_at_sustained=host_cpu_at(m, m.sustained_rps, healthy=True),
            host_cpu_pct_at_knee=host_cpu_at(m, (m.knee.interval_rps or [None, None])[1], healthy=False),
        )
        for k, rep in repetitions
        if (m := rep.modes.get(label)) is not None
    ]
    used = [r for r in rows if r.valid and isinstance(r.sustained_rps, (int, float))]
    values = [float(r.sustained_rps) for r in used if r.sustained_rps is not None]
    if not values:
        return ModeSpreadRecord(
            median=None,
            min=None,
            max=None,
            spread_ratio=None,
            noise=None,
            repetitions_used=0,
            repetitions=rows,
            median_repetition=median_repetition(label, repetitions),
            evidence="no valid repetition of this mode",
        )
    median = statistics.median(values)
    spread = (max(values) - min(values)) / median if median else None
    noise = spread is not None and spread > NOISE_SPREAD
    return ModeSpreadRecord(
        median=_round(median, 1),
        min=min(values),
        max=max(values),
        spread_ratio=None if spread is None else round(spread, 3),
        noise=noise,
        repetitions_used=len(values),
        repetitions=rows,
        median_repetition=median_repetition(label, repetitions),
        evidence=_evidence(used, values, spread, noise),
    )


def host_cpu_at(mode: ModeRecord, rate: float | None, healthy: bool) -> float | None:
    """The machine's CPU (host_cpu_pct) at the level of this rate — coarse or fine — healthy or not as asked."""
    if rate is None:
        return None
    for lv in mode.all_levels:
        if lv.target_rps == rate and bool(lv.healthy) == healthy:
            return lv.sampled.host_cpu_pct
    return None


def _evidence(rows: list[RepetitionRow], values: list[float], spread: float | None, noise: bool) -> str:
    cpus = [r.host_cpu_pct_at_sustained for r in rows if r.host_cpu_pct_at_sustained is not None]
    knees = [r.host_cpu_pct_at_knee for r in rows if r.host_cpu_pct_at_knee is not None]
    text = (
        f"sustained {min(values):,.0f}–{max(values):,.0f} rps over {len(values)} valid repetition"
        f"{'s' if len(values) > 1 else ''}, a spread of {spread or 0:.0%} of the median"
    )
    if cpus:
        text += f"; host CPU at the sustained level {min(cpus):.0f}–{max(cpus):.0f}%"
    if knees:
        text += f", at the first unhealthy level {min(knees):.0f}–{max(knees):.0f}%"
    if noise:
        text += (
            f": above {NOISE_SPREAD:.0%}, so this machine's noise moves this knee more than the resolution; "
            f"read the median, not one run"
        )
    return text


def _round(value: float, digits: int) -> float | int:
    value = round(value, digits)
    return int(value) if float(value).is_integer() else value
