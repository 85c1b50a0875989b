"""APP_REQUESTS: each kind of the mix judged on its own files (the simulation's `kinds/<name>/` in every injector's
folder, the same three files as the injector's, KindOutputs.java), never derived from the mix's: its share actually
sent, its p50/p99 and errors per level from its own histograms, its .hgrm files, and which kind crossed its limit
first. The knee and the health rule stay the whole mix's (what a caller sees); a kind's limit is the health rule's
applied to its own baseline (its p50 at the level the mix's baseline was read on), since a cheap read and a slow write
share no latency; its tail is judged as far as its own answers resolve it (a few a level: by their count past it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from loadlab.analysis.health import tail_judged_by, tail_reason
from loadlab.analysis.holds import HoldTime, KindHold
from loadlab.analysis.levels import Level, level_number
from loadlab.core.thresholds import Thresholds
from loadlab.summary.reading import raw, seconds
from loadlab.summary.reading.injector_meta import MixKind
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.writing import hgrm_files

FOLDER = "kinds"  # KindOutputs.FOLDER: <injector>/kinds/<name>/, and <mode>/kinds/<name>/hgrm/ for its .hgrm files


@dataclass(frozen=True)
class KindLevel:
    """One kind at one level of the mix (a coarse level, or a fine pass's: `pass_name` refine-<k>)."""

    pass_name: str
    level: int  # its number in its pass, counted from 1
    mix_rps: float  # the mix's offered rate at this level: the stairs' rate is the mix's total
    sent: int
    share_pct: float | None  # of the mix's requests sent in this level
    ok: int
    errors: int
    p50_ms: int | None  # from the kind's own merged histogram of the level
    p99_ms: int | None
    crossed: str | None  # how it crossed its limit here ("p99 crossed its limit (1528 ms > 526 ms)"), None: held
    # the mix's level was set aside (its instrument saturated, analysis/set_aside.py): shown, never judged on
    set_aside: bool = False


@dataclass(frozen=True)
class KindRecord:
    """One kind of the mix in summary.json's `kinds` (docs/RESULTS.md): every field its key, as
    summary/schema/record_fields spells a plain dataclass."""

    name: str
    line: int  # its line in the mix file
    label: str  # `POST /carts`, placeholders as written
    weight_pct: float  # its share as asked
    sent_pct: float | None  # its share of the requests actually sent, over every measured level
    baseline_p50_ms: int | None
    p99_limit_ms: int | None  # the health rule on its own baseline
    levels: tuple[KindLevel, ...] = ()


def listed(mode_raw: RawMode) -> tuple[MixKind, ...]:
    """The kinds the simulation ran (meta.json `kinds`); () without a mix."""
    return next((inj.meta.kinds for inj in mode_raw.injectors if inj.meta.kinds), ())


def kind_raw(injectors_dir: Path, mode_raw: RawMode, name: str, shown_from: Path) -> RawMode:
    """One kind's files read like an injector's (with that injector's meta: its levels' bounds)."""
    missing: list[str] = []
    injectors = [
        raw.read_injector(injectors_dir / inj.name / FOLDER / name, inj.name, inj.meta, shown_from, missing, False)
        for inj in mode_raw.injectors
    ]
    return RawMode(injectors=injectors, thread_samples={}, jvm={}, delay_samples={}, pinned=None, missing=missing)


def records(
    mode_dir: Path,
    passes: list[tuple[str, RawMode, list[Level]]],
    lag_s: int,
    thresholds: Thresholds,
    write: bool,
    set_aside: frozenset[tuple[str, int]],
    baseline_position: int | None,
) -> list[KindRecord]:
    """Every kind of the mix, judged per level of every pass (pass name, its raw files, the mix's levels);
    set_aside: the mix's levels set aside (pass name, level position); baseline_position: the coarse pass's level the
    mix's baseline was read on (None: no level kept up); write: also each kind's .hgrm files."""
    kinds = listed(passes[0][1]) if passes else []
    out = []
    for kind in kinds:
        name = kind.name
        judged: list[tuple[str, Level, Level | None]] = []
        for pass_name, pass_raw, mix_levels in passes:
            injectors_dir = mode_dir / pass_name / "raw" if pass_name else mode_dir / "raw"
            kind_files = kind_raw(injectors_dir, pass_raw, name, mode_dir.parent)
            own = seconds.build_tables(kind_files, lag_s=lag_s, settle_s=int(thresholds.settle_s)).levels
            by_position = {lv.position: lv for lv in mix_levels}
            judged += [(pass_name, lv, by_position.get(lv.position)) for lv in own]
        if write:
            passes_levels = [(p, [lv for q, lv, _ in judged if q == p]) for p, _, _ in passes]
            hgrm_files.write(mode_dir / FOLDER / name, passes_levels)
        out.append(kind_record(kind, judged, thresholds, set_aside, baseline_position))
    return out


def kind_record(
    kind: MixKind,
    judged: list[tuple[str, Level, Level | None]],
    thresholds: Thresholds,
    aside: frozenset[tuple[str, int]],
    baseline_position: int | None,
) -> KindRecord:
    # the kind's own p50 at the level the mode's baseline was read on (analysis/baseline.py): never a first level
    # that broke or was set aside; none when no level of the coarse pass kept up
    first = next((lv.latency for p, lv, _ in judged if not p and lv.position == baseline_position and lv.latency), None)
    baseline = first.p50_ms if first else None
    limit = thresholds.p99_limit_ms(baseline) if baseline is not None else None
    levels = tuple(_level(p, lv, whole, limit, thresholds, (p, lv.position) in aside) for p, lv, whole in judged)
    sent = sum(lv.sent for _, lv, _ in judged)
    whole_sent = sum(whole.sent for _, _, whole in judged if whole)
    return KindRecord(
        name=kind.name,
        line=kind.line,
        label=kind.label,
        weight_pct=kind.hundredths / 100,
        sent_pct=round(100 * sent / whole_sent, 1) if whole_sent else None,
        baseline_p50_ms=baseline,
        p99_limit_ms=round(limit) if limit is not None else None,
        levels=levels,
    )


def _level(
    pass_name: str, lv: Level, whole: Level | None, limit: float | None, t: Thresholds, set_aside: bool
) -> KindLevel:
    p99 = lv.latency.p99_ms if lv.latency else None
    crossed = []
    # judged as far as the kind's own answers resolve its tail, as the mix's levels are (health.tail_reason): a kind
    # of a few requests a level has its slowest answer as its p99
    if (tail := tail_reason(lv, limit)) is not None and limit is not None:
        by_count = tail_judged_by(lv) == "count"
        crossed.append(
            f"tail crossed its limit ({tail})" if by_count else f"p99 crossed its limit ({p99} ms > {limit:.0f} ms)"
        )
    if lv.error_ratio > t.max_error_ratio:
        crossed.append(f"errors crossed the limit ({100 * lv.error_ratio:.1f}% > {100 * t.max_error_ratio:g}%)")
    return KindLevel(
        pass_name=pass_name,
        level=level_number(lv.position),
        mix_rps=lv.target_rps,
        sent=lv.sent,
        share_pct=round(100 * lv.sent / whole.sent, 1) if whole and whole.sent else None,
        ok=lv.ok,
        errors=lv.ko,
        p50_ms=lv.latency.p50_ms if lv.latency else None,
        p99_ms=p99,
        crossed=" and ".join(crossed) or None,
        set_aside=set_aside,
    )


def went_first(kinds: list[KindRecord], knee_rps: float | None) -> str | None:
    """Which kind crossed its own limit first, at the lowest rate of the mix, up to the mix's first unhealthy rate
    (knee_rps; None: the mix never collapsed, every level counts) and on levels that were not set aside, in words;
    None without a mix."""
    if not kinds:
        return None
    first: dict[str, KindLevel] = {}
    for kind in kinds:
        crossed = [
            lv for lv in kind.levels if lv.crossed and not lv.set_aside and (knee_rps is None or lv.mix_rps <= knee_rps)
        ]
        if crossed:
            first[kind.name] = min(crossed, key=lambda lv: lv.mix_rps)
    if not first:
        if all(lv.set_aside for kind in kinds for lv in kind.levels):
            return "every level was set aside (its instrument saturated): no kind is judged"
        if knee_rps is None:
            return "every kind held its own limit at every level that can be trusted"
        return f"no kind crossed its own limit up to the mix's knee at {knee_rps:g} rps: the mix fell short as a whole"
    rate = min(lv.mix_rps for lv in first.values())
    leaders = [k for k in kinds if k.name in first and first[k.name].mix_rps == rate]
    held = [k for k in kinds if k not in leaders]
    if len(leaders) == 1:
        lead = leaders[0]
        what = first[lead.name].crossed
        rest = "the others held" if len(held) > 1 else f"`{held[0].label}` held" if held else "it is the only kind"
        return f"`{lead.label}`'s {what} at {rate:g} rps while {rest}"
    quoted = [f"`{k.label}`" for k in leaders]
    names = ", ".join(quoted[:-1]) + " and " + quoted[-1]
    rest = f" while {', '.join(f'`{k.label}`' for k in held)} held" if held else ""
    return f"{names} crossed their limits together at {rate:g} rps{rest}"


def holds(kinds: list[KindRecord], shares: dict[str, float], held: set[tuple[str, int]]) -> tuple[KindHold, ...]:
    """A SCENARIO mix's kinds for its prediction (models.weighted_hold): each kind's share as asked and how long one
    of its requests holds a thread — its own baseline p50, between its lowest and highest p50 at the levels the knee
    stands on (held: the mix's healthy levels as (pass name, level number), none set aside); () when a kind has no
    baseline (no prediction is better than a wrong one)."""
    out = []
    for kind in kinds:
        if kind.name not in shares or kind.baseline_p50_ms is None:
            return ()
        used = [lv for lv in kind.levels if lv.p50_ms is not None and (lv.pass_name, lv.level) in held]
        p50s = [float(p50) for lv in used if (p50 := lv.p50_ms) is not None] + [float(kind.baseline_p50_ms)]
        rates = [lv.mix_rps for lv in used]
        hold = HoldTime(
            float(kind.baseline_p50_ms),
            f"{kind.name} baseline p50",
            min(p50s),
            max(p50s),
            len(used) or 1,
            (min(rates), max(rates)) if rates else None,
        )
        out.append(KindHold(kind.name, shares[kind.name], hold))
    return tuple(out)
