"""Publication with every format on a busy machine (issue 50): `ratings publish --format
csv,parquet,txt,swiss-manager` into a fresh folder, ten times in a row, each a fresh
interpreter, with two CPU-bound processes beside it, on the embedded sample and on a
simulated federation. Every run exits 0 and writes the same bytes.

On a busy machine the writers' threads, which imported pandas lazily, raced each other:
"unexpected AttributeError: partially initialized module 'pandas' has no attribute
'DataFrame'". In-process tests never saw it: pandas is already loaded there."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.workflows.helpers import cpu_load, digests, failure, ratings

RUNS = 10
EVERY_FORMAT = "csv,parquet,txt,swiss-manager"


def _sample(folder: Path) -> None:
    ratings("run", "--sample", "--no-reports", cwd=folder)


def _simulated(folder: Path) -> None:
    # 1,000 players over three lists: about 6,300 games, a publication of three lists.
    ratings("simulate", "--players", 1000, "--lists", 3, "--seed", 5, "--out", "sim", cwd=folder)
    ratings("run", "--players", "sim/players.csv", "--ratings", "sim/ratings.csv", "--games", "sim/games.csv",
            "--no-reports", cwd=folder)


@pytest.mark.parametrize("federation", [_sample, _simulated], ids=["sample", "simulated"])
def test_every_format_published_ten_times_beside_two_busy_processes(federation, tmp_path):
    federation(tmp_path)
    with cpu_load(2):
        runs = [ratings("publish", "--format", EVERY_FORMAT, "--out", f"published-{n}", cwd=tmp_path, expect=None)
                for n in range(RUNS)]
    failed = [done for done in runs if done.returncode != 0]
    assert not failed, f"{len(failed)} of {RUNS} publications failed; the first:" + failure(failed[0], tmp_path)
    first = digests(tmp_path / "published-0")
    lists = {name for name in first if name.startswith("lists/")}
    assert {Path(name).suffix for name in lists} == {".csv", ".parquet", ".txt"}
    assert any(name.endswith("-swiss-manager.csv") for name in lists)
    assert any(name.startswith("state/") for name in first)
    for n in range(1, RUNS):
        assert digests(tmp_path / f"published-{n}") == first, f"published-{n} differs from published-0"
