"""Old run folders brought up to today's layout as they are read, one step per version, in this one place.

params.json carries `format` (FORMAT today; none at all is 0). An injector's meta.json has no version of its own:
a field its simulation did not write yet is filled in from what that simulation did.
"""

from __future__ import annotations

# params.json and meta.json as read: JSON objects whose values are narrowed where they are used.
Doc = dict[str, object]

# The layout bench writes today. 1: `format` itself, `limits`, `target`, SCENARIO and REFINE always present.
FORMAT = 1

# What a run of format 0 did where its record says nothing: the request chain's fixed timeouts of the time (the
# simulation's 10 s request timeout, the thread-service's 30 s downstream timeout), one scenario, no fine passes.
FORMAT_0_LIMITS = {"injector_request_timeout_ms": 10_000, "thread_service_timeout_ms": 30_000}
FORMAT_0_SCENARIO = "http"
FORMAT_0_NOT_REFINED = "this run predates the refinement pass (REFINE): the knee is placed on the coarse levels only"
# The meaning of the two failure kinds a harness limit or the service's own timeout causes, for injectors that did
# not list their kinds' meanings yet (the simulation's ErrorKind says the same).
KNOWN_KIND_MEANINGS = {
    "timeout_injector": "the injector's own request timeout (a harness limit)",
    "status_504": "the thread-service's own downstream or query timeout",
}


def upgrade(doc: Doc) -> Doc:
    """params.json's content brought up to FORMAT, one version at a time; the document given is not changed."""
    doc = dict(doc)
    given = doc.get("format")
    version = given if isinstance(given, int) else 0
    if version < 1:
        doc = _format_0_to_1(doc)
    return doc


def _format_0_to_1(doc: Doc) -> Doc:
    params = dict(_mapping(doc.get("params")))
    params.setdefault("SCENARIO", FORMAT_0_SCENARIO)
    if "REFINE" not in params:
        params["REFINE"] = 0
        modes = [str(m) for m in _list(doc.get("modes_completed"))]
        doc["refine_skipped"] = {**dict.fromkeys(modes, FORMAT_0_NOT_REFINED), **_mapping(doc.get("refine_skipped"))}
    limits = doc.get("limits")
    return {
        **doc,
        "format": 1,
        "params": params,
        "target": doc.get("target") or params.get("TARGET"),
        "limits": limits if isinstance(limits, dict) and limits else dict(FORMAT_0_LIMITS),
    }


def injector_meta(meta: Doc) -> Doc:
    """An injector's meta.json with what older simulations did not write: its request timeout under `timeouts`
    (they gave it only among their properties) and the meaning of the kinds a timeout causes."""
    meta = dict(meta)
    timeouts = _mapping(meta.get("timeouts"))
    properties = meta.get("properties")
    said = properties.get("loadlab.requestTimeoutMs") if isinstance(properties, dict) else None
    if timeouts.get("request_ms") is None and said is not None:
        meta["timeouts"] = {**timeouts, "request_ms": said}
    if not meta.get("error_kind_meanings"):
        meta["error_kind_meanings"] = dict(KNOWN_KIND_MEANINGS)
    return meta


def _mapping(value: object) -> Doc:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
