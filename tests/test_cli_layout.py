"""The CLI only parses and prints (issue 38): pipeline/cli.py holds the `ratings` group
and registers the commands of pipeline/commands/, one module per task; no SQL is
written there; each query is a sql/ file or a function of the stage it belongs to."""
from __future__ import annotations

import ast
import re

import pytest

from tests.conftest import PROJECT_DIR

CLI = PROJECT_DIR / "pipeline" / "cli.py"
COMMANDS = PROJECT_DIR / "pipeline" / "commands"
SQL = re.compile(r"\bselect\b[\s\S]*\bfrom\b|\binsert\s+into\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b"
                 r"|\bcreate\s+(or\s+replace\s+)?(temp\s+|temporary\s+)?(table|view)\b", re.IGNORECASE)


def sql_texts(source: str) -> list[str]:
    """The string constants of a module that read as SQL, its docstrings aside (a help
    text may show a query a user types, as `ratings query`'s example does). The pieces
    of an f-string are constants too, so a query built with one is found."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    pieces = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):  # an f-string: its literal pieces joined, as the query reads
            text = "".join(v.value if isinstance(v, ast.Constant) else " x " for v in node.values)
            if SQL.search(text):
                found.append(text)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings | pieces:
            if SQL.search(node.value):
                found.append(node.value)
    return found


MODULES = [CLI, *sorted(COMMANDS.glob("*.py"))]


def test_the_cli_module_is_short():
    assert len(CLI.read_text().splitlines()) < 250


def test_every_command_module_is_small():
    assert {p.name for p in COMMANDS.glob("*.py")} >= {"__init__.py", "options.py"}
    assert [p.name for p in COMMANDS.glob("*.py") if len(p.read_text().splitlines()) >= 400] == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PROJECT_DIR).as_posix())
def test_no_sql_in_the_cli(path):
    assert sql_texts(path.read_text()) == []


def test_the_sql_finder_finds_a_query():
    # The test above could pass by finding nothing: queries as the CLI wrote them before
    # they moved (to pipeline/validate/rejects.py, pipeline/revisions.py, pipeline/publish/history.py,
    # pipeline/ingest/submissions.py, pipeline/outputs.py), and the statements that change rows.
    before = '''
def rejects(con, target, shown):
    """List them: e.g. select * from rejects (a docstring, not a query)."""
    con.execute("select name from submissions where submission_id = ?", [target])
    con.sql(f"""select o.submission_id as submission, s.name as file_name
               from ({OPEN}) o join submissions s using (submission_id) order by o.file_id {shown}""")
    con.sql(f"select * exclude (series) from {view} where series = $s order by {order}")
    con.execute("update rejects set status = ? where file_id = ?")
    con.execute("insert into runs values (?)")
    con.execute("delete from staged_games")
    con.execute("create or replace temp table changed as select 1")
    help_text = "Only this list's revisions."
'''
    assert len(sql_texts(before)) == 7
    assert sql_texts('def query():\n    """Example: ratings query "select 1 from lists"."""\n') == []
