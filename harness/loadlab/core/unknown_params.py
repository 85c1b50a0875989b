"""A name given to the lab that it does not read, refused in one line naming the closest known parameter (stdlib
only: checked before .venv exists)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

# Unknown names. `make bench DELAY_DIST=lognormal` used to start a constant-delay run: make takes any NAME=value, and a
# name the harness does not read was silently ignored. The Makefile hands over the names given on its command line
# (COMMAND_LINE_VAR, from make's own `origin`): each must be known. The environment holds every other tool's
# variables too, so a name there is refused only when it looks like ours: one of our own prefixes, or a near miss of
# a known name (difflib's ratio >= NEAR_MISS: DELAY_M, PLATFORM_THREAD, STEP_SECOND).
COMMAND_LINE_VAR = "LOADLAB_MAKE_COMMAND_LINE"
# What the Makefile's other verbs read (report/compare/plan) and its own internal switch: known, though not bench's.
OTHER_MAKE_NAMES = ("RUN", "AGAINST", "CORES", "MEMORY_GB", "INSTANCE", "RPS", "FAIL_IF", "JAVA_LINT_IN_TEST_JAVA")
OUR_PREFIXES = ("DELAY_", "DOWNSTREAM_")
NEAR_MISS = 0.85


def closest_name(name: str, known: Iterable[str]) -> str:
    """The known parameter nearest to a name (always one: a typo deserves a suggestion)."""
    return difflib.get_close_matches(name, list(known), n=1, cutoff=0.0)[0]


def _looks_like_ours(name: str, known: Iterable[str]) -> bool:
    if name.startswith(OUR_PREFIXES):
        return True
    return any(difflib.SequenceMatcher(None, name, other).ratio() >= NEAR_MISS for other in known)


def unknown_names(env: Mapping[str, str], params: Iterable[str]) -> list[str]:
    """One line per name given to the lab that it does not know, naming the closest known one."""
    known = set(params) | set(OTHER_MAKE_NAMES)
    given = set(env.get(COMMAND_LINE_VAR, "").split())
    given |= {name for name in env if _looks_like_ours(name, params)}
    return [
        f"{name}={env.get(name, '')!r} is not a parameter of the lab (did you mean {closest_name(name, params)}?); "
        "allowed: the parameters `make help` lists"
        for name in sorted(given - known - {COMMAND_LINE_VAR})
    ]
