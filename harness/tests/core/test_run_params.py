"""RunParams is the parameter table as a typed record: one field per row, in its order, typed as the row's parser
returns it; written to params.json by the parameters' own names and read back the same, an older run's missing
parameters at their defaults."""

import json
import types
import typing
from dataclasses import replace

from loadlab.core import params
from loadlab.core.run_params import RunParams

# A value other than the default for every row whose default leaves a type of its annotation untried (None, an int
# for a float), so every type a parser can return is held to the field's annotation.
OTHER_VALUES = {
    "DELAY_DIST": "lognormal",
    "DELAY_P99_MS": "900",
    "DELAY_SLOW_MS": "900",
    "DELAY_SLOW_PCT": "2.5",
    "DOWNSTREAM_ERRORS": "0.5",
    "DOWNSTREAM_RESETS": "1.5",
    "DOWNSTREAM_TIMEOUT_MS": "800",
    "CLIENT_POOL": "50",
    "SERVICE_MEMORY_MB": "1024",
    "PLATFORM_THREADS": "200 1000",
    "RATE": "40",
    "FANOUT_POOL": "8",
    "FANOUT_TIMEOUT_MS": "300",
    "JDKS": "21 25",
    "SERVICE_CPUS": "0.5",
}


def holds(annotation: object, value: object) -> bool:
    """Whether a value is of a field's annotation (int is a float, as for a type checker)."""
    if isinstance(annotation, types.UnionType):
        return any(holds(a, value) for a in typing.get_args(annotation))
    if annotation is type(None):
        return value is None
    if typing.get_origin(annotation) is tuple:
        (item, _) = typing.get_args(annotation)
        return isinstance(value, tuple) and all(holds(item, v) for v in value)
    if annotation is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, annotation)  # type: ignore[arg-type]


def test_every_parameter_is_one_field_in_the_tables_order():
    assert RunParams.names() == tuple(p.name.lower() for p in params.PARAMS)


def test_each_field_is_typed_as_its_parser_returns_it():
    hints = typing.get_type_hints(RunParams)
    for p in params.PARAMS:
        for raw in (p.default, OTHER_VALUES.get(p.name, p.default)):
            value = p.parse(p.name, raw)
            assert holds(hints[p.name.lower()], value), (p.name, raw, value, hints[p.name.lower()])
    assert set(OTHER_VALUES) <= set(params.BY_NAME)


def test_parse_gives_the_defaults_and_each_parameter_by_its_field():
    assert params.parse({}) == params.defaults()
    run = params.parse({"DELAY_MS": "100", "MODES": "platform", "JDKS": "21 25", "PLATFORM_THREADS": "50 80"})
    assert (run.delay_ms, run.modes, run.jdks, run.platform_threads) == (100, ("platform",), (21, 25), (50, 80))


def test_params_json_spells_every_parameter_by_its_name_and_reads_back_the_same():
    run = params.parse({"PLATFORM_THREADS": "50", "DOWNSTREAM_ERRORS": "0.5", "JDKS": "21 25"})
    shown = run.as_recorded().to_json()
    assert list(shown) == [p.name for p in params.PARAMS if p.name != "RESULTS_DIR"]
    assert (shown["PLATFORM_THREADS"], shown["JDKS"], shown["DOWNSTREAM_ERRORS"]) == (50, [21, 25], 0.5)
    read = params.from_json(json.loads(json.dumps(shown)))
    assert read == run and read.to_json() == shown
    sweep = replace(run, platform_threads=(50, 80))
    assert sweep.to_json()["PLATFORM_THREADS"] == [50, 80]
    assert params.from_json(sweep.to_json()) == sweep


def test_an_older_record_reads_its_missing_parameters_as_their_defaults_and_writes_back_what_it_held():
    recorded = {"TARGET": "netns", "MODES": ["virtual"], "PLATFORM_THREADS": 30, "REFINE": 0}
    read = params.from_json(recorded)
    assert (read.target, read.modes, read.platform_threads, read.refine) == ("netns", ("virtual",), (30,), 0)
    assert (read.client, read.max_connections, read.delay_dist) == ("jdk", 8192, "constant")
    assert read.to_json() == recorded
    # older spellings: MODES as its text, one JDK as a number, a sweep as the text a user typed
    old = params.from_json({"MODES": "platform virtual", "JDKS": 25, "PLATFORM_THREADS": "200 1000"})
    assert (old.modes, old.jdks, old.platform_threads) == (("platform", "virtual"), (25,), (200, 1000))
