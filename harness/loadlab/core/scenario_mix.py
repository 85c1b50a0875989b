"""SCENARIO as one scenario (`http`, as always) or a weighted mix of the thread-service's own workloads
(`"http:70 db:20 cpu:10"`), each a kind of one mix sent through APP_REQUESTS's machinery (core/mix.py): Gatling draws
a kind per request at its share, records it on its own, and the summary judges each kind (summary/judge/kinds.py).

The one rule of the value lives here (standard library only: `make check-params` reads it before .venv exists), and
every stage asks it what the run's scenario needs (`kinds`): PostgreSQL when a kind is db, the CPU-bound reading of a
saturated service when a kind is cpu.

In a mix, CPU_MS is the cpu kind's computation only (the http and db kinds compute nothing): a mix says which requests
compute, so adding CPU_MS to every kind, as it is to a single scenario's one request, would blur the kinds it mixes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loadlab.core import mix
from loadlab.core.asked import Asked
from loadlab.core.run_params import RunParams

# The thread-service's workloads, one endpoint each (param_limits.SCENARIOS is this tuple).
SCENARIOS = ("http", "db", "cpu", "pinned", "fanout")

# pinned is a study of one effect (a JDK's carriers held by a monitor across a blocking call), not a workload a
# service mixes with others; its model (carriers / hold) is made for a run where every request pins. fanout's models
# (the slowest of N calls, the executor's pool) are made for a run where every request fans out.
MIXABLE = ("http", "db", "cpu")
# The scenarios whose request calls the delay-service over HTTP: what a brownout slows and the guards act on.
CALLING = ("http", "pinned", "fanout")
WEIGHT_MAX = 1000
WORD = re.compile(r"([a-z]+):(\d+)")
# The thread-service's endpoint per scenario (gatling/…/LoadConfig.SCENARIO_PATHS spells the same, held together by
# harness/tests/data/mix/scenario_paths.json).
ENDPOINTS = {"http": "/forward", "db": "/db", "cpu": "/cpu", "pinned": "/pinned", "fanout": "/fanout"}
ALLOWED = (
    f"{' | '.join(SCENARIOS)}, or a mix of two or more name:weight words, each name once from "
    f"{' | '.join(MIXABLE)} (pinned and fanout do not mix: each studies one shape on every request), each weight "
    f'1..{WEIGHT_MAX} (e.g. "http:70 db:20 cpu:10")'
)


class ScenarioMixError(ValueError):
    """One bad SCENARIO; the message is the single line the user sees."""


@dataclass(frozen=True)
class Share:
    name: str
    weight: int

    def fraction(self, total: int) -> float:
        return self.weight / total


def parse(raw: str) -> tuple[Share, ...]:
    """Each kind with its weight: one scenario is a mix of one at weight 1. ScenarioMixError names the bad word."""
    value = " ".join(str(raw).split())
    if value in SCENARIOS:
        return (Share(value, 1),)
    words = value.split(" ")
    if len(words) == 1 and ":" not in value:  # one word, as SCENARIO always was: refused as it always was
        raise ScenarioMixError(f"SCENARIO={raw!r} is not allowed; allowed: {ALLOWED}")
    shares: list[Share] = []
    for word in words:
        m = WORD.fullmatch(word)
        why = None
        if m is None:
            why = f"{word!r} is neither a scenario nor name:weight"
        elif m.group(1) not in MIXABLE:
            why = f"{m.group(1)!r} cannot be a kind of a mix"
        elif not 1 <= int(m.group(2)) <= WEIGHT_MAX:
            why = f"{word!r} has a weight out of 1..{WEIGHT_MAX}"
        elif any(s.name == m.group(1) for s in shares):
            why = f"{m.group(1)!r} is named twice"
        if m is None or why:
            raise ScenarioMixError(f"SCENARIO={raw!r} is not allowed ({why}); allowed: {ALLOWED}")
        shares.append(Share(m.group(1), int(m.group(2))))
    if len(shares) < 2:
        raise ScenarioMixError(f"SCENARIO={raw!r} is not allowed (a mix of one kind); allowed: {ALLOWED}")
    return tuple(shares)


def checked(raw: str) -> str:
    """The parameter's value: one scenario as typed, a mix with its words separated by one space."""
    shares = parse(raw)
    if len(shares) == 1:
        return shares[0].name
    return " ".join(f"{s.name}:{s.weight}" for s in shares)


def kinds(scenario: object) -> tuple[str, ...]:
    """The scenarios a run's requests do: ("db",) for SCENARIO=db, ("http", "db", "cpu") for a mix of them."""
    return tuple(s.name for s in parse(str(scenario or "http")))


def has(values: RunParams | Asked, name: str) -> bool:
    """A kind of the run's SCENARIO is `name` (PostgreSQL for db, the CPU-bound reading for cpu)."""
    return name in kinds(values.scenario)


def said(scenario: object) -> str:
    """SCENARIO as a refusal of a downstream feature names it: `SCENARIO=db`, or a mix quoted with its kinds that make
    no downstream call (`SCENARIO='http:70 db:30' (its db kind)`)."""
    if not is_mix(scenario):
        return f"SCENARIO={scenario}"
    others = [k for k in kinds(scenario) if k not in CALLING]
    return f"SCENARIO='{scenario}' (its {' and '.join(others)} kind{'s' if len(others) > 1 else ''})"


def is_mix(scenario: object) -> bool:
    return len(kinds(scenario)) > 1


def fractions(scenario: object) -> dict[str, float]:
    """Each kind's share of the requests as asked (sums to 1; a single scenario is 1.0)."""
    shares = parse(str(scenario or "http"))
    total = sum(s.weight for s in shares)
    return {s.name: s.fraction(total) for s in shares}


def endpoint(name: str, delay_ms: int, cpu_ms: int, query: str = "") -> str:
    """What one request of scenario `name` asks: LoadConfig.requestPath()'s rule (/cpu waits for nothing; query:
    the scenario's own words, core/fanout.query)."""
    if name == "cpu":
        return f"{ENDPOINTS[name]}?cpuMs={cpu_ms}"
    path = f"{ENDPOINTS[name]}?ms={delay_ms}" + (f"&cpuMs={cpu_ms}" if cpu_ms > 0 else "")
    return path + (f"&{query}" if query else "")


def kind_cpu_ms(name: str, values: RunParams) -> int:
    """The CPU_MS a kind computes: all of it for a single scenario; in a mix, the cpu kind's only."""
    return values.cpu_ms if name == "cpu" or not is_mix(values.scenario) else 0


def as_mix(values: RunParams) -> mix.Mix:
    """A mix SCENARIO as APP_REQUESTS's resolved mix: each kind a GET of its scenario's endpoint, named by it."""
    kinds_ = []
    for line, share in enumerate(parse(values.scenario), start=1):
        path = endpoint(share.name, values.delay_ms, kind_cpu_ms(share.name, values))
        kinds_.append(
            mix.Kind(line, share.name, float(share.weight), "GET", path, "", "", path, "", path, "", shown=share.name)
        )
    return mix.Mix(f"SCENARIO={values.scenario}", tuple(kinds_))


def cross_checks(v: RunParams) -> list[str]:
    """A mix's CPU_MS belongs to its cpu kind: one without a cpu kind would compute it in no request (CPU_MS=0 with a
    cpu kind is param_cross's refusal, as for SCENARIO=cpu)."""
    if is_mix(v.scenario) and "cpu" not in kinds(v.scenario) and v.cpu_ms > 0:
        return [
            f"CPU_MS={v.cpu_ms} is not allowed with SCENARIO='{v.scenario}': in a mix CPU_MS is the cpu kind's "
            "computation and this mix has none; allowed: CPU_MS=0, or a cpu:weight word in SCENARIO"
        ]
    return []
