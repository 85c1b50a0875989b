"""A summary record with only the fields a test names: every builder of the harness gives each field (the records are
keyword-only, without defaults), a test gives the few its claim is about and leaves the rest None, as the record's
constructor then writes them (None as null, a part only some runs have left out)."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

from loadlab.summary.schema.record_fields import Fields

R = TypeVar("R", bound=Fields)


def partial(cls: type[R], **given: Any) -> R:
    """cls with these fields, every other one without a default None. Any: each field's own type, which the
    constructor receives as given."""
    unset: dict[str, Any] = {
        f.name: None
        for f in fields(cls)
        if f.name not in given and f.default is MISSING and f.default_factory is MISSING and f.name != "absent"
    }
    return cls(**unset, **given)
