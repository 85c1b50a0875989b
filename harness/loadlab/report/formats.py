"""How the page writes a value: rates, numbers, shares, yes/no, brackets — and "—" for what is unknown."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import TypeVar

Summary = TypeVar("Summary")  # a mode's summary, whatever record columns_table's cells read


def bracket_text(interval: Sequence[float | None] | None) -> str:
    """[345, 360] → "345 – 360"; a missing healthy side (the first level was unhealthy) → "below 300"."""
    if not interval:
        return "—"
    if interval[0] is None:
        return f"below {rps(interval[1])}"
    return f"{rps(interval[0])} – {rps(interval[1])}"


def times(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}×"


def small(text: str | None) -> str:
    return f'<br><span class="muted">{escape(text)}</span>' if text else ""


def class_attr(classes: list[str]) -> str:
    return f' class="{" ".join(classes)}"' if classes else ""


def none_row(columns: int) -> str:
    return f'<tr><td colspan="{columns}" class="text muted">not recorded</td></tr>'


def text_of(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


def rps(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}"


def num(value: float | None) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def pct(ratio: float | None) -> str:
    return "—" if ratio is None else f"{100 * ratio:.2f}%"


def yes_no(flag: object, good: bool = True) -> str:
    if flag is None:
        return "—"
    cls = "yes" if bool(flag) == good else "no"
    return f'<span class="{cls}">{"yes" if flag else "no"}</span>'


def columns_table(modes: Mapping[str, Summary], rows: Iterable[tuple[str, Callable[[Summary], str]]]) -> str:
    """A table with one column per mode and one row per (label, cell function of the mode's summary)."""
    head = "".join(f"<th>{escape(name)}</th>" for name in modes)
    body = "".join(
        f'<tr><th class="text">{escape(label)}</th>' + "".join(f"<td>{cell(m)}</td>" for m in modes.values()) + "</tr>"
        for label, cell in rows
    )
    return f'<table class="columns"><tr><th></th>{head}</tr>{body}</table>'
