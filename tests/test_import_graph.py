"""The package has no import cycles (issue 38): every import of a pipeline module, at the top
of a file or inside a function, read from the source, makes an edge; no module reaches
itself. A cycle is where two parts of the code know each other and neither can change
alone (rate.periods and systems.base once did)."""
from __future__ import annotations

import ast

from tests.conftest import PROJECT_DIR

PACKAGE = PROJECT_DIR / "pipeline"


def modules() -> dict[str, object]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        name = ".".join(path.relative_to(PROJECT_DIR).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """module → the pipeline modules it imports (a name imported from a package counts as its
    module when it is one, else as the package)."""
    mods = modules()

    def known(name: str) -> str:
        while name not in mods:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "pipeline":
                targets = [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.split(".")[0] == "pipeline"]
            else:
                continue
            graph[name] |= {known(t) for t in targets} - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_cycle():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_one():
    # The test above could pass by finding nothing: a made-up graph with a cycle must be found.
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph read by parts of the package (pipeline.analysis, pipeline.publish,
    pipeline.flow, ...): a part imports another when one of its modules imports one of the other's."""
    part = {m: ".".join(m.split(".")[:2]) for m in graph}
    parts: dict[str, set[str]] = {p: set() for p in part.values()}
    for m, targets in graph.items():
        parts[part[m]] |= {part[t] for t in targets} - {part[m]}
    return parts


def test_analysis_and_publish_are_not_a_package_cycle():
    # Issue 54: publication's report reads evaluation's accuracy (publish -> analysis), and the
    # comparison page wrote itself through publish's writers (analysis -> publish). The writers,
    # templates and charts both use are below both (pipeline/writers.py, pipeline/pages/).
    parts = package_graph(import_graph())
    assert "pipeline.analysis" in parts["pipeline.publish"]  # the report's accuracy: the one way
    assert not any({"pipeline.analysis", "pipeline.publish"} <= set(c) for c in cycles(parts))


def test_the_package_graph_joins_a_parts_modules():
    # The test above could pass by a graph that lost the edges: modules' imports become their parts'.
    graph = {"pipeline.a.x": {"pipeline.b"}, "pipeline.a": set(), "pipeline.b": {"pipeline.a.x"}, "pipeline.c": set()}
    assert package_graph(graph) == {"pipeline.a": {"pipeline.b"}, "pipeline.b": {"pipeline.a"}, "pipeline.c": set()}
    assert cycles(package_graph(graph)) == [["pipeline.a", "pipeline.b"]]


def private_imports() -> list[str]:
    """Each name with a leading underscore a module imports from another part of the package
    (pipeline.site from pipeline.publish, ...): a part's private function is its own to change."""
    found = []
    for name, path in modules().items():
        part = name.split(".")[1] if name.count(".") else name
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pipeline."):
                if node.module.split(".")[1] != part:
                    found += [f"{name} imports {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_no_part_imports_another_parts_private_name():
    # Issue 54: the site made the list files through publish's _list_files (now
    # pipeline.publish.list_and_state_files, which publication calls too).
    assert private_imports() == []


def imports_in_functions(source: str) -> list[int]:
    """The lines of the imports inside the functions of a module's source (read with `ast`, so
    an import a docstring shows is not one)."""
    return sorted({sub.lineno for node in ast.walk(ast.parse(source))
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom))})


def function_level_imports() -> list[str]:
    """Each import inside a function of the package, as "module:line"."""
    return [f"{name}:{line}" for name, path in sorted(modules().items())
            for line in imports_in_functions(path.read_text())]


# Issue 54 asks for at most 30, each with its reason; the package has this many still (most
# keep pandas and Pandera out of the commands that do not use them, tests/test_command_imports.py):
# the number may only come down, as modules move their imports to the top.
FUNCTION_LEVEL_IMPORTS = 42


def test_function_level_imports_only_come_down():
    assert len(function_level_imports()) <= FUNCTION_LEVEL_IMPORTS


def test_the_import_counter_counts_imports_in_functions_only():
    # The test above could pass by counting nothing: a module's top import, a docstring's and a
    # class's body are not counted; a function's, a method's and a nested function's are.
    source = '''import os


def f():
    """import this, not counted"""
    import json


class C:
    import re

    def m(self):
        def inner():
            from pathlib import Path
        import csv
'''
    assert imports_in_functions(source) == [6, 14, 15]


# The parts whose imports were moved to their modules' tops (issue 54, item 5): each import
# left inside a function there says why, in a `# why:` comment on its line or the line above,
# a reason a reader can check. The other parts join the list as theirs are moved.
EXPLAINED = ("pipeline.cli", "pipeline.commands", "pipeline.failures")
# cli.py's import of pipeline.failures once a command has failed, query.py's of the writers for
# --out: the number may only come down.
EXPLAINED_IMPORTS = 2


def unexplained_imports(source: str) -> list[int]:
    """The lines of the imports inside functions (imports_in_functions) with no `# why:`
    comment on their first line or on the line above."""
    lines = ["", *source.splitlines()]
    return [n for n in imports_in_functions(source)
            if "# why:" not in lines[n] and not lines[n - 1].strip().startswith("# why:")]


def explained_parts() -> dict[str, object]:
    return {name: path for name, path in sorted(modules().items())
            if any(name == part or name.startswith(f"{part}.") for part in EXPLAINED)}


def test_every_import_left_in_a_function_of_the_parts_done_says_why():
    parts = explained_parts()
    assert {"pipeline.cli", "pipeline.commands.query", "pipeline.failures"} <= set(parts)  # the list names modules
    left = {name: imports_in_functions(path.read_text()) for name, path in parts.items()}
    assert sum(map(len, left.values())) <= EXPLAINED_IMPORTS
    assert [f"{name}:{line}" for name, path in parts.items() for line in unexplained_imports(path.read_text())] == []


def test_an_import_in_a_function_without_its_reason_is_found():
    # The test above could pass by finding nothing: an import with its reason on its line or the
    # line above is explained; one with none, or a reason two lines up, is not.
    source = '''import os


def f():
    import json  # why: on its line
    # why: on the line above
    import csv
    import re
    # why: two lines up

    import sys
'''
    assert imports_in_functions(source) == [5, 7, 8, 11]
    assert unexplained_imports(source) == [8, 11]
