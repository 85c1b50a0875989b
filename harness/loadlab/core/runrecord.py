"""params.json, the record bench keeps of a run, read in one place as a typed RunRecord.

bench writes it with `format` = FORMAT; an older one is brought up to FORMAT as it is read (upgrade.py), so the code
that judges a run never asks whether a field exists or what an old run meant.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from loadlab.core.params import defaults, from_json
from loadlab.core.run_params import RunParams
from loadlab.core.upgrade import FORMAT, Doc, upgrade

__all__ = ["FORMAT", "RunRecord", "from_doc", "load"]

T = TypeVar("T")


@dataclass(frozen=True)
class RunRecord:
    """What bench recorded of a run. The per-mode maps are keyed by the mode's folder (`platform`, `rep-2/virtual`)."""

    found: bool  # False: the folder has no readable params.json (everything below is then empty)
    run_id: str | None = None
    target: str | None = None
    params: RunParams = field(default_factory=defaults)  # as validated (params.py); RESULTS_DIR is absent
    thresholds: Doc = field(default_factory=dict)  # the health rule's (thresholds.Thresholds)
    limits: Doc = field(default_factory=dict)  # the request chain's, in ms (limits.Limits.as_dict)
    hosts: Doc = field(default_factory=dict)  # role -> {host, address, description}
    machine: str | None = None
    # The modes whose load ended; None: not to be checked (a mode bench is still running, or a record without it).
    modes_completed: list[str] | None = None
    mode_problems: dict[str, list[str]] = field(default_factory=dict)
    refine_skipped: dict[str, str] = field(default_factory=dict)  # why bench did not refine a mode
    crashes: dict[str, Doc] = field(default_factory=dict)  # a role that died: watch.Crash.as_dict()
    evidence_lost: dict[str, list[Doc]] = field(default_factory=dict)  # samplers that died or froze (watch.py)
    test_fault: str | None = None  # LOADLAB_FAULT_CPU_QUOTA of a test that starved the run on purpose
    # The delay-service's policy: distribution (downstream.Distribution.as_dict), failures, served_log; {} before it.
    downstream: Doc = field(default_factory=dict)
    # whether the service under test ran with the wait agent (infra/host/lib/roles.bash wait_agent): a mode without
    # its file is then missing evidence; a run from before it, or with LOADLAB_WAIT_PROFILE=off, has none to miss
    wait_profile: bool = False
    # JDK (as a string, JSON's key) -> the runtime its java said it is, "Temurin 25.0.3+9" (liveconfig.record_runtimes);
    # None when it would not say, {} for a run from before it
    java_runtimes: dict[str, str | None] = field(default_factory=dict)
    # LADDER: each rung bench climbed or refused, as run/rungs.py recorded it (mode, rung, limit, setting, from, to,
    # run: its folder under the run's, or not_applied: why not); summary/verdicts/ladder_record.py judges each from its
    # run
    ladder: list[Doc] = field(default_factory=list)
    started_utc: str | None = None  # ISO 8601, when bench began and ended the run
    finished_utc: str | None = None

    @property
    def minutes(self) -> float | None:
        """How long the run took, start to finish; None when either end is not recorded."""
        if self.finished_utc is None or self.started_utc is None:
            return None
        try:
            took = datetime.fromisoformat(self.finished_utc) - datetime.fromisoformat(self.started_utc)
        except (TypeError, ValueError):
            return None
        return took.total_seconds() / 60

    def crash_of(self, mode: str) -> Doc | None:
        return self.crashes.get(mode)

    def for_repetition(self, prefix: str) -> RunRecord:
        """The record as one repetition (`rep-<k>/`) sees it: its own modes, keyed by their plain label."""

        def own(entries: Mapping[str, T]) -> dict[str, T]:
            return {m.removeprefix(prefix): v for m, v in entries.items() if m.startswith(prefix)}

        completed = self.modes_completed
        return replace(
            self,
            modes_completed=None if completed is None else list(own(dict.fromkeys(completed))),
            mode_problems=own(self.mode_problems),
            refine_skipped=own(self.refine_skipped),
            crashes=own(self.crashes),
            evidence_lost=own(self.evidence_lost),
        )


def load(run_dir: Path) -> RunRecord:
    """The run's params.json, upgraded to FORMAT; RunRecord(found=False) when there is none to read."""
    try:
        doc = json.loads((Path(run_dir) / "params.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        doc = None
    if not isinstance(doc, dict) or not doc:
        return replace(from_doc({}), found=False)  # what a run of format 0 did, where nothing says otherwise
    return from_doc(doc)


def from_doc(doc: Doc) -> RunRecord:
    """A record from params.json's content (or bench's copy of it while the run goes on)."""
    doc = upgrade(doc)
    return RunRecord(
        found=True,
        run_id=_text(doc.get("run_id")),
        target=_text(doc["target"]),
        params=from_json(_mapping(doc["params"])),
        thresholds=_mapping(doc.get("thresholds")),
        limits=_mapping(doc["limits"]),
        hosts=_mapping(doc.get("hosts")),
        machine=_text(doc.get("machine")),
        modes_completed=_list_or_none(doc.get("modes_completed")),
        mode_problems={
            str(m): [str(p) for p in (v if isinstance(v, list) else [v])]
            for m, v in _mapping(doc.get("mode_problems")).items()
            if v
        },
        refine_skipped={str(m): str(v) for m, v in _mapping(doc.get("refine_skipped")).items() if v},
        crashes={str(m): c for m, c in _mapping(doc.get("crashes")).items() if isinstance(c, dict) and c.get("role")},
        evidence_lost={
            str(m): [e for e in v if isinstance(e, dict)]
            for m, v in _mapping(doc.get("evidence_lost")).items()
            if isinstance(v, list)
        },
        test_fault=str(doc["test_fault"]) if doc.get("test_fault") else None,
        downstream=_mapping(doc.get("downstream")),
        wait_profile=bool(doc.get("wait_profile")),
        java_runtimes={str(k): _text(v) for k, v in _mapping(doc.get("java_runtimes")).items()},
        ladder=[r for r in _list(doc.get("ladder")) if isinstance(r, dict)],
        started_utc=_text(doc.get("started_utc")),
        finished_utc=_text(doc.get("finished_utc")),
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _list_or_none(value: object) -> list[str] | None:
    return [str(v) for v in value] if isinstance(value, list) else None


def _mapping(value: object) -> Doc:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
