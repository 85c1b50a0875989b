"""The parameters that are lists (MODES, JDKS, PLATFORM_THREADS), each read as a tuple of its words, each word once
(stdlib only: checked before .venv exists)."""

from __future__ import annotations

from loadlab.core.param_limits import JDK_MAX, JDK_MIN, PLATFORM_THREADS_MAX, THREAD_MODES
from loadlab.core.param_parsers import ParamError, numbers_each_once


def modes(name: str, raw: str) -> tuple[str, ...]:
    words = raw.replace(",", " ").split()
    allowed = f"one or more of {' '.join(THREAD_MODES)}, space-separated, each at most once"
    if not words or any(m not in THREAD_MODES for m in words) or len(set(words)) != len(words):
        raise ParamError(f"{name}={raw!r} is not allowed; allowed: {allowed}")
    return tuple(words)


def jdks(name: str, raw: str) -> tuple[int, ...]:
    def out_of_range(jdk: int) -> str | None:
        if jdk < JDK_MIN:
            return f"{jdk} is below {JDK_MIN}, the first release with virtual threads"
        return f"{jdk} is not a known Java release" if jdk > JDK_MAX else None

    allowed = f'allowed: Java feature releases {JDK_MIN}..{JDK_MAX}, space-separated, each once (e.g. "21 25")'
    return tuple(numbers_each_once(name, raw, allowed, "not a Java feature release number", out_of_range))


def pool_sizes(name: str, raw: str) -> tuple[int, ...]:
    """PLATFORM_THREADS: one pool size or a sweep of several."""

    def out_of_range(n: int) -> str | None:
        return None if 1 <= n <= PLATFORM_THREADS_MAX else f"{n} is out of range"

    allowed = f"allowed: one pool size or several, each 1..{PLATFORM_THREADS_MAX}, space-separated, each once "
    allowed += '(e.g. "200 1000 4000")'
    return tuple(numbers_each_once(name, raw, allowed, "not a whole number", out_of_range))
