"""A rung of the limit ladder (LADDER=N) as parameters: the run's own with the prescription's setting applied, one mode
on short stairs from just below the rate it held to past the rate its next limit is predicted at, checked as any
run's (params.parse). run/rungs.py climbs the rungs, bench.py runs each; run/preflight.py sizes them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from loadlab.core import param_limits, params
from loadlab.core.param_parsers import ParamError
from loadlab.core.run_params import RunParams

# A rung's stairs: from this share of the rate the mode held (healthy before, so healthy again with more room) to
# this multiple of the rate the next limit is predicted at, in RUNG_STEPS levels; REFINE then localises the knee.
START_SHARE = 0.9
PEAK_MULTIPLE = 1.4
RUNG_STEPS = 5


@dataclass(frozen=True)
class Rung:
    """What a rung changes of the run below it."""

    label: str  # the mode (one JDK and one pool: the label is the thread mode)
    setting: str  # the prescription's setting: a lab parameter, a Spring property or a JVM flag
    app_parameter: str | None  # the lab parameter that sizes `setting` in an APP (its Tomcat pool), else None
    to: int
    held_rps: float  # the rate the mode held below
    rate_rps: float | None  # the rate the next limit is predicted at (None: half as much again as held)
    results_dir: Path  # where the rung's run folder goes


def climbable(values: RunParams) -> bool:
    """The ladder climbs one JDK, one platform pool, REPEAT=1 stairs."""
    return (
        len(values.jdks) == 1
        and values.single_pool is not None
        and values.repeat == 1
        and values.profile == param_limits.STAIRS
    )


def rung_values(values: RunParams, rung: Rung) -> RunParams | str:
    """The rung's parameters, checked as any run's; or why it cannot run."""
    env = _env(values)
    setting, to = rung.setting, rung.to
    parameter = (rung.app_parameter or setting) if values.app else setting
    if parameter in params.BY_NAME:
        env[parameter] = str(to)
    elif values.app and "." in setting and not setting.startswith("-") and " " not in setting:
        env["APP_ARGS"] = f"{values.app_args} --{setting}={to}".strip()  # a Spring property: on the jar's command line
    else:
        return f"{setting} is not a setting the lab can apply (set it by hand in production)"
    start = max(1, math.floor(rung.held_rps * START_SHARE))
    peak = max(math.ceil((rung.rate_rps or rung.held_rps * 1.5) * PEAK_MULTIPLE), start + RUNG_STEPS)
    env.update(
        {
            "MODES": rung.label,
            "START_RPS": str(start),
            "PEAK_RPS": str(peak),
            "STEPS": str(RUNG_STEPS),
            "REPEAT": "1",
            "LADDER": "",
            "RESULTS_DIR": str(rung.results_dir),
        }
    )
    try:
        return params.parse(env)
    except ParamError as e:
        return f"the rung's parameters were refused: {e}"


def _env(values: RunParams) -> dict[str, str]:
    """The run's parameters as the environment would give them: what params.parse reads back."""
    env: dict[str, str] = {}
    for name, value in values.to_json().items():
        if isinstance(value, list):
            env[name] = " ".join(str(v) for v in value)
        elif value is None:
            env[name] = ""
        else:
            env[name] = str(value)
    return env
