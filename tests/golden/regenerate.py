"""Regenerate the golden expected files: run only by hand, never by pytest.

    .venv/bin/python tests/golden/regenerate.py            # every case
    .venv/bin/python tests/golden/regenerate.py fide       # one case (or several)

For each case of tests/golden/cases.py it runs `ratings run ... --format
csv,parquet,txt,swiss-manager --no-reports` through the CLI (in-process, as
tests/test_golden.py does) into a temporary warehouse and output folder, then
replaces tests/golden/<case>/expected/ with the published files (lists/,
state/, diffs/). It prints what changed: review that diff (git diff --stat,
and the CSV/TXT lines) and commit the new expected files only with the reason
for the change. See tests/golden/README.md.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from pipeline.cli import main  # noqa: E402
from tests.golden.cases import CASES, produce, published_files  # noqa: E402


def invoke(*args: str) -> None:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    if result.exit_code != 0:
        raise SystemExit(f"ratings {' '.join(args)}\nfailed with exit code {result.exit_code}:\n{result.output}")


def regenerate(names: list[str]) -> None:
    unknown = set(names) - {c.name for c in CASES}
    if unknown:
        raise SystemExit(f"unknown case(s) {sorted(unknown)}; the cases are {[c.name for c in CASES]}")
    for case in CASES:
        if names and case.name not in names:
            continue
        with tempfile.TemporaryDirectory(prefix=f"golden-{case.name}-") as tmp:
            produced = published_files(produce(case, Path(tmp), invoke))
            before = {rel: p.read_bytes() for rel, p in published_files(case.expected).items()}
            if case.expected.exists():
                shutil.rmtree(case.expected)
            for rel, path in produced.items():
                target = case.expected / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
        after = {rel: p.read_bytes() for rel, p in published_files(case.expected).items()}
        added = sorted(set(after) - set(before))
        removed = sorted(set(before) - set(after))
        changed = sorted(rel for rel in set(after) & set(before) if after[rel] != before[rel])
        print(f"{case.name}: {len(after)} files"
              + "".join(f"\n  {what:<8} {rel}" for what, rels in (("added", added), ("removed", removed),
                                                                 ("changed", changed)) for rel in rels)
              + ("" if added or removed or changed else " (unchanged)"))


if __name__ == "__main__":
    regenerate(sys.argv[1:])
