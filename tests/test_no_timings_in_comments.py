"""Comments say why, not how long (issue 38): a timing in a code comment goes stale with
the next change and the next machine; measurements live in bench/README.md."""
from __future__ import annotations

import re

from tests.conftest import PROJECT_DIR

# a number of seconds or milliseconds, or a before → after, in a Python or SQL comment
TIMING = re.compile(r"(?:#|--).*(?:\b\d+(?:\.\d+)? ?(?:s|ms|µs)\b(?!\w)|\d+(?:\.\d+)? ?(?:->|→) ?\d)")


def test_no_comment_carries_a_timing():
    found = [f"{path.relative_to(PROJECT_DIR)}:{n}: {line.strip()}"
             for folder in ("pipeline", "sql") for path in sorted((PROJECT_DIR / folder).rglob("*"))
             if path.suffix in (".py", ".sql") and "__pycache__" not in path.parts
             for n, line in enumerate(path.read_text().splitlines(), 1) if TIMING.search(line)]
    assert found == []


def test_the_pattern_finds_what_it_is_for():
    assert TIMING.search("    x = 1  # 0.9 -> 0.4 s") and TIMING.search("-- FIDE's 4 M rows: 1 s)")
    assert not TIMING.search("    # the 350 rule, R13") and not TIMING.search("x = '1 s'")
