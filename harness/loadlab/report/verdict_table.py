"""The verdict table: one column per mode, one row per finding (knee, prediction, limits, validity)."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from loadlab.analysis import ratio_interval
from loadlab.analysis.prediction import BEYOND
from loadlab.core import metrics
from loadlab.core.reactive import REACTIVE
from loadlab.report import prediction_cells
from loadlab.report.formats import bracket_text, num, rps, small, yes_no
from loadlab.report.headline import crash_when
from loadlab.summary.schema.level_records import RefineRecord
from loadlab.summary.verdicts.records import ModeRecord, RunSummary

# A row of the table: its label, and its cell from a mode's label and summary.
Cell = Callable[[str, ModeRecord], str]
Row = tuple[str, Cell]


def section(summary: RunSummary) -> str:
    modes = summary.modes
    if not modes:
        return ""
    # a run that holds one rate (PROFILE=brownout) has no knee to place or predict: "Through the brownout" has its
    # figures, and these rows are left out
    has_knee = not any(m.brownout for m in modes.values())

    def knee_rows(*rows: Row) -> list[Row]:
        return list(rows) if has_knee else []

    rows: list[Row] = [
        *knee_rows(("sustained rate (rps)", lambda label, m: rps(m.sustained_rps))),
        *([("virtual over this pool", _pool_ratio_cell(summary))] if summary.ratios_by_pool else []),
        *knee_rows(
            ("collapsed", collapsed_cell),
            ("knee between (rps): last healthy – first unhealthy", _of_mode(_bracket_cell)),
        ),
        ("JDK", lambda label, m: num(m.jvm.jdk)),
        ("Tomcat threads", _threads_cell),
        *([("repetition shown (the median)", lambda label, m: num(m.repetition))] if summary.repeats else []),
        *knee_rows(
            ("prediction (rps)", _of_mode(prediction_cells.predicted_cell)),
            ("predicted by", lambda label, m: escape(m.predicted.formula or _no_model(m))),
            (prediction_cells.AGREEMENT_LABEL, _of_mode(prediction_cells.agreement_cell)),
            ("every prediction (rps)", _of_mode(prediction_cells.predictions_cell)),
            ("limit met first", lambda label, m: escape(m.limit.met_first or "—")),
            ("CPU ceiling (utilization law)", _of_mode(prediction_cells.ceiling_cell)),
        ),
        ("baseline p50 (ms)", lambda label, m: num(m.baseline_p50_ms)),
        ("p99 limit (ms)", lambda label, m: num(m.p99_limit_ms)),
        *knee_rows(("p99 at the sustained rate (ms)", lambda label, m: num(m.p99_ms_at_sustained))),
        ("requests / errors (measured phase)", lambda label, m: f"{num(m.requests)} / {num(m.errors)}"),
        ("pinned virtual threads (JFR)", lambda label, m: num(m.jvm.pinned_virtual_threads)),
        ("carriers (virtual scheduler parallelism)", lambda label, m: num(m.jvm.carriers)),
        ("stopped early", lambda label, m: escape(stop_text(m)) if m.stop.early else "no"),
        (
            "crashed",
            lambda label, m: f'<span class="no">{escape(crash_when(m.crashed))}</span>' if m.crashed else "no",
        ),
        ("valid", lambda label, m: yes_no(m.validity.valid)),
    ]
    if any(m.db_pool for m in modes.values()):
        rows.insert(-2, ("db pool: size / most in use / most waiting", _of_mode(_pool_cell)))
    if any(m.rejections for m in modes.values()):
        rows.insert(-2, ("concurrency limit / requests it shed (503)", _of_mode(_limit_cell)))
    head = "".join(f"<th>{escape(mode)}</th>" for mode in modes)
    # Each cell is given its mode's label too: a pool sweep's rows read it.
    body = "".join(
        f'<tr><th class="text">{escape(label)}</th>'
        + "".join(f"<td>{cell(name, m)}</td>" for name, m in modes.items())
        + "</tr>"
        for label, cell in rows
    )
    return (
        f'<section id="verdict"><h2>Verdict</h2><table class="columns"><tr><th></th>{head}</tr>{body}</table></section>'
    )


def _of_mode(cell: Callable[[ModeRecord], str]) -> Cell:
    """A cell that needs only its mode, not its label."""
    return lambda label, m: cell(m)


def _threads_cell(label: str, m: ModeRecord) -> str:
    """The pool the service reported (live), else the one asked; virtual threads have none."""
    live = (m.live_config or {}).get(metrics.TOMCAT_THREADS_MAX)
    if isinstance(live, (int, float)) and live > 0:
        return num(live)
    if label.startswith("virtual"):
        return '<span class="muted">none: a thread per request</span>'
    if label.startswith(REACTIVE):
        return '<span class="muted">none: Netty event loops</span>'
    return "—"


def _pool_ratio_cell(summary: RunSummary) -> Cell:
    """virtual over each platform column of a sweep (ratios_by_pool); the headline's divisor is marked."""
    ratios, reasons = summary.ratios_by_pool or {}, summary.ratios_by_pool_reasons or {}
    spans = summary.ratios_by_pool_intervals or {}
    basis = summary.virtual_over_platform_basis

    def cell(label: str, m: ModeRecord) -> str:
        if label not in ratios:
            return ""
        if ratios[label] is None:
            return '<span class="muted">none</span>' + small(reasons.get(label))
        span = spans.get(label)
        figure = ratio_interval.text(ratios[label], span)
        kind = ratio_interval.bound_of(span)
        return (
            escape(figure)
            + small(f"a {kind} bound" if kind else None)
            + small(ratio_interval.rough(span))
            + small("the best pool: the headline's" if label == basis else None)
        )

    return cell


def _bracket_cell(m: ModeRecord) -> str:
    interval = m.knee.interval_rps
    refined = m.knee.refine or RefineRecord.unknown()
    if not interval and m.knee.bound:
        return f'<span class="muted">≥ {escape(rps(m.sustained_rps))} (a lower bound)</span>' + small(m.knee.bound)
    if not interval and refined.not_reproduced:
        return '<span class="muted">no knee confirmed</span>' + small(refined.not_reproduced)
    if not interval:
        return '<span class="muted">never collapsed</span>' if m.levels else "—"
    width = refined.width_ratio
    text = bracket_text(interval) + (f" ({width:.1%} wide)" if width is not None else "")
    passes = refined.passes or []
    if refined.localised and passes:
        how = (
            f"localised to within {refined.resolution_or_default:.0%} by {len(passes)} fine "
            f"pass{'es' if len(passes) > 1 else ''} from the coarse "
            f"{bracket_text(refined.coarse_interval_rps)}"
        )
    elif refined.localised:
        how = "the coarse levels were already within the resolution"
    else:
        how = refined.not_refined or "not localised"
    unused = [f"{p.name} not used: {p.why_not_used}" for p in passes if not p.used]
    return escape(text) + small(how) + "".join(small(u) for u in unused)


def _pool_cell(m: ModeRecord) -> str:
    pool = m.db_pool
    if not pool:
        return "—"
    first = pool.first_level_with_pending
    waited = "" if first is None else small(f"requests waited for a connection from level {first}")
    return f"{num(pool.size)} / {num(pool.active_max)} / {num(pool.pending_max)}{waited}"


def stop_text(m: ModeRecord) -> str:
    """Why the simulation stopped a mode's load early, in a reader's words."""
    cap = m.stop.inflight_cap
    if cap:
        return (
            f"yes: {cap.inflight:,} requests were in flight, over the simulation's safety cap of {cap.max_inflight:,}"
        )
    return f"yes: {m.stop.reason}" if m.stop.reason else "yes"


def collapsed_cell(label: str, m: ModeRecord) -> str:
    """A virtual-limited knee made of its own 503s is load shed by design, not a collapse
    (summary/judge/shedding.py)."""
    if m.shed_load:
        return '<span class="muted">shed load (503s of its limit, by design)</span>'
    return yes_no(m.collapsed, good=False)


def _limit_cell(m: ModeRecord) -> str:
    """virtual-limited's VIRTUAL_LIMIT and the requests it shed (summary/judge/shedding.py); none elsewhere."""
    found = m.rejections
    if not found:
        return "—"
    share = found.share
    return f"{num(found.limit)} / {num(found.requests)}" + (f" ({share:.1%})" if share is not None else "")


def _no_model(m: ModeRecord) -> str:
    """Why a mode has no prediction: no model at all, or every one beyond the run (prediction.FAR_ABOVE_RUN)."""
    return "no model limits this mode within the run" if m.predicted.verdict == BEYOND else "no model limits this mode"
