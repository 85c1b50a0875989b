"""Turns a run folder's raw files into timeline.csv, server.csv and summary.json (the page is report/'s).

`write` is the one code path for both `make bench` (after each mode and at the end) and `make report` (through
report.rebuild, which draws each page from what it returns), so a report rebuilt later is byte-for-byte what the
bench wrote. A half-finished folder (Ctrl-C, a crashed host) is normal
input: whatever is absent is listed under `missing`, never raised; an older layout is upgraded as it is read
(runrecord.py for params.json, upgrade.py).

The steps live one per file, in a sub-package per job, each importing only the ones before it (test_layers.py):
schema/ declares summary.json's parts as typed records; writing/ the derived files' columns and their writer
(`outputs`); reading/ reads the raw files (`raw`) and aligns seconds to levels (`seconds`); judge/ judges every pass
of a mode (`judging`); verdicts/ spells the verdict (`verdict`, `ratio`) as summary.json's records (`records`).
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path

from loadlab.core import runrecord, summary_inputs
from loadlab.core.runrecord import RunRecord
from loadlab.core.summary_inputs import Inputs
from loadlab.core.thresholds import Thresholds
from loadlab.summary.judge import judging, served_check
from loadlab.summary.reading import raw
from loadlab.summary.schema.detail_records import (
    DownstreamRecord,
    HostRecord,
    RepetitionRecord,
    ThresholdsRecord,
)
from loadlab.summary.schema.level_upgrade import LEVELS_COUNTED_FROM
from loadlab.summary.verdicts import ladder_record, records, repeats, verdict
from loadlab.summary.verdicts.ratio import ratio_fields
from loadlab.summary.verdicts.records import ModeRecord, RunSummary
from loadlab.summary.writing import outputs


def write(run_dir: str | os.PathLike[str]) -> list[tuple[Path, RunSummary]]:
    """Writes every derived file of a run folder but the pages; returns each folder's summary as the typed record
    summary.json is written from (records.py), the run folder's own last.

    With REPEAT > 1 each repetition's folder (`rep-<k>/`) gets its own summary.json, and the run's own shows, per
    mode, the median repetition with the spread of all of them (repeats.py)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir} is not a run folder")
    run = runrecord.load(run_dir)
    repetitions = _repetitions(run_dir)
    written = []
    if not repetitions:
        summary = _summarise(run_dir, run, run_dir.name)
    else:
        per_rep = []
        for k in repetitions:
            rep = _summarise(run_dir / f"rep-{k}", run.for_repetition(f"rep-{k}/"), run_dir.name)
            rep = rep.with_fields(repetition=k)
            written.append((run_dir / f"rep-{k}", rep))
            per_rep.append((k, rep))
        summary = _combine_repetitions(run_dir, run, per_rep)
    written.append((run_dir, summary))
    for folder, record in written:
        outputs.write_text(folder / "summary.json", records.json_text(record))
    return written


def _summarise(folder: Path, run: RunRecord, run_id: str) -> RunSummary:
    """The summary of one comparison: the run folder itself, or one repetition's folder."""
    inputs = summary_inputs.of_run(run)
    thresholds = Thresholds.from_mapping(run.thresholds)
    target = run.target
    wanted = list(inputs.labels)
    present = [m for m in _ordered_modes(folder, wanted) if raw.has_load_data(folder / m)]
    modes = {}
    for mode in present:
        modes[mode] = mode_result(folder / mode, Path(mode).name, run, inputs, thresholds, target)
        if run.ladder:
            modes[mode] = modes[mode].with_fields(ladder=ladder_record.rungs(folder, run.ladder, mode, modes[mode]))

    summary = RunSummary(
        run_id=run.run_id or run_id,
        target=target,
        scenario=inputs.asked.scenario,
        levels_counted_from=LEVELS_COUNTED_FROM,
        params=run.params,  # summary.json's `params`, as params.json recorded them
        modes=modes,
        thresholds=ThresholdsRecord.of(thresholds),
        limits=run.limits,
        machine=run.machine,
        hosts={role: HostRecord.from_mapping(host) for role, host in run.hosts.items() if isinstance(host, Mapping)},
        missing_modes=[m for m in wanted if m not in modes],
        missing=[] if run.found else ["params.json"],
        problems=run.mode_problems,
        downstream=_downstream(run, inputs),
        test_fault=run.test_fault,
    )
    return summary.with_fields(**ratio_fields(modes, inputs))


def _downstream(run: RunRecord, inputs: Inputs) -> DownstreamRecord | None:
    overview = served_check.overview(run, inputs.call)
    return None if overview is None else DownstreamRecord.from_mapping(overview)


def _repetitions(run_dir: Path) -> list[int]:
    """The repetitions of a REPEAT > 1 run that have a folder, in order; [] for a run of one (the plain layout)."""
    found = [p.name.removeprefix("rep-") for p in run_dir.glob("rep-*") if p.is_dir()]
    return sorted(int(k) for k in found if k.isdigit())


def _combine_repetitions(run_dir: Path, run: RunRecord, per_rep: list[tuple[int, RunSummary]]) -> RunSummary:
    """The run's summary with REPEAT > 1: each mode as its median repetition, `repeats` with the spread, and every
    repetition's own verdict (its folder has the full summary)."""
    inputs = summary_inputs.of_run(run)
    spread = repeats.aggregate(per_rep)
    by_k = dict(per_rep)
    modes = {}
    for label, stats in (spread.modes or {}).items():
        k = stats.median_repetition
        if k is not None:
            modes[label] = by_k[k].modes[label].with_fields(repetition=k, folder=f"rep-{k}/{label}")
    first = per_rep[0][1]
    summary = RunSummary(
        run_id=run.run_id or run_dir.name,
        target=first.target,
        scenario=first.scenario,
        levels_counted_from=LEVELS_COUNTED_FROM,
        params=run.params,
        modes=modes,
        repeats=spread,
        repetitions=[
            RepetitionRecord(
                repetition=k,
                folder=f"rep-{k}",
                valid=bool(rep.modes) and all(m.validity.valid for m in rep.modes.values()) and not rep.missing_modes,
                virtual_over_platform=rep.virtual_over_platform,
                virtual_over_platform_interval=rep.virtual_over_platform_interval,
                sustained_rps={label: m.sustained_rps for label, m in rep.modes.items()},
            )
            for k, rep in per_rep
        ],
        thresholds=first.thresholds,
        limits=first.limits,
        machine=run.machine,
        hosts=first.hosts,
        missing_modes=[m for m in inputs.labels if m not in modes],
        missing=[] if run.found else ["params.json"],
        problems={f"rep-{k}/{mode}": p for k, rep in per_rep for mode, p in (rep.problems or {}).items()},
        downstream=_downstream(run, inputs),
        test_fault=run.test_fault,
    )
    return summary.with_fields(**ratio_fields(modes, inputs))


def mode_result(
    mode_dir: Path,
    label: str,
    run: RunRecord,
    inputs: Inputs,
    thresholds: Thresholds,
    target: str | None,
) -> ModeRecord:
    """One mode's summary from its folder (its coarse pass and its fine passes), with its timeline.csv and server.csv
    (and each fine pass's)."""
    try:
        judged = judging.judge_mode(mode_dir, label, run, inputs, thresholds, target, write=True)
        return verdict.mode_summary(judged, run, inputs, target, mode_dir)
    except Exception as e:  # noqa: BLE001 - one bad mode must not cost the other mode its report
        traceback.print_exc(file=sys.stderr)
        return verdict.failed_mode(f"the analysis of this mode failed: {type(e).__name__}: {e}")


def _ordered_modes(run_dir: Path, wanted: list[str]) -> list[str]:
    found = sorted(p.name for p in run_dir.iterdir() if (p / "raw").is_dir())
    return [m for m in wanted if m in found] + [m for m in found if m not in wanted]
