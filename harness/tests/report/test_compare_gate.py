"""`make compare … FAIL_IF='<mode>.<figure> <op> <threshold>%'`: the grammar (a bad expression refused in one line,
exit 2, before either run is read), each difference's 95% interval (from the knee brackets, the repetitions, the
per-second latencies), and the gate: exit 1 with one line naming the figure, its change and its interval when the
change is certain beyond the threshold, 0 otherwise."""

import re

import pytest
import synthrun
from conftest import harness_exit, make, summarised
from synthrun import ModeSpec, stairs

from loadlab import cli
from loadlab.analysis.difference import Span, capacity_change, latency_change
from loadlab.core import failif

# p50 201, p99 300: slower than synthrun.HEALTHY's 230 ms tail, still healthy against a 402 ms limit.
SLOWER = ((201, 0.50), (205, 0.45), (300, 0.04), (320, 0.01))


def _run(folder, levels, **params):
    synthrun.write_params(folder, modes=("platform",), **params)
    synthrun.write_mode(folder, "platform", ModeSpec(levels, seconds_per_level=6))
    summarised(folder)
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A baseline, the same again, the pool halved (knee 350-450 → 150-250), and a slower tail at equal load."""
    root = tmp_path_factory.mktemp("results")
    rates = (150, 250, 350, 450)
    return {
        "base": _run(root / "20261127-100000", stairs(rates, slow_from=450)),
        "same": _run(root / "20261127-110000", stairs(rates, slow_from=450)),
        "half": _run(root / "20261127-120000", stairs(rates, slow_from=250), platform_threads=100),
        "slower": _run(root / "20261127-130000", stairs(rates, slow_from=450, latency=SLOWER)),
    }


def _compare(capsys, run, against, fail_if):
    code = cli.main(["compare", str(run), str(against), "--fail-if", fail_if])
    out = capsys.readouterr()
    return code, out.out, out.err.strip().splitlines()


def test_the_gate_passes_two_identical_runs(runs, capsys):
    code, out, err = _compare(capsys, runs["same"], runs["base"], "platform.sustained < -10%, platform.p99 > 10%")
    assert code == 0 and err == [], err
    assert re.search(r"platform\.sustained +350 rps +350 rps +no change detected \(95%: -22% to \+29%\)", out), out
    assert "FAIL_IF platform.sustained < -10%: not met" in out and "FAIL_IF platform.p99 > +10%: not met" in out


def test_the_gate_fails_a_halved_pool_in_one_line_with_the_change_and_its_interval(runs, capsys):
    code, _, err = _compare(capsys, runs["half"], runs["base"], "platform.sustained < -10%")
    assert code == 1
    assert err == [
        "loadlab: FAIL_IF platform.sustained < -10%: platform.sustained changed -57% (95%: -67% to -29%), from the "
        "knee brackets: certainly below -10%"
    ]


def test_a_threshold_the_interval_reaches_is_not_certain(runs, capsys):
    # -67% to -29%: certainly below -10%, not certainly below -50%
    code, out, err = _compare(capsys, runs["half"], runs["base"], "platform.knee < -50%; platform.sustained > -80%")
    assert code == 1 and len(err) == 1 and err[0].startswith("loadlab: FAIL_IF platform.sustained > -80%: "), err
    assert "FAIL_IF platform.knee < -50%: not met: platform.knee -50% (95%: -67% to -29%)" in out


def test_a_slower_tail_at_equal_load_fails_a_p99_gate(runs, capsys):
    code, out, err = _compare(capsys, runs["slower"], runs["base"], "platform.p99 > 10%, platform.p50@250 > 1%")
    assert code == 1 and len(err) == 1, err
    # read at 350 rps, the highest both held: 300 against 230 ms each second, a rank test over 6 seconds a side
    assert err[0].startswith("loadlab: FAIL_IF platform.p99 > +10%: platform.p99@350 changed +30% (95%: +30% to +30%)")
    assert (
        "; the rank test agrees (p = 0.0013), per-second p99 (6 against 6 seconds), bootstrap and Mann-Whitney U"
        in (err[0])
    )
    assert "FAIL_IF platform.p50@250 > +1%: not met: platform.p50@250 no change detected (the same values)" in out


def test_a_rate_both_runs_did_not_run_is_refused(runs, capsys):
    code, _, err = _compare(capsys, runs["same"], runs["base"], "platform.p99@300 > 10%")
    assert code == 2 and len(err) == 1
    assert "reads platform's p99 at 300 rps, which both runs did not run (both ran: 150, 250, 350, 450)" in err[0]


@pytest.mark.parametrize(
    "text, why",
    [
        ("virtual.sustained < -10", "cannot read 'virtual.sustained < -10'"),
        ("virtual.throughput < -10%", "names the figure 'throughput'"),
        ("virtual.sustained = -10%", "compares with '='"),
        ("virtual.knee@300 < -10%", "gives knee a rate (@300); only p50 and p99 are read at a rate"),
        ("virtual.sustained < -10%,", "has an empty condition"),
        ("virtua.sustained < -10%", "cannot read 'virtua.sustained < -10%'"),
    ],
)
def test_a_bad_expression_is_refused_in_one_line_before_either_run_is_read(tmp_path, capsys, text, why):
    code, _, err = _compare(capsys, tmp_path / "no-such-run", tmp_path / "nor-this", text)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"loadlab: FAIL_IF={text!r} {why}; allowed: <mode>.<figure>[@<rate>] <op> <threshold>%")


def test_the_grammar_reads_several_conditions_and_rates():
    conditions = failif.parse(" virtual.sustained<-10% ; platform-t200.p99@1500 > +20.5%,virtual-jdk21.knee < 0%")
    assert [str(c) for c in conditions] == [
        "virtual.sustained < -10%",
        "platform-t200.p99@1500 > +20.5%",
        "virtual-jdk21.knee < +0%",
    ]
    assert failif.parse("") == [] and failif.parse("  ") == []


def test_make_passes_fail_if_through(runs):
    """FAIL_IF from the environment, through make, unexpanded. The same gate passing two identical runs is
    test_the_gate_passes_two_identical_runs (in process); FAIL_IF given on make's command line, passing and failing,
    is test_e2e_compare.py's: each `make compare` here costs a Python start and a comparison page."""
    env = {"RUN": str(runs["half"]), "AGAINST": str(runs["base"]), "FAIL_IF": "platform.sustained < -10%"}
    r = make("compare", env=env, timeout=120)
    assert harness_exit(r) == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "FAIL_IF platform.sustained < -10%: platform.sustained changed -57%" in r.stderr


def test_brackets_give_the_interval_and_a_bound_stays_a_bound():
    # The run: platform bracketed 25-70, virtual 160-205 against a baseline of 100-110 both
    change = capacity_change([Span(25, 70, 25)], [Span(100, 110, 100)])
    assert change.low_pct == pytest.approx(-77.27, abs=0.01) and change.high_pct == pytest.approx(-30)
    assert change.detected and change.point_pct == pytest.approx(-75)
    held = capacity_change([Span(3000, None, 3000)], [Span(2100, 2205, 2100)])
    assert held.high_pct is None and held.low_pct == pytest.approx(36.05, abs=0.01) and held.detected
    both = capacity_change([Span(3000, None, 3000)], [Span(3000, None, 3000)])
    assert (both.low_pct, both.high_pct, both.detected) == (None, None, False)


def test_repetitions_widen_the_brackets_interval():
    one = capacity_change([Span(35, 45, 35)], [Span(35, 45, 35)])
    # a second repetition on each side, RUN's one stair lower: the bootstrap reaches the lower pair too
    two = capacity_change([Span(35, 45, 35), Span(25, 35, 25)], [Span(35, 45, 35), Span(35, 45, 35)])
    assert two.low_pct < one.low_pct and two.high_pct == pytest.approx(one.high_pct)
    assert two.basis == "from the knee brackets and 2 against 2 repetitions (bootstrap)"


def test_a_rank_test_on_per_second_values():
    same = latency_change([230, 231, 229, 232, 230], [231, 230, 232, 229, 230])
    assert not same.detected and same.p_value > 0.5 and same.low_pct <= 0 <= same.high_pct and same.rank_agrees
    slower = latency_change([300, 305, 298, 310, 302], [230, 231, 229, 232, 230])
    assert slower.detected and slower.p_value < 0.05 and 28 < slower.low_pct < slower.high_pct < 36
    # three seconds a side, each side all alike: the asymptotic test would say p = 0.047; no test is made
    few = latency_change([300, 300, 300], [230, 230, 230])
    assert few.low_pct is None and few.high_pct is None and not few.detected
    assert few.basis == "per-second p99 (3 against 3 seconds): too few for a rank test, 4 a side at least"


def test_runs_with_repeat_take_their_interval_from_every_repetition(tmp_path, capsys):
    """REPEAT=2 on both sides: RUN's second repetition broke a stair lower, and the interval reaches it."""

    def repeated(folder, first_bad):
        synthrun.write_params(folder, modes=("platform",), completed=["rep-1/platform", "rep-2/platform"], REPEAT=2)
        for k, bad in enumerate(first_bad, start=1):
            synthrun.write_mode(folder / f"rep-{k}", "platform", ModeSpec(stairs((150, 250, 350, 450), bad)))
        summarised(folder)
        return folder

    against = repeated(tmp_path / "20261127-140000", (450, 450))
    run = repeated(tmp_path / "20261127-150000", (450, 350))
    code, out, _ = _compare(capsys, run, against, "platform.sustained < -10%")
    assert code == 0
    assert re.search(
        r"platform\.sustained .* no change detected \(95%: -44% to \+29%\) +from the knee brackets and 2 against 2 "
        r"repetitions \(bootstrap\)",
        out,
    ), out


def test_a_run_whose_first_level_was_unhealthy_has_no_sustained_rate_to_quote(runs, tmp_path, capsys):
    broken = _run(tmp_path / "20261127-160000", stairs((150, 250, 350, 450), slow_from=150))
    code, out, _ = _compare(capsys, broken, runs["base"], "platform.sustained < -10%")
    # its knee lies below 150 rps, AGAINST's in 350-450: certainly down, by at least 57%
    assert code == 1
    assert re.search(r"platform\.sustained +no healthy level +350 rps +at most -57% \(a bound: RUN had no healthy", out)
    assert re.search(r"platform\.knee +below 150 rps +350–450 rps", out), out
