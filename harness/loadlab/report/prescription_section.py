"""The page's "What to change": per mode, what would lift its limit (`prescription`, analysis/prescription.py) — the
setting and the value to set with the rate and hold behind it, what it costs, the property that sizes it in a user's
Spring Boot jar — or the code to change where no setting exists, and why nothing is to be lifted otherwise."""

from __future__ import annotations

from html import escape

from loadlab.report import ladder_table
from loadlab.summary.verdicts.prescription_record import PrescriptionRecord
from loadlab.summary.verdicts.records import RunSummary

TITLE = "What to change"
INTRO = (
    "What would lift each mode's limit, by Little's law at the site: the rate to reach (TARGET_RPS, else the next "
    "limit the lab predicts) × the time a request holds the resource, on its mean hold and with the p99's headroom. "
    "A predicted figure until a run with the new value measures it."
)


def section(summary: RunSummary) -> str:
    rows = [(mode, m.limit.prescription) for mode, m in summary.modes.items() if m.limit.prescription is not None]
    if not rows:
        return ""
    items = "".join(_mode(mode, p) for mode, p in rows)
    ladders = "".join(ladder_table.table(mode, m.ladder or []) for mode, m in summary.modes.items())
    return (
        f'<section id="what-to-change"><h2>{escape(TITLE)}</h2><p>{escape(INTRO)}</p><ul>{items}</ul>'
        f"{ladders}</section>"
    )


def _mode(mode: str, p: PrescriptionRecord) -> str:
    details = [*(p.costs or [])]
    if p.holders_elsewhere:
        details.append(p.holders_elsewhere)
    if p.to is not None and p.app_setting and p.app_setting != p.setting:
        details.append(f"in a Spring Boot jar: {p.app_setting}")
    if p.to is not None and not p.applicable and p.reason:
        details.append(f"not applicable: {p.reason}")
    inner = "".join(f"<li>{escape(d)}</li>" for d in details)
    return (
        f'<li class="prescription" data-mode="{escape(mode)}"><strong>{escape(mode)}</strong>: {escape(p.words or "")}'
        f"{f'<ul>{inner}</ul>' if inner else ''}</li>"
    )
