"""What every summary.json record shares: built by its constructor from the analysis (summary/verdict.py), or from
summary.json's mapping (`from_mapping`, the reader of a written file), and spelled as summary.json's mapping by
`as_json`, the one writer, key for key with its nested parts. A key no record declares is refused.

A record built by its constructor writes every field, in the order the fields are declared, but the ones its class
leaves out while they are None (`OPTIONAL`: a part only some runs have); `only` builds a record of fewer fields. A
record read from a mapping writes the keys it read, in the order it read them (a record that declares
`DECLARED_ORDER` in the order of its fields: ModeRecord, RunSummary), so the JSON it writes is the JSON it was read
from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import ClassVar, TypeVar

ONE, LIST, MAP = "one", "list", "map"
R = TypeVar("R", bound="Fields")
T = TypeVar("T")
# [low, high] as summary.json writes a range or an interval; either end None where it is open
Interval = list[float | None]
# [low, high] with both ends known: the rates a line was fitted on
Range = list[float]
# `absent` of a record built by its constructor until __post_init__ reads its OPTIONAL fields (compared by identity)
_BY_CONSTRUCTOR: frozenset[str] = frozenset({"(built by its constructor)"})


@dataclass(frozen=True)
class Fields:
    """The base of every record: `absent` the fields it does not write, `order` the keys as its mapping had them."""

    # _BY_CONSTRUCTOR: built by its constructor, the OPTIONAL fields left None are absent (__post_init__)
    absent: frozenset[str] = field(default=_BY_CONSTRUCTOR, repr=False, compare=False, kw_only=True)
    order: tuple[str, ...] = field(default=(), repr=False, compare=False, kw_only=True)
    # field name → the field whose None leaves it out of a record built by its constructor (often itself)
    OPTIONAL: ClassVar[dict[str, str]] = {}
    # field name → (ONE | LIST | MAP, the record class its mapping(s) become)
    NESTED: ClassVar[dict[str, tuple[str, type]]] = {}
    # summary.json key → field name, where the key is no Python name (`pass`) or names the record it is in
    RENAMED: ClassVar[dict[str, str]] = {}
    # field name → the record class it holds, spelled inline: its keys among this record's own, where the field
    # stands (ModeRecord.predicted: summary.json's flat `predicted_rps`, `prediction_check`, ...)
    FLAT: ClassVar[dict[str, type[Fields]]] = {}
    DECLARED_ORDER: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if self.absent is _BY_CONSTRUCTOR:
            absent = frozenset(k for k, by in self.OPTIONAL.items() if getattr(self, by) is None)
            object.__setattr__(self, "absent", absent)

    @classmethod
    def only(cls: type[R], **values: object) -> R:
        """A record that writes these fields only (a shorter shape: a mode whose analysis failed)."""
        return _built(cls, values, absent=frozenset(n for n in cls.names() if n not in values))

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls) if f.name not in ("absent", "order")]

    @classmethod
    def keys(cls) -> list[str]:
        """summary.json's keys for this record's fields, in the order they are declared (a FLAT field's own keys)."""
        spelled = {v: k for k, v in cls.RENAMED.items()}
        return [k for n in cls.names() for k in (cls.FLAT[n].keys() if n in cls.FLAT else [spelled.get(n, n)])]

    @classmethod
    def from_mapping(cls: type[R], values: Mapping[str, object]) -> R:
        named = {cls.RENAMED.get(k, k): v for k, v in _gathered(cls.FLAT, values).items()}
        names = cls.names()
        unknown = set(named) - set(names)
        if unknown:
            raise ValueError(f"{cls.__name__} has no field {', '.join(sorted(unknown))}")
        typed = {k: _typed(cls.NESTED.get(k), v) for k, v in named.items()}
        return _built(cls, typed, absent=frozenset(n for n in names if n not in named), order=tuple(named))

    def with_fields(self: R, **values: object) -> R:
        """A copy with these fields set (and written)."""
        order = self.order + tuple(k for k in values if k not in self.order) if self.order else ()
        return replaced(self, {**values, "absent": self.absent - set(values), "order": order})

    def as_json(self) -> dict[str, object]:
        keys = self.names() if self.DECLARED_ORDER or not self.order else list(self.order)
        spelled = {v: k for k, v in self.RENAMED.items()}
        written: dict[str, object] = {}
        for k in keys:
            if k in self.absent:
                continue
            value = getattr(self, k)
            if k in self.FLAT and isinstance(value, Fields):
                written.update(value.as_json())
            else:
                written[spelled.get(k, k)] = plain(value)
        return written


def _built(cls: type[R], values: Mapping[str, object], absent: frozenset[str], order: tuple[str, ...] = ()) -> R:
    return construct(cls, {**values, "absent": absent, "order": order})


def construct(cls: type[T], values: Mapping[str, object]) -> T:
    """An object of this class from a mapping of its fields, whose types the class declares: the call that cannot be
    checked before it runs (a mapping read from summary.json has its values only then)."""
    build: Callable[..., T] = cls
    return build(**values)


def replaced(record: T, values: Mapping[str, object]) -> T:
    """A copy of a record with these fields changed (dataclasses.replace), checked as `construct` is: when it runs."""
    change: Callable[..., T] = replace
    return change(record, **values)


def _gathered(flat: Mapping[str, type[Fields]], values: Mapping[str, object]) -> dict[str, object]:
    """A mapping with each FLAT field's keys gathered into that field's own mapping, where its first key stood."""
    owner = {key: name for name, record in flat.items() for key in record.keys()}
    gathered: dict[str, object] = {}
    inline: dict[str, dict[str, object]] = {}
    for key, value in values.items():
        name = owner.get(key)
        if name is None:
            gathered[key] = value
        else:
            gathered.setdefault(name, None)  # the field stands where its first key did
            inline.setdefault(name, {})[key] = value
    return {k: flat[k].from_mapping(inline[k]) if k in inline else v for k, v in gathered.items()}


def _typed(spec: tuple[str, type] | None, value: object) -> object:
    if spec is None:
        return value
    kind, record = spec

    def one(v: object) -> object:
        if not isinstance(v, Mapping):
            return v
        reader = getattr(record, "from_mapping", None)
        if callable(reader):  # a record, or one of its own shape (summary/kinds.py)
            return reader(v)
        # an analysis object held as it is (analysis/levels.Evidence): its keys are its fields
        return construct(record, v)

    if kind == LIST and isinstance(value, list):
        return [one(v) for v in value]
    if kind == MAP and isinstance(value, Mapping):
        return {k: one(v) for k, v in value.items()}
    return one(value) if kind == ONE else value


def plain(value: object) -> object:
    """A value as summary.json holds it: records as their mappings, all the way down."""
    as_json = getattr(value, "as_json", None)
    if callable(as_json):  # a record, or one of its own shape (summary/kinds.py)
        return as_json()
    to_json = getattr(value, "to_json", None)
    if callable(to_json):  # core's RunParams
        return to_json()
    if is_dataclass(value) and not isinstance(value, type):  # an analysis object held as it is: every field
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
