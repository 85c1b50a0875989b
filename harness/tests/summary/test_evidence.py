"""No verdict without its evidence: seconds in which a sampler wrote no row (it died, froze or never started) cannot
make a level valid, are named with their cause in summary.json, on the page and on the console, and give the CPU fit
nothing. Synthetic run folders with gaps cut into the samplers' files (the same rule on a real run whose samplers are
killed: test_e2e_crashes.py)."""

from functools import partial

import synthrun
from conftest import summarised
from synthrun import SLOW_TAIL, START_EPOCH, ModeSpec, stairs

from loadlab import report
from loadlab.core import sampling
from loadlab.run import console
from loadlab.summary.verdicts.records import RunSummary

SECONDS = 4  # per level
WARMUP = 2


# Levels whose CPU rises with the rate, so a CPU ceiling can be fitted on them.
climbing = partial(stairs, n=8, step=50, thread_cpu=lambda rate: 10 + rate * 0.1)


def epoch(level: int, second: int = 0) -> int:
    """The epoch second `second` whole seconds into the level at position `level` (synthrun's schedule)."""
    return START_EPOCH + WARMUP + level * SECONDS + second


def cut_rows(run_dir, rel: str, first: int, last: int | None = None) -> None:
    """Removes the rows of epoch seconds first..last (to the end without last) from a sampler's samples.csv."""
    path = run_dir / rel
    header, *rows = path.read_text().splitlines()
    kept = [r for r in rows if not (first <= int(r.split(",")[0]) <= (last if last is not None else 1 << 40))]
    path.write_text("\n".join([header, *kept]) + "\n")


def killed(role: str, at: int, sampler: str, what: str = "died", **fields) -> dict:
    """params.json's record of a sampler the watcher saw die (or freeze) at epoch second `at`."""
    return {
        "sampler": sampler,
        "role": role,
        "host": "local",
        "what": what,
        "exit": 137 if what == "died" else None,
        "signal": "SIGKILL" if what == "died" else None,
        "cause": "ended by SIGKILL, nothing in its log says why" if what == "died" else "wrote no row for 3 s",
        "alive_until_epoch_ms": at * 1000 + 300,
        "detected_epoch_ms": at * 1000 + 1300,
        "pass": "coarse",
        **fields,
    }


def rebuild(tmp_path, levels, cuts=(), events=None, capsys=None, pages=False):
    """The virtual mode's summary; capsys: the console table printed into it; pages: the page drawn too."""
    synthrun.write_params(tmp_path, modes=["virtual"], **({"evidence_lost": {"virtual": events}} if events else {}))
    synthrun.write_mode(tmp_path, "virtual", ModeSpec(levels, seconds_per_level=SECONDS, warmup_seconds=WARMUP))
    for rel, first, last in cuts:
        cut_rows(tmp_path / "virtual", rel, first, last)
    result = report.rebuild(tmp_path).as_json() if pages else summarised(tmp_path)
    if capsys is not None:
        capsys.readouterr()
        console.table(RunSummary.from_mapping(result), tmp_path)
    return result["modes"]["virtual"]


def test_samplers_killed_at_level_4_leave_the_rest_unjudged_and_the_mode_invalid(tmp_path, capsys, monkeypatch):
    """The reported case: every sampler killed 1 s into level 4 of 8 (position 3), the mode held every level."""
    at = epoch(3, 1)
    events = [killed("thread-service", at, "sampler-thread"), killed("delay-service", at, "sampler-delay")]
    events.append(killed("injector-0", at, "sampler-injector-0"))
    cuts = [(rel, at + 1, None) for rel in ("raw/thread/samples.csv", "raw/delay/samples.csv")]
    cuts.append(("raw/injector-0/samples.csv", at + 1, None))
    monkeypatch.setattr(console, "_print", print)
    mode = rebuild(tmp_path, climbing(), cuts, events, capsys, pages=True)

    assert mode["collapsed"] is False and mode["sustained_rps"] == 400  # the load result stays what it was
    assert mode["valid"] is False
    assert mode["invalid_reasons"] == [
        "no server evidence (the thread-service's sampler died; the delay-service's sampler died; the injector-0's "
        "sampler died): whether a role or the machine was saturated is unknown at level 4 (200 rps) (and 4 more levels)"
    ]
    gaps = mode["evidence_gaps"]
    assert {g["role"] for g in gaps} == {"thread-service", "delay-service", "injector-0"}
    first = 3 * SECONDS + 2
    last = 8 * SECONDS  # the drain second after the last level is measured too
    assert all(
        (g["first_second"], g["last_second"], g["cause"], g["pass"]) == (first, last, "died", "coarse") for g in gaps
    )
    delay = next(g for g in gaps if g["role"] == "delay-service")
    assert delay["detail"] == (
        "the delay-service's sampler on local died (exit 137, SIGKILL; ended by SIGKILL, nothing in its log says why), "
        "so the delay-service's CPU and its own latency (the probe) and its host's CPU went unmeasured"
    )
    # the levels it touched carry no evidence at all; the ones before keep theirs
    without = [lv["index"] for lv in mode["levels"] if lv["no_server_evidence"]]
    assert without == [4, 5, 6, 7, 8]  # numbers, counted from 1
    assert all(v is None for lv in mode["levels"][3:] for v in lv["evidence"].values())
    assert mode["levels"][2]["evidence"]["thread_cpu_pct"] is not None
    # the CPU fit used the levels with evidence only
    assert [p[0] for p in mode["cpu_ceiling"]["roles"][0]["points"]] == [50, 100, 150]
    # the page and the console say which seconds and why
    page = (tmp_path / "index.html").read_text()
    assert (
        f"no server evidence for measured seconds {first}–{last}: the delay-service&#x27;s sampler on local died"
        in page
    )
    out = capsys.readouterr().out
    assert f"virtual: NO SERVER EVIDENCE for measured seconds {first}–{last} (delay-service's sampler died)" in out
    assert "INVALID: no server evidence" in out


def test_a_frozen_sampler_is_a_gap_of_its_own_seconds_only(tmp_path):
    """The thread-service's sampler alive but silent for 5 s in level 3 (position 2), then writing again: the levels
    those seconds touch are unjudged; nothing was seen of it dying, so its cause is a stall."""
    mode = rebuild(tmp_path, climbing(), [("raw/thread/samples.csv", epoch(2, 0), epoch(2, 3) + 1)])
    (gap,) = mode["evidence_gaps"]
    assert (gap["role"], gap["cause"], gap["first_second"], gap["last_second"]) == ("thread-service", "stalled", 8, 12)
    assert [lv["index"] for lv in mode["levels"] if lv["no_server_evidence"]] == [3, 4]
    assert not mode["valid"] and mode["invalid_reasons"][0].startswith(
        "no server evidence (the thread-service's sampler stalled)"
    )


def test_a_stall_the_watcher_saw_is_named_with_what_it_saw(tmp_path):
    at = epoch(2, 0)
    event = killed("delay-service", at - 1, "sampler-delay", what="stalled")
    mode = rebuild(tmp_path, climbing(), [("raw/delay/samples.csv", at, epoch(2, 3))], [event])
    (gap,) = mode["evidence_gaps"]
    assert gap["cause"] == "stalled" and "stalled (wrote no row for 3 s)" in gap["detail"], gap


def test_a_sampler_that_never_started_leaves_the_whole_pass_unjudged(tmp_path):
    mode = rebuild(tmp_path, climbing(n=3), [("raw/injector-0/samples.csv", 0, None)])
    (gap,) = mode["evidence_gaps"]
    assert (gap["role"], gap["cause"], gap["first_second"]) == ("injector-0", "never started", 0)
    assert all(lv["no_server_evidence"] for lv in mode["levels"]) and not mode["valid"]
    assert mode["cpu_ceiling"] is None  # no level to fit


def test_a_sampler_that_skipped_a_second_or_two_is_still_evidence(tmp_path):
    """A starved sampler skips a row now and then (it writes the second that just ended): not a gap."""
    skipped = sampling.SILENCE_S - 1
    mode = rebuild(tmp_path, climbing(), [("raw/delay/samples.csv", epoch(4, 1), epoch(4, 1) + skipped - 1)])
    assert mode["evidence_gaps"] == [] and mode["valid"], mode["invalid_reasons"]


def test_a_gap_after_the_knee_is_named_but_the_knee_stands(tmp_path):
    """The verdict rests on the levels up to the first unhealthy one; later seconds without evidence are still said."""
    levels = climbing(n=6, l3=dict(latency=SLOW_TAIL), l4=dict(latency=SLOW_TAIL), l5=dict(latency=SLOW_TAIL))
    mode = rebuild(tmp_path, levels, [("raw/delay/samples.csv", epoch(4, 1), None)])
    assert mode["collapsed"] and mode["sustained_rps"] == 150 and mode["valid"], mode["invalid_reasons"]
    assert [g["role"] for g in mode["evidence_gaps"]] == ["delay-service"]
    assert any(m.startswith("no server evidence for measured seconds 17–") for m in mode["missing"]), mode["missing"]
