"""What every summary.json record shares, and the one converter (cattrs) that spells them as summary.json's mapping
(`as_json`, the one writer) and reads that mapping back (`from_mapping`, the reader of a written file), key for key
with their nested parts, each of the type its field declares. A key no record declares is refused.

What a record's JSON differs in from its fields is declared on its fields' types, by `typing.Annotated`:
`Key("pass")` a key that is no Python name (or names the record it is in), `OmitWhileNone()` a part only some runs
have, `Inline()` a record spelled among its holder's own keys (ModeRecord.predicted: the flat `predicted_rps`, ...).

A record built by its constructor writes every field, in the order the fields are declared, but those left out
while None; `only` writes fewer (a mode whose analysis failed). A record read from a mapping writes the keys it read,
in the order the fields are declared: summary.json is written in that order, so what is read back writes the text
it was read from. A field with no default is one every builder gives; a mapping without its key (a test's, an older
summary.json) reads it as None, so such a field's type says None too, and it is left out when written back. A
record's fields are keyword-only (`kw_only=True`), so a field every builder gives and one with a default (a part only
some runs have) stand in summary.json's order; `unknown()` and `nulls()` are a record with nothing known, writing
no key and every key as null.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from typing import Annotated, Any, TypeVar, get_args, get_origin, get_type_hints

from cattrs import Converter
from cattrs.errors import CattrsError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.types import SimpleStructureHook

from loadlab.core.params import from_json
from loadlab.core.run_params import RunParams

R = TypeVar("R", bound="Fields")
T = TypeVar("T")
# [low, high] as summary.json writes a range or an interval; either end None where it is open
Interval = list[float | None]
# [low, high] with both ends known: the rates a line was fitted on
Range = list[float]
# `absent` of a record built by its constructor until __post_init__ reads its omissions (compared by identity)
_BY_CONSTRUCTOR: frozenset[str] = frozenset({"(built by its constructor)"})
_DECLARED: dict[type, Declared] = {}  # each record class's, read once (functools.cache: mypy finds no class hashable)


@dataclass(frozen=True)
class Key:
    """The field's summary.json key, where it is no Python name (`pass`) or names the record it is in."""

    name: str


@dataclass(frozen=True)
class OmitWhileNone:
    """A part only some runs have: a record built by its constructor leaves the field out while `field` is None (the
    field itself unless named: a level's `rss_mb` goes with its `costs`)."""

    field: str | None = None


# the usual omission: a part only some runs have, left out of a record built without it
SOME_RUNS = OmitWhileNone()


@dataclass(frozen=True)
class Inline:
    """A record spelled inline: its keys among its holder's own, where the field stands (so an inline record's keys
    are one run of its holder's). One with every field left out writes none (ModeRecord's groups, `unknown`)."""


@dataclass(frozen=True)
class Declared:
    """What a record class declares on its fields' types: each field's key, its omission, the records inline."""

    keys: dict[str, str]  # field name → summary.json key
    omitted: dict[str, str]  # field name → the field whose None leaves it out of a record built by its constructor
    inline: dict[str, type[Fields]]  # field name → the record it holds, spelled inline


@dataclass(frozen=True)
class Fields:
    """The base of every record: `absent` the fields it does not write."""

    # _BY_CONSTRUCTOR: built by its constructor, the fields OmitWhileNone leaves out are absent (__post_init__)
    absent: frozenset[str] = field(default=_BY_CONSTRUCTOR, repr=False, compare=False, kw_only=True)

    def __post_init__(self) -> None:
        if self.absent is _BY_CONSTRUCTOR:
            omitted = declared(type(self)).omitted
            absent = frozenset(k for k, by in omitted.items() if getattr(self, by) is None)
            object.__setattr__(self, "absent", absent)  # a frozen dataclass's own field, set once as it is built

    @classmethod
    def names(cls) -> list[str]:
        return list(declared(cls).keys)

    @classmethod
    def from_mapping(cls: type[R], values: Mapping[str, object]) -> R:
        """summary.json's mapping as this record (ValueError when it is not this record's shape)."""
        try:
            return _converter.structure(values, cls)
        except (CattrsError, KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"{cls.__name__} is not summary.json's shape: {e}") from e

    @classmethod
    def unknown(cls: type[R]) -> R:
        """This record with nothing known: every field None, none of them written (as read from no key at all)."""
        return cls.from_mapping({})

    @classmethod
    def nulls(cls: type[R]) -> R:
        """This record with nothing known, every field written as null (a part a mode always writes, unknown)."""
        return cls.from_mapping(dict.fromkeys(declared(cls).keys.values()))

    def as_json(self) -> dict[str, object]:
        written: dict[str, object] = _converter.unstructure(self)
        return written

    def only(self: R, *nulls: str) -> R:
        """This record writing only the fields that hold a value, and these as null (a shorter shape: a mode whose
        analysis failed)."""
        absent = frozenset(n for n in self.names() if getattr(self, n) is None and n not in nulls)
        return replace(self, absent=absent)

    def with_fields(self: R, **values: object) -> R:
        """A copy with these fields set, and written. Which ones is decided as a run is judged (ratio.ratio_fields
        gives the ratio fields a run has), so they are checked when it runs: dataclasses.replace refuses a name the
        record does not declare."""
        change: Callable[..., R] = replace
        return change(self, **values, absent=self.absent - set(values))


def declared(cls: type[Fields]) -> Declared:
    """A record class's declarations (Key, OmitWhileNone, Inline), read once from its fields' annotations."""
    found = _DECLARED.get(cls)
    if found is None:
        found = _DECLARED[cls] = _declarations(cls)
    return found


def _declarations(cls: type[Fields]) -> Declared:
    hints = get_type_hints(cls, include_extras=True)
    keys: dict[str, str] = {}
    omitted: dict[str, str] = {}
    inline: dict[str, type[Fields]] = {}
    for f in fields(cls):
        if f.name == "absent":
            continue
        hint = hints[f.name]
        marks = get_args(hint)[1:] if get_origin(hint) is Annotated else ()
        keys[f.name] = next((m.name for m in marks if isinstance(m, Key)), f.name)
        for mark in marks:
            if isinstance(mark, OmitWhileNone):
                omitted[f.name] = mark.field or f.name
        held = get_args(hint)[0] if marks else None
        if any(isinstance(m, Inline) for m in marks) and isinstance(held, type) and issubclass(held, Fields):
            inline[f.name] = held
    return Declared(keys, omitted, inline)


def _is_record(cls: object) -> bool:
    return isinstance(cls, type) and issubclass(cls, Fields)


def _is_dataclass_type(cls: object) -> bool:
    return isinstance(cls, type) and is_dataclass(cls)


def _as_read(value: object, _: object) -> object:
    return value


def _renamed(cls: type[Fields]) -> dict[str, Any]:
    """cattrs's override of each field whose key is not its name (Key), by field name. Any: mypy checks a `**`
    mapping's values against every keyword parameter, cattrs's own `_cattrs_*` flags too; these name fields only."""
    return {name: override(rename=key) for name, key in declared(cls).keys.items() if key != name}


def _record_writer(cls: type[Fields]) -> Callable[[Fields], dict[str, object]]:
    spelled = make_dict_unstructure_fn(cls, _converter, absent=override(omit=True), **_renamed(cls))
    keys, inline = declared(cls).keys, declared(cls).inline

    def write(record: Fields) -> dict[str, object]:
        gone = {keys[name] for name in record.absent}
        written: dict[str, object] = {}
        for key, value in spelled(record).items():
            if key in gone:
                continue
            if key in inline and isinstance(value, dict):
                written.update(value)  # the inline record's keys where its field stands
            else:
                written[key] = value
        return written

    return write


def _record_reader(cls: type[Fields]) -> Callable[[object, object], Fields]:
    typed = _checked(cls, make_dict_structure_fn(cls, _converter, absent=override(omit=True), **_renamed(cls)))
    keys = declared(cls).keys
    owner = {key: name for name, record in declared(cls).inline.items() for key in declared(record).keys.values()}

    # a field every builder gives (no default): a mapping without its key reads it as None, left out when written
    required = [keys[f.name] for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]

    def read(values: object, _: object) -> Fields:
        if isinstance(values, cls):  # a record already built, in a mapping of others (a test's, a repetition's)
            return values
        gathered = _gathered(_mapping(cls, values), owner)
        unread = {key: None for key in required if key not in gathered}
        absent = frozenset(name for name, key in keys.items() if key not in gathered)
        return replace(typed({**gathered, **unread}), absent=absent)

    return read


def _dataclass_reader(cls: type[T]) -> Callable[[object, object], T]:
    """An analysis object held as it is (analysis/levels.Evidence) or a plain record (summary/judge/kinds.KindRecord):
    each field its key, every one written."""
    typed = _checked(cls, make_dict_structure_fn(cls, _converter))

    def read(values: object, _: object) -> T:
        return values if isinstance(values, cls) else typed(_mapping(cls, values))

    return read


def _checked(cls: type[T], typed: SimpleStructureHook[Mapping[str, object], T]) -> Callable[[Mapping[str, object]], T]:
    """cattrs's generated reader, its refusal of a key said as summary.json's."""

    def read(values: Mapping[str, object]) -> T:
        try:
            return typed(values)
        except ForbiddenExtraKeysError as e:
            raise ValueError(f"{cls.__name__} has no field {', '.join(sorted(e.extra_fields))}") from None

    return read


def _mapping(cls: type, values: object) -> Mapping[str, object]:
    if not isinstance(values, Mapping):
        raise ValueError(f"{cls.__name__} is a mapping in summary.json, not {values!r}")
    return values


def _gathered(values: Mapping[str, object], owner: Mapping[str, str]) -> dict[str, object]:
    """A mapping with each inline record's keys gathered into that field's own mapping."""
    gathered: dict[str, object] = {}
    inline: dict[str, dict[str, object]] = {}
    for key, value in values.items():
        name = owner.get(key)
        if name is None:
            gathered[key] = value
        else:
            inline.setdefault(name, {})[key] = value
    return {**gathered, **inline}


# One converter for summary.json. Numbers, strings and booleans are kept as the file has them (cattrs would make
# 200 a float 200.0 where a field says float, and summary.json writes whole numbers as ints); a key no record declares
# is refused; an error is raised where it happens, not gathered.
_converter = Converter(forbid_extra_keys=True, detailed_validation=False)
for _primitive in (int, float, str, bool):
    _converter.register_structure_hook(_primitive, _as_read)
_converter.register_structure_hook_func(lambda t: t is object, _as_read)  # a mapping of anything: live_config
# core's RunParams: spelled by its parameters' own names (RunParams.to_json), read back by params.from_json
_converter.register_unstructure_hook(RunParams, RunParams.to_json)
_converter.register_structure_hook(RunParams, lambda v, _: v if isinstance(v, RunParams) else from_json(v))
_converter.register_structure_hook_factory(_is_dataclass_type, _dataclass_reader)
_converter.register_structure_hook_factory(_is_record, _record_reader)
_converter.register_unstructure_hook_factory(_is_record, _record_writer)
