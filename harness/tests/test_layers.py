"""The harness is laid out by the stages a run passes through, each reading only what lies below it:
core (parameters, rules, names) < analysis (pure functions of measured levels) < summary (raw files -> judged
modes) < capacity (`make plan`: a run's costs on other hardware) < report (the page) < run (hosts, services, load;
it judges a coarse pass to plan the fine one and draws the page after each mode) < cli (the verbs). An import that
climbs fails here, naming the file and the line. Inside summary the same holds for its sub-packages, by job: schema
(summary.json's parts as typed records) < writing (the derived files' columns and writer) < reading (raw files into
typed values, seconds aligned to levels) < judge (a mode judged) < verdicts (the judged modes spelled as summary.json),
with the package's entry (summary/__init__.py) on top."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "loadlab"
ORDER = ["core", "analysis", "summary", "capacity", "report", "run"]
SUMMARY_ORDER = ["schema", "writing", "reading", "judge", "verdicts"]


def stage_of(module: str) -> int:
    """Rank of a dotted module name under loadlab (cli and __main__ are on top)."""
    parts = module.split(".")
    if parts[0] != "loadlab" or len(parts) < 2:
        return len(ORDER)
    return ORDER.index(parts[1]) if parts[1] in ORDER else len(ORDER)


def imports_of(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            yield node.lineno, min(names, key=lambda n: -stage_of(n) if n.startswith("loadlab") else 99)
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name


def test_no_stage_imports_a_stage_above_it():
    climbs = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = stage_of("loadlab." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        for line, module in imports_of(path):
            if module.startswith("loadlab") and module != "loadlab" and stage_of(module) > own:
                climbs.append(f"{path.relative_to(PACKAGE)}:{line} imports {module}")
    assert not climbs, climbs


def summary_part_of(module: str) -> int:
    """Rank of a dotted module name among summary's sub-packages (summary's own __init__ is on top)."""
    parts = module.split(".")
    if parts[:2] != ["loadlab", "summary"] or len(parts) < 3 or parts[2] not in SUMMARY_ORDER:
        return len(SUMMARY_ORDER)
    return SUMMARY_ORDER.index(parts[2])


def test_summary_sub_packages_import_only_the_ones_below_them():
    summary = PACKAGE / "summary"
    loose = sorted(
        str(p.relative_to(summary))
        for p in summary.rglob("*.py")
        if (p.parent == summary and p.name != "__init__.py")
        or (p.parent != summary and p.parent.name not in SUMMARY_ORDER)
    )
    assert not loose, f"summary modules outside its sub-packages {SUMMARY_ORDER}: {loose}"
    climbs = []
    for path in sorted(summary.rglob("*.py")):
        own = summary_part_of("loadlab." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # each name imported: `from loadlab.summary import reading` is reading's, `... import write` the entry's
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [f"{node.module}.{a.name}" for a in node.names]
            else:
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            climbs += [
                f"{path.relative_to(PACKAGE)}:{node.lineno} imports {name}"
                for name in names
                if name.startswith("loadlab.summary.") and summary_part_of(name) > own
            ]
    assert not climbs, climbs


def test_every_module_lives_in_a_stage():
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in {"__init__.py", "__main__.py", "cli.py"})
    assert not loose, f"modules outside the stage packages: {loose}"


def test_no_relative_imports():
    relative = [
        f"{p.relative_to(PACKAGE)}:{n.lineno}"
        for p in PACKAGE.rglob("*.py")
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(n, ast.ImportFrom) and n.level
    ]
    assert not relative, relative


def test_no_two_modules_share_a_name():
    # a name says one thing: `brownout` in core, analysis and summary read as one module in every import and traceback
    by_name: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name != "__init__.py":
            by_name.setdefault(path.stem, []).append(str(path.relative_to(PACKAGE)))
    shared = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert not shared, shared


def test_no_module_is_over_350_lines():
    long = {
        str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text().splitlines())) > 350
    }
    assert not long, f"split by job: {long}"


def test_no_stage_function_outside_core_and_the_cli_takes_the_whole_parameters():
    # Each stage gets the narrow inputs core/ works out once (load_plan, service_plan, bench_plan, summary_inputs, …),
    # never the whole RunParams: a walk of one parameter's readers stays in core/ and cli.py.
    takers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "core" or rel.name in ("cli.py", "__main__.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                if any(a.annotation is not None and "RunParams" in ast.unparse(a.annotation) for a in args):
                    takers.append(f"{rel}:{node.lineno} {node.name}")
    assert takers == [], takers
