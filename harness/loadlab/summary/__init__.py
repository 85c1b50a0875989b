"""Turns a run folder's raw files into timeline.csv, server.csv, summary.json and index.html.

`rebuild` is the one code path for both `make bench` (after each mode and at the end) and `make report`, so a
report rebuilt later is byte-for-byte what the bench wrote. A half-finished folder (Ctrl-C, a crashed host, an older
layout) is normal input: whatever is absent is listed under `missing`, never raised.

The steps live one per file: `raw` reads, `seconds` aligns seconds to levels, `verdict` judges, `outputs` writes.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path

from .. import analysis
from .. import params as run_params
from . import knee, outputs, raw, seconds, verdict


def rebuild(run_dir: str | os.PathLike) -> dict:
    """Writes every derived file of a run folder and returns the summary (the shape of summary.json)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir} is not a run folder")
    run = raw.read_json(run_dir / "params.json")
    params = run.get("params") if isinstance(run.get("params"), dict) else {}
    thresholds = analysis.Thresholds.from_mapping(run.get("thresholds"))
    target = run.get("target") or params.get("TARGET")
    run_missing = [] if run else ["params.json"]

    wanted = _modes_wanted(params)
    present = [m for m in _ordered_modes(run_dir, wanted) if raw.has_load_data(run_dir / m)]
    modes = {}
    for mode in present:
        modes[mode] = _rebuild_mode(run_dir, mode, run, params, thresholds, target)

    summary = {
        "run_id": run.get("run_id") or run_dir.name,
        "target": target,
        "scenario": params.get("SCENARIO") or "http",
        "params": params,
        "modes": modes,
        "virtual_over_platform": verdict.headline_ratio(modes, params),
        "thresholds": thresholds.as_dict(),
        "machine": run.get("machine"),
        "hosts": run.get("hosts") if isinstance(run.get("hosts"), dict) else {},
        "missing_modes": [m for m in wanted if m not in modes],
        "missing": run_missing,
        "problems": verdict.problems(run),
    }
    per_jdk = verdict.ratios(modes, params)
    if per_jdk:
        summary["ratios"] = per_jdk
    if run.get("test_fault"):
        summary["test_fault"] = str(run["test_fault"])
    outputs.write_text(run_dir / "summary.json", json.dumps(summary, indent=2) + "\n")
    _render_page(run_dir, summary)
    return summary


def _rebuild_mode(run_dir: Path, mode: str, run: dict, params: dict, thresholds: analysis.Thresholds,
                  target: str | None) -> dict:
    try:
        mode_raw = raw.load_mode(run_dir / mode)
        table = seconds.build_tables(mode_raw)
        outputs.write_csv(run_dir / mode / "timeline.csv", outputs.TIMELINE_COLUMNS, table.timeline)
        outputs.write_csv(run_dir / mode / "server.csv", outputs.SERVER_COLUMNS, table.server)
        fine = []
        for name in raw.fine_passes(run_dir / mode):
            fine_raw = raw.load_mode(run_dir / mode, name)
            fine_table = seconds.build_tables(fine_raw)
            outputs.write_csv(run_dir / mode / name / "timeline.csv", outputs.TIMELINE_COLUMNS, fine_table.timeline)
            outputs.write_csv(run_dir / mode / name / "server.csv", outputs.SERVER_COLUMNS, fine_table.server)
            fine.append(knee.FinePass(name, fine_raw, fine_table))
        return verdict.mode_summary(mode, mode_raw, table, run, params, thresholds, target, fine)
    except Exception as e:  # noqa: BLE001 - one bad mode must not cost the other mode its report
        traceback.print_exc(file=sys.stderr)
        return verdict.failed_mode(f"the analysis of this mode failed: {type(e).__name__}: {e}")


def _modes_wanted(params: dict) -> list[str]:
    """The mode labels the run asked for: `platform`, `virtual`, or `<mode>-jdk<N>` with several JDKs."""
    modes, jdks = params.get("MODES"), params.get("JDKS")
    if isinstance(modes, str):
        modes = modes.replace(",", " ").split()
    if not isinstance(modes, list):
        return []
    if isinstance(jdks, str):
        jdks = jdks.split()
    jdks = [int(j) for j in jdks if str(j).isdigit()] if isinstance(jdks, list) else []
    if len(jdks) < 2:   # one JDK (or a run from before JDKS): the plain thread modes
        return [str(m) for m in modes]
    return [r.label for r in run_params.mode_runs([str(m) for m in modes], jdks)]


def _ordered_modes(run_dir: Path, wanted: list[str]) -> list[str]:
    found = sorted(p.name for p in run_dir.iterdir() if (p / "raw").is_dir())
    return [m for m in wanted if m in found] + [m for m in found if m not in wanted]


def _render_page(run_dir: Path, summary: dict) -> None:
    from .. import report  # the page is optional for callers that only want the numbers
    try:
        report.render(run_dir, summary)
    except Exception as e:  # noqa: BLE001 - summary.json is already written; say what broke instead of no page
        traceback.print_exc(file=sys.stderr)
        outputs.write_text(run_dir / "index.html", report.fallback_page(summary, f"{type(e).__name__}: {e}"))

