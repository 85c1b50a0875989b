"""A mode's label, the name of its folder in the run and its key in summary.json: built and read here only.

`platform`, `virtual` with one JDK and one pool size; `platform-t<N>` for each size of a pool sweep (PLATFORM_THREADS
with several sizes); `-jdk<N>` after it when several JDKs ran: `virtual-jdk21`, `platform-t1000-jdk21`.
Standard library only: params.py (run before the venv exists) builds labels with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A mode's name may hold hyphens (virtual-limited); the pool size and the JDK are the numbered suffixes after it.
_LABEL = re.compile(r"(?P<mode>[a-z]+(?:-[a-z]+)*?)(?:-t(?P<threads>\d+))?(?:-jdk(?P<jdk>\d+))?")


@dataclass(frozen=True)
class ModeLabel:
    mode: str  # the thread mode: platform, virtual, virtual-limited or reactive
    jdk: int | None = None  # named only when several JDKs ran
    threads: int | None = None  # named only for one size of a platform pool sweep

    def __str__(self) -> str:
        text = self.mode if self.threads is None else f"{self.mode}-t{self.threads}"
        return text if self.jdk is None else f"{text}-jdk{self.jdk}"

    @classmethod
    def parse(cls, label: str) -> ModeLabel:
        """The inverse of str(); a folder named otherwise is a mode of that name with nothing else known."""
        found = _LABEL.fullmatch(label)
        if found is None:
            return cls(label)
        jdk, threads = found["jdk"], found["threads"]
        return cls(found["mode"], int(jdk) if jdk else None, int(threads) if threads else None)
