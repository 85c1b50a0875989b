"""DOWNSTREAM_STUBS: the answers the delay-service gives an app's paths, read from the user's JSON file and checked
(stdlib only: parameters are checked before .venv), handed over as one property (Stubs.java reads it)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import TypedDict

from loadlab.core.errors import DownstreamError

# DOWNSTREAM_STUBS: a JSON list of {path, method, status, body, content_type}; body is a file beside the stubs file.
STUB_KEYS = {"path", "method", "status", "body", "content_type"}
STUB_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
STUBS_ALLOWED = (
    'a JSON list of {"path": "/posts/{id}", "method": "GET", "status": 200, "body": "post.json", '
    '"content_type": "application/json"} (only path required; body a file beside the stubs file)'
)
# The stubs reach the delay-service as one command-line property: Linux caps one argument at 128 KiB.
STUBS_MAX_CHARS = 100_000


class Stub(TypedDict):
    """One stub as the delay-service reads it (Stubs.java): checked, its body read from its file."""

    path: str
    method: str | None
    status: int
    content_type: str
    body: str


def _stub(i: int, entry: object, folder: Path, shown: str) -> Stub:
    """One stub checked and resolved (its body file read); DownstreamError naming the entry and what is wrong."""

    def bad(problem: str) -> DownstreamError:
        return DownstreamError(f"{shown}: entry {i + 1} {problem}; allowed: {STUBS_ALLOWED}")

    if not isinstance(entry, dict) or "path" not in entry:
        raise bad("is not an object with a path")
    unknown = sorted(set(entry) - STUB_KEYS)
    path, method, status = entry["path"], entry.get("method"), entry.get("status", 200)
    if unknown:
        raise bad(f"has unknown keys {', '.join(unknown)}")
    if not isinstance(path, str) or not path.startswith("/") or "**" in path.rstrip("/").removesuffix("/**"):
        raise bad(f"has path {path!r}, not a path pattern starting with / (** only as its last segment)")
    if path.count("{") != path.count("}"):
        raise bad(f"has path {path!r} with unbalanced braces")
    if method is not None and (not isinstance(method, str) or method.upper() not in STUB_METHODS):
        raise bad(f"has method {method!r}, not one of {' '.join(STUB_METHODS)}")
    if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
        raise bad(f"has status {status!r}, not 100..599")
    body = "{}"
    if entry.get("body") is not None:
        body_path = folder / str(entry["body"])
        try:
            body = body_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise bad(
                f"has a body file {str(entry['body'])!r} that cannot be read ({getattr(e, 'strerror', e)})"
            ) from None
    return {
        "path": path,
        "method": method.upper() if method else None,
        "status": status,
        "content_type": str(entry.get("content_type") or "application/json"),
        "body": body,
    }


def read(path: Path) -> list[Stub]:
    """The stubs file checked, each body read from its file; DownstreamError in one line when anything is wrong."""
    shown = f"DOWNSTREAM_STUBS={str(path)!r}"
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise DownstreamError(f"{shown} cannot be read ({e.strerror or e}); allowed: {STUBS_ALLOWED}") from None
    except ValueError as e:
        raise DownstreamError(f"{shown} is not JSON ({e}); allowed: {STUBS_ALLOWED}") from None
    if not isinstance(entries, list) or not entries:
        raise DownstreamError(f"{shown} is not a non-empty JSON list; allowed: {STUBS_ALLOWED}")
    stubs = [_stub(i, e, path.parent, shown) for i, e in enumerate(entries)]
    if len(encoded(stubs)) > STUBS_MAX_CHARS:
        raise DownstreamError(
            f"{shown} with its bodies is over {STUBS_MAX_CHARS // 1000} KB once encoded; allowed: smaller bodies"
        )
    return stubs


def encoded(stubs: list[Stub]) -> str:
    """The delay-service's downstream.stubs: base64 of the resolved list (Stubs.java)."""
    return base64.b64encode(json.dumps(stubs).encode()).decode()


def parse(name: str, raw: str) -> str:
    """DOWNSTREAM_STUBS as checked: empty, or the absolute path of a valid stubs file."""
    if not raw.strip():
        return ""
    path = Path(raw.strip()).expanduser().resolve()
    read(path)
    return str(path)
