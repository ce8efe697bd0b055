"""Running `ratings` as a user runs it: the installed console script (the one beside this
test's Python: the wheel in CI, the editable install on a workstation), in a fresh
interpreter, in a scratch folder as the working directory, with an environment that
carries nothing of the checkout (no PYTHONPATH) and none of the tests' settings.

A workflow's commands are given as the manual prints them, one shell line each
(`shell`): `ratings` is found on PATH as a user's shell finds it, a glob or a `&&` is the
shell's. Every failure shows the command, its folder, its exit status and all it said.

The expectations the manual states today and issue 50 changes this round are the
constants below: the tests read them, so that the change is one line here.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb

from tests.conftest import PROJECT_DIR, TODAY

RATINGS = Path(sys.executable).with_name("ratings")
BIN = RATINGS.parent

# Variables of the user's environment that would point a command elsewhere than the
# scratch folder, or at the checkout instead of the installed package.
_NOT_CARRIED = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH", "RATINGS_WAREHOUSE", "RATINGS_OUT",
                "RATINGS_DUCKDB_MEMORY", "RATINGS_TODAY")


def user_env(today: str = TODAY, **extra: str) -> dict[str, str]:
    """A user's environment: the console script's folder first on PATH, nothing of the
    checkout, "today" set (docs/inputs.md: RATINGS_TODAY replays a past season; the
    seasons here are dated before TODAY so that no game is in the future)."""
    env = {k: v for k, v in os.environ.items() if k not in _NOT_CARRIED}
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])
    env["RATINGS_TODAY"] = today
    return env | extra


def _shown(done: subprocess.CompletedProcess, cwd: Path) -> str:
    command = done.args[2] if done.args[0] == "bash" else " ".join(map(str, done.args))
    return (f"\n$ {command}\n(in {cwd}, exit status {done.returncode})\n--- stdout ---\n{done.stdout}"
            f"--- stderr ---\n{done.stderr}")


def _checked(done: subprocess.CompletedProcess, cwd: Path, expect: int | tuple[int, ...] | None) -> subprocess.CompletedProcess:
    """The exit status is one of `expect` (None: any, for a caller that counts failures
    itself); never a traceback."""
    assert "Traceback" not in done.stderr + done.stdout, "a traceback reached the user:" + _shown(done, cwd)
    if expect is not None:
        allowed = (expect,) if isinstance(expect, int) else expect
        assert done.returncode in allowed, f"expected exit status {expect}:" + _shown(done, cwd)
    return done


def failure(done: subprocess.CompletedProcess, cwd: Path) -> str:
    """What a command that failed said, for an assertion's message."""
    return _shown(done, cwd)


def shell(line: str, cwd: Path, expect: int | tuple[int, ...] | None = 0, env: dict | None = None,
          timeout: float = 300) -> subprocess.CompletedProcess:
    """One line of the manual, run by bash in `cwd`: `ratings` is the console script
    beside this Python (PATH), globs and `&&` are the shell's."""
    done = subprocess.run(["bash", "-c", line], cwd=cwd, env=env or user_env(), capture_output=True, text=True,
                          timeout=timeout)
    return _checked(done, cwd, expect)


def ratings(*args, cwd: Path, expect: int | tuple[int, ...] | None = 0, env: dict | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess:
    """`ratings ARGS...` without a shell (arguments given as they are)."""
    done = subprocess.run([str(RATINGS), *map(str, args)], cwd=cwd, env=env or user_env(), capture_output=True,
                          text=True, timeout=timeout)
    return _checked(done, cwd, expect)


def said(done: subprocess.CompletedProcess) -> str:
    """All a command said, stdout then stderr."""
    return done.stdout + done.stderr


def evaluated(stdout: str) -> dict[str, list[str]]:
    """`ratings evaluate`'s table as printed: each source's row, its words split (source,
    games, its own forecast's log-loss and Brier, the yardstick's, what its forecast is)."""
    lines = stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["source", "games"])
    rows = {}
    for line in lines[head + 1:]:
        words = line.split()
        if len(words) < 6 or not words[1].replace(",", "").isdigit():
            break
        rows[words[0]] = words
    return rows


def audit_ok(cwd: Path, *args: str) -> None:
    """`ratings audit` finds nothing: exit 0, every audit `ok`."""
    done = ratings("audit", *args, cwd=cwd)
    lines = done.stdout.splitlines()
    assert lines and all(line.split()[0] == "ok" for line in lines), _shown(done, cwd)
    assert {"rows_accounted", "rows_conserved", "lists_on_withdrawn_games"} <= {line.split()[1] for line in lines}


def digests(folder: Path) -> dict[str, str]:
    """Every file under a folder (its markers aside) by its path relative to the folder:
    its SHA-256."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def query(warehouse: Path, sql: str, params: list | None = None) -> list[tuple]:
    """Read the warehouse after a command, as an analyst's DuckDB client would."""
    assert not Path(f"{warehouse}.wal").exists(), f"{warehouse} is still open"
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


@contextlib.contextmanager
def cpu_load(processes: int = 2):
    """CPU-bound processes beside what runs inside: a busy machine, where threads that
    race show it. They are killed on the way out, whatever happened inside."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    try:
        yield hogs
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.wait(timeout=30)


def copied(built: Path, folder: Path) -> Path:
    """A copy of what a module-scoped fixture built once (its whole scratch folder) in the
    test's own folder, for the test to write in."""
    shutil.copytree(built, folder, dirs_exist_ok=True)
    return folder


def commands(block: str) -> list[str]:
    """The commands of a manual's code block, one a logical line (a line ending in `\\`
    goes on on the next), blank lines left out."""
    joined = block.replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip()]


def in_manual(page: str, block: str) -> bool:
    """Whether a code block the tests run is still the manual's (README.md or docs/PAGE):
    a changed workflow is a changed test."""
    return block.strip("\n") in (PROJECT_DIR / page).read_text(encoding="utf-8")
