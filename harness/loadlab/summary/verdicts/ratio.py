"""virtual over platform: the run's ratios, per JDK and per platform pool size, as summary.json spells them.

With one pool size per JDK, a JDK's ratio is virtual's sustained rate over platform's (the contract). With a pool
sweep (PLATFORM_THREADS="200 1000 4000") the sceptic's question is whether *some* pool keeps up, so a JDK's ratio
is virtual over its **best pool**: the platform column with the highest sustained rate among those that can be
judged (valid, not crashed, a sustained level). A column that cannot be judged is never the best and never the
divisor; its own ratio is null with the reason. Fields:

- `virtual_over_platform`: the headline, the newest JDK's ratio (the only one with one JDK); for a bound the end
  its brackets carry (`carried`), as for every ratio below.
- `virtual_over_platform_interval`: `[low, high]`, what the two knees' brackets allow (analysis/ratio_interval.py);
  `high` null when virtual held the top of the stairs (a lower bound), `low` null when platform did (an upper one).
- `virtual_over_platform_basis`: the platform column the headline divides by (`platform`, `platform-t1000`, …).
- `virtual_over_platform_bound`: `lower` when only platform reached its knee (virtual held the top of the stairs:
  its knee, and so the ratio, lies higher), `upper` when only virtual did; null when both did. Neither: no ratio.
- `ratios`: with several JDKs, each JDK's ratio, keyed by the JDK (`{"21": 0.1, "25": 3.0}`); `ratios_intervals`
  each one's interval, keyed alike.
- `ratios_by_pool`: with a sweep, virtual over each platform column of the same JDK, keyed by that column's label;
  `ratios_by_pool_intervals` each one's interval; `ratios_by_pool_reasons`: why a column's ratio is null.
- `virtual_over_reactive` (with `virtual_over_reactive_reason` when null), when `reactive` ran: virtual's sustained
  rate over the reactive service's, on the headline JDK, by the same `ratio()`; `virtual_over_reactive_interval` and
  `virtual_over_reactive_bound` as `virtual_over_platform`'s, with the reactive service in platform's place.

Every ratio is `ratio()`: a mode missing, crashed, invalid or without a sustained level gives none, with the reason;
so do two modes that both held the top of the stairs (the ratio would be PEAK_RPS over itself).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from loadlab.analysis import ratio_interval
from loadlab.core.modelabel import ModeLabel
from loadlab.core.reactive import REACTIVE
from loadlab.core.summary_inputs import Inputs
from loadlab.summary.judge import crash as crashes
from loadlab.summary.reading.labels import mode_jdk
from loadlab.summary.verdicts.records import ModeRecord

Ratio = tuple[float | None, str | None]
Modes = dict[str, ModeRecord]  # a run's modes by label


@dataclass
class JdkColumns:
    """The columns of one JDK (None: the run's only JDK, labels without `-jdk`)."""

    virtual: str | None = None
    platforms: list[str] = field(default_factory=list)
    reactive: str | None = None


def columns_by_jdk(modes: Modes, only_jdk: int | None) -> dict[int | None, JdkColumns]:
    """only_jdk: the run's only JDK (asked.Asked.jdk), for a label that names none."""
    several_jdks = any(ModeLabel.parse(label).jdk is not None for label in modes)
    found: dict[int | None, JdkColumns] = {}
    for label in modes:
        parts = ModeLabel.parse(label)
        jdk = mode_jdk(label, only_jdk) if several_jdks else None
        if several_jdks and jdk is None:
            continue
        columns = found.setdefault(jdk, JdkColumns())
        if parts.mode == "virtual":
            columns.virtual = label
        elif parts.mode == "platform":
            columns.platforms.append(label)
        elif parts.mode == REACTIVE:
            columns.reactive = label
    return found


def judgeable(mode: ModeRecord | None) -> bool:
    return mode is not None and not mode.crashed and bool(mode.validity.valid) and bool(mode.sustained_rps)


def best_pool(modes: Modes, platforms: list[str]) -> str | None:
    """The platform column that sustained the most among those that can be judged (the first of equals)."""
    known = [label for label in platforms if judgeable(modes.get(label))]
    return max(known, key=lambda label: modes[label].sustained_rps or 0, default=None)


def jdk_ratio(modes: Modes, columns: JdkColumns, virtual_name: str = "virtual") -> tuple[Ratio, str | None]:
    """One JDK's ratio and the platform column it divides by."""
    virtual = modes.get(columns.virtual) if columns.virtual else None
    names = (columns.virtual or virtual_name, "platform")
    if len(columns.platforms) <= 1:
        platform = columns.platforms[0] if columns.platforms else None
        names = (names[0], platform or names[1])
        return ratio(virtual, modes.get(platform) if platform else None, names), platform
    best = best_pool(modes, columns.platforms)
    if best is None:
        reasons = "; ".join(
            reason for _, reason in (pool_ratio(modes, columns, label) for label in columns.platforms) if reason
        )
        return (None, f"no platform pool can be judged ({reasons})"), None
    return ratio(virtual, modes[best], (names[0], best)), best


def pool_ratio(modes: Modes, columns: JdkColumns, platform: str) -> Ratio:
    virtual = modes.get(columns.virtual) if columns.virtual else None
    return ratio(virtual, modes.get(platform), (columns.virtual or "virtual", platform))


def ratio_fields(modes: Modes, inputs: Inputs) -> dict[str, object]:
    """Every ratio field of summary.json (see the module's docstring)."""
    if inputs.load.brownout is not None:
        return no_knees(inputs.reactive)
    by_jdk = columns_by_jdk(modes, inputs.asked.jdk)
    headline_jdk = max((j for j in by_jdk if j is not None), default=None)
    headline = columns = by_jdk.get(headline_jdk, JdkColumns())
    (value, reason), basis = jdk_ratio(modes, columns)
    span = interval_of(modes, columns.virtual, basis, value)
    out: dict[str, object] = {
        "virtual_over_platform": carried(value, span),
        "virtual_over_platform_interval": span,
        "virtual_over_platform_reason": reason,
        "virtual_over_platform_basis": basis if value is not None else None,
        "virtual_over_platform_bound": (
            bound(modes.get(columns.virtual or ""), modes.get(basis or "")) if value is not None else None
        ),
    }
    if inputs.reactive or any(c.reactive for c in by_jdk.values()):
        virtual, reactive = (modes.get(name) if name else None for name in (headline.virtual, headline.reactive))
        names = (headline.virtual or "virtual", headline.reactive or REACTIVE)
        point, out["virtual_over_reactive_reason"] = ratio(virtual, reactive, names)
        span = interval(virtual, reactive) if point is not None else None
        out["virtual_over_reactive"], out["virtual_over_reactive_interval"] = carried(point, span), span
        out["virtual_over_reactive_bound"] = bound(virtual, reactive) if out["virtual_over_reactive"] else None
    if headline_jdk is not None:
        per_jdk = {str(j): (c, jdk_ratio(modes, c)) for j, c in sorted(by_jdk.items()) if j is not None}
        spans = {j: interval_of(modes, c.virtual, basis, r) for j, (c, ((r, _), basis)) in per_jdk.items()}
        out["ratios"] = {j: carried(r, spans[j]) for j, (_, ((r, _), _)) in per_jdk.items()}
        out["ratios_intervals"] = spans
    swept = [(c, label) for c in by_jdk.values() if len(c.platforms) > 1 for label in c.platforms]
    sweep = {label: (c, pool_ratio(modes, c, label)) for c, label in swept}
    if sweep:
        spans = {label: interval_of(modes, c.virtual, label, r) for label, (c, (r, _)) in sweep.items()}
        out["ratios_by_pool"] = {label: carried(r, spans[label]) for label, (_, (r, _)) in sweep.items()}
        out["ratios_by_pool_intervals"] = spans
        out["ratios_by_pool_reasons"] = {label: why for label, (_, (r, why)) in sweep.items() if r is None}
    return out


def no_knees(reactive: bool) -> dict[str, object]:
    """PROFILE=brownout holds one rate: no knee, so no ratio of knees; each mode's `brownout` is the comparison.
    reactive: MODES named reactive."""
    why = "PROFILE=brownout holds one rate, so there is no knee to compare: each mode's brownout figures compare them"
    out: dict[str, object] = {"virtual_over_platform": None, "virtual_over_platform_reason": why}
    if reactive:
        out.update(virtual_over_reactive=None, virtual_over_reactive_reason=why)
    return out


def carried(value: float | None, span: list[float | None] | None) -> float | None:
    """The ratio summary.json gives: the point of a closed interval, and for a bound the end its brackets carry
    (ratio_interval.quotable), never the point of the two sustained rates, which divides by the divisor's last
    healthy level where its knee may lie anywhere up to its first unhealthy one (250 / 25 = 10 where the brackets
    carry only 250 / 70 = 3.57: the value is 3.57)."""
    return None if value is None else ratio_interval.quotable(value, span)


def interval_of(
    modes: Modes, virtual: str | None, divisor: str | None, value: float | None
) -> list[float | None] | None:
    """The interval of a ratio that was claimed (value not None) between these two columns, else None."""
    if value is None or not virtual or not divisor:
        return None
    return interval(modes.get(virtual), modes.get(divisor))


def interval(virtual: ModeRecord | None, divisor: ModeRecord | None) -> list[float | None] | None:
    """[low, high] the two knees' brackets allow (analysis/ratio_interval.py); None on an open side."""
    if virtual is None or divisor is None:
        return None
    return ratio_interval.interval(_knee_range(virtual), _knee_range(divisor))


def _knee_range(mode: ModeRecord) -> ratio_interval.KneeRange | None:
    return ratio_interval.knee_range(mode.sustained_rps, mode.collapsed, mode.knee.interval_rps)


def ratio(
    virtual: ModeRecord | None, platform: ModeRecord | None, labels: tuple[str, str] = ("virtual", "platform")
) -> tuple[float | None, str | None]:
    """virtual / platform (or reactive) sustained throughput, or None with the reason no ratio can be claimed: a mode
    missing, crashed or invalid (a ratio from a run that cannot be trusted is not a result), or without a sustained
    level."""
    usable: list[tuple[ModeRecord, float]] = []
    for name, mode in ((labels[1], platform), (labels[0], virtual)):
        if mode is None:
            return None, f"{name} was not measured"
        if mode.crashed:
            return None, f"{name} crashed: {crashes.headline(mode.crashed)}"
        if not mode.validity.valid:
            first = (mode.validity.invalid_reasons or ["see its reasons"])[0]
            return None, f"{name} is invalid: {first}"
        if not mode.sustained_rps:
            return None, f"{name} sustained no level"
        usable.append((mode, float(mode.sustained_rps)))
    (platform_mode, platform_rps), (virtual_mode, virtual_rps) = usable
    if not virtual_mode.collapsed and not platform_mode.collapsed:
        unplaced = [name for name, m in ((labels[1], platform_mode), (labels[0], virtual_mode)) if _not_reproduced(m)]
        if unplaced:
            return None, (
                "neither mode reached a knee that reproduced: the unhealthy level of "
                f"{' and of '.join(unplaced)} was healthy when measured again, so each knee lies somewhere above the "
                "highest rate measured healthy and a ratio would measure where the stairs stopped, not the modes; "
                "measure again in smaller steps"
            )
        top = max(virtual_rps, platform_rps)
        return None, (
            f"neither mode reached its knee: {labels[1]} and {labels[0]} both held the top of the stairs "
            f"({top:,.0f} rps), so a ratio would measure PEAK_RPS, not the modes; raise PEAK_RPS"
        )
    return round(virtual_rps / platform_rps, 2), None


def bound(virtual: ModeRecord | None, platform: ModeRecord | None) -> str | None:
    """A ratio where one mode held the top of the stairs is a bound, not a measure: `lower` when virtual held it
    (its knee lies higher), `upper` when platform (or the reactive service) did; None when both collapsed."""
    if virtual is None or platform is None or virtual.collapsed == platform.collapsed:
        return None
    return "lower" if platform.collapsed else "upper"


def _not_reproduced(mode: ModeRecord) -> bool:
    """Its coarse unhealthy level was healthy when a fine pass measured it again: no knee, short of the top."""
    return bool(mode.knee.refine and mode.knee.refine.not_reproduced)
