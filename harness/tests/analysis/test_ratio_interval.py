"""Every ratio of knees with the interval their brackets allow (issue 33): a closed interval "2.12× (2.03–2.42)", a
bound that stays a bound ("≥ 2.90×", the end its brackets carry, never a closed interval nor the point of the last
healthy levels), and a ratio too wide to tell called rough
in words with what to do — in summary.json, in the terminal and on the page."""

import json
from pathlib import Path

import synthrun
from builders import run_params
from synthrun import ModeSpec, stairs

from loadlab import report
from loadlab.analysis import ratio_interval
from loadlab.analysis.ratio_interval import interval, knee_range, rough, text
from loadlab.core import summary_inputs
from loadlab.run import console
from loadlab.summary.verdicts import ratio, repeats
from loadlab.summary.verdicts.records import ModeRecord, RunSummary


def test_a_ratio_of_two_bracketed_knees_lies_between_the_far_ends_of_their_brackets():
    """docs/RESULTS.md's default run: platform 990–1,035, virtual 2,100–2,400 (coarse): 2.12× (2.03–2.42)."""
    span = interval(knee_range(2100, True, [2100, 2400]), knee_range(990, True, [990, 1035]))
    assert span == [2.03, 2.42]
    assert text(2.12, span) == "2.12× (2.03–2.42)"
    assert rough(span) is None and ratio_interval.bound_of(span) is None


def test_a_mode_that_held_the_stairs_makes_the_ratio_a_bound_said_as_one():
    held = knee_range(3000, False, None)  # virtual held the top: its knee lies above 3,000, no upper end
    span = interval(held, knee_range(990, True, [990, 1035]))
    assert span == [2.9, None] and ratio_interval.bound_of(span) == "lower"
    assert text(3.03, span) == "≥ 2.90×"
    # platform held the top: virtual / platform has no lower end, an upper bound
    upper = interval(knee_range(778, True, [778, 840]), knee_range(844, False, None))
    assert upper == [None, 1.0] and text(0.92, upper) == "≤ 1.00×"
    # a bound is never called rough (its words already say what it is), and never printed as "a–b"
    assert rough(span) is None and "–" not in text(3.03, span)


def test_a_ratio_whose_interval_spans_more_than_a_factor_of_two_is_rough_with_what_to_do():
    """REFINE=0 with a coarse step: platform bracketed 25–70, virtual 160–205 printed 6.4× where the brackets allow
    2.3× to 8.2×."""
    span = interval(knee_range(160, True, [160, 205]), knee_range(25, True, [25, 70]))
    assert span == [2.29, 8.2]
    assert text(6.4, span) == "6.40× (2.29–8.20)"
    said = rough(span)
    assert said.startswith("rough: the knees' brackets allow anything from 2.29× to 8.20×, more than a factor of 2")
    assert "REFINE=1" in said and "smaller steps" in said
    # exactly a factor of 2 is not rough; just above it is
    assert rough([1.0, ratio_interval.ROUGH_FACTOR]) is None and rough([1.0, 2.01]) is not None


def test_a_summary_written_before_intervals_says_a_bound_s_point_for_what_it_is():
    """Without an interval nothing carries the bound: the point is said as the last healthy levels' ratio, unsigned."""
    assert text(2.12, None) == "2.12×" and text(None, None) == "—"
    said = text(3.03, None, "lower")
    assert said == "3.03× at the last healthy levels (a lower bound's point: no interval to carry it)"
    assert "≥" not in said


def mode(sustained, bracket=None, **extra):
    fields = {"valid": True, "sustained_rps": sustained, "collapsed": bracket is not None}
    return ModeRecord.from_mapping({**fields, **({"knee_interval_rps": bracket} if bracket else {}), **extra})


def test_every_ratio_field_has_its_interval_beside_it():
    """Per JDK (`ratios_intervals`), per pool of a sweep (`ratios_by_pool_intervals`), over reactive."""
    jdks = {
        "platform-jdk21": mode(990, [990, 1035]),
        "virtual-jdk21": mode(10, [10, 15]),
        "platform-jdk25": mode(990, [990, 1035]),
        "virtual-jdk25": mode(2100, [2100, 2400]),
    }
    fields = ratio.ratio_fields(jdks, summary_inputs.of(run_params(modes=("platform", "virtual"), jdks=(21, 25))))
    assert fields["virtual_over_platform"] == 2.12 and fields["virtual_over_platform_interval"] == [2.03, 2.42]
    assert fields["ratios"] == {"21": 0.01, "25": 2.12}
    assert fields["ratios_intervals"] == {"21": [0.01, 0.02], "25": [2.03, 2.42]}

    sweep = {
        "platform-t200": mode(990, [990, 1035]),
        "platform-t1000": mode(2000, [2000, 2100]),
        "virtual": mode(3000),  # held the top
        "reactive": mode(2500, [2500, 2700]),
    }
    params = run_params(modes=("platform", "virtual", "reactive"), platform_threads=(200, 1000))
    fields = ratio.ratio_fields(sweep, summary_inputs.of(params))
    # virtual held the top: every ratio over it a lower bound, its value the end its brackets carry (3000 / 2100)
    assert fields["virtual_over_platform"] == 1.43 and fields["virtual_over_platform_interval"] == [1.43, None]
    assert fields["ratios_by_pool_intervals"] == {"platform-t200": [2.9, None], "platform-t1000": [1.43, None]}
    assert fields["ratios_by_pool"] == {"platform-t200": 2.9, "platform-t1000": 1.43}
    assert fields["virtual_over_reactive"] == 1.11 and fields["virtual_over_reactive_interval"] == [1.11, None]
    # no ratio, no interval
    inputs = summary_inputs.of(run_params(modes=("platform", "virtual")))
    fields = ratio.ratio_fields({"platform": mode(990, [990, 1035])}, inputs)
    assert fields["virtual_over_platform"] is None and fields["virtual_over_platform_interval"] is None


def repetitions(virtual_brackets):
    reps = []
    for k, bracket in enumerate(virtual_brackets, start=1):
        modes = {"platform": mode(990, [990, 1035]), "virtual": mode(bracket[0], bracket[1] and bracket)}
        reps.append(
            (k, RunSummary.from_mapping({"modes": modes, **ratio.ratio_fields(modes, summary_inputs.of(run_params()))}))
        )
    return reps


def test_the_repetitions_give_each_ratio_its_own_interval_beside_the_spread(capsys):
    reps = repetitions([(2100, 2205), (1890, 2000), (2400, 2505)])
    agg = repeats.aggregate(reps)
    spread = agg.ratio
    assert spread is not None and spread.values is not None
    assert (spread.min, spread.median, spread.max) == (1.91, 2.12, 2.42) and spread.bounds == {}
    assert [v.virtual_over_platform_interval for v in spread.values] == [
        [2.03, 2.23],
        [1.83, 2.02],
        [2.32, 2.53],
    ]
    # the run's own ratio (the median repetitions) with its interval, then the spread across repetitions
    combined = {**reps[0][1].as_json(), "repeats": agg.as_json()}
    console.table(RunSummary.from_mapping(combined), Path("run"))
    out = capsys.readouterr().out
    assert (
        "virtual / platform sustained throughput: 2.12× (2.03–2.23); across 3 repetitions 1.91–2.42× (median 2.12×)"
    ) in out, out


def test_a_repetition_whose_ratio_is_a_bound_is_named_beside_the_spread(capsys):
    agg = repeats.aggregate(repetitions([(2100, 2205), (3000, None)]))
    assert agg.ratio is not None and agg.ratio.bounds == {"2": "lower"}
    combined = {**repetitions([(2100, 2205)])[0][1].as_json(), "repeats": agg.as_json()}
    console.table(RunSummary.from_mapping(combined), Path("run"))
    # the bound counts as far as its brackets carry it: 3000 / 1035 = 2.90, never its point 3000 / 990 = 3.03
    assert (agg.ratio.min, agg.ratio.max) == (2.12, 2.9)
    assert "across 2 repetitions 2.12–2.90× (median 2.51×; 1 of them lower bound)" in capsys.readouterr().out


def coarse_run(tmp_path, virtual_bad_from=205):
    """The issue's case for real files: REFINE=0, stairs 25 → 250 in steps of 45; platform unhealthy from 70, virtual
    from 205 (virtual_bad_from: above 250, it holds the top)."""
    rates = [25, 70, 115, 160, 205, 250]
    synthrun.write_params(tmp_path, START_RPS=25, PEAK_RPS=250, STEPS=6, REFINE=0, platform_threads=5)
    for label, bad_from in (("platform", 70), ("virtual", virtual_bad_from)):
        levels = stairs(rates, slow_from=bad_from)
        synthrun.write_mode(tmp_path, label, ModeSpec(levels))
    return report.rebuild(tmp_path).as_json()


def test_a_coarse_run_shows_the_ratio_with_its_interval_and_says_it_is_rough_everywhere(tmp_path, capsys):
    result = coarse_run(tmp_path)
    assert [result["modes"][m]["knee_interval_rps"] for m in ("platform", "virtual")] == [[25, 70], [160, 205]]
    assert result["virtual_over_platform"] == 6.4 and result["virtual_over_platform_interval"] == [2.29, 8.2]
    written = json.loads((tmp_path / "summary.json").read_text())
    assert written["virtual_over_platform_interval"] == [2.29, 8.2]

    console.table(RunSummary.from_mapping(result), tmp_path)
    out = capsys.readouterr().out
    assert "virtual / platform sustained throughput: 6.40× (2.29–8.20)\n" in out, out
    assert "  rough: the knees' brackets allow anything from 2.29× to 8.20×" in out, out

    page = (tmp_path / "index.html").read_text()
    assert "Virtual threads held 6.40× (2.29–8.20) the load of a 5-thread pool" in page
    # the headline says "rough" in a few words: the first sentence above it says what to do
    assert "virtual sustained 160 rps = 6.40× (2.29–8.20) platform, rough: more than a factor of 2 between" in page
    assert "The ratio is rough: the knees&#x27;" in page or "The ratio is rough: the knees'" in page
    assert "6.4×" not in page and "6.40×<" not in page  # never the bare figure


def test_a_lower_bound_is_said_by_the_end_its_brackets_carry_never_by_the_last_healthy_levels(tmp_path, capsys):
    """Issue 44 item 6: platform's knee between 25 and 70 (coarse levels), virtual holding the top at 250. The last
    healthy levels give 250 / 25 = 10×; the brackets carry only 250 / 70 = 3.57×."""
    result = coarse_run(tmp_path, virtual_bad_from=10_000)
    # summary.json's value is the bound itself (CONTRACT, turn 7), never 10.0, the ratio of the two sustained rates
    assert result["virtual_over_platform"] == 3.57 and result["virtual_over_platform_interval"] == [3.57, None]
    assert result["virtual_over_platform_bound"] == "lower"

    console.table(RunSummary.from_mapping(result), tmp_path)
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("virtual / platform sustained throughput"))
    assert line.startswith("virtual / platform sustained throughput: ≥ 3.57× (a lower bound: virtual held"), line
    assert "10.00" not in out and "10.0×" not in out, out

    page = (tmp_path / "index.html").read_text()
    assert "Virtual threads held at least 3.57× the load of a 5-thread pool here" in page
    assert "virtual sustained 250 rps = ≥ 3.57× platform (a lower bound)" in page
    assert "10.00×" not in page and "10.0×" not in page


def test_the_repetitions_column_says_each_bound_by_its_end():
    from loadlab.report.repeats_table import _ratio_cell
    from loadlab.summary.schema.detail_records import RatioValueRecord

    value = RatioValueRecord.from_mapping(
        {"virtual_over_platform": 10.0, "virtual_over_platform_interval": [3.57, None]}
    )
    assert _ratio_cell(value) == "≥ 3.57×"
