"""PROFILE=brownout: one mode's brownout figures as a typed record (summary.json's per-mode `brownout`), from its
judged seconds (analysis/brownout_judge.py), its recorded window (`<mode>/raw/brownout.json`, run/brownout_switch.py),
the delay-service's served-delay record and the service's samples. An instrument that failed (the window never
scheduled, the delay-service late to switch, an injector behind its schedule or stopped by its in-flight cap) is
named in `instrument_problems`, and recovery is then not claimed for the mode.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from loadlab.analysis import brownout_judge as judge
from loadlab.analysis import hlog, served
from loadlab.analysis.baseline import Baseline, first_steady
from loadlab.analysis.levels import level_number
from loadlab.core import brownout_profile as brownout
from loadlab.core import guards, metrics
from loadlab.core.asked import Asked
from loadlab.core.runrecord import RunRecord
from loadlab.core.summary_inputs import Brownout
from loadlab.core.thresholds import Thresholds
from loadlab.summary.judge import crash
from loadlab.summary.judge.cost_fits import inflight_at
from loadlab.summary.judge.judging import JudgedMode
from loadlab.summary.judge.served_check import run_folder
from loadlab.summary.reading.labels import base_mode, mode_threads
from loadlab.summary.reading.raw import RawMode, inflight_cap_stop
from loadlab.summary.reading.values import as_float
from loadlab.summary.schema.brownout_record import BrownoutPrediction, BrownoutRecord
from loadlab.summary.writing import outputs
from loadlab.summary.writing import server_columns as col

# Per second of the measured phase: what the brownout figure draws (report/brownout_section.py).
SERIES = "brownout.csv"
SERIES_COLUMNS = ["second", "offered_rps", "ok", "ko", "p99_ms", "inflight"]
RECORD = "brownout.json"  # run/brownout_switch.RECORD, in <mode>/raw/
BROWNOUT_TAG = "brownout"  # the served log's tag of the answers a brownout delayed (ServedDelays.Outcome.BROWNOUT)
# The injectors are behind when, over this many seconds, they sent less than this share of the schedule.
BEHIND_SHARE, BEHIND_WINDOW_S = 0.9, 3


def window_record(mode_dir: Path) -> dict[str, object] | None:
    path = mode_dir / "raw" / RECORD
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def record(
    judged: JudgedMode, mode_dir: Path, run: RunRecord, profile: Brownout, asked: Asked
) -> BrownoutRecord | None:
    """profile: the run's PROFILE=brownout (summary_inputs.Load.brownout)."""
    if judged.tables.t0 is None:
        return None
    plan, t0, raw = profile.schedule, judged.tables.t0, judged.raw
    seconds = [_second(row, raw, t0) for row in judged.tables.timeline]
    outputs.write_csv(mode_dir / SERIES, SERIES_COLUMNS, (_row(s) for s in seconds))
    thresholds = Thresholds.from_mapping(run.thresholds)
    ok_ratio = thresholds.ok_ratio
    limit = _p99_limit(judged, thresholds)
    recovered = None
    if limit is not None:
        stable = max(judge.MIN_STABLE_S, plan.level_s)  # no stretch shorter than a level is judged
        recovered = judge.recovery_s(seconds, plan.end_s, plan.total_s, limit, plan.rate, thresholds.ok_ratio, stable)
    before = judge.stretch(seconds, 0, plan.start_s)[1]
    baseline = before_brownout(judged, thresholds)
    limit_words = baseline.said if baseline.p50_ms is None and baseline.said else None
    if before < ok_ratio * plan.rate:
        # Recovery is a return to the rate it kept: a mode already queueing before the brownout has none to return to.
        # (Its p99 is not held against it here: over a short BROWNOUT_BEFORE it is a handful of answers.)
        recovered, limit_words = None, f"{before:.1f} OK answers a second of {plan.rate} offered"
    window = window_record(mode_dir)
    switch = _switch(mode_dir, run, window, t0, plan, seconds)
    died = _died_at(judged)
    problems = _instrument_problems(window, switch, seconds, plan, judged, died)
    model, note = _model(judged, profile, asked, baseline.p50_ms)
    return BrownoutRecord(
        rate_rps=plan.rate,
        brownout_ms=plan.ms,
        window_s=[plan.start_s, plan.end_s],
        window_epoch_ms=_epoch_window(window),
        goodput_rps=_round(judge.goodput_rps(seconds, plan.start_s, plan.end_s, plan.settle_s), 1),
        error_share=_round(judge.error_share(seconds, plan.start_s, plan.total_s), 4),
        peak_inflight=judge.peak_inflight(seconds),
        peak_service_inflight=_peak(judged.tables.server, metrics.INFLIGHT_REQUESTS),
        peak_heap_mb=_peak(judged.tables.server, col.HEAP_USED_MB),
        peak_rss_mb=_round(max((f.rss_mb for f in (raw.flight or {}).values() if f.rss_mb), default=None), 1),
        peak_threads=_peak(judged.tables.server, metrics.JVM_THREADS_LIVE),
        recovery_seconds=None if problems or died is not None else recovered,
        recovery=_died_words(judged) or _recovery_words(recovered, problems, plan, limit, limit_words),
        predicted={k: BrownoutPrediction.of(p, 1 if k == "recovery_s" else 0) for k, p in model.items()}
        if model
        else None,
        prediction_note=note,
        served_slow_s=None if switch is None or switch.slow_from_s is None else [switch.slow_from_s, switch.slow_to_s],
        instrument_problems=problems,
    )


def _epoch_window(window: dict[str, object] | None) -> list[int] | None:
    """[from, to) of the brownout as scheduled on the delay-service, in epoch ms (run/brownout_switch.py)."""
    if window is None:
        return None
    return [e for e in (window["from_epoch_ms"], window["to_epoch_ms"]) if isinstance(e, int)]


def _second(row: Mapping[str, float | None], raw: RawMode, t0: int) -> judge.Second:
    """A timeline row with the injectors' requests in flight and the second's OK answers merged (every injector)."""
    second = int(row["second"] or 0)
    sent, ok, ko = (int(row[name] or 0) for name in ("offered_rps", "ok", "ko"))
    inflight = inflight_at(raw, t0 + second)
    merged = hlog.merge_payloads(p for inj in raw.injectors for p in inj.ok_payloads.get(t0 + second, ()))
    return judge.Second(second, sent, ok, ko, row["p99_ms"], None if inflight is None else int(inflight), merged)


def _p99_limit(judged: JudgedMode, thresholds: Thresholds) -> float | None:
    """The health rule's p99 limit from the baseline's p50 (before_brownout)."""
    baseline = before_brownout(judged, thresholds).p50_ms
    return None if baseline is None else thresholds.p99_limit_ms(baseline)


def before_brownout(judged: JudgedMode, thresholds: Thresholds) -> Baseline:
    """The brownout's baseline: the first level's p50 (BROWNOUT_BEFORE's seconds at the normal delay), whatever the
    knee's verdict took (a first level set aside moves that into the brownout), and only when that level kept up by
    the baseline's one rule (baseline.first_steady: its rate, and its own errors within the limit). A first level that
    broke gives none — its p50, read while requests failed or queued, would set the limit recovery is judged by —,
    so recovery is then not judged, with why."""
    first = next((lv for lv in judged.tables.levels if lv.position == 0), None)
    if first is None:
        return Baseline(None, None, None)
    return first_steady([first], [0], thresholds)


def _row(s: judge.Second) -> dict[str, float | None]:
    values = (s.second, s.sent, s.ok, s.ko, s.p99_ms, s.inflight)
    return dict(zip(SERIES_COLUMNS, values))


def _switch(
    mode_dir: Path,
    run: RunRecord,
    window: dict[str, object] | None,
    t0: int,
    plan: brownout.Schedule,
    seconds: list[judge.Second],
) -> judge.SwitchCheck | None:
    log = run.downstream.get("served_log")
    if not log or window is None or not any(s.sent for s in seconds if s.second >= plan.start_s):
        return None  # no record to check, or the load ended before the brownout began: nothing to switch for
    path = run_folder(mode_dir) / str(log)
    if not path.is_file():
        return None
    return judge.switch_check(served.tagged(path, BROWNOUT_TAG), t0, plan)


def _died_at(judged: JudgedMode) -> int | None:
    """The second of the measured phase a role of the mode died at (crash.summary), or None."""
    second = (judged.crashed or {}).get("second")
    return int(second) if isinstance(second, (int, float)) else None


def _died_words(judged: JudgedMode) -> str | None:
    """A mode whose role died is not judged on its recovery: when it died, in crash.when's words."""
    if not judged.crashed:
        return None
    memory = " out of memory" if crash.out_of_memory(judged.crashed) else ""
    role = judged.crashed.get("role") or "service"
    return f"not judged: the {role} died{memory} {crash.when(crash.of(judged.crashed))}"


def _instrument_problems(
    window: dict[str, object] | None,
    switch: judge.SwitchCheck | None,
    seconds: list[judge.Second],
    plan: brownout.Schedule,
    judged: JudgedMode,
    died: int | None,
) -> list[str]:
    """What failed around the mode. A role that died stops answering and the load behind it: a switch not yet seen
    or injectors that fell behind from the second it died on are the death's doing (named by the crash), not the
    instrument's."""
    problems = []
    if window is None:
        problems.append("no record of the brownout's schedule (raw/brownout.json): its switch cannot be checked")
    elif not window.get("scheduled"):
        problems.append(f"the delay-service was not given the brownout: {window.get('why')}")
    first_slow_answer = plan.start_s + plan.settle_s
    if switch is not None and switch.problem and (died is None or died > first_slow_answer):
        problems.append(switch.problem)
    behind = _behind(seconds, plan)
    if behind and died is not None and behind[0] + BEHIND_WINDOW_S > died:
        behind = None
    if behind:
        problems.append(
            f"the injectors fell behind their schedule from the brownout on: {behind[1]} sent of {behind[2]} in "
            f"seconds {behind[0]}–{behind[0] + BEHIND_WINDOW_S}: a limit of the lab, not of the service"
        )
    stop = inflight_cap_stop(judged.raw.injectors)
    if stop:
        problems.append(
            f"the injectors' in-flight cap stopped the load at {stop.inflight} requests in flight (cap "
            f"{stop.max_inflight}): a limit of the lab, not of the service"
        )
    levels = judged.tables.levels  # the verdict's set-aside levels are by their place in this list
    for i, why in sorted(judged.verdict.set_aside.items()):
        first = levels[i].first_second
        span = None if first is None else f"seconds {first}–{first + levels[i].seconds}"
        where = span or f"level {level_number(levels[i].position)}"
        problems.append(f"{where} were set aside, their instrument saturated: {why}")
    return problems


def _behind(seconds: list[judge.Second], plan: brownout.Schedule) -> tuple[int, int, int] | None:
    """The first BEHIND_WINDOW_S seconds from the brownout on in which the injectors sent less than BEHIND_SHARE of
    the schedule (first second, sent, scheduled), or None: a one-second lag they made up is not a stall."""
    sent = {s.second: s.sent for s in seconds}
    # Until the load ended: a load the in-flight cap stopped is named as that.
    ran = max((s for s, n in sent.items() if n), default=-1) + 1
    for first in range(plan.start_s, min(ran, plan.total_s) - BEHIND_WINDOW_S + 1):
        got = sum(sent.get(s, 0) for s in range(first, first + BEHIND_WINDOW_S))
        if got < BEHIND_SHARE * plan.rate * BEHIND_WINDOW_S:
            return first, got, plan.rate * BEHIND_WINDOW_S
    return None


def _model(
    judged: JudgedMode, profile: Brownout, asked: Asked, baseline: float | None
) -> tuple[dict[str, judge.Predicted] | None, str]:
    """The predictions for the mode's column: a platform pool's, or no pool (virtual, reactive); another mode has no
    model here and says so. baseline: the p50 before the brownout (before_brownout), None when it broke."""
    mode, sheds = base_mode(judged.label), False
    if mode == "platform":
        pool = mode_threads(judged.label, asked.pool)
    elif mode in ("virtual", "reactive"):
        pool = None
    elif mode == guards.VIRTUAL_LIMITED:
        pool, sheds = guards.virtual_limit(asked), True
    else:
        return None, f"no brownout model for {mode}: measured only"
    plan, hold_s = profile.schedule, profile.hold_s
    if hold_s is None:
        return None, "no brownout model: the run's delay distribution cannot be read any more (DELAY_DIST's file)"
    overhead = 0.0 if baseline is None else baseline / 1000.0 - hold_s
    model = profile.model(hold_s, plan.rate, pool, sheds)
    note = (
        "each interval runs from the configured delays to the delays plus what the service added to a request before "
        f"the brownout ({overhead * 1000:.0f} ms at its p50); the models leave out CPU limits and connection "
        "hand-offs, and recovery is measured in whole seconds; a pool or a VIRTUAL_LIMIT admits every request "
        f"through this brownout from {model.limit_for_all():,.0f} at once (Little's law at its delay: "
        f"{plan.rate:g} rps x {model.brownout_s * 1000:,.0f} ms), below that a pool queues the rest and a limit "
        "rejects it"
    )
    return judge.predictions(model, overhead), note


def _recovery_words(
    recovered: int | None,
    problems: list[str],
    plan: brownout.Schedule,
    limit: float | None,
    unhealthy_before: str | None,
) -> str:
    if problems:
        many = "s" if len(problems) > 1 else ""
        return f"not judged: the instrument failed ({len(problems)} problem{many}, named below)"
    if unhealthy_before:
        return f"not judged: the mode did not keep up before the brownout ({unhealthy_before})"
    if limit is None:
        return "not judged: the first level has no latency to take the health limit from"
    if recovered is None:
        return f"did not recover within BROWNOUT_AFTER ({plan.after_s} s)"
    return f"recovered {recovered} s after the brownout ended"


def _peak(rows: Sequence[Mapping[str, object]], column: str) -> float | None:
    values = [as_float(r.get(column)) for r in rows]
    known = [v for v in values if v is not None]
    return _round(max(known), 1) if known else None


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)
