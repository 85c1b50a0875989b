"""The wait profile of a mode: the wait agent's file (`<mode>/raw/thread/waits.tsv`, wait-agent/'s WaitsFile) read
once, each level's profile over its seconds (analysis/wait_profile.py), each level's folded stacks written for
flame-graph tools (`<mode>/waits/level-NN.folded`, levels from 01; a fine pass's `refine-<k>-level-NN.folded`), and
how summary.json spells a profile. A file that is missing or unreadable leaves every level without a profile and
says why (`missing`): no site is ever named from a guess."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from loadlab.analysis.levels import Level, level_number
from loadlab.analysis.wait_profile import LevelWaits, SecondSamples, Site, profile, takers
from loadlab.analysis.wait_sites import Sample
from loadlab.summary.reading.raw import RawMode
from loadlab.summary.schema.level_records import WaitSiteRecord, WaitsRecord
from loadlab.summary.writing import outputs

RAW_FILE = "raw/thread/waits.tsv"
FOLDER = "waits"
# The agent's layout this reader knows (wait-agent/…/WaitsFile.VERSION; tests/summary/test_waits.py holds them equal).
VERSION = 1


@dataclass
class AgentFile:
    header: dict[str, str] = field(default_factory=dict)
    seconds: dict[int, SecondSamples] = field(default_factory=dict)
    stopped: str | None = None  # the agent's last word when it stopped sampling
    # wait_profile.takers over the whole file: a pool contended at one level has its holders counted at every level
    pools: dict[str, str] = field(default_factory=dict)


def read(mode_dir: Path) -> tuple[AgentFile | None, str | None]:
    """(the agent's file, None) or (None, why there is no profile)."""
    path = mode_dir / RAW_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None, f"no wait profile: {mode_dir.name}/{RAW_FILE} was not written (the wait agent did not run)"
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# loadlab-waits "):
        return None, f"no wait profile: {mode_dir.name}/{RAW_FILE} is not the wait agent's file"
    head = lines[0].split()
    if len(head) < 3 or head[2] != str(VERSION):
        return None, f"no wait profile: {mode_dir.name}/{RAW_FILE} has layout {head[2:3]}, this harness reads {VERSION}"
    found = AgentFile(header=dict(w.split("=", 1) for w in head[3:] if "=" in w))
    stacks: dict[str, str] = {}
    threads: dict[int, list[tuple[int, Sample]]] = {}
    for line in lines[1:]:
        cols = line.split("\t")
        try:
            if cols[0] == "K" and len(cols) == 3:
                stacks[cols[1]] = cols[2]
            elif cols[0] == "T" and len(cols) == 7:
                sample = Sample(cols[3], cols[4], cols[5], stacks.get(cols[6], ""))
                threads.setdefault(int(cols[1]), []).append((int(cols[2]), sample))
            elif cols[0] == "S" and len(cols) == 5:
                second = int(cols[1])
                found.seconds[second] = SecondSamples(
                    second, int(cols[2]), float(cols[3]), tuple(threads.pop(second, []))
                )
            elif cols[0] == "E" and len(cols) >= 3:
                found.stopped = cols[2]
        except ValueError:
            continue  # a line cut by a crash: the seconds before it stand
    found.pools = takers(found.seconds.values())
    return found, None


def attach(agent: AgentFile, raw: RawMode, levels: list[Level], t0: int | None) -> list[Level]:
    """The levels, each with its profile over its own seconds, with the requests in flight the injectors counted
    then."""
    if t0 is None:
        return levels
    profiled = []
    for level in levels:
        if level.first_second is not None and level.seconds:
            window = range(t0 + level.first_second, t0 + level.first_second + level.seconds)
            seconds = (agent.seconds[s] for s in window if s in agent.seconds)
            waits = profile(seconds, _inflight(raw, window), agent.pools)
            level = replace(level, waits=waits)
        profiled.append(level)
    return profiled


def _inflight(raw: RawMode, window: range) -> dict[int, float]:
    """The requests in flight at the service through each second of the window, summed over injectors: each
    injector counts them as a second closes (seconds.csv), so a second's own is the mean of its end and the one
    before it."""

    def at_end(s: int) -> float | None:
        values = [inj.seconds[s].inflight for inj in raw.injectors if s in inj.seconds]
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    per_second = {}
    for s in window:
        ends = [v for v in (at_end(s - 1), at_end(s)) if v is not None]
        if ends:
            per_second[s] = sum(ends) / len(ends)
    return per_second


def file_name(pass_name: str, number: int) -> str:
    """`level-01.folded` for the coarse pass's first level (its number, counted from 1), `refine-1-level-02.folded`
    for a fine pass's second."""
    prefix = f"{pass_name}-" if pass_name else ""
    return f"{prefix}level-{number:02d}.folded"


def write_folded(mode_dir: Path, passes: list[tuple[str, list[Level]]]) -> None:
    """Every profiled level's folded stacks (`frame;frame;[category] count` a line), stale files removed."""
    folder = mode_dir / FOLDER
    written = set()
    for pass_name, levels in passes:
        for level in levels:
            if level.waits is None or not level.waits.folded:
                continue
            folder.mkdir(parents=True, exist_ok=True)
            name = file_name(pass_name, level_number(level.position))
            lines = (f"{stack} {count}" for stack, count in sorted(level.waits.folded.items()))
            outputs.write_text(folder / name, "\n".join(lines) + "\n")
            written.add(name)
    if folder.is_dir():
        for stale in folder.glob("*.folded"):
            if stale.name not in written:
                stale.unlink()


def record(waits: LevelWaits | None) -> WaitsRecord | None:
    """A level's `waits` in summary.json: its samples, and each site's category, name, mean requests and share."""
    if waits is None:
        return None
    return WaitsRecord(
        samples=waits.samples,
        request_samples=waits.request_samples,
        inflight=None if waits.inflight is None else round(waits.inflight, 1),
        too_few=waits.too_few,
        sites=[site_record(s) for s in waits.sites],
    )


def site_record(site: Site) -> WaitSiteRecord:
    """A site as summary.json spells it: its mean requests to two decimals, its share to three."""
    return WaitSiteRecord(
        category=site.category, site=site.site, mean_requests=round(site.mean_requests, 2), share=round(site.share, 3)
    )
