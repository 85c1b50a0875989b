"""Every run parameter: its default, what is allowed, and the validation that runs before anything starts.

The Makefile passes each parameter as an environment variable of the same name, so `make bench DELAY_MS=100`,
`DELAY_MS=100 make bench` and `python -m loadlab bench` all read the same values.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from . import limits
from .errors import ExitCode, LoadlabError

TARGETS = ("local", "netns", "aws")
THREAD_MODES = ("platform", "virtual")
PROFILES = ("stairs", "ramp")


class ParamError(LoadlabError, ValueError):
    """One bad parameter; the message is the single line the user sees."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class Param:
    name: str
    default: str
    help: str
    parse: Callable[[str, str], object]
    allowed: str


def _int_in(lo: int, hi: int) -> Callable[[str, str], int]:
    def parse(name: str, raw: str) -> int:
        try:
            value = int(raw.strip())
        except ValueError:
            raise ParamError(f"{name}={raw!r} is not a whole number; allowed: {lo}..{hi}") from None
        if not lo <= value <= hi:
            raise ParamError(f"{name}={value} is out of range; allowed: {lo}..{hi}")
        return value
    return parse


def _one_of(choices: tuple[str, ...]) -> Callable[[str, str], str]:
    def parse(name: str, raw: str) -> str:
        value = raw.strip()
        if value not in choices:
            raise ParamError(f"{name}={raw!r} is not allowed; allowed: {' | '.join(choices)}")
        return value
    return parse


def _modes(name: str, raw: str) -> list[str]:
    modes = raw.replace(",", " ").split()
    allowed = f"one or both of {' '.join(THREAD_MODES)}, space-separated, each at most once"
    if not modes or any(m not in THREAD_MODES for m in modes) or len(set(modes)) != len(modes):
        raise ParamError(f"{name}={raw!r} is not allowed; allowed: {allowed}")
    return modes


def _text(name: str, raw: str) -> str:
    if not raw.strip():
        raise ParamError(f"{name} is empty; allowed: a directory path")
    return raw.strip()


PARAMS: tuple[Param, ...] = (
    Param("TARGET", "local", "where the hosts are: local (this machine), netns (namespaces), aws (Terraform)",
          _one_of(TARGETS), " | ".join(TARGETS)),
    Param("MODES", "platform virtual", "thread modes to run, in order", _modes, "platform and/or virtual"),
    Param("DELAY_MS", "200", "delay the delay-service waits before replying (ms)", _int_in(1, 60000),
          f"1..60000, and {limits.INFLIGHT_RULE}"),
    Param("PLATFORM_THREADS", "200", "Tomcat's maximum worker threads in platform mode",
          _int_in(1, 10000), "1..10000"),
    Param("PROFILE", "stairs", "stairs (constant-rate levels) or ramp (linear)", _one_of(PROFILES),
          " | ".join(PROFILES)),
    Param("START_RPS", "300", "first arrival rate (requests/s, all injectors together)", _int_in(1, 100000),
          "1..100000"),
    Param("PEAK_RPS", "3000", "last arrival rate (requests/s)", _int_in(1, 100000),
          f"START_RPS..100000, and {limits.INFLIGHT_RULE}"),
    Param("STEPS", "10", "levels from START_RPS to PEAK_RPS inclusive (ramp: judging windows)", _int_in(1, 100),
          "1..100"),
    Param("STEP_SECONDS", "10", "seconds per level", _int_in(2, 3600), "2..3600"),
    Param("WARMUP_SECONDS", "30", "warm-up before measuring, at START_RPS (not counted)", _int_in(0, 3600),
          "0..3600"),
    Param("INJECTORS", "1", "load-generator hosts; the rate is split evenly", _int_in(1, 16), "1..16"),
    Param("RESULTS_DIR", "results", "where run folders are written", _text, "a directory path"),
)

BY_NAME = {p.name: p for p in PARAMS}
MAX_MEASURED_SECONDS = 4 * 3600


def parse(env: Mapping[str, str] | None = None) -> dict[str, object]:
    """Reads every parameter from env (default: os.environ); raises ParamError listing every bad one."""
    env = os.environ if env is None else env
    values: dict[str, object] = {}
    errors: list[str] = []
    for p in PARAMS:
        raw = env.get(p.name)
        raw = p.default if raw is None or raw == "" else raw
        try:
            values[p.name] = p.parse(p.name, raw)
        except ParamError as e:
            errors.append(str(e))
    if not errors:
        errors.extend(_cross_checks(values))
    if errors:
        raise ParamError("\n".join(errors))
    return values


def _cross_checks(v: dict[str, object]) -> list[str]:
    errors = []
    if v["PEAK_RPS"] < v["START_RPS"]:
        errors.append(f"PEAK_RPS={v['PEAK_RPS']} is below START_RPS={v['START_RPS']}; "
                      f"allowed: {v['START_RPS']}..100000")
    if v["START_RPS"] < v["INJECTORS"]:
        # Each injector must offer at least one request per second, or its schedule shifts by whole seconds.
        errors.append(f"START_RPS={v['START_RPS']} is below INJECTORS={v['INJECTORS']}; "
                      f"allowed: at least 1 request/s per injector")
    measured = v["STEPS"] * v["STEP_SECONDS"]
    if measured > MAX_MEASURED_SECONDS:
        errors.append(f"STEPS x STEP_SECONDS = {measured} s is too long; allowed: at most {MAX_MEASURED_SECONDS} s")
    # The request chain's limits follow DELAY_MS; where a cap of Gatling or of the machine cannot, say so now.
    errors.extend(limits.range_errors(v))
    return errors


def as_env(values: Mapping[str, object]) -> dict[str, str]:
    """The inverse of parse, for handing parameters to child processes."""
    return {k: " ".join(v) if isinstance(v, list) else str(v) for k, v in values.items()}


def levels(values: Mapping[str, object]) -> list[float]:
    """The offered rates of the measured levels, evenly spaced from START_RPS to PEAK_RPS inclusive."""
    n, start, peak = values["STEPS"], values["START_RPS"], values["PEAK_RPS"]
    if n == 1:
        return [float(start)]
    return [start + (peak - start) * i / (n - 1) for i in range(n)]
