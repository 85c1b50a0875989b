"""The parsers a parameter is read with (a whole number in a range, one of a set, a list of numbers each once, a
check of another module's, a path) and the one error they raise (stdlib only: checked before .venv exists)."""

from __future__ import annotations

from collections.abc import Callable

from loadlab.core import app
from loadlab.core.errors import ExitCode, LoadlabError


class ParamError(LoadlabError, ValueError):
    """One bad parameter; the message is the single line the user sees."""

    exit_code = ExitCode.USAGE


def int_in(lo: int, hi: int) -> Callable[[str, str], int]:
    def parse(name: str, raw: str) -> int:
        try:
            value = int(raw.strip())
        except ValueError:
            raise ParamError(f"{name}={raw!r} is not a whole number; allowed: {lo}..{hi}") from None
        if not lo <= value <= hi:
            raise ParamError(f"{name}={value} is out of range; allowed: {lo}..{hi}")
        return value

    return parse


def optional_int_in(lo: int, hi: int) -> Callable[[str, str], int | None]:
    """int_in, or None for an empty value (a parameter that is off unless given)."""

    def parse(name: str, raw: str) -> int | None:
        if not raw.strip():
            return None
        try:
            return int_in(lo, hi)(name, raw.strip())
        except ParamError as e:
            raise ParamError(str(e).replace(f"allowed: {lo}..{hi}", f"allowed: empty, or {lo}..{hi}")) from None

    return parse


def optional_positive(allowed: str) -> Callable[[str, str], float | None]:
    """A positive, finite number (a rate), or None for an empty value (a parameter that is off unless given)."""

    def parse(name: str, raw: str) -> float | None:
        if not raw.strip():
            return None
        try:
            value = float(raw.strip())
        except ValueError:
            raise ParamError(f"{name}={raw!r} is not a number; allowed: {allowed}") from None
        if not 0 < value < float("inf"):
            raise ParamError(f"{name}={raw.strip()} is not a positive number; allowed: {allowed}")
        return value

    return parse


def one_of(choices: tuple[str, ...]) -> Callable[[str, str], str]:
    def parse(name: str, raw: str) -> str:
        value = raw.strip()
        if value not in choices:
            raise ParamError(f"{name}={raw!r} is not allowed; allowed: {' | '.join(choices)}")
        return value

    return parse


def numbers_each_once(
    name: str, raw: str, allowed: str, not_a_number: str, out_of_range: Callable[[int], str | None]
) -> list[int]:
    """A space-separated list of whole numbers, each once; the first bad word stops it with one line:
    `NAME='raw' is not allowed (what is wrong with that word); allowed`."""
    words = raw.replace(",", " ").split()
    if not words:
        raise ParamError(f"{name} is empty; {allowed}")
    numbers: list[int] = []
    for word in words:
        if not word.isdigit():
            problem = f"{word!r} is {not_a_number}"
        elif wrong := out_of_range(int(word)):
            problem = wrong
        elif int(word) in numbers:
            problem = f"{int(word)} is given twice"
        else:
            numbers.append(int(word))
            continue
        raise ParamError(f"{name}={raw!r} is not allowed ({problem}); {allowed}")
    return numbers


def checked_by(check: Callable[[str], object], error: type[Exception] = app.AppError) -> Callable[[str, str], object]:
    """A parameter checked by its own module (app.py, servicecpus.py: standard library only), its error as this
    parameter's one line."""

    def parse(name: str, raw: str) -> object:
        try:
            return check(raw)
        except error as e:
            raise ParamError(str(e)) from None

    return parse


def text(name: str, raw: str) -> str:
    if not raw.strip():
        raise ParamError(f"{name} is empty; allowed: a directory path")
    return raw.strip()
