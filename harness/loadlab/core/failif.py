"""FAIL_IF, the gate of `make compare`: its grammar, read here before either run is opened (standard library only).

    FAIL_IF   := condition ( ("," | ";") condition )*
    condition := <mode>.<figure>[@<rate>] <op> <threshold>%
    figure    := sustained | knee | p50 | p99          (p50/p99: at a rate both runs measured; @<rate> picks one)
    op        := "<" | ">"
    threshold := a signed number of percent: -10%, +5%, 2.5%

A figure's change is RUN against AGAINST (the baseline): `(RUN / AGAINST - 1) x 100%`. `virtual.sustained < -10%`
fails the gate when RUN's virtual sustained rate is *certainly* more than 10% below AGAINST's: the whole 95% interval
of the change lies below -10%. A change whose interval reaches the threshold (or has no end on that side: a mode that
held the top of the stairs) does not fail it. Without `@<rate>`, p50/p99 are read at the highest rate both runs held
healthy. Spaces around the parts are free; a bad expression is refused in one line, exit 2 (FailIfError).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loadlab.core.errors import ExitCode, LoadlabError

FIGURES = ("sustained", "knee", "p50", "p99")
# The figures read at one offered rate (the rest are a mode's capacity, read at any stairs).
AT_A_RATE = ("p50", "p99")
OPERATORS = ("<", ">")
SEPARATORS = ",;"
# A mode's label as a run folder names it: platform, virtual, reactive (-limited), -t<pool>, -jdk<N>.
_MODE = r"(?:platform|virtual|reactive)(?:-[a-z]+)?(?:-t\d+)?(?:-jdk\d+)?"
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_CONDITION = re.compile(
    rf"\s*(?P<mode>{_MODE})\.(?P<figure>[a-z0-9]+)(?:@(?P<rate>{_NUMBER}))?\s*(?P<op>\S)\s*(?P<threshold>{_NUMBER})"
    rf"\s*%\s*"
)
ALLOWED = (
    "<mode>.<figure>[@<rate>] <op> <threshold>% (figure: " + " | ".join(FIGURES) + "; op: < or >), "
    "several separated by ',' or ';', e.g. 'virtual.sustained < -10%, platform.p99 > 20%'"
)


class FailIfError(LoadlabError):
    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class Condition:
    """One condition of FAIL_IF: the mode's figure, the rate it is read at (None: the highest both held), `<` or
    `>`, and the threshold in percent of AGAINST's value."""

    mode: str
    figure: str
    op: str
    threshold_pct: float
    rate: float | None = None

    def __str__(self) -> str:
        at = f"@{self.rate:g}" if self.rate is not None else ""
        return f"{self.mode}.{self.figure}{at} {self.op} {self.threshold_pct:+g}%"

    def met(self, low_pct: float | None, high_pct: float | None) -> bool:
        """Certain beyond the threshold: the whole interval [low, high] (None: no end on that side) past it."""
        if self.op == "<":
            return high_pct is not None and high_pct < self.threshold_pct
        return low_pct is not None and low_pct > self.threshold_pct


def parse(text: str | None) -> list[Condition]:
    """FAIL_IF's conditions, in order ([] when empty); a bad one refused naming FAIL_IF, the value and the grammar."""
    if text is None or not text.strip():
        return []
    conditions = []
    for part in re.split(f"[{SEPARATORS}]", text):
        conditions.append(_condition(text, part))
    return conditions


def _condition(text: str, part: str) -> Condition:
    if not part.strip():
        raise _refused(text, "has an empty condition")
    found = _CONDITION.fullmatch(part)
    if found is None:
        raise _refused(text, f"cannot read {part.strip()!r}")
    figure, op, rate = found["figure"], found["op"], found["rate"]
    if figure not in FIGURES:
        raise _refused(text, f"names the figure {figure!r}")
    if op not in OPERATORS:
        raise _refused(text, f"compares with {op!r}")
    if rate is not None and figure not in AT_A_RATE:
        raise _refused(text, f"gives {figure} a rate (@{rate}); only {' and '.join(AT_A_RATE)} are read at a rate")
    if rate is not None and float(rate) <= 0:
        raise _refused(text, f"reads {figure} at {rate} rps")
    return Condition(found["mode"], figure, op, float(found["threshold"]), float(rate) if rate is not None else None)


def _refused(text: str, why: str) -> FailIfError:
    return FailIfError(f"FAIL_IF={text!r} {why}; allowed: {ALLOWED}")
