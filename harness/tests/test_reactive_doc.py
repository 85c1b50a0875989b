"""docs/REACTIVE.md sets the blocking and the reactive implementation of one request's path side by side (lines and
constructs) and ends with the commands the measurements are run with. Both are held to what they describe: the
figures are counted here from the two services' sources, and each command is read by the harness's own parameter
checks, so an edit to either service or to a parameter's rules fails this test instead of leaving the page wrong.

Counting rule (the page says it too): a code line is a line of Java that is not blank, not a comment and not an
`import` or `package` line; annotations and closing braces count. A piece is a whole file, or a file without the
members (methods, fields) that are not on the path, or only the members that are."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

import pytest
from conftest import REPO
from test_docs import section

from loadlab.core import params, servicecpus

PAGE = REPO / "docs" / "REACTIVE.md"
THREAD = "thread-service/src/main/java/loadlab/thread/"
REACTIVE = "reactive-service/src/main/java/loadlab/reactive/"
# What both services share (the parameters, the problem answers, the settings): its own module, package loadlab.thread.
CONTRACT = "service-contract/src/main/java/loadlab/thread/"

# Reactor's operators and WebClient's reactive exchange methods, as broadly as a reactive request path uses them, so
# an operator added to the reactive service is counted without editing this list.
REACTOR_OPERATORS = frozenset(
    "just defer error empty from fromRunnable fromCallable usingWhen using zip zipWith then thenReturn thenMany map "
    "flatMap flatMapMany concatMap filter handle switchIfEmpty defaultIfEmpty onErrorMap onErrorResume onErrorReturn "
    "doOnNext doOnError doOnSubscribe doFinally timeout retry retryWhen subscribeOn publishOn block blockFirst "
    "blockLast collectList cache share transform contextWrite checkpoint log exchangeToMono exchangeToFlux "
    "bodyToMono bodyToFlux releaseBody retrieve toEntity".split()
)
# The operators Reactor also offers without arguments; any other name called with none is not Reactor's (a getter
# such as the settings' timeout()).
WITHOUT_ARGUMENTS = frozenset(
    "empty then releaseBody block blockFirst blockLast collectList cache share log retrieve".split()
)


@dataclass(frozen=True)
class Piece:
    """A part of one request's path: what it does, the file, and which of its members are (not) on the path."""

    role: str
    path: str = ""
    only: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    # a part with no code of its own: where the shape gets it instead
    instead: str = ""

    def label(self) -> str:
        if self.instead:
            return self.instead
        name = f"`{self.path.split('/java/loadlab/')[1]}`"
        if self.only:
            return f"{name} `{'`, `'.join(self.only)}` only"
        return f"{name} without `{'`, `'.join(self.without)}`" if self.without else name


BLOCKING, NON_BLOCKING = "blocking", "reactive"
PATHS = {
    "/forward": {
        BLOCKING: (
            Piece("the handler", THREAD + "forward/ForwardController.java", without=("HELD", "pinned")),
            Piece("the outbound call, its errors and timeout", THREAD + "forward/DelayServiceClient.java"),
            # CLIENT=jdk, the one both shapes are compared on (apache and reactor are other clients, not this shape)
            Piece("the client", THREAD + "forward/DelayServiceClientConfiguration.java", without=("apache", "reactor")),
            Piece("`cpuMs` off the event loop", instead="none: computed on the request's own thread"),
        ),
        NON_BLOCKING: (
            Piece("the handler", REACTIVE + "forward/ForwardController.java"),
            Piece("the outbound call, its errors and timeout", REACTIVE + "forward/DelayServiceCall.java"),
            Piece("the client", REACTIVE + "forward/DelayServiceWebClientConfiguration.java"),
            Piece("`cpuMs` off the event loop", REACTIVE + "cpu/ReactiveCpu.java"),
        ),
    },
    "/db": {
        BLOCKING: (
            Piece("the handler, the query and the driver's errors", THREAD + "db/DatabaseController.java"),
            Piece(
                "the handler, the query and the driver's errors", CONTRACT + "db/DatabaseException.java", only=("of",)
            ),
            Piece("the pool", instead="Spring Boot's HikariCP, set in `application.yml`"),
            Piece("`cpuMs` off the event loop", instead="none: computed on the request's own thread"),
        ),
        NON_BLOCKING: (
            Piece("the handler, the query and the driver's errors", REACTIVE + "db/DatabaseController.java"),
            Piece("the pool", REACTIVE + "db/DatabasePoolConfiguration.java"),
            Piece("`cpuMs` off the event loop", REACTIVE + "cpu/ReactiveCpu.java"),
        ),
    },
}


def without_strings(line: str) -> str:
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', line)


def code_lines(lines: list[str]) -> list[str]:
    """The lines that are code: no blank, comment, import or package line (a /* … */ block may span lines)."""
    code, in_block = [], False
    for line in lines:
        text = without_strings(line).strip()
        if in_block:
            in_block = "*/" not in text
            continue
        if text.startswith("/*"):
            in_block = "*/" not in text
            continue
        if not text or text.startswith("//") or text.startswith(("import ", "package ")):
            continue
        code.append(line)
    return code


def member_span(lines: list[str], name: str) -> range:
    """The lines of a class's member (a method with its annotations, or a field) declared at the class's level."""

    def declares(line: str) -> bool:
        text = line.strip()
        at_class_level = line.startswith("    ") and not line.startswith("     ")
        return bool(at_class_level and re.search(rf"\b{name}\s*[(=;]", text)) and not text.startswith(
            ("@", "//", "*", "return")
        )

    start = next((i for i, line in enumerate(lines) if declares(line)), None)
    assert start is not None, f"no member {name!r} found"
    first = start
    while first > 0 and lines[first - 1].startswith("    @"):
        first -= 1
    depth, opened = 0, False
    for end in range(start, len(lines)):
        text = without_strings(lines[end])
        depth += text.count("{") - text.count("}")
        opened = opened or depth > 0
        if (opened and depth == 0) or (not opened and text.rstrip().endswith(";")):
            return range(first, end + 1)
    raise AssertionError(f"member {name!r} never ends")


def piece_lines(piece: Piece) -> list[str]:
    if piece.instead:
        return []
    lines = (REPO / piece.path).read_text(encoding="utf-8").splitlines()
    if piece.only:
        return code_lines([lines[i] for name in piece.only for i in member_span(lines, name)])
    dropped = {i for name in piece.without for i in member_span(lines, name)}
    return code_lines([line for i, line in enumerate(lines) if i not in dropped])


def constructs(lines: list[str]) -> dict[str, int]:
    text = "\n".join(without_strings(line) for line in lines)
    calls = re.findall(r"\.(\w+)\((\)?)", text)
    return {
        "Reactor operators": sum(
            1 for name, bare in calls if name in REACTOR_OPERATORS and (not bare or name in WITHOUT_ARGUMENTS)
        ),
        "lambdas": text.count("->"),
        "try blocks": len(re.findall(r"\btry\b", text)),
    }


def path_rows(path: str) -> list[str]:
    """The page's table for one path, rendered from the sources: one row per piece, its code lines, then the totals."""
    sides = PATHS[path]
    roles = list(dict.fromkeys(p.role for side in sides.values() for p in side))
    rows = [f"| `{path}` | blocking: thread-service (platform, virtual) | reactive-service |", "|---|---|---|"]
    for role in roles:
        cells = []
        for side in (BLOCKING, NON_BLOCKING):
            pieces = [p for p in sides[side] if p.role == role]
            cells.append(" + ".join(f"{p.label()}: {len(piece_lines(p))}" for p in pieces) or "—")
        rows.append(f"| {role} | {cells[0]} | {cells[1]} |")
    totals = {side: [line for p in pieces for line in piece_lines(p)] for side, pieces in sides.items()}
    rows.append(f"| **code lines** | **{len(totals[BLOCKING])}** | **{len(totals[NON_BLOCKING])}** |")
    counted = {side: constructs(lines) for side, lines in totals.items()}
    for name in counted[BLOCKING]:
        rows.append(f"| {name} | {counted[BLOCKING][name]} | {counted[NON_BLOCKING][name]} |")
    return rows


@pytest.mark.parametrize("path", PATHS)
def test_the_code_cost_table_is_what_the_sources_hold(path):
    page = PAGE.read_text(encoding="utf-8").splitlines()
    expected = path_rows(path)
    missing = [row for row in expected if row not in page]
    assert not missing, f"docs/REACTIVE.md's table for {path} differs from the sources; it should read:\n" + "\n".join(
        expected
    )


def test_the_counting_rule_counts_code_only_and_cuts_members_out():
    java = [
        "package x;",
        "import a.B;",
        "/** A class.",
        " * with a comment */",
        "class C {",
        "    private static final Object HELD = new Object();",
        "",
        "    // why",
        '    @GetMapping("/a{b")',
        "    int a() {",
        "        return 1;",
        "    }",
        "}",
    ]
    assert len(code_lines(java)) == 7
    assert member_span(java, "a") == range(8, 12)
    assert member_span(java, "HELD") == range(5, 6)


def test_the_reactive_path_never_blocks_and_computes_only_off_the_event_loop():
    """What the reactive shape forbids, checked where it would be broken: no block() or sleep in the reactive
    service's code (Reactor refuses block() on an event loop at run time; a sleep would stall every connection the
    loop owns), and the CPU work runs only through ReactiveCpu (Reactor's parallel scheduler)."""
    sources = sorted((REPO / "reactive-service" / "src" / "main" / "java").rglob("*.java"))
    assert sources
    for source in sources:
        code = "\n".join(without_strings(line) for line in code_lines(source.read_text(encoding="utf-8").splitlines()))
        for forbidden in (".block(", ".blockFirst(", ".blockLast(", "Thread.sleep("):
            assert forbidden not in code, f"{source.relative_to(REPO)} calls {forbidden}"
        if source.name != "ReactiveCpu.java":
            assert "work.run(" not in code, f"{source.relative_to(REPO)} computes outside ReactiveCpu"


def recipe_commands() -> list[list[str]]:
    body = section(PAGE.read_text(encoding="utf-8"), "Recipe: the measurements, for a quiet machine")
    blocks = re.findall(r"```sh\n(.*?)```", body, re.S)
    lines = "\n".join(blocks).replace("\\\n", " ").splitlines()
    return [shlex.split(line)[2:] for line in lines if line.startswith("make bench ")]


def test_the_recipe_has_the_four_measurements_of_three_modes():
    commands = recipe_commands()
    assert len(commands) == 4
    for args in commands:
        assert "MODES=platform virtual reactive" in args


@pytest.mark.parametrize("args", recipe_commands(), ids=lambda a: " ".join(a)[:60])
def test_each_recipe_command_passes_the_parameter_checks_on_a_two_core_machine(args, monkeypatch):
    monkeypatch.setattr(servicecpus, "machine_cpus", lambda: (0, 1))
    env = dict(arg.split("=", 1) for arg in args)
    params.parse(env)  # raises ParamError naming the parameter, as `make bench` would refuse it
