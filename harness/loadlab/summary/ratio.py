"""The run's answer: virtual over platform sustained throughput, per JDK when several ran, or why none can be
claimed (a mode missing, crashed, invalid or without a sustained level)."""

from __future__ import annotations

from . import crash as crashes
from .labels import mode_jdk


def ratios(modes: dict[str, dict], params: dict) -> dict[str, float | None]:
    """virtual / platform per JDK when several ran (`{"21": 0.1, "25": 3.0}`); {} with one JDK."""
    return {jdk: value for jdk, (value, _) in ratios_with_reasons(modes, params).items()}


def ratios_with_reasons(modes: dict[str, dict], params: dict) -> dict[str, tuple[float | None, str | None]]:
    jdks = sorted({j for j in (mode_jdk(label, params) for label in modes if "-jdk" in label) if j is not None})
    return {
        str(j): ratio(
            modes.get(f"virtual-jdk{j}"), modes.get(f"platform-jdk{j}"), (f"virtual-jdk{j}", f"platform-jdk{j}")
        )
        for j in jdks
    }


def headline_ratio(modes: dict[str, dict], params: dict) -> tuple[float | None, str | None]:
    """The contract's `virtual_over_platform` and, when it is null, why: the only pair, or the newest JDK's."""
    per_jdk = ratios_with_reasons(modes, params)
    if per_jdk:
        return per_jdk[max(per_jdk, key=int)]
    return ratio(modes.get("virtual"), modes.get("platform"))


def ratio(
    virtual: dict | None, platform: dict | None, labels: tuple[str, str] = ("virtual", "platform")
) -> tuple[float | None, str | None]:
    """virtual / platform sustained throughput, or None with the reason no ratio can be claimed: a mode missing,
    crashed or invalid (a ratio from a run that cannot be trusted is not a result), or without a sustained level."""
    for name, mode in ((labels[1], platform), (labels[0], virtual)):
        if not mode:
            return None, f"{name} was not measured"
        if mode.get("crashed"):
            return None, f"{name} crashed: {crashes.headline(mode['crashed'])}"
        if not mode.get("valid"):
            first = (mode.get("invalid_reasons") or ["see its reasons"])[0]
            return None, f"{name} is invalid: {first}"
        if not mode.get("sustained_rps"):
            return None, f"{name} sustained no level"
    return round(virtual["sustained_rps"] / platform["sustained_rps"], 2), None
