"""A matplotlib figure as an SVG string that can share one HTML document with the others.

Ids and metadata are pinned, so the same run always gives the same bytes.
"""

from __future__ import annotations

import io
import re

from matplotlib.figure import Figure

_PROLOG = re.compile(r"^.*?(?=<svg)", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_SIZE = re.compile(r'(<svg[^>]*?) width="[^"]*" height="[^"]*"')
_ID = re.compile(r'(\sid=)"([^"]+)"')
_REF = re.compile(r'(url\(|href=")#([^")]+)')


def to_svg(fig: Figure, name: str) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    svg = _METADATA.sub("", _PROLOG.sub("", out.getvalue(), count=1), count=1)
    # Scales with the page, but no larger than about its drawn size: a lone panel would otherwise fill the page
    # width with twice-sized text.
    svg = _SIZE.sub(lambda m: f'{m.group(1)} style="max-width: {fig.get_figwidth() * 110:.0f}px"', svg, count=1).strip()
    # Several SVGs share one HTML document: matplotlib's ids ("axes_1", ...) would repeat, so prefix them.
    svg = _ID.sub(lambda m: f'{m.group(1)}"{name}-{m.group(2)}"', svg)
    return _REF.sub(lambda m: f"{m.group(1)}#{name}-{m.group(2)}", svg)
