"""`ratings` run as a user runs it: the console script in a process of its own (a fresh
interpreter, nothing loaded beforehand), in a folder of the test's."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

RATINGS = str(Path(sys.executable).parent / "ratings")


def completed(folder: Path, *args, code: int | None = 0, env: dict | None = None,
              timeout: float = 600) -> subprocess.CompletedProcess:
    """`ratings ARGS` run in `folder` (with `env`, else this process's environment): its exit
    status must be `code` (None: any), and what it says never a traceback."""
    done = subprocess.run([RATINGS, *map(str, args)], cwd=folder, capture_output=True, text=True, timeout=timeout,
                          env=env)
    said = done.stdout + done.stderr
    assert code is None or done.returncode == code, said
    assert "Traceback" not in said, said
    return done


def ratings(folder: Path, *args, code: int = 0) -> str:
    """`ratings ARGS` run in `folder`: what it printed. Its exit status must be `code`, and
    what it says never a traceback nor an unexpected failure."""
    done = completed(folder, *args, code=code)
    said = done.stdout + done.stderr
    assert "unexpected" not in said, said
    return said


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` and its bytes (what a command must leave as it was)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in Path(folder).rglob("*") if p.is_file()}
