"""Each level's percentile distribution as a `.hgrm` file in its mode's folder (`<mode>/hgrm/`), for HdrHistogram's
plotter and HistogramLogAnalyzer, and as the one source of a level's spectrum for the page and `make compare`."""

from __future__ import annotations

from pathlib import Path

from loadlab.analysis import hgrm
from loadlab.analysis.levels import Level
from loadlab.summary import outputs

FOLDER = "hgrm"
COARSE = ""  # the coarse pass's files have no prefix; a fine pass's start with its folder's name (refine-<k>)


def file_name(pass_name: str, level_index: int, target_rps: float) -> str:
    """`level-03-900rps.hgrm` for the coarse pass, `refine-1-level-02-1035rps.hgrm` for a fine pass."""
    prefix = f"{pass_name}-" if pass_name else ""
    return f"{prefix}level-{level_index:02d}-{target_rps:g}rps.hgrm"


def path(mode_dir: Path, pass_name: str, level_index: int, target_rps: float) -> Path:
    return mode_dir / FOLDER / file_name(pass_name, level_index, target_rps)


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
            name = file_name(pass_name, level.index, level.target_rps)
            outputs.write_text(folder / name, hgrm.distribution_text(level.histogram))
            written.add(name)
    for stale in folder.glob("*.hgrm"):
        if stale.name not in written:
            stale.unlink()


def read(mode_dir: Path, pass_name: str, level_index: int, target_rps: float) -> hgrm.Distribution | None:
    """A level's spectrum as written; None when the level has no file (no successful request, or an older run)."""
    try:
        return hgrm.read(path(mode_dir, pass_name, level_index, target_rps))
    except (OSError, ValueError):
        return None
