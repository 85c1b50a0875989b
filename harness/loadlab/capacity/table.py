"""The short table `make plan` prints: per mode the predicted knee on the host, its interval, the limit met first
and whether it is rough; for RPS= the hosts per mode and what they cost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loadlab.analysis.prediction import interval_text


# Any: plan.json as JSON, also read back from disk (report/plan_section.py), where nothing types its nested values;
# its shape is plan.py's, and a plan.json of another shape raises the KeyError/TypeError the page catches.
def lines(plan: Mapping[str, Any]) -> list[str]:
    out = [f"plan from run {plan['run_id']} (measured on {plan['measured_on']}) for {plan['host']['name']}:"]
    out.append(f"  {'mode':<16} {'knee rps':>9}  {'interval':<22} {'limit met first':<16} measured here")
    for label, m in plan["modes"].items():
        interval = m["interval_rps"]
        text = interval_text(*interval) if interval else ("cannot be told" if m.get("not_a_figure") else "-")
        knee = f"{m['predicted_knee_rps']:,}" if m["predicted_knee_rps"] is not None else "-"
        if interval and interval[1] is None:
            knee = f"≥ {interval[0]:,.0f}"  # no upper end: a lower bound, never a point
        here = f"{m['measured_here_rps']:,.0f} rps" if m["measured_here_rps"] is not None else "-"
        out.append(f"  {label:<16} {knee:>9}  {text:<22} {m['limit_met_first'] or '-':<16} {here}")
        if m.get("not_a_figure"):
            out.append(f"    not a figure — {m['not_a_figure']}")
        out += [f"    rough — {r}" for r in m["rough"]]
    for label, why in plan["not_planned"].items():
        out.append(f"  {label:<16} not planned: {why[0] if why else 'invalid'}")
    target = plan.get("target")
    if target:
        out.append(f"for {target['rps']:,.0f} rps:")
        for label, t in target["per_mode"].items():
            service, delay, inj = t["service_host"], t["delay_host"], t["injector_hosts"]
            pool = f", a pool of {t['platform_pool']:,} threads" if t["platform_pool"] else ""
            cost = f"${t['usd_hour']:.2f}/h" if t["usd_hour"] is not None else "cost unknown (a host has no type)"
            if t["usd_per_run"] is not None:
                cost += f", ${t['usd_per_run']:.2f} per run as long as this one ({target['run_minutes']:g} min)"
            out.append(
                f"  {label:<16} service {service['instance'] or '?'} ({_cores(service)}){pool}; delay-service "
                f"{delay['instance'] or '?'} ({_cores(delay)}); {inj['count']} × {inj['instance'] or '?'}; {cost}"
            )
        out.append(f"  prices: {target['prices']}")
    return out


def _cores(need: Mapping[str, Any]) -> str:
    return "cores not fitted" if need["cores"] is None else f"{need['cores']:.1f} cores needed"
