"""What a mode's label says: `platform`, `virtual`, `platform-t<N>` for each pool of a sweep, and `-jdk<N>` when
several JDKs ran. ModeLabel (modelabel.py) alone builds and reads labels; these add what the run's parameters say
when the label does not (the only JDK, the only pool size: asked.Asked's `jdk` and `pool`)."""

from __future__ import annotations

from loadlab.core.modelabel import ModeLabel


def base_mode(label: str) -> str:
    """`virtual-jdk21`, `platform-t1000` → the thread mode of a mode label."""
    return ModeLabel.parse(label).mode


def mode_jdk(label: str, only_jdk: int | None) -> int | None:
    """The JDK a mode ran on: from its label with several JDKs (`virtual-jdk21`), else the only one in JDKS
    (asked.Asked.jdk: None for a run from before JDKS, whichever JDK the machine had)."""
    named = ModeLabel.parse(label).jdk
    return named if named is not None else only_jdk


def mode_threads(label: str, only_pool: int | None) -> int | None:
    """The platform pool a mode asked for: from its label in a sweep (`platform-t1000`), else the only size in
    PLATFORM_THREADS; None for virtual threads."""
    parts = ModeLabel.parse(label)
    if parts.mode != "platform":
        return None
    if parts.threads is not None:
        return parts.threads
    return only_pool
