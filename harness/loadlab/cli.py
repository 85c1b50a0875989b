"""Entry point of the harness: `python -m loadlab <verb>` (the `loadlab` console script); the Makefile is its user
interface and passes every parameter as an environment variable of the same name (see params.py).

Every verb ends with an `ExitCode`; every error the user must act on is a `LoadlabError`, printed here as one
`loadlab: …` line per problem.

The CLI sits on top of the stages (core < analysis < summary < capacity < report < run < cli). `check`, `params-help`,
`java-home`, `up` and `down` run on the standard library alone, before `.venv` exists (the Makefile validates
parameters first), so each verb imports the stage it needs when it is called: the only imports inside functions.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from loadlab.core import failif, param_limits, params
from loadlab.core.errors import ExitCode, LoadlabError
from loadlab.core.run_params import RunParams
from loadlab.run.topology import STATE


def _check(args: argparse.Namespace) -> int:
    values = params.parse()
    if args.write:
        Path(args.write).parent.mkdir(parents=True, exist_ok=True)
        Path(args.write).write_text(json.dumps(values.to_json()) + "\n")
    return ExitCode.OK


def _params_help(args: argparse.Namespace) -> int:
    for p in params.PARAMS:
        print(f"  {p.name:<17} {p.default!r:<19} {p.help} [{p.allowed}]")
    return ExitCode.OK


def _java_home(args: argparse.Namespace) -> int:
    from loadlab.run.java import find_jdk

    print(find_jdk())
    return ExitCode.OK


def _values(args: argparse.Namespace) -> RunParams:
    """The validated parameters: from `check --write` when given (and still matching), else from the environment."""
    if args.params_file:
        try:
            checked = json.loads(Path(args.params_file).read_text())
        except (OSError, ValueError) as e:
            raise LoadlabError(f"cannot read the checked parameters {args.params_file}: {e}", ExitCode.USAGE) from e
        if isinstance(checked, dict) and set(checked) == {p.name for p in params.PARAMS}:
            return params.from_json(checked)
    return params.parse()


def _single_run_lock() -> TextIO:
    """Two benches at once would share ports and kill each other's processes: refuse the second one."""
    STATE.mkdir(parents=True, exist_ok=True)
    f = open(STATE / "bench.lock", "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        holder = f.read().strip() or "?"
        f.close()
        raise LoadlabError(
            f"another `make bench` is running (pid {holder}); wait for it or stop it", ExitCode.USAGE
        ) from None
    f.truncate(0)
    f.write(str(os.getpid()))
    f.flush()
    return f


def _bench(args: argparse.Namespace) -> int:
    values = _values(args)
    lock = _single_run_lock()  # first: a second bench must say so, not that the first one's ports are busy
    # Imported late so `check` stays light; preflight and bench need no more than the standard library until the end.
    from loadlab.core import database_use, run_scope
    from loadlab.run.preflight import preflight

    try:
        problems = preflight(run_scope.of_values(values), database_use.of_values(values))
        if problems:
            raise LoadlabError(
                "\n".join(
                    [*problems, "refused before the run: nothing was created (no run folder, results/latest unchanged)"]
                ),
                ExitCode.USAGE,
            )
        return _run_bench(values)
    finally:
        lock.close()


def _run_bench(values: RunParams, nested: Path | None = None) -> int:
    """A bench of these parameters, worked out once (core/bench_plan.py); LADDER's rungs after it, each a bench of
    its own from the parameters core/rung_params.py makes for it (a rung, nested in its run's folder, climbs none)."""
    from loadlab.core import bench_plan, rung_params
    from loadlab.run import rungs
    from loadlab.run.bench import bench

    plan = bench_plan.of_values(values)
    if nested is not None:
        return bench(plan, nested=nested)
    ladder = rungs.Ladder(
        values.ladder or 0, rung_params.climbable(values), values, rung_params.rung_values, _run_bench
    )
    return bench(plan, ladder)


def is_run_folder(path: str) -> bool:
    """An empty RUN must not turn the current folder into a "run" and write a page there."""
    if not path.strip() or not Path(path).is_dir():
        return False
    return Path(path, "params.json").is_file() or any(Path(path, m).is_dir() for m in param_limits.THREAD_MODES)


def _report(args: argparse.Namespace) -> int:
    run = args.run if args.run is not None else ""
    if not run.strip():
        # No RUN: the newest run, as `results/latest` (under RESULTS_DIR) points to it.
        run = str(Path(params.results_dir()) / "latest")
    if not is_run_folder(run):
        raise LoadlabError(
            f"RUN={run!r} is not a run folder; allowed: results/<run-id> (a folder with params.json "
            f"or a platform/virtual folder), or nothing for results/latest",
            ExitCode.USAGE,
        )
    from loadlab import report
    from loadlab.run import console

    run_dir = Path(run).resolve()
    console.table(report.rebuild(run_dir), run_dir)
    return ExitCode.OK


def _compare(args: argparse.Namespace) -> int:
    text = args.fail_if if args.fail_if is not None else os.environ.get("FAIL_IF", "")
    conditions = failif.parse(text)  # a bad FAIL_IF is refused before either run is read
    from loadlab.report import changes, comparability, compare_page, gate

    run = comparability.load("RUN", args.run or "")
    against = comparability.load("AGAINST", args.against or "")
    shared = comparability.check(run, against)
    found = changes.rows(run, against, shared)
    judged = gate.resolve(text, conditions, found, shared)
    print("\n".join(changes.console_lines(run, against, shared, found)))
    print(f"-- the comparison page: {compare_page.write(run, against, shared, found)}")
    for condition, row in judged:
        if not gate.met(condition, row):
            print(gate.line(condition, row))
    failed = [gate.line(condition, row) for condition, row in judged if gate.met(condition, row)]
    if failed:
        raise LoadlabError("\n".join(failed), ExitCode.FAILED)
    return ExitCode.OK


def _plan(args: argparse.Namespace) -> int:
    from loadlab import report
    from loadlab.capacity import plan, table

    run = args.run or str(Path(params.results_dir()) / "latest")
    env = {k: os.environ.get(k, "") for k in ("CORES", "MEMORY_GB", "INSTANCE", "RPS")}
    run_dir = plan.resolve_run(run)
    result = plan.write(run_dir, {**env, "RUN": run})
    print("\n".join(table.lines(result)))
    # The page's "On other hardware" section: the run's own summary.json, the page drawn again with the plan.
    report.redraw(run_dir)
    print(f"-- {run_dir / plan.PLAN_JSON}")
    return ExitCode.OK


def _answers(args: argparse.Namespace) -> int:
    from loadlab.core import answer_rows
    from loadlab.core.unknown_params import COMMAND_LINE_VAR

    given = {name: os.environ.get(name, "") for name in os.environ.get(COMMAND_LINE_VAR, "").split()}
    chosen, repeat = answer_rows.select(
        answer_rows.load(), args.rows, args.repeat, given
    )  # checked first, on the standard library: a bad ROWS or REPEAT is refused before anything is installed
    if args.validate_only:
        return ExitCode.OK
    from loadlab.run import answers_run

    return answers_run.run(chosen, repeat)


def _answers_readme(args: argparse.Namespace) -> int:
    from loadlab.report import answers_readme

    if args.write:
        wrote = answers_readme.write()
        print(f"-- {answers_readme.README}: " + ("the answer table rewritten" if wrote else "no answers.json yet"))
        return ExitCode.OK
    problems = answers_readme.problems()
    if problems:
        raise LoadlabError("\n".join(problems), ExitCode.FAILED)
    return ExitCode.OK


def _up(args: argparse.Namespace) -> int:
    from loadlab.run import targets

    values = params.parse()
    return targets.up(values.target, values.injectors)


def _down(args: argparse.Namespace) -> int:
    from loadlab.run import targets

    return targets.down(params.parse().target)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="loadlab",
        description="Platform vs virtual threads under open-model load. Parameters are environment variables "
        "(see `loadlab params-help`); the Makefile is the usual way in.",
        epilog="exit codes: " + ", ".join(f"{c.value} {c.name.lower()}" for c in ExitCode),
    )
    verbs = ap.add_subparsers(dest="verb", metavar="VERB", required=True)

    check = verbs.add_parser(
        "check",
        help="validate every parameter (one line per bad value, exit 2)",
        description="Validates every parameter from the environment; nothing is started.",
    )
    check.add_argument("--write", metavar="FILE", help="also write the validated values to FILE (JSON)")
    check.set_defaults(handler=_check)

    bench = verbs.add_parser(
        "bench",
        help="run every mode in MODES on TARGET and write results/<run-id>/",
        description="Runs the comparison: one run folder, a summary table, exit 0 when the run completed and is valid.",
    )
    bench.add_argument(
        "--params-file",
        metavar="FILE",
        help="validated parameters written by `check --write` (default: read the environment)",
    )
    bench.set_defaults(handler=_bench)

    report = verbs.add_parser(
        "report",
        help="rebuild index.html and summary.json of a finished run",
        description="Rebuilds a run's derived files from its raw data, without re-running.",
    )
    report.add_argument("run", nargs="?", help="the run folder (default: RESULTS_DIR/latest)")
    report.set_defaults(handler=_report)

    compare = verbs.add_parser(
        "compare",
        help="did it move? two run folders side by side, each difference with its 95%% interval; FAIL_IF gates",
        description="Prints and writes into <RUN>/compare-<AGAINST's folder name>.html each figure the two runs share "
        "(per mode both measured validly: the sustained rate and the knee at any stairs, p50/p99 at each rate both "
        "ran), RUN's change against AGAINST with its 95%% interval, 'no change detected' where the interval holds "
        "none; with FAIL_IF, exit 1 when a condition's change is certain beyond its threshold. A folder that cannot "
        "be read, two runs with no valid mode in common, or a bad FAIL_IF are refused in one line, exit 2.",
    )
    compare.add_argument("run", help="RUN: a run folder, results/<run-id>")
    compare.add_argument("against", help="AGAINST: the run folder to set beside it (the baseline)")
    compare.add_argument(
        "--fail-if",
        metavar="FAIL_IF",
        help="conditions '<mode>.<figure>[@<rate>] <op> <threshold>%%' separated by ',' or ';' "
        "(default: the FAIL_IF environment variable); docs/RESULTS.md#the-gate-fail_if",
    )
    compare.set_defaults(handler=_compare)
    plan = verbs.add_parser(
        "plan",
        help="what a run's measured costs mean on another host (CORES, MEMORY_GB or INSTANCE; RPS)",
        description="Writes plan.json into the run folder: each mode's knee on the named host, and for RPS the hosts "
        "a target rate takes; a bad value is refused in one line naming it (exit 2).",
    )
    plan.add_argument("run", nargs="?", help="the run folder (default: RESULTS_DIR/latest)")
    plan.set_defaults(handler=_plan)

    answers = verbs.add_parser(
        "answers",
        help="run the README's answer table again (ROWS, REPEAT): docs/studies/answers.json, answers.md, the README",
        description="Runs `make bench` for each row of docs/studies/answers-rows.json named in ROWS (default: all) "
        "with REPEAT repetitions (default 3), one progress line per row, past a row that fails; writes "
        "docs/studies/answers.json, answers.md and the README's table after each row. A bad ROWS or REPEAT is "
        "refused in one line, exit 2, before anything starts.",
    )
    answers.add_argument("--rows", default="", help="ROWS: row ids separated by spaces (default: every row)")
    answers.add_argument("--repeat", default="", help="REPEAT: repetitions of each row, 1..20 (default 3)")
    answers.add_argument("--validate-only", action="store_true", help="check ROWS and REPEAT, run nothing")
    answers.set_defaults(handler=_answers)
    readme = verbs.add_parser(
        "answers-readme",
        help="the README's answer table from docs/studies/answers.json: --write it, or --check it (exit 1: differs)",
    )
    readme_mode = readme.add_mutually_exclusive_group(required=True)
    readme_mode.add_argument("--write", action="store_true", help="rewrite the block between the README's markers")
    readme_mode.add_argument("--check", action="store_true", help="exit 1 when the block differs from answers.json")
    readme.set_defaults(handler=_answers_readme)

    up = verbs.add_parser("up", help="prepare TARGET (aws: terraform apply, netns: namespace hosts)")
    up.set_defaults(handler=_up)
    verbs.add_parser("down", help="undo `up` for TARGET: stop every process, remove every resource").set_defaults(
        handler=_down
    )
    verbs.add_parser("params-help", help="list every parameter with its default and what is allowed").set_defaults(
        handler=_params_help
    )
    verbs.add_parser("java-home", help="print the JDK >= 21 the build uses").set_defaults(handler=_java_home)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return int(args.handler(args))
    except LoadlabError as e:
        for line in str(e).splitlines():
            print(f"loadlab: {line}", file=sys.stderr)
        return int(e.exit_code)
    except KeyboardInterrupt:
        print("loadlab: interrupted", file=sys.stderr)
        return int(ExitCode.INTERRUPTED)
