"""The plain per-player reference (bench/reference.py) gives exactly the pipeline's lists."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bench.reference import reference_lists
from pipeline.config import SAMPLE_FILES

COLUMNS = ("player_id", "rating", "previous_rating", "change", "games", "status")


def published_lists(out: Path) -> dict[str, list[dict]]:
    """OUT/lists/<list_id>.csv as rows of the compared columns (blank cells → None)."""
    lists = {}
    for path in sorted((out / "lists").glob("????-??.csv")):
        with open(path, newline="", encoding="utf-8") as fh:
            lists[path.stem] = [
                {c: (r[c] if c == "status" else None if r[c] == "" else int(r[c])) for c in COLUMNS}
                for r in csv.DictReader(fh)
            ]
    return lists


def run_pipeline(cli, tmp_path: Path, files: dict[str, Path]) -> dict[str, list[dict]]:
    out = tmp_path / "out"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        "--warehouse", tmp_path / "w.duckdb", "--out", out)
    return published_lists(out)


def assert_same_lists(reference: dict[str, list[dict]], pipeline: dict[str, list[dict]]) -> None:
    assert list(reference) == sorted(pipeline)  # the same lists, in calendar order
    for list_id, rows in reference.items():
        ref = {r["player_id"]: r for r in rows}
        pipe = {r["player_id"]: r for r in pipeline[list_id]}
        differing = sorted(p for p in ref.keys() | pipe.keys() if ref.get(p) != pipe.get(p))
        assert not differing, (list_id, [(ref.get(p), pipe.get(p)) for p in differing[:5]])
        assert rows == pipeline[list_id], list_id  # same order too: rating desc, then id


def test_reference_matches_the_pipeline_on_the_embedded_sample(cli, tmp_path):
    files = dict(SAMPLE_FILES)
    pipeline = run_pipeline(cli, tmp_path, files)
    reference = reference_lists(files["players"], files["ratings"], files["games"])
    assert list(reference) == ["2019-01", "2019-05", "2019-09"]
    assert sum(len(rows) for rows in reference.values()) > 40_000
    assert_same_lists(reference, pipeline)


def test_reference_matches_the_pipeline_on_a_small_federation(cli, small_federation, tmp_path):
    files = small_federation
    pipeline = run_pipeline(cli, tmp_path, files)
    reference = reference_lists(files["players"], files["ratings"], files["games"])
    assert_same_lists(reference, pipeline)
    # The hand computation of tests/test_pipeline_end_to_end.py: 6 is only archived,
    # 7 and 8 (a school pair) are unanchored (R11) and get nothing.
    assert [(r["player_id"], r["rating"], r["games"], r["status"]) for r in reference["2027-01"]] == [
        (1, 1780, 3, "played"), (2, 1660, 3, "played"), (3, 1620, 3, "played"),
        (4, 1500, 2, "played"), (5, 1450, 1, "played"),
    ]
    second = {r["player_id"]: r for r in reference["2027-05"]}
    assert second[1]["rating"] == 1770 and second[3]["rating"] == 1630
    assert second[2]["status"] == "did not play" and second[2]["change"] == 0


@pytest.mark.parametrize("calendar", [True, False])
def test_reference_follows_a_calendar_file(cli, small_federation, tmp_path, calendar):
    """With a calendar file (R1) the windows are data; without it, the nominal ones."""
    files = dict(small_federation)
    args = []
    if calendar:
        files["calendar"] = tmp_path / "calendar.csv"
        files["calendar"].write_text("list_id,window_start,window_end\n"
                                     "2026-10,2026-09-01,2026-09-20\n"
                                     "2027-02,2026-09-21,2027-01-31\n")
        args = ["--calendar", files["calendar"]]
    out = tmp_path / "out"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        *args, "--warehouse", tmp_path / "w.duckdb", "--out", out)
    reference = reference_lists(files["players"], files["ratings"], files["games"], files.get("calendar"))
    assert list(reference) == (["2026-10", "2027-02"] if calendar else ["2027-01", "2027-05"])
    assert_same_lists(reference, published_lists(out))
