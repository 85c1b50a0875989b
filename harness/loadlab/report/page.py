"""The comparison page's HTML: one self-contained file, no script, no external resource."""

from __future__ import annotations

import re
from html import escape

from ..summary.raw import STATUS_504, TIMEOUT_INJECTOR

CSS = """
:root { --ok: #1a7f37; --bad: #b42318; --muted: #5f6b7a; --line: #d9dee4; --soft: #f5f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d232a; }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h1 small { font-weight: normal; color: var(--muted); font-size: 0.6em; }
h2 { font-size: 1.2em; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1em; margin: 16px 0 6px; }
.headline { font-size: 1.15em; padding: 12px 16px; border-left: 5px solid var(--muted); background: var(--soft); }
.headline.valid { border-color: var(--ok); }
.headline.invalid { border-color: var(--bad); }
.box { padding: 10px 16px; margin: 16px 0; border: 1px solid; border-radius: 4px; }
.box.missing { border-color: #e0a800; background: #fff8e1; }
.box.invalid { border-color: var(--bad); background: #fdecea; }
.box.note { border-color: #8aa4c8; background: #eef3fa; }
.box h3 { margin-top: 4px; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 0.9em; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; vertical-align: top; }
th { background: var(--soft); }
td.text, th.text { text-align: left; }
tr.unhealthy td { background: #fdecea; }
td.reason { text-align: left; min-width: 18em; }
#levels table { width: 100%; }
tr.sustained td { font-weight: bold; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px; }
figure.chart { margin: 12px 0 20px; }
figure.chart svg { width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 0.9em; }
.yes { color: var(--ok); font-weight: bold; }
.no { color: var(--bad); font-weight: bold; }
.muted { color: var(--muted); }
code { background: var(--soft); padding: 0 3px; }
"""

PARAM_ORDER = [
    "TARGET",
    "SCENARIO",
    "MODES",
    "JDKS",
    "DELAY_MS",
    "CPU_MS",
    "DB_POOL",
    "PLATFORM_THREADS",
    "PROFILE",
    "START_RPS",
    "PEAK_RPS",
    "STEPS",
    "STEP_SECONDS",
    "WARMUP_SECONDS",
    "INJECTORS",
    "REFINE",
    "REPEAT",
]
# Scenarios where the models give both thread modes the same limit: the page says so before anyone reads a ratio.
NOT_EXPECTED_TO_WIN = {
    "db": "virtual threads were not expected to win: both modes wait for the same DB_POOL connections",
    "cpu": "virtual threads were not expected to win: both modes share the same cores",
}


def document(summary: dict, charts: list[tuple[str, str, str, str]], gatling: dict[str, list[str]]) -> str:
    """charts: (section title, data-chart name, svg, caption); gatling: mode -> relative links."""
    run_id = str(summary.get("run_id") or "")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>loadlab {escape(run_id)}: platform vs virtual threads</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<h1>Platform vs virtual threads <small>{escape(scenario_of(summary))} scenario, run {escape(run_id)}"
        f"{' on ' + escape(str(summary['target'])) if summary.get('target') else ''}</small></h1>",
        f'<p class="headline {verdict_class(summary)}" id="headline">{escape(headline(summary))}</p>',
        _test_fault_box(summary),
        _missing_box(summary),
        _invalid_box(summary),
        _notes_box(summary),
        _verdict_table(summary),
        _repeats(summary),
        '<section id="charts">',
        *(_chart(*chart) + (_errors_by_kind(summary) if chart[1] == "errors" else "") for chart in charts),
        "</section>",
        _levels(summary),
        _setup(summary),
        _gatling(summary, gatling),
        "</main></body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def scenario_of(summary: dict) -> str:
    return str(summary.get("scenario") or (summary.get("params") or {}).get("SCENARIO") or "http")


def headline(summary: dict) -> str:
    modes = summary.get("modes") or {}
    scenario = scenario_of(summary)
    phrases = []
    for mode in _mode_names(summary):
        m = modes.get(mode)
        if m is None:
            phrases.append(f"{mode} was not measured")
            continue
        phrase = f"{mode} sustained {_rps(m.get('sustained_rps'))} rps"
        ratio = _ratio_for(summary, mode)
        if ratio is not None:
            phrase += f" = {ratio:.1f}× {mode.replace('virtual', 'platform', 1)}"
        interval = m.get("knee_interval_rps")
        if m.get("collapsed") and interval and interval[0]:
            phrase += f", knee between {_rps(interval[0])} and {_rps(interval[1])}"
        spread = ((summary.get("repeats") or {}).get("modes") or {}).get(mode)
        if spread and spread.get("median") is not None:
            phrase += (
                f" (median of {spread['repetitions_used']} repetitions, {_rps(spread['min'])}–"
                f"{_rps(spread['max'])}{'; noisy' if spread.get('noise') else ''})"
            )
        if m.get("crashed"):
            phrase = f"{mode} CRASHED: {_crash_when(m['crashed'])}; before it, {phrase}"
        elif not m.get("collapsed") and m.get("levels"):
            phrase += " (the peak; it never collapsed)"
        if m.get("predicted_rps") is not None:
            phrase += f" ({m.get('predicted_by') or 'model'} predicted {_rps(m['predicted_rps'])}"
            phrase += {True: "; knee agrees", False: "; knee does not agree"}.get(m.get("prediction_agrees"), "") + ")"
        if m.get("pinned_virtual_threads"):
            phrase += f" with {_n(m['pinned_virtual_threads'])} pinned virtual threads"
        phrases.append(phrase)
    text = f"{scenario} scenario: " + (", ".join(phrases) or "no mode was measured")
    if scenario in NOT_EXPECTED_TO_WIN:
        text += f"; {NOT_EXPECTED_TO_WIN[scenario]}"
    if summary.get("virtual_over_platform") is None and summary.get("virtual_over_platform_reason") and len(modes) > 1:
        # The reason's first clause only ("platform crashed"): its details follow in the invalid reasons.
        text += f"; no virtual/platform ratio ({summary['virtual_over_platform_reason'].split(':')[0]})"
    reasons = [f"{mode}: {r}" for mode, m in modes.items() for r in m.get("invalid_reasons") or []]
    missing = summary.get("missing_modes") or []
    if reasons:
        text += " — invalid because " + "; ".join(reasons)
    elif missing or not modes:
        text += " — incomplete: " + (", ".join(missing) + " missing" if missing else "nothing measured")
    else:
        text += " — valid: no injector or delay-service saturation, every level sent on time"
    limited = [mode for mode, m in modes.items() if m.get("notes")]
    if limited:
        text += f"; at {' and '.join(limited)}'s knee this machine ran out of CPU (see the note)"
    return text


def _crash_when(crashed: dict) -> str:
    """`the thread-service died at second 23 of the measured phase (SIGKILL)`: what died and when, in a line."""
    second = crashed.get("second")
    when = (
        "during this mode"
        if second is None
        else f"at second {second} of the measured phase"
        if second >= 0
        else f"in the warm-up, {-second} s before the measured phase"
    )
    how = crashed.get("signal") or (f"exit {crashed['exit']}" if crashed.get("exit") is not None else "")
    return f"the {crashed.get('role')} on {crashed.get('host')} died {when}" + (f" ({how})" if how else "")


def _ratio_for(summary: dict, mode: str) -> float | None:
    """virtual over platform on the same JDK: `virtual` uses the headline ratio, `virtual-jdk21` its JDK's."""
    if mode == "virtual":
        return summary.get("virtual_over_platform")
    if mode.startswith("virtual-jdk"):
        return (summary.get("ratios") or {}).get(mode.removeprefix("virtual-jdk"))
    return None


def verdict_class(summary: dict) -> str:
    modes = summary.get("modes") or {}
    if modes and all(m.get("valid") for m in modes.values()) and not summary.get("missing_modes"):
        return "valid"
    return "invalid"


def _mode_names(summary: dict) -> list[str]:
    modes = list((summary.get("modes") or {}).keys())
    return modes + [m for m in summary.get("missing_modes") or [] if m not in modes]


def _missing_box(summary: dict) -> str:
    items = [f"<li>run: {escape(x)}</li>" for x in summary.get("missing") or []]
    items += [
        f"<li><b>{escape(m)}</b>: not measured in this run (no load data), so it has no numbers below</li>"
        for m in summary.get("missing_modes") or []
    ]
    for mode, m in (summary.get("modes") or {}).items():
        items += [f"<li>{escape(mode)}: {escape(_missing_text(x))}</li>" for x in m.get("missing") or []]
    for mode, problems in (summary.get("problems") or {}).items():
        items += [f"<li>{escape(mode)}: {escape(p)}</li>" for p in problems]
    if not items:
        return ""
    return (
        '<div class="box missing" id="missing"><h3>Missing</h3>'
        "<p>This run folder is incomplete; everything else on this page comes from what is there.</p>"
        f"<ul>{''.join(items)}</ul></div>"
    )


def _test_fault_box(summary: dict) -> str:
    fault = summary.get("test_fault")
    if not fault:
        return ""
    return (
        '<div class="box invalid" id="test-fault"><h3>A test starved this run on purpose</h3>'
        f"<p><code>LOADLAB_FAULT_CPU_QUOTA={escape(str(fault))}</code> capped these processes' CPU to check "
        "that the verdict catches it; its numbers say nothing about the thread modes.</p></div>"
    )


def _notes_box(summary: dict) -> str:
    items = [
        f"<li><b>{escape(mode)}</b>: {escape(n)}</li>"
        for mode, m in (summary.get("modes") or {}).items()
        for n in m.get("notes") or []
    ]
    if not items:
        return ""
    return f'<div class="box note" id="notes"><h3>Note</h3><ul>{"".join(items)}</ul></div>'


# What the page can no longer say when a raw file is absent (summary.json lists the bare paths).
MISSING_MEANS = {
    "seconds.csv": "no per-second counts from this injector",
    "latency.hlog": "no latencies from this injector",
    "meta.json": "no schedule: levels were read from seconds.csv",
    "thread/samples.csv": "no thread-service CPU",
    "thread/jvm.csv": "no JVM threads, heap or GC, and no downstream times",
    "delay/samples.csv": "no delay-service CPU or latency, so the delay-service was not judged",
    "samples.csv": "no CPU of this injector, so its saturation was not judged",
}


def _missing_text(entry: str) -> str:
    if " " in entry:  # already a sentence
        return entry
    why = next((text for end, text in MISSING_MEANS.items() if entry.endswith(end)), "")
    return f"{entry} is missing" + (f": {why}" if why else "")


def _invalid_box(summary: dict) -> str:
    items = [
        f"<li><b>{escape(mode)}</b>: {escape(r)}</li>"
        for mode, m in (summary.get("modes") or {}).items()
        for r in m.get("invalid_reasons") or []
    ]
    if not items:
        return ""
    return (
        f'<div class="box invalid" id="invalid"><h3>Why this run cannot be trusted</h3><ul>{"".join(items)}</ul></div>'
    )


def _verdict_table(summary: dict) -> str:
    modes = summary.get("modes") or {}
    if not modes:
        return ""
    rows = [
        ("sustained rate (rps)", lambda m: _rps(m.get("sustained_rps"))),
        ("collapsed", lambda m: _yes_no(m.get("collapsed"), good=False)),
        ("knee between (rps): last healthy – first unhealthy", _bracket_cell),
        ("JDK", lambda m: _n(m.get("jdk"))),
        *([("repetition shown (the median)", lambda m: _n(m.get("repetition")))] if summary.get("repeats") else []),
        ("prediction (rps)", lambda m: _rps(m.get("predicted_rps"))),
        ("predicted by", lambda m: escape(m.get("prediction") or "no model limits this mode")),
        (
            "knee agrees with the prediction (±15%)",
            lambda m: (
                _yes_no(m.get("prediction_agrees"))
                + _small(m.get("prediction_check"))
                + (
                    _small("evidence " + m["evidence_at_knee"])
                    if m.get("prediction_agrees") is False and m.get("evidence_at_knee")
                    else ""
                )
            ),
        ),
        ("every prediction (rps)", _predictions_cell),
        ("limit met first", lambda m: escape(m.get("limit_met_first") or "—")),
        ("CPU ceiling (utilization law)", _ceiling_cell),
        ("baseline p50 (ms)", lambda m: _n(m.get("baseline_p50_ms"))),
        ("p99 limit (ms)", lambda m: _n(m.get("p99_limit_ms"))),
        ("p99 at the sustained rate (ms)", lambda m: _n(m.get("p99_ms_at_sustained"))),
        ("requests / errors (measured phase)", lambda m: f"{_n(m.get('requests'))} / {_n(m.get('errors'))}"),
        ("pinned virtual threads (JFR)", lambda m: _n(m.get("pinned_virtual_threads"))),
        ("carriers (virtual scheduler parallelism)", lambda m: _n(m.get("carriers"))),
        ("stopped early", lambda m: escape(stop_text(m.get("stop_reason"))) if m.get("stopped_early") else "no"),
        (
            "crashed",
            lambda m: f'<span class="no">{escape(_crash_when(m["crashed"]))}</span>' if m.get("crashed") else "no",
        ),
        ("valid", lambda m: _yes_no(m.get("valid"))),
    ]
    if any(m.get("db_pool") for m in modes.values()):
        rows.insert(-2, ("db pool: size / most in use / most waiting", _pool_cell))
    head = "".join(f"<th>{escape(mode)}</th>" for mode in modes)
    body = "".join(
        f'<tr><th class="text">{escape(label)}</th>' + "".join(f"<td>{cell(m)}</td>" for m in modes.values()) + "</tr>"
        for label, cell in rows
    )
    return f'<section id="verdict"><h2>Verdict</h2><table><tr><th></th>{head}</tr>{body}</table></section>'


def bracket_text(interval: list | None) -> str:
    """[345, 360] → "345 – 360"; a missing healthy side (the first level was unhealthy) → "— – 300"."""
    if not interval:
        return "—"
    return f"{_rps(interval[0])} – {_rps(interval[1])}"


def _bracket_cell(m: dict) -> str:
    interval = m.get("knee_interval_rps")
    refined = m.get("refine") or {}
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
    return escape(text) + _small(how) + "".join(_small(u) for u in unused)


def _predictions_cell(m: dict) -> str:
    found = m.get("predictions") or []
    if not found:
        return "—"
    return "<br>".join(
        f'{_rps(p.get("rps"))} <span class="muted">{escape(str(p.get("predicted_by")))}</span>' for p in found
    )


def _ceiling_cell(m: dict) -> str:
    ceiling = m.get("cpu_ceiling")
    if not ceiling:
        return '<span class="muted">not fitted (fewer than two healthy levels far enough apart)</span>'
    roles = ", ".join(
        f"{r['role']} {r['ms_per_request']:.3f} ms"
        + (f" (R² {r['r2']:.2f})" if r.get("r2") is not None else " (fixed load)")
        for r in ceiling.get("roles") or []
    )
    return f"{_rps(ceiling.get('rps'))}" + _small(
        f"{ceiling.get('cores'):g} cores on {ceiling.get('host')}; "
        f"CPU per request from {ceiling.get('levels')} healthy levels: "
        f"{roles}"
    )


def _repeats(summary: dict) -> str:
    """REPEAT > 1: each repetition's sustained rate per mode, the median and range, and whether the spread is noise."""
    agg = summary.get("repeats")
    if not agg:
        return ""
    reps = summary.get("repetitions") or []
    head = (
        '<tr><th class="text">mode</th>'
        + "".join(f'<th><a href="{escape(r["folder"])}/index.html">{escape(r["folder"])}</a></th>' for r in reps)
        + '<th>median</th><th>min – max</th><th>spread</th><th class="text">repeatable?</th></tr>'
    )
    rows = []
    for mode, s in (agg.get("modes") or {}).items():
        by_k = {r["repetition"]: r for r in s.get("repetitions") or []}
        cells = []
        for r in reps:
            one = by_k.get(r["repetition"])
            if one is None:
                cells.append("<td>—</td>")
                continue
            cpu = one.get("host_cpu_pct_at_sustained")
            note = f"host CPU {cpu:.0f}%" if cpu is not None else ""
            if not one.get("valid"):
                note = (note + "; " if note else "") + "invalid, not counted"
            cells.append(f"<td>{_rps(one.get('sustained_rps'))}{_small(note)}</td>")
        spread = s.get("spread_ratio")
        verdict = (
            '<span class="no">no: noise</span>'
            if s.get("noise")
            else '<span class="yes">yes</span>'
            if s.get("noise") is False
            else "—"
        )
        rows.append(
            f'<tr><th class="text">{escape(mode)}</th>{"".join(cells)}<td>{_rps(s.get("median"))}</td>'
            f"<td>{_rps(s.get('min'))} – {_rps(s.get('max'))}</td>"
            f"<td>{'—' if spread is None else f'{spread:.0%}'}</td>"
            f'<td class="reason">{verdict}{_small(s.get("evidence"))}</td></tr>'
        )
    ratio = agg.get("ratio") or {}
    values = {v["repetition"]: v.get("virtual_over_platform") for v in ratio.get("values") or []}
    ratio_cells = "".join(f"<td>{_ratio(values.get(r['repetition']))}</td>" for r in reps)
    rows.append(
        f'<tr><th class="text">virtual / platform</th>{ratio_cells}<td>{_ratio(ratio.get("median"))}</td>'
        f"<td>{_ratio(ratio.get('min'))} – {_ratio(ratio.get('max'))}</td><td></td><td></td></tr>"
    )
    return (
        f'<section id="repeats"><h2>Repetitions ({agg.get("n")})</h2>'
        f"<p>The whole comparison ran {agg.get('n')} times. Each column above is the median repetition of its "
        f"mode; a spread (max − min) above {agg.get('noise_threshold', 0.1):.0%} of the median is this "
        f"machine's noise, not the thread model.</p><table>{head}{''.join(rows)}</table></section>"
    )


def _ratio(value) -> str:
    return "—" if value is None else f"{value:.2f}×"


def _pool_cell(m: dict) -> str:
    pool = m.get("db_pool") or {}
    if not pool:
        return "—"
    first = pool.get("first_level_with_pending")
    waited = "" if first is None else _small(f"requests waited for a connection from level {first}")
    return f"{_n(pool.get('size'))} / {_n(pool.get('active_max'))} / {_n(pool.get('pending_max'))}{waited}"


def _small(text: str | None) -> str:
    return f'<br><span class="muted">{escape(text)}</span>' if text else ""


def stop_text(reason: str | None) -> str:
    """The simulation's stop reason in a reader's words."""
    if not reason:
        return "yes"
    cap = re.fullmatch(r"inflight (\d+) > loadlab\.maxInflight (\d+)", reason.strip())
    if cap:
        return f"yes: {int(cap[1]):,} requests were in flight, over the simulation's safety cap of {int(cap[2]):,}"
    return f"yes: {reason}"


def _chart(title: str, name: str, svg: str, caption: str) -> str:
    return (
        f"<h2>{escape(title)}</h2>"
        f'<figure class="chart" data-chart="{escape(name)}">{svg}'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _errors_by_kind(summary: dict) -> str:
    """Beside the error chart: per mode and level, how many requests failed and of which kind, and what each means."""
    from .charts import error_kinds

    tables, shown, meanings = [], [], {}
    for mode, m in (summary.get("modes") or {}).items():
        kinds = error_kinds(m)
        if not kinds:
            continue
        shown += [k for k in kinds if k not in shown]
        meanings.update(m.get("error_kind_meanings") or {})
        head = "<tr><th>level</th><th>target rps</th>" + "".join(f"<th>{escape(k)}</th>" for k in kinds) + "</tr>"
        rows = "".join(
            f"<tr><td>{_n(lv.get('index'))}</td><td>{_rps(lv.get('target_rps'))}</td>"
            + "".join(f"<td>{_n((lv.get('errors_by_kind') or {}).get(k, 0))}</td>" for k in kinds)
            + "</tr>"
            for lv in m.get("levels") or []
        )
        tables.append(f"<div><h3>{escape(mode)}: failed requests by kind</h3><table>{head}{rows}</table></div>")
    if not tables:
        return ""
    meanings = {**_KIND_MEANINGS_BEFORE_META, **meanings}
    legend = "; ".join(f"{escape(k)}: {escape(meanings[k])}" for k in shown if k in meanings)
    return (
        '<div class="grid" id="errors-by-kind">'
        + "".join(tables)
        + "</div>"
        + (f'<p class="muted" id="error-kind-meanings">{legend}.</p>' if legend else "")
    )


# The kinds' meanings come from the injectors (meta.json `error_kind_meanings`, in summary.json per mode); a run from
# before they did still gets the two that say a limit of the harness's own, or the service's, cut the request.
_KIND_MEANINGS_BEFORE_META = {
    TIMEOUT_INJECTOR: "the injector's own request timeout (a harness limit)",
    STATUS_504: "the thread-service's own downstream or query timeout",
}


def _levels(summary: dict) -> str:
    modes = summary.get("modes") or {}
    if not modes:
        return ""
    tables = []
    for mode, m in modes.items():
        head = (
            "<tr><th>level</th><th>target rps</th><th>offered/s</th><th>OK/s</th><th>errors</th>"
            "<th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>s</th>"
            "<th>delay-service ms (probe, median)</th><th>host CPU %</th>"
            '<th class="text">healthy</th></tr>'
        )
        rows = [_level_row(lv, m.get("sustained_rps")) for lv in m.get("levels") or []]
        body = "".join(rows) or '<tr><td colspan="13" class="text muted">no measured level</td></tr>'
        tables.append(f"<div><h3>{escape(mode)}</h3><table>{head}{body}</table></div>")
        for fine in (m.get("refine") or {}).get("passes") or []:
            tables.append(_fine_pass_table(mode, fine, head))
    # One table under the other: side by side, a level's reasons would squeeze both into unreadable columns.
    return f'<section id="levels"><h2>Levels</h2>{"".join(tables)}</section>'


def _level_row(lv: dict, sustained) -> str:
    classes = []
    if not lv.get("healthy"):
        classes.append("unhealthy")
    elif lv.get("target_rps") == sustained:
        classes.append("sustained")
    evidence = lv.get("evidence") or {}
    verdict = (
        '<span class="yes">yes</span>'
        if lv.get("healthy")
        else "; ".join(escape(r) for r in lv.get("unhealthy_reasons") or [])
    )
    return (
        f"<tr{_class(classes)}><td>{_n(lv.get('index'))}</td><td>{_rps(lv.get('target_rps'))}</td>"
        f"<td>{_rps(lv.get('offered_rps'))}</td><td>{_rps(lv.get('ok_rps'))}</td>"
        f"<td>{_pct(lv.get('error_ratio'))}</td><td>{_n(lv.get('p50_ms'))}</td><td>{_n(lv.get('p95_ms'))}</td>"
        f"<td>{_n(lv.get('p99_ms'))}</td><td>{_n(lv.get('max_ms'))}</td><td>{_n(lv.get('seconds'))}</td>"
        f"<td>{_n(evidence.get('delay_probe_ms'))}</td><td>{_n(evidence.get('host_cpu_pct'))}</td>"
        f'<td class="reason">{verdict}</td></tr>'
    )


def _fine_pass_table(mode: str, fine: dict, head: str) -> str:
    """A refinement pass's levels under the coarse ones: same columns, the rule and baseline of the coarse pass."""
    levels = fine.get("levels") or []
    sustained = (fine.get("interval_after_rps") or [None])[0] if fine.get("used") else None
    rows = "".join(_level_row(lv, sustained) for lv in levels)
    rows = rows or '<tr><td colspan="13" class="text muted">no measured level</td></tr>'
    used = (
        (
            "used: the bracket went from "
            + bracket_text(fine.get("interval_before_rps"))
            + " to "
            + bracket_text(fine.get("interval_after_rps"))
            + " rps"
        )
        if fine.get("used")
        else f"not used: {fine.get('why_not_used')}"
    )
    return (
        f'<div class="fine-pass"><h3>{escape(mode)} — {escape(str(fine.get("name")))} '
        f'<span class="muted">(fine levels, judged against the coarse baseline; {escape(used)})</span></h3>'
        f"<table>{head}{rows}</table></div>"
    )


def _setup(summary: dict) -> str:
    params = summary.get("params") or {}
    keys = [k for k in PARAM_ORDER if k in params] + sorted(k for k in params if k not in PARAM_ORDER)
    param_rows = "".join(
        f'<tr><th class="text">{escape(k)}</th><td class="text">{escape(_value(params[k]))}</td></tr>' for k in keys
    )
    thresholds = summary.get("thresholds") or {}
    threshold_rows = "".join(
        f'<tr><th class="text">{escape(k)}</th><td>{escape(_value(v))}</td></tr>' for k, v in thresholds.items()
    )
    hosts = summary.get("hosts") or {}
    host_rows = "".join(
        f'<tr><th class="text">{escape(role)}</th><td class="text">{escape(_value(h.get("address")))}</td>'
        f'<td class="text">{escape(_value(h.get("description")))}</td></tr>'
        for role, h in sorted(hosts.items())
        if isinstance(h, dict)
    )
    machine = summary.get("machine")
    limit_rows = "".join(
        f'<tr><th class="text">{escape(k)}</th><td>{escape(_value(v))}</td></tr>'
        for k, v in (summary.get("limits") or {}).items()
    )
    return (
        '<section id="setup"><h2>Parameters and machine</h2><div class="grid">'
        f"<div><h3>Parameters</h3><table>{param_rows or _none(2)}</table>"
        '<h3>Limits of the request chain</h3><p class="muted">Derived from what one request should take, '
        "above the slowest latency the health rule accepts, so that no harness limit cuts a healthy request."
        f'</p><table id="limits">{limit_rows or _none(2)}</table></div>'
        f"<div><h3>Health thresholds</h3><table>{threshold_rows or _none(2)}</table>"
        f"<h3>Machine</h3><p>{escape(str(machine)) if machine else '<span class=muted>not recorded</span>'}</p>"
        '<h3>Hosts</h3><table><tr><th class="text">role</th><th class="text">address</th>'
        f'<th class="text">description</th></tr>{host_rows or _none(3)}</table></div>'
        "</div></section>"
    )


def _gatling(summary: dict, gatling: dict[str, list[str]]) -> str:
    items = []
    for mode in _mode_names(summary):
        links = gatling.get(mode) or []
        if links:
            items += [f'<li>{escape(mode)}: <a href="{escape(href)}">{escape(href)}</a></li>' for href in links]
        else:
            items.append(f'<li>{escape(mode)}: <span class="muted">no Gatling report in this folder</span></li>')
    return f'<section id="gatling"><h2>Gatling reports</h2><ul>{"".join(items)}</ul></section>'


def _class(classes: list[str]) -> str:
    return f' class="{" ".join(classes)}"' if classes else ""


def _none(columns: int) -> str:
    return f'<tr><td colspan="{columns}" class="text muted">not recorded</td></tr>'


def _value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


def _rps(value) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}"


def _n(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def _pct(ratio) -> str:
    return "—" if ratio is None else f"{100 * ratio:.2f}%"


def _yes_no(flag, good: bool = True) -> str:
    if flag is None:
        return "—"
    cls = "yes" if bool(flag) == good else "no"
    return f'<span class="{cls}">{"yes" if flag else "no"}</span>'
