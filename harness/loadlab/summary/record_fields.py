"""What every summary.json record shares: built from summary.json's mapping (`from_mapping`), spelled back as one
(`as_json`) key for key, with its nested parts typed too. A key no record declares is refused.

A nested record writes its keys in the order it read them, so the JSON it writes is the JSON it was built from; a
record that declares `DECLARED_ORDER` writes them in the order its fields are declared (ModeRecord, RunSummary).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

ONE, LIST, MAP = "one", "list", "map"


@dataclass(frozen=True)
class Fields:
    """The base of every record: `absent` the fields its mapping left out, `order` the keys as it read them."""

    absent: frozenset[str] = field(default=frozenset(), repr=False, compare=False, kw_only=True)
    order: tuple[str, ...] = field(default=(), repr=False, compare=False, kw_only=True)
    # field name → (ONE | LIST | MAP, the record class its mapping(s) become)
    NESTED: ClassVar[dict[str, tuple[str, type]]] = {}
    # summary.json key → field name, where the key is no Python name (`pass`)
    RENAMED: ClassVar[dict[str, str]] = {}
    DECLARED_ORDER: ClassVar[bool] = False

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls) if f.name not in ("absent", "order")]  # type: ignore[arg-type]

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]):
        named = {cls.RENAMED.get(k, k): v for k, v in values.items()}
        names = cls.names()
        unknown = set(named) - set(names)
        if unknown:
            raise ValueError(f"{cls.__name__} has no field {', '.join(sorted(unknown))}")
        typed = {k: _typed(cls.NESTED.get(k), v) for k, v in named.items()}
        absent = frozenset(n for n in names if n not in named)
        return cls(**typed, absent=absent, order=tuple(named))  # type: ignore[call-arg]

    def with_fields(self, **values: Any):
        """A copy with these fields set (and written)."""
        order = self.order + tuple(k for k in values if k not in self.order)
        return replace(self, **values, absent=self.absent - set(values), order=order)  # type: ignore[type-var]

    def as_json(self) -> dict[str, Any]:
        keys = self.names() if self.DECLARED_ORDER else list(self.order)
        spelled = {v: k for k, v in self.RENAMED.items()}
        return {spelled.get(k, k): plain(getattr(self, k)) for k in keys if k not in self.absent}


def _typed(spec: tuple[str, type] | None, value: Any) -> Any:
    if spec is None:
        return value
    kind, record = spec

    def one(v: Any) -> Any:
        return record.from_mapping(v) if isinstance(v, Mapping) and not isinstance(v, Fields) else v

    if kind == LIST and isinstance(value, list):
        return [one(v) for v in value]
    if kind == MAP and isinstance(value, Mapping):
        return {k: one(v) for k, v in value.items()}
    return one(value) if kind == ONE else value


def plain(value: Any) -> Any:
    """A value as summary.json holds it: records as their mappings, all the way down."""
    if isinstance(value, Fields) or hasattr(value, "as_json"):  # a record of its own shape (summary/kinds.py)
        return value.as_json()
    if hasattr(value, "to_json"):  # core's RunParams
        return value.to_json()
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
