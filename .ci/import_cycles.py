#!/usr/bin/env python3
"""Fails, naming each loop, when the harness's modules import one another in a circle (`make lint`).

The graph: one node per module of harness/loadlab, one edge per `import loadlab.x.y` or `from loadlab.x import y`
anywhere in a module, inside a function too (an import moved into a function still ties the two modules together;
it only hides the loop from Python). `from loadlab.x import y` is an edge to loadlab.x.y when that is a module and
to loadlab.x (its __init__.py) when y is a name defined there. Imports under `if TYPE_CHECKING:` count too: they
never run, but two modules that need each other's names, if only for annotations, are one job split in two (issue 46:
analysis/knee and knee_words). The standard library only: `make lint` runs it with any python3.
Usage: .ci/import_cycles.py [PACKAGE_DIR]   (default: harness/loadlab next to this folder)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "harness" / "loadlab"


def module_names(package: Path) -> dict[str, Path]:
    """Dotted name -> file for every module of the package (a package is named by its __init__.py)."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = (package.name, *path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def imports(path: Path, own: str, modules: dict[str, Path], prefix: str):
    """(line, imported module) for each module of the package this file imports."""
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against this module's package
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base != prefix and not base.startswith(prefix + "."):
                continue
            for alias in node.names:
                target = f"{base}.{alias.name}"
                yield node.lineno, target if target in modules else base


def graph(package: Path) -> dict[str, dict[str, int]]:
    """Module -> {imported module: first line importing it}."""
    modules = module_names(package)
    edges: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        out = edges.setdefault(name, {})
        for line, target in imports(path, name, modules, package.name):
            if target != name and target in modules:
                out[target] = min(line, out.get(target, line))
    return edges


def _reachable(edges: dict[str, dict[str, int]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(edges[start])
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(edges[node])
    return seen


def cycles(edges: dict[str, dict[str, int]]) -> list[tuple[list[str], list[str]]]:
    """Each group of modules that reach one another (a strongly connected component of the graph, a few hundred
    modules: a search from each is quick enough), as (its modules, one shortest loop through the first of them)."""
    reach = {name: _reachable(edges, name) for name in edges}
    groups = {frozenset({name, *(m for m in reach[name] if name in reach[m])}) for name in edges if name in reach[name]}
    return sorted((sorted(group), _loop_through(sorted(group), edges)) for group in groups)


def _loop_through(component: list[str], edges: dict[str, dict[str, int]]) -> list[str]:
    """One shortest loop from the component's first module back to itself (breadth first, inside the component)."""
    start, inside = component[0], set(component)
    came_from = {start: ""}
    queue = [start]
    for node in queue:
        for child in sorted(edges[node]):
            if child == start:
                path = [node]
                while came_from[path[-1]]:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if child in inside and child not in came_from:
                came_from[child] = node
                queue.append(child)
    return component


def describe(loop: list[str], edges: dict[str, dict[str, int]], package: Path) -> str:
    steps = []
    for here, there in zip(loop, loop[1:]):
        path = module_names(package)[here].relative_to(package.parent)
        steps.append(f"  {path}:{edges[here][there]} imports {there}")
    return " -> ".join(loop) + "\n" + "\n".join(steps)


def main(argv: list[str]) -> int:
    package = Path(argv[1]).resolve() if len(argv) > 1 else ROOT
    edges = graph(package)
    found = cycles(edges)
    if not found:
        print(f"   import loops: none among the {len(edges)} modules of {package.name}")
        return 0
    print(
        f"import loops among the modules of {package.name}: {len(found)}. Break each by moving the shared piece to the "
        "module whose job it is; an import inside a function or under TYPE_CHECKING still counts."
    )
    for group, loop in found:
        print(describe(loop, edges, package))
        if len(group) > len(loop) - 1:
            print(f"  (also in this knot, each reaching the others: {', '.join(m for m in group if m not in loop)})")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
