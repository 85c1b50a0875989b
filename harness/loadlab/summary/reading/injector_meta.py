"""An injector's meta.json, typed: what its simulation said of its pass (the instants it anchored, the levels it
ran, why it stopped, its request timeout, the kinds of failures and of requests), read here once, after
core/upgrade.injector_meta filled in what older simulations did not write.

A field that is absent or of the wrong type reads as absent, as it always has (values.as_float for numbers): a
half-written file is normal input, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from loadlab.core.upgrade import Doc
from loadlab.summary.reading.values import as_float, int_or_none


@dataclass(frozen=True)
class ScheduledLevel:
    """One of meta.json's `levels`: a level's share on this injector and the instants it began and ended."""

    index: int  # counted from 0, as the simulation numbers its levels
    target_rps: float  # this injector's share of the level's rate (0 when unwritten)
    start_epoch_ms: float
    end_epoch_ms: float | None  # None: not written, the level had not ended (a crash cut it)


@dataclass(frozen=True)
class InflightCapStop:
    """meta.json's `stop_inflight_cap`: the simulation's in-flight cap stopped this injector's load."""

    inflight: float
    max_inflight: float | None


@dataclass(frozen=True)
class MixKind:
    """One of meta.json's `kinds`: a kind of request of APP_REQUESTS's mix (or of a SCENARIO mix)."""

    name: str  # its folder under kinds/
    line: int  # its line in the mix file (0 when unwritten)
    label: str  # how it is said: the request, or its name when none was written
    hundredths: float  # its weight in the mix, in hundredths of a percent (0 when unwritten)


@dataclass(frozen=True)
class InjectorMeta:
    start_epoch_ms: float | None = None  # when the schedule was anchored (its warm-up's start)
    measure_start_epoch_ms: float | None = None  # when the measured phase began
    levels: tuple[ScheduledLevel, ...] = ()  # the levels run; a level an early stop cut before it began is not here
    stopped_early: bool = False
    stop_reason: str | None = None
    request_timeout_ms: float | None = None  # `timeouts.request_ms`: the injector's own limit on a request
    # The simulation's failure kinds in its order (ErrorKind's ids) and what each means in its words; empty before
    # it wrote them.
    error_kinds: tuple[str, ...] = ()
    error_kind_meanings: Mapping[str, str] = field(default_factory=dict)
    stop_inflight_cap: InflightCapStop | None = None
    kinds: tuple[MixKind, ...] = ()  # the mix's kinds; empty without a mix

    @classmethod
    def parse(cls, doc: Doc) -> InjectorMeta:
        stopped = doc.get("stop_reason")
        timeouts, cap = doc.get("timeouts"), doc.get("stop_inflight_cap")
        kinds, meanings = _list(doc.get("kinds")), doc.get("error_kind_meanings")
        return cls(
            start_epoch_ms=as_float(doc.get("start_epoch_ms")),
            measure_start_epoch_ms=as_float(doc.get("measure_start_epoch_ms")),
            levels=tuple(lv for lv in map(_level, _list(doc.get("levels"))) if lv is not None),
            stopped_early=bool(doc.get("stopped_early")),
            stop_reason=str(stopped) if stopped else None,
            request_timeout_ms=as_float(timeouts.get("request_ms")) if isinstance(timeouts, dict) else None,
            error_kinds=tuple(str(k) for k in _list(doc.get("error_kinds"))),
            error_kind_meanings={str(k): str(v) for k, v in meanings.items()} if isinstance(meanings, dict) else {},
            stop_inflight_cap=_cap(cap) if isinstance(cap, dict) else None,
            kinds=tuple(_kind(k) for k in kinds if isinstance(k, dict) and k.get("name")),
        )


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _level(level: object) -> ScheduledLevel | None:
    """None for an entry the schedule cannot place: no index or no start."""
    if not isinstance(level, dict):
        return None
    index, start = int_or_none(level.get("index")), as_float(level.get("start_epoch_ms"))
    if index is None or start is None:
        return None
    return ScheduledLevel(index, as_float(level.get("target_rps")) or 0.0, start, as_float(level.get("end_epoch_ms")))


def _cap(cap: Doc) -> InflightCapStop | None:
    inflight = as_float(cap.get("inflight"))
    return None if inflight is None else InflightCapStop(inflight, as_float(cap.get("max_inflight")))


def _kind(kind: Doc) -> MixKind:
    name = str(kind["name"])
    return MixKind(
        name=name,
        line=int(as_float(kind.get("line")) or 0),
        label=str(kind.get("label") or name),
        hundredths=as_float(kind.get("hundredths")) or 0.0,
    )
