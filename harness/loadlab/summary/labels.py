"""What a mode's label says: `platform`, `virtual`, or `<mode>-jdk<N>` when several JDKs ran (params.mode_runs)."""

from __future__ import annotations


def base_mode(label: str) -> str:
    """`virtual-jdk21` → `virtual`: the thread mode of a mode label."""
    return label.split("-jdk", 1)[0]


def mode_jdk(label: str, params: dict) -> int | None:
    """The JDK a mode ran on: from its label with several JDKs (`virtual-jdk21`), else the only one in JDKS."""
    _, _, tail = label.partition("-jdk")
    if tail.isdigit():
        return int(tail)
    jdks = params.get("JDKS")
    if isinstance(jdks, str):
        jdks = jdks.split()
    if isinstance(jdks, list) and len(jdks) == 1 and str(jdks[0]).isdigit():
        return int(jdks[0])
    return None
