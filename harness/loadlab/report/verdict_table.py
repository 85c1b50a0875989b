"""The verdict table: one column per mode, one row per finding (knee, prediction, limits, validity)."""

from __future__ import annotations

from html import escape

from loadlab.core import metrics
from loadlab.core.reactive import REACTIVE
from loadlab.report import prediction_cells
from loadlab.report.formats import bracket_text, num, rps, small, times, yes_no
from loadlab.report.headline import crash_when


def section(summary: dict) -> str:
    modes = summary.get("modes") or {}
    if not modes:
        return ""
    rows = [
        ("sustained rate (rps)", lambda m: rps(m.get("sustained_rps"))),
        *([("virtual over this pool", _pool_ratio_cell(summary))] if summary.get("ratios_by_pool") else []),
        ("collapsed", lambda m: yes_no(m.get("collapsed"), good=False)),
        ("knee between (rps): last healthy – first unhealthy", _bracket_cell),
        ("JDK", lambda m: num(m.get("jdk"))),
        ("Tomcat threads", _threads_cell),
        *([("repetition shown (the median)", lambda m: num(m.get("repetition")))] if summary.get("repeats") else []),
        ("prediction (rps)", prediction_cells.predicted_cell),
        ("predicted by", lambda m: escape(m.get("prediction") or "no model limits this mode")),
        (prediction_cells.AGREEMENT_LABEL, prediction_cells.agreement_cell),
        ("every prediction (rps)", prediction_cells.predictions_cell),
        ("limit met first", lambda m: escape(m.get("limit_met_first") or "—")),
        ("CPU ceiling (utilization law)", prediction_cells.ceiling_cell),
        ("baseline p50 (ms)", lambda m: num(m.get("baseline_p50_ms"))),
        ("p99 limit (ms)", lambda m: num(m.get("p99_limit_ms"))),
        ("p99 at the sustained rate (ms)", lambda m: num(m.get("p99_ms_at_sustained"))),
        ("requests / errors (measured phase)", lambda m: f"{num(m.get('requests'))} / {num(m.get('errors'))}"),
        ("pinned virtual threads (JFR)", lambda m: num(m.get("pinned_virtual_threads"))),
        ("carriers (virtual scheduler parallelism)", lambda m: num(m.get("carriers"))),
        ("stopped early", lambda m: escape(stop_text(m)) if m.get("stopped_early") else "no"),
        (
            "crashed",
            lambda m: f'<span class="no">{escape(crash_when(m["crashed"]))}</span>' if m.get("crashed") else "no",
        ),
        ("valid", lambda m: yes_no(m.get("valid"))),
    ]
    if any(m.get("db_pool") for m in modes.values()):
        rows.insert(-2, ("db pool: size / most in use / most waiting", _pool_cell))
    head = "".join(f"<th>{escape(mode)}</th>" for mode in modes)
    # Each cell is given its mode's label too: a pool sweep's rows read it.
    body = "".join(
        f'<tr><th class="text">{escape(label)}</th>'
        + "".join(f"<td>{cell({**m, LABEL: name})}</td>" for name, m in modes.items())
        + "</tr>"
        for label, cell in rows
    )
    return (
        f'<section id="verdict"><h2>Verdict</h2><table class="columns"><tr><th></th>{head}</tr>{body}</table></section>'
    )


# The key under which a cell finds its mode's label (never a summary.json field).
LABEL = "__label"


def _threads_cell(m: dict) -> str:
    """The pool the service reported (live), else the one asked; virtual threads have none."""
    live = (m.get("live_config") or {}).get(metrics.TOMCAT_THREADS_MAX)
    if isinstance(live, (int, float)) and live > 0:
        return num(live)
    if str(m.get(LABEL, "")).startswith("virtual"):
        return '<span class="muted">none: a thread per request</span>'
    if str(m.get(LABEL, "")).startswith(REACTIVE):
        return '<span class="muted">none: Netty event loops</span>'
    return "—"


def _pool_ratio_cell(summary: dict):
    """virtual over each platform column of a sweep (ratios_by_pool); the headline's divisor is marked."""
    ratios, reasons = summary.get("ratios_by_pool") or {}, summary.get("ratios_by_pool_reasons") or {}
    basis = summary.get("virtual_over_platform_basis")

    def cell(m: dict) -> str:
        label = m.get(LABEL, "")
        if label not in ratios:
            return ""
        if ratios[label] is None:
            return '<span class="muted">none</span>' + small(reasons.get(label))
        return escape(times(ratios[label])) + small("the best pool: the headline's" if label == basis else None)

    return cell


def _bracket_cell(m: dict) -> str:
    interval = m.get("knee_interval_rps")
    refined = m.get("refine") or {}
    if not interval and refined.get("not_reproduced"):
        return '<span class="muted">no knee confirmed</span>' + small(refined["not_reproduced"])
    if not interval:
        return '<span class="muted">never collapsed</span>' if m.get("levels") else "—"
    width = refined.get("width_ratio")
    text = bracket_text(interval) + (f" ({width:.1%} wide)" if width is not None else "")
    passes = refined.get("passes") or []
    if refined.get("localised") and passes:
        how = (
            f"localised to within {refined.get('resolution', 0.05):.0%} by {len(passes)} fine "
            f"pass{'es' if len(passes) > 1 else ''} from the coarse "
            f"{bracket_text(refined.get('coarse_interval_rps'))}"
        )
    elif refined.get("localised"):
        how = "the coarse levels were already within the resolution"
    else:
        how = refined.get("not_refined") or "not localised"
    unused = [f"{p['name']} not used: {p['why_not_used']}" for p in passes if not p.get("used")]
    return escape(text) + small(how) + "".join(small(u) for u in unused)


def _pool_cell(m: dict) -> str:
    pool = m.get("db_pool") or {}
    if not pool:
        return "—"
    first = pool.get("first_level_with_pending")
    waited = "" if first is None else small(f"requests waited for a connection from level {first}")
    return f"{num(pool.get('size'))} / {num(pool.get('active_max'))} / {num(pool.get('pending_max'))}{waited}"


def stop_text(m: dict) -> str:
    """Why the simulation stopped a mode's load early, in a reader's words."""
    cap = m.get("stop_inflight_cap")
    if cap:
        return (
            f"yes: {cap['inflight']:,} requests were in flight, over the simulation's safety cap of "
            f"{cap['max_inflight']:,}"
        )
    return f"yes: {m['stop_reason']}" if m.get("stop_reason") else "yes"
