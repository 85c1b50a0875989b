"""Each level's percentile distribution as a `.hgrm` file in its mode's folder (`<mode>/hgrm/`), for HdrHistogram's
plotter and HistogramLogAnalyzer, and as the one source of a level's spectrum for the page and `make compare`."""

from __future__ import annotations

from pathlib import Path

from loadlab.analysis import hgrm
from loadlab.analysis.levels import Level, level_number
from loadlab.summary.writing import outputs

FOLDER = "hgrm"
COARSE = ""  # the coarse pass's files have no prefix; a fine pass's start with its folder's name (refine-<k>)


def file_name(pass_name: str, number: int, target_rps: float) -> str:
    """`level-03-900rps.hgrm` for the coarse pass's third level (its number, counted from 1: summary.json's `index`),
    `refine-1-level-02-1035rps.hgrm` for a fine pass's second."""
    prefix = f"{pass_name}-" if pass_name else ""
    return f"{prefix}level-{number:02d}-{target_rps:g}rps.hgrm"


def path(mode_dir: Path, pass_name: str, number: int, target_rps: float) -> Path:
    return mode_dir / FOLDER / file_name(pass_name, number, target_rps)


def write(mode_dir: Path, passes: list[tuple[str, list[Level]]]) -> None:
    """Writes every level's file (pass name, its levels) and removes the files of levels no longer judged, so a
    rebuilt folder holds exactly the levels summary.json lists."""
    folder = mode_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    written = set()
    for pass_name, levels in passes:
        for level in levels:
            if level.histogram is None or not level.histogram.get_total_count():
                continue
            name = file_name(pass_name, level_number(level.position), level.target_rps)
            outputs.write_text(folder / name, hgrm.distribution_text(level.histogram))
            written.add(name)
    for stale in folder.glob("*.hgrm"):
        if stale.name not in written:
            stale.unlink()


def read(mode_dir: Path, pass_name: str, number: int, target_rps: float) -> hgrm.Distribution | None:
    """A level's spectrum as written, by its number (summary.json's `index`); None when the level has no file (no
    successful request, or a run older than the files)."""
    for named in (number, number - 1):  # an older run named its files from 0 (summary/schema/level_upgrade.py)
        try:
            return hgrm.read(path(mode_dir, pass_name, named, target_rps))
        except (OSError, ValueError):
            continue
    return None
