"""APP_REQUESTS: a weighted mix of requests, read from a CSV once, here, and handed to the simulation resolved.

The file's rule lives only in this module (standard library only: `make check-params` reads it before .venv exists).
The simulation (gatling/…/Mix.java) never sees the CSV: it gets `resolved()` — each kind with its share of the
mix in hundredths of a percent, its method, its path and body with Gatling's `#{pN}` in place of each placeholder, and
the feeder that gives `pN` its values — so Java has no grammar of its own (test_mix.py and MixTest.java hold both sides
to harness/tests/data/mix/resolved.json).

    name,weight,method,path,body,content_type
    item,70,GET,/items/{id:1..1000:zipf},,
    search,20,GET,/search?q={code:codes.csv}&page={page:1..5},,
    cart,10,POST,/carts,cart.json,application/json
"""

from __future__ import annotations

import base64
import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from loadlab.core.run_params import RunParams

HEADER = ("name", "weight", "method", "path", "body", "content_type")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
# A kind's name becomes a folder and an HdrHistogram tag: a short word, no spaces or commas.
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")
# {id:1..1000} uniform, {id:1..1000:zipf} skewed (rank 1 the most asked), {code:codes.csv} a file's values.
# In a path any {…} is one (braces are never sent unencoded); in a body only {word:…} is, so JSON's own braces stay.
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
BODY_PLACEHOLDER = re.compile(r"\{([A-Za-z]\w*:[^{}\s\"']*)\}")
RANGE = re.compile(r"([A-Za-z]\w*):(-?\d+)\.\.(-?\d+)(:zipf)?")
VALUES = re.compile(r"([A-Za-z]\w*):([\w.-]+\.csv)")
PLACEHOLDERS_ALLOWED = "{name:a..b}, {name:a..b:zipf}, {name:values.csv}"
# Zipf draws from a table of the range's cumulative weights (Mix.java): a million ids is 8 MB in each injector.
ZIPF_RANGE_MAX = 1_000_000
VALUES_MAX = 5_000
BODY_MAX_BYTES = 64 * 1024
# The resolved mix travels as one -Dloadlab.mix property (base64): Linux caps one argument at 128 KiB.
RESOLVED_MAX_BYTES = 96 * 1024
KINDS_MAX = 50
ALLOWED = f"a CSV with the header {','.join(HEADER)} (docs/PARAMETERS.md, APP_REQUESTS)"


class MixError(ValueError):
    """One bad mix file; the message is the single line the user sees, naming the line."""


@dataclass(frozen=True)
class Feeder:
    """Where a placeholder's values come from: a range (uniform or Zipf) or a file's values."""

    attr: str  # the session attribute Gatling feeds (`p0`, `p1`, …)
    low: int = 0
    high: int = 0
    zipf: bool = False
    values: tuple[str, ...] = ()

    def first(self) -> str:
        """The value the smoke request uses: the range's low end (Zipf's most asked), the file's first value."""
        return self.values[0] if self.values else str(self.low)

    def as_json(self) -> dict[str, object]:
        if self.values:
            return {"attr": self.attr, "values": list(self.values)}
        return {"attr": self.attr, "from": self.low, "to": self.high, "zipf": self.zipf}


@dataclass(frozen=True)
class Kind:
    """One line of the mix: a kind of request and its weight."""

    line: int
    name: str
    weight: float
    method: str
    path: str  # as written, placeholders and all (what the page shows)
    body: str  # the body file's text ("" for none), placeholders and all
    content_type: str
    gatling_path: str = ""  # the path with #{pN} for each placeholder
    gatling_body: str = ""
    smoke_path: str = ""  # the path with each placeholder's first value (the smoke request)
    smoke_body: str = ""
    shown: str = ""  # how prose names it when not by its request (SCENARIO's mix: the scenario's name)

    @property
    def label(self) -> str:
        """How prose names the kind: `POST /carts` (a SCENARIO mix's kind: `db`)."""
        return self.shown or f"{self.method} {self.path}"


@dataclass(frozen=True)
class Mix:
    source: str  # the CSV's path, as given
    kinds: tuple[Kind, ...]
    feeders: tuple[Feeder, ...] = field(default=())

    def hundredths(self) -> list[int]:
        """Each kind's share in hundredths of a percent, summing to exactly 10,000 (largest remainder)."""
        total = sum(k.weight for k in self.kinds)
        exact = [k.weight * 10_000 / total for k in self.kinds]
        shares = [int(x) for x in exact]
        for i in sorted(range(len(exact)), key=lambda i: shares[i] - exact[i])[: 10_000 - sum(shares)]:
            shares[i] += 1
        return shares

    def resolved(self) -> dict[str, object]:
        """What the simulation gets (Mix.java): nothing left to parse."""
        kinds = [
            {
                "name": k.name,
                "line": k.line,
                "hundredths": share,
                "method": k.method,
                "path": k.gatling_path,
                "body": k.gatling_body,
                "contentType": k.content_type,
                "label": k.label,
            }
            for k, share in zip(self.kinds, self.hundredths(), strict=True)
        ]
        return {"kinds": kinds, "feeders": [f.as_json() for f in self.feeders]}

    def property_value(self) -> str:
        return base64.b64encode(json.dumps(self.resolved(), separators=(",", ":")).encode()).decode()


def single_get(path: str) -> Mix:
    """APP_PATH's shortcut as a mix of one GET kind (its smoke request goes through the same check)."""
    return Mix(path, (Kind(1, "get", 1.0, "GET", path, "", "", path, "", path, ""),))


def load(raw: str) -> Mix:
    """The mix APP_REQUESTS names, or MixError saying in one line which line is wrong and why."""
    path = Path(raw).expanduser()
    shown = f"APP_REQUESTS={raw}"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MixError(f"{shown} cannot be read ({e.__class__.__name__}); allowed: {ALLOWED}") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows or tuple(c.strip() for c in rows[0]) != HEADER:
        raise MixError(f"{shown} line 1 is not the header {','.join(HEADER)}; allowed: {ALLOWED}")
    placeholders: dict[str, Feeder] = {}
    kinds: list[Kind] = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        try:
            kinds.append(_kind(path.parent, number, row, placeholders, {k.name for k in kinds}))
        except MixError as e:
            raise MixError(f"{shown} line {number}: {e}") from None
    if not kinds:
        raise MixError(f"{shown} has no kind of request (only its header); allowed: {ALLOWED}")
    if len(kinds) > KINDS_MAX:
        raise MixError(f"{shown} has {len(kinds)} kinds; allowed: at most {KINDS_MAX}")
    if sum(k.weight for k in kinds) <= 0:
        lines = f"line {kinds[0].line}" if len(kinds) == 1 else f"lines {kinds[0].line}-{kinds[-1].line}"
        raise MixError(f"{shown} {lines}: every weight is 0, nothing would be sent; allowed: a weight > 0")
    mix = Mix(str(path.resolve()), tuple(kinds), tuple(placeholders.values()))
    if len(mix.property_value()) > RESOLVED_MAX_BYTES:
        raise MixError(f"{shown} is too large once resolved (bodies and values files); allowed: at most 96 KiB")
    return mix


def _kind(folder: Path, line: int, row: list[str], placeholders: dict[str, Feeder], names: set[str]) -> Kind:
    if len(row) != len(HEADER):
        raise MixError(f"has {len(row)} fields; allowed: {len(HEADER)} ({','.join(HEADER)}), empty ones included")
    name, weight, method, path, body_file, content_type = (c.strip() for c in row)
    if not NAME.fullmatch(name) or name in names:
        taken = " (already a kind's)" if name in names else ""
        raise MixError(f"name {name!r} is not allowed{taken}; allowed: a unique word of letters, digits, _ or -")
    try:
        share = float(weight)
    except ValueError:
        share = -1.0
    if not 0 <= share < float("inf"):
        raise MixError(f"weight {weight!r} is not a number >= 0; allowed: a weight >= 0 (shares of their sum)")
    if method.upper() not in METHODS:
        raise MixError(f"method {method!r} is not allowed; allowed: {' | '.join(METHODS)}")
    _check_path(path)
    body = _body(folder, body_file) if body_file else ""
    if body_file and not content_type:
        raise MixError(f"body {body_file} has no content_type; allowed: a media type, e.g. application/json")
    gatling_path, smoke_path = _resolve(folder, path, placeholders, PLACEHOLDER)
    gatling_body, smoke_body = _resolve(folder, body, placeholders, BODY_PLACEHOLDER, escape=True)
    return Kind(
        line, name, share, method.upper(), path, body, content_type, gatling_path, gatling_body, smoke_path, smoke_body
    )


def _check_path(path: str) -> None:
    allowed = "a path and query starting with a single / (URL-encoded, no spaces or #)"
    if not path.startswith("/") or path.startswith("//"):
        raise MixError(f"path {path!r} does not start with a single /; allowed: {allowed}")
    if any(c.isspace() or not c.isprintable() or ord(c) > 126 for c in path) or "#" in path:
        raise MixError(f"path {path!r} has spaces, #, control or non-ASCII characters; allowed: {allowed}")


def _body(folder: Path, body_file: str) -> str:
    where = folder / body_file
    try:
        data = where.read_bytes()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MixError(
            f"body {body_file} cannot be read ({e.__class__.__name__}: {where}); allowed: a UTF-8 file beside the CSV"
        ) from None
    if len(data) > BODY_MAX_BYTES:
        raise MixError(f"body {body_file} has {len(data)} bytes; allowed: at most {BODY_MAX_BYTES}")
    return text


def _resolve(
    folder: Path, text: str, placeholders: dict[str, Feeder], pattern: re.Pattern[str], escape: bool = False
) -> tuple[str, str]:
    """(text for Gatling with #{pN}, text with each placeholder's first value); placeholders are shared by spelling:
    the same {id:1..1000} in two kinds is one feeder."""
    gatling, smoke, last = [], [], 0
    for m in pattern.finditer(text):
        literal = text[last : m.start()]
        # A literal #{ in a body would be Gatling's expression language: escaped, it is sent as written.
        gatling.append(literal.replace("#{", "\\#{") if escape else literal)
        smoke.append(literal)
        feeder = placeholders.get(m.group(1)) or _feeder(folder, m.group(1), f"p{len(placeholders)}")
        placeholders[m.group(1)] = feeder
        gatling.append(f"#{{{feeder.attr}}}")
        smoke.append(feeder.first())
        last = m.end()
    tail = text[last:]
    gatling.append(tail.replace("#{", "\\#{") if escape else tail)
    smoke.append(tail)
    return "".join(gatling), "".join(smoke)


def _feeder(folder: Path, spec: str, attr: str) -> Feeder:
    ranged, listed = RANGE.fullmatch(spec), VALUES.fullmatch(spec)
    if ranged:
        low, high, zipf = int(ranged.group(2)), int(ranged.group(3)), bool(ranged.group(4))
        if low > high or (zipf and high - low + 1 > ZIPF_RANGE_MAX):
            raise MixError(
                f"placeholder {{{spec}}} is an empty or too wide range; allowed: a <= b"
                f" (zipf: at most {ZIPF_RANGE_MAX:,} values)"
            )
        return Feeder(attr, low, high, zipf)
    if listed:
        return Feeder(attr, values=_values(folder, listed.group(1), listed.group(2), spec))
    raise MixError(f"unknown placeholder {{{spec}}}; allowed: {PLACEHOLDERS_ALLOWED}")


def _values(folder: Path, name: str, file: str, spec: str) -> tuple[str, ...]:
    try:
        lines = (folder / file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise MixError(
            f"placeholder {{{spec}}}: {file} cannot be read ({e.__class__.__name__}); allowed: a one-column CSV "
            "beside the mix file"
        ) from None
    values = [v.strip() for v in lines if v.strip()]
    if values and values[0] == name:
        values = values[1:]  # a header naming the placeholder
    bad = next((v for v in values if "," in v or any(c.isspace() or c == "#" for c in v)), None)
    if not values or len(values) > VALUES_MAX or bad is not None:
        why = f"value {bad!r} has a comma, space or #" if bad is not None else f"{len(values)} values"
        raise MixError(
            f"placeholder {{{spec}}}: {file} has {why}; allowed: 1..{VALUES_MAX} URL-encoded values, one a line"
        )
    return tuple(values)


def checked_file(raw: str) -> str:
    """APP_REQUESTS: "" (none: APP_PATH's one GET) or the absolute path of a mix file that loads (`load`)."""
    return load(raw.strip()).source if raw.strip() else ""


def of_values(values: RunParams) -> Mix:
    """The run's mix: APP_REQUESTS's, else APP_PATH's one GET."""
    return load(values.app_requests) if values.app_requests else single_get(values.app_path)
