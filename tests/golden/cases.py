"""The golden cases: which inputs, which `ratings` commands, which published files.

Shared by tests/test_golden.py (which compares) and tests/golden/regenerate.py
(which writes the expected files); nothing here writes into tests/golden/.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent
FIXTURES = GOLDEN.parent / "fixtures"

# The published files the golden covers: everything `ratings publish` writes
# except the HTML reports (--no-reports: a page is a view of the lists, not a published
# list; tests/test_report.py tests it).
COVERED = ("lists", "state", "diffs")
FORMATS = ("--format", "csv,parquet,txt,swiss-manager", "--no-reports")


@dataclass(frozen=True)
class Case:
    name: str  # the folder under tests/golden/ that holds expected/ (and input/)
    runs: tuple[tuple[str, ...], ...]  # each `ratings` command after the first word, without --warehouse/--out
    settings: str = ""  # the ratings.toml of the folder the commands run in (none when empty)

    @property
    def expected(self) -> Path:
        return GOLDEN / self.name / "expected"


def _in(case: str, *names: str) -> list[str]:
    return [str(GOLDEN / case / "input" / n) for n in names]


def _run(*args: str) -> tuple[str, ...]:
    return ("run", *args, *FORMATS)


PERFORMANCE_FIRST = _run(
    "--players", *_in("performance", "players.csv"), "--ratings", *_in("performance", "ratings.csv"),
    "--games", *_in("performance", "games.csv"), "--games", *_in("performance", "games-autumn-2026.csv"),
    "--games", *_in("performance", "open-spa-2026.trf"))

CASES = (
    Case("performance", (PERFORMANCE_FIRST,)),
    # The same federation, then a late result file for the first list's window, run again:
    # the first list and the lists after it are revised (diffs/<list_id>-r2.csv).
    Case("performance-late", (PERFORMANCE_FIRST, _run("--games", *_in("performance-late", "late-games.csv")))),
    # The birth year published in B-day, as FIDE's own TXT lists print it: private, so only
    # when ratings.toml says so (pipeline/config.py), which this case's files cover byte for byte.
    Case("fide", (_run(
        "--system", "fide",
        "--players", *_in("fide", "players.csv"), "--ratings", *_in("fide", "ratings.csv"),
        "--games", *_in("fide", "games.csv"), "--games", *_in("fide", "brussels-open-2026.trf")),),
        settings="publish_birth_year = true\n"),
    # Glicko-2 on the performance case's federation: its lists carry the RD beside the rating.
    Case("glicko2", (_run(
        "--system", "glicko2",
        "--players", *_in("performance", "players.csv"), "--ratings", *_in("performance", "ratings.csv"),
        "--games", *_in("performance", "games.csv"), "--games", *_in("performance", "games-autumn-2026.csv"),
        "--games", *_in("performance", "open-spa-2026.trf")),)),
    # The OpenGotha save of tests/fixtures/go/ (a real file) is one of the events: its
    # eight players are in the registry (matched by name).
    Case("go-belgium", (_run(
        "--system", "go-belgium",
        "--players", *_in("go-belgium", "players.csv"), "--events", *_in("go-belgium", "events.csv"),
        "--games", *_in("go-belgium", "games.csv"),
        "--games", str(FIXTURES / "go" / "opengotha_simpleswiss_excerpt.xml")),)),
    # The EGD results file of tests/fixtures/go/ (a real file, class A) is one of the events.
    Case("go-ffg1984", (_run(
        "--system", "go-ffg1984",
        "--players", *_in("go-ffg1984", "players.csv"), "--ratings", *_in("go-ffg1984", "ratings.csv"),
        "--events", *_in("go-ffg1984", "events.csv"), "--games", *_in("go-ffg1984", "games.csv"),
        "--games", str(FIXTURES / "go" / "opengotha_export_2017.h9")),)),
)


def produce(case: Case, workdir: Path, invoke: Callable[..., object]) -> Path:
    """Run the case's commands into a fresh warehouse and output folder under
    `workdir`, from `workdir` (where the case's ratings.toml is written); `invoke(*args)`
    runs one `ratings` command and fails on an error. Returns the output folder."""
    warehouse, out = workdir / "warehouse.duckdb", workdir / "out"
    if case.settings:
        (workdir / "ratings.toml").write_text(case.settings, encoding="utf-8")
    with contextlib.chdir(workdir):
        for args in case.runs:
            invoke(*args, "--warehouse", str(warehouse), "--out", str(out))
    return out


def published_files(out: Path) -> dict[str, Path]:
    """The covered files of an output folder, by path relative to it (posix)."""
    return {p.relative_to(out).as_posix(): p for folder in COVERED if (out / folder).is_dir()
            for p in sorted((out / folder).rglob("*")) if p.is_file()}
