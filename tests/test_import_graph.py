"""The package has no import cycles (issue 38): every import of a pipeline module, at the top
of a file or inside a function, read from the source, makes an edge; no module reaches
itself. A cycle is where two parts of the code know each other and neither can change
alone (rate.periods and systems.base once did). Nor does a part (a package under pipeline/,
or a top-level module) reach itself (rate and systems once did, through modules that did
not), and each part imports only the layers below it (LAYERS, docs/rule-sets.md draws
them); a rule set imports the kernel (pipeline.ruleset) and the few parts RULE_SET_IMPORTS
names (issue 54)."""
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


def part(module: str) -> str:
    """The part of the package a module is in: pipeline.rate.store → rate, pipeline.flow → flow."""
    return module.split(".")[1] if module.count(".") else module


def part_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """part → the other parts its modules import."""
    parts: dict[str, set[str]] = {}
    for name, targets in graph.items():
        parts.setdefault(part(name), set()).update(part(t) for t in targets)
    return {p: targets - {p} for p, targets in parts.items()}


# The layers, lowest first: a part imports only the parts of the layers before its own.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("pipeline", "config", "progress", "input_layout", "outputs"),  # the package; settings, progress bars, layouts, output folders
    ("warehouse",),  # connect, migrate, run sql/ files
    ("formats", "revisions"),  # the files read and written; the lists' revisions
    ("ingest", "writers", "pages"),  # a file given becomes staged rows; files written whole; templates, charts
    ("ruleset",),  # the kernel: the interface, the window games, the contracts
    ("systems",),  # the rule sets, and the registry that loads them by name
    ("rate",),  # the period loop, the store
    ("analysis", "reporter"),  # evaluation and comparison; what each stage tells
    ("publish",),  # files, reports (the list reports read analysis's accuracy)
    ("validate", "audit", "tune", "site", "listing"),  # checks and rejects, audits, studies, the site
    ("flow", "simulate", "failures"),  # the pipeline as a library; synthetic federations; a failure said
    ("console",),  # what the commands print
    ("commands",),
    ("cli",),
)


def test_no_part_reaches_itself():
    # rate ↔ systems was one (the rule sets took their toolkit from rate/, which loads them):
    # no module cycle showed it, each module importing only those of the other that did not.
    assert cycles(part_graph(import_graph())) == []


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a part by a part of its own layer or of a layer below it (a part imports only
    those of the layers below its own)."""
    layer = {p: i for i, parts in enumerate(LAYERS) for p in parts}
    return sorted(f"{a} imports {b}" for a, targets in part_graph(graph).items() for b in targets
                  if layer[b] >= layer[a])


def test_every_part_is_in_a_layer():
    assert set(part_graph(import_graph())) == {p for parts in LAYERS for p in parts}


def test_the_manual_draws_the_layers_as_the_test_holds_them():
    # docs/rule-sets.md, "The import graph": a line a layer, lowest first, its parts before the
    # words that say what they are.
    text = (PROJECT_DIR / "docs" / "rule-sets.md").read_text()
    drawing = text.split("## The import graph", 1)[1].split("```", 2)[1].strip("\n").split("\n")
    assert [tuple(line.split("  ")[0].split(", ")) for line in drawing] == list(LAYERS)


def test_each_part_imports_only_the_layers_below_it():
    assert upward_imports(import_graph()) == []


def test_an_upward_import_is_found():
    # The test above could pass by finding nothing: the kernel importing the period loop (as
    # systems.base once imported rate.periods) is one, and so is the registry's own layer's.
    graph = {"pipeline.ruleset.interface": {"pipeline.rate.periods"}, "pipeline.rate.periods": set(),
             "pipeline.systems": {"pipeline.ruleset.interface"}, "pipeline.flow": {"pipeline.simulate"},
             "pipeline.simulate": set()}
    assert upward_imports(graph) == ["flow imports simulate", "ruleset imports rate"]


# What a rule set (a package under pipeline/systems/) may import besides the kernel
# (pipeline.ruleset) and the rule sets it derives from (pipeline.systems.<name>: the Go
# rule sets share pipeline.systems.go): the settings, the progress of its cards, the
# warehouse's SQL helpers and the file formats. Never the registry (pipeline.systems itself),
# which loads the rule sets, nor the loop that calls them (pipeline.rate).
RULE_SET_IMPORTS = ("pipeline.config", "pipeline.progress", "pipeline.warehouse", "pipeline.formats")


def rule_set_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a rule set's module that is neither the kernel's, another rule set's,
    nor of RULE_SET_IMPORTS."""
    def allowed(target: str) -> bool:
        return (target.startswith(("pipeline.ruleset.", "pipeline.systems.")) or target == "pipeline.ruleset"
                or any(target == p or target.startswith(p + ".") for p in RULE_SET_IMPORTS))
    return sorted(f"{name} imports {t}" for name, targets in graph.items() if name.startswith("pipeline.systems.")
                  for t in targets if not allowed(t))


def test_a_rule_set_imports_only_the_kernel_and_what_it_may():
    assert rule_set_imports(import_graph()) == []


def test_a_rule_set_importing_the_loop_or_the_registry_is_found():
    graph = {"pipeline.systems.elo": {"pipeline.rate.periods", "pipeline.ruleset.games", "pipeline.systems.go"},
             "pipeline.systems.elo.card": {"pipeline.systems", "pipeline.config"}}
    assert rule_set_imports(graph) == ["pipeline.systems.elo imports pipeline.rate.periods",
                                       "pipeline.systems.elo.card imports pipeline.systems"]


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


# Issue 54 asks for at most 30, each with its reason (the test below): most keep pandas, NumPy
# or Arrow out of the commands that do not use them (tests/test_command_imports.py); the number
# may only come down.
FUNCTION_LEVEL_IMPORTS = 29


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


def unexplained_imports(source: str) -> list[int]:
    """The lines of the imports inside functions (imports_in_functions) without a `# why:`
    comment on their line or in the comment above them: the block of comments and imports
    that runs up to the import, unbroken (one reason may cover the imports below it)."""
    lines = ["", *source.splitlines()]

    def said(n: int) -> bool:
        if "# why:" in lines[n]:
            return True
        for above in map(str.strip, reversed(lines[1:n])):
            if above.startswith("# why:"):
                return True
            if not above.startswith(("#", "import ", "from ")):
                return False
        return False
    return [n for n in imports_in_functions(source) if not said(n)]


def test_every_import_left_in_a_function_says_why():
    # Issue 54, item 5: what waits inside a function says why, a reason a reader can check.
    assert [f"{name}:{line}" for name, path in sorted(modules().items())
            for line in unexplained_imports(path.read_text())] == []


def test_an_import_in_a_function_without_its_reason_is_found():
    # The test above could pass by finding nothing: an import with its reason on its line, in the
    # comment above it (of one line or more) or above the imports it runs with is explained; one
    # with none, or a reason a blank line or a statement away, is not.
    source = '''import os


def f():
    import json  # why: on its line
    # why: on the line above,
    # said over two lines
    import csv
    import re
    # why: a blank line away

    import sys
    x = 1
    import glob
'''
    assert imports_in_functions(source) == [5, 8, 9, 12, 14]
    assert unexplained_imports(source) == [12, 14]
