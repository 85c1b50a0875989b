"""APP_REQUESTS judged per kind: which kind crossed its own limit first is said in words, and a kind's record is
typed in summary.json and read back the same."""

from dataclasses import replace

from builders import measured

from loadlab.core.thresholds import Thresholds
from loadlab.report import kinds_section
from loadlab.summary.judge.kinds import KindLevel, KindRecord, kind_record, went_first
from loadlab.summary.reading.injector_meta import MixKind
from loadlab.summary.verdicts.records import ModeRecord, RunSummary, json_text


def level(rate, p99, crossed=None, pass_name=""):
    return KindLevel(pass_name, int(rate // 100), rate, 100, 33.3, 100, 0, p99 // 2, p99, crossed)


def kind(name, label, *levels):
    return KindRecord(name, 2, label, 33.3, 33.0, 10, 110, tuple(levels))


READS = kind("items", "GET /items/{id:1..1000}", level(100, 20), level(200, 30), level(300, 400, "p99 crossed"))
SEARCH = kind("search", "GET /search", level(100, 20), level(200, 40), level(300, 50))
CARTS = kind(
    "carts",
    "POST /carts",
    level(100, 50),
    level(200, 420, "p99 crossed its limit (420 ms > 110 ms)"),
    level(300, 900, "p99 crossed its limit (900 ms > 110 ms)"),
)


def test_the_kind_that_crossed_its_limit_at_the_lowest_rate_went_first_while_the_others_held():
    words = went_first([READS, SEARCH, CARTS], knee_rps=300)
    assert words == "`POST /carts`'s p99 crossed its limit (420 ms > 110 ms) at 200 rps while the others held"


def test_kinds_crossing_at_the_same_rate_are_said_together_and_a_mix_that_fell_short_as_a_whole_is_said_so():
    assert went_first([READS, SEARCH, CARTS], knee_rps=None).startswith("`POST /carts`'s p99")
    together = went_first([READS, SEARCH], knee_rps=300)
    assert together == "`GET /items/{id:1..1000}`'s p99 crossed at 300 rps while `GET /search` held"
    assert "fell short as a whole" in went_first([SEARCH], knee_rps=300)
    # A level set aside (its instrument saturated) names nobody.
    aside = kind("carts", "POST /carts", level(100, 50), replace(CARTS.levels[1], set_aside=True), CARTS.levels[2])
    assert went_first([SEARCH, aside], knee_rps=300).startswith("`POST /carts`'s p99 crossed its limit (900 ms")
    all_aside = kind("carts", "POST /carts", *(replace(lv, set_aside=True) for lv in CARTS.levels))
    assert went_first([all_aside], knee_rps=None).startswith("every level was set aside")
    # Above the mix's knee nothing counts: a kind breaking only after the mix did did not go first.
    assert "no kind crossed" in went_first([READS, SEARCH], knee_rps=200)
    assert went_first([], knee_rps=300) is None


def test_a_kind_is_a_typed_record_in_summary_json_and_reads_back_the_same():
    mode = ModeRecord.from_mapping({"sustained_rps": 100, "kinds": [CARTS, SEARCH], "kind_first": "x"})
    text = json_text(RunSummary.from_mapping({"modes": {"virtual": mode}}))
    back = RunSummary.from_mapping(__import__("json").loads(text)).modes["virtual"]
    assert back.kinds == [CARTS, SEARCH] and isinstance(back.kinds[0].levels[0], KindLevel)


def test_the_console_and_page_show_each_kind_per_rate_with_its_own_figures():
    lines = kinds_section.console_lines("virtual", [CARTS, SEARCH], "`POST /carts`'s p99 crossed")
    assert lines[1].split() == ["kind", "line", "asked", "sent", "100", "rps", "200", "rps", "300", "rps"]
    assert lines[2].split()[:6] == ["carts", "2", "33.3%", "33%", "25/50", "210/420"] and "✗" in lines[2]
    assert lines[-1] == "virtual: `POST /carts`'s p99 crossed"
    mode = ModeRecord.from_mapping({"kinds": [CARTS], "kind_first": "`POST /carts`'s p99 crossed"})
    html = kinds_section.section(RunSummary.from_mapping({"modes": {"virtual": mode}}))
    assert "<code>POST /carts</code>&#x27;s p99 crossed" in html and "210/420 ✗" in html


def test_each_kinds_spectrum_is_drawn_where_every_kind_held_last_and_where_one_crossed_first():
    from loadlab.report.kind_spectra import key_rates

    assert key_rates([READS, SEARCH, CARTS]) == [("", 100), ("", 200)]
    assert key_rates([SEARCH]) == [("", 300)]


def write_kinds(run_dir, *specs, kinds):
    """Each kind's own files in the virtual mode's injector (as KindOutputs.java writes them) and meta.json's list."""
    import json
    import shutil

    from synthrun import write_mode

    injector = run_dir / "virtual" / "raw" / "injector-0"
    for name, spec in specs:
        scratch = run_dir / "scratch" / name
        write_mode(scratch, "virtual", spec)
        (injector / "kinds" / name).mkdir(parents=True)
        for file in ("seconds.csv", "latency.hlog"):
            shutil.copy(scratch / "virtual" / "raw" / "injector-0" / file, injector / "kinds" / name / file)
    meta = json.loads((injector / "meta.json").read_text())
    meta["kinds"] = kinds
    (injector / "meta.json").write_text(json.dumps(meta))


def test_each_kind_is_read_from_its_own_files_and_its_limit_from_its_own_baseline(tmp_path):
    """A synthetic run whose mix has a fast read (5 ms) and a slow write (200 ms, its tail out at the third level):
    the kinds' figures come from their own folders, not from the whole's."""

    from conftest import summarised
    from synthrun import HEALTHY, LevelSpec, ModeSpec, write_mode, write_params

    fast = ((5, 0.5), (6, 0.49), (8, 0.01))
    slow_tail = ((201, 0.5), (700, 0.49), (900, 0.01))
    rates = (100, 200, 300)
    whole = ModeSpec([LevelSpec(r) for r in rates])
    write_params(tmp_path, modes=("virtual",))
    write_mode(tmp_path, "virtual", whole)
    write_kinds(
        tmp_path,
        ("reads", ModeSpec([LevelSpec(r // 2, latency=fast) for r in rates])),
        ("carts", ModeSpec([LevelSpec(r // 2, latency=lat) for r, lat in zip(rates, (HEALTHY, HEALTHY, slow_tail))])),
        kinds=[
            {"name": "reads", "line": 2, "label": "GET /items/{id:1..9}", "hundredths": 5000},
            {"name": "carts", "line": 3, "label": "POST /carts", "hundredths": 5000},
        ],
    )

    mode = summarised(tmp_path)["modes"]["virtual"]
    reads, carts = mode["kinds"]
    assert (reads["baseline_p50_ms"], reads["p99_limit_ms"]) == (5, 105)
    assert carts["baseline_p50_ms"] >= 200 and carts["p99_limit_ms"] >= 400
    assert [lv["crossed"] is not None for lv in carts["levels"]] == [False, False, True]
    assert not any(lv["crossed"] for lv in reads["levels"]) and reads["sent_pct"] == carts["sent_pct"] == 50
    first = mode["kind_first"]
    assert first.startswith("`POST /carts`'s p99 crossed its limit (") and "at 300 rps" in first, first
    assert (tmp_path / "virtual" / "kinds" / "carts" / "hgrm" / "level-03-300rps.hgrm").is_file()


def test_a_scenario_mix_is_predicted_on_its_kinds_own_holds_weighted_by_their_shares(tmp_path):
    """SCENARIO="http:80 db:20": each kind's hold read from its own files (http ≈ 0.2 s, db ≈ 0.2 s), the pool
    reached by the db share only (10 / (20% × 0.2 s) ≈ 250 rps, where db alone gives 50), named as the prediction."""

    from conftest import summarised
    from synthrun import LevelSpec, ModeSpec, write_mode, write_params

    rates = (100, 200, 300)
    write_params(tmp_path, modes=("virtual",), SCENARIO="http:80 db:20", DB_POOL=10)
    write_mode(tmp_path, "virtual", ModeSpec([LevelSpec(r) for r in rates]))
    write_kinds(
        tmp_path,
        *(
            (name, ModeSpec([LevelSpec(round(r * share)) for r in rates]))
            for name, share in (("http", 0.8), ("db", 0.2))
        ),
        kinds=[
            {"name": "http", "line": 1, "label": "http", "hundredths": 8000},
            {"name": "db", "line": 2, "label": "db", "hundredths": 2000},
        ],
    )

    mode = summarised(tmp_path)["modes"]["virtual"]
    assert [k["name"] for k in mode["kinds"]] == ["http", "db"]
    hold_ms = mode["kinds"][1]["baseline_p50_ms"]
    assert mode["predicted_by"] == "pool" and mode["predicted_rps"] == round(10 * 1000 / (0.2 * hold_ms))
    assert (
        f"10 connections / {0.2 * hold_ms / 1000:.3f} s (20% of requests db × {hold_ms / 1000:.3f} s)"
        in (mode["prediction"])
    )


CART = MixKind(name="carts", line=2, label="POST /carts", hundredths=1000)


def test_a_kinds_limit_is_built_on_its_p50_at_the_level_the_mixs_baseline_came_from_not_a_first_level_that_broke():
    # the mix's first level broke (a cold start: the kind's p50 900 ms there); the mix's baseline came from level 2
    broke = measured(0, 100, [(900, 200)])
    steady = [measured(1, 200, [(50, 300)]), measured(2, 300, [(60, 300)])]
    judged = [("", lv, None) for lv in (broke, *steady)]
    record = kind_record(CART, judged, Thresholds(), frozenset(), baseline_position=1)
    assert (record.baseline_p50_ms, record.p99_limit_ms) == (50, 150)
    assert record.levels[0].crossed and not record.levels[2].crossed
    assert kind_record(CART, judged, Thresholds(), frozenset(), baseline_position=None).p99_limit_ms is None


def test_a_kinds_short_level_is_judged_on_its_count_past_the_limit_never_on_its_slowest_answer():
    # 60 answers of a 10% kind: two slow answers are its p99, and a healthy 1% tail gives two with p = 0.12
    one_slow = measured(1, 200, [(50, 58), (1000, 2)])
    four_slow = measured(2, 300, [(50, 56), (1000, 4)])
    judged = [("", measured(0, 100, [(50, 300)]), None), ("", one_slow, None), ("", four_slow, None)]
    record = kind_record(CART, judged, Thresholds(), frozenset(), baseline_position=0)
    assert record.levels[1].p99_ms >= 1000 and record.levels[1].crossed is None
    assert record.levels[2].crossed.startswith("tail crossed its limit (4 of 60 requests above the 150 ms limit")
