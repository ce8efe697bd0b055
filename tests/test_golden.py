"""Golden files (style habit 9): for each rule set a small input is rated and published
through the CLI, and every published file must equal, byte for byte, the one committed
under tests/golden/<case>/expected/. The cases (inputs, commands) are in
tests/golden/cases.py; what each input exercises is in tests/golden/README.md.

A failure here means a published list changed. Inspect the change; only if it is
intended (a reviewed rule change, not a side effect) regenerate the expected files
with `python tests/golden/regenerate.py` and commit them with the reason.
"""
from __future__ import annotations

import difflib
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.golden.cases import CASES, COVERED, Case, produce, published_files

REGENERATE = ("Inspect the change; if, and only if, it is intended (a reviewed rule change), "
              "regenerate with `python tests/golden/regenerate.py` and commit the new expected files "
              "with the reason (tests/golden/README.md).")


def _text_difference(expected: bytes, produced: bytes, limit: int = 24) -> str:
    try:
        a, b = expected.decode("utf-8"), produced.decode("utf-8")
    except UnicodeDecodeError:
        return "    (not UTF-8 text any more)"
    if a.replace("\r\n", "\n") == b.replace("\r\n", "\n"):
        return "    the same lines, but the line endings differ (CR LF vs LF)"
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "expected", "produced", lineterm="", n=1))
    more = f"\n    … {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return "\n".join(f"    {line}" for line in lines[:limit]) + more


def _parquet_difference(expected: Path, produced: Path) -> str:
    try:
        a, b = pq.read_table(expected), pq.read_table(produced)
    except Exception as err:  # noqa: BLE001 - a diagnostic only: the bytes already differ
        return f"    the produced file does not read as Parquet: {err}"
    if a.schema != b.schema:
        return f"    schema changed:\n      expected {a.schema.to_string(show_schema_metadata=False)!r}\n" \
               f"      produced {b.schema.to_string(show_schema_metadata=False)!r}"
    if a.equals(b):
        made = pq.read_metadata(expected).created_by, pq.read_metadata(produced).created_by
        return ("    the same rows and schema, only the bytes differ (the Parquet encoding: "
                f"written by {made[0]!r}, now by {made[1]!r}; a pyarrow upgrade or new writer options?)")
    if a.num_rows != b.num_rows:
        return f"    {a.num_rows} rows expected, {b.num_rows} produced"
    rows_a, rows_b = a.to_pylist(), b.to_pylist()
    differing = [i for i, (x, y) in enumerate(zip(rows_a, rows_b)) if x != y]
    shown = "\n".join(f"      row {i}: expected {rows_a[i]}\n             produced {rows_b[i]}" for i in differing[:5])
    return f"    {len(differing)} rows differ, first ones:\n{shown}"


def _difference(rel: str, expected: Path, produced: Path) -> str:
    a, b = expected.read_bytes(), produced.read_bytes()
    detail = _parquet_difference(expected, produced) if rel.endswith(".parquet") else _text_difference(a, b)
    return f"  {rel} differs from {expected} ({len(a)} bytes expected, {len(b)} produced):\n{detail}"


def compare(case: Case, out: Path) -> list[str]:
    """Every way the output folder differs from the case's expected files."""
    expected, produced = published_files(case.expected), published_files(out)
    problems = [f"  {rel}: expected ({case.expected / rel}) but not published" for rel in sorted(set(expected) - set(produced))]
    problems += [f"  {rel}: published but not among the expected files of {case.expected}"
                 for rel in sorted(set(produced) - set(expected))]
    problems += [_difference(rel, expected[rel], produced[rel]) for rel in sorted(set(expected) & set(produced))
                 if expected[rel].read_bytes() != produced[rel].read_bytes()]
    return problems


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_published_files_match_the_golden_files(case, cli, tmp_path):
    assert published_files(case.expected), \
        f"{case.expected} holds no expected files: run `python tests/golden/regenerate.py {case.name}`"
    out = produce(case, tmp_path, cli)
    problems = compare(case, out)
    assert not problems, (f"golden case {case.name!r}: the published files under {', '.join(f + '/' for f in COVERED)} "
                          f"differ from tests/golden/{case.name}/expected/:\n" + "\n".join(problems)
                          + "\n" + REGENERATE)


def test_every_case_has_its_inputs_and_only_the_covered_folders():
    for case in CASES:
        inputs = [Path(a) for run in case.runs for a in run if Path(a).is_absolute()]
        assert inputs and all(p.is_file() for p in inputs), f"{case.name}: an input file is missing: {inputs}"
        folders = {p.name for p in case.expected.iterdir()} if case.expected.is_dir() else set()
        assert folders and folders <= set(COVERED), f"{case.name}: expected/ holds {sorted(folders)}"
