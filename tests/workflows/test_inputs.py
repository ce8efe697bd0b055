"""Tournament files as docs/inputs.md and the README show them, from the real files of
tests/fixtures/trf/ (their origins in its README): the Belgian interclub tool's FIDE report
(DD/MM/YY round dates) given to `ratings run` with the federation's registry, and its
national report in the SWAR layout ingested then validated; and the files that are refused
whole, each in one message, nothing of them staged."""
from __future__ import annotations

import shutil
from pathlib import Path

from tests.workflows.helpers import audit_ok, in_manual, query, said, shell
from tests.workflows.inputs import GO_FIXTURES, TRF_FIXTURES, write_csv

EXAMPLES = """\
ratings run --players registry.csv --games open-2026.trf --warehouse w.duckdb --out lists/
ratings ingest round5.txt --warehouse w.duckdb && ratings validate --warehouse w.duckdb
"""
FIDE_REPORT = TRF_FIXTURES / "belgian_interclubs_fide_2024_r1_ddmmyy_excerpt.txt"
SWAR_REPORT = TRF_FIXTURES / "belgian_interclubs_2023_r1_excerpt.txt"


def player_lines(path: Path) -> list[tuple[str, str, str]]:
    """Each 001 line's name (columns 15-47), id (58-68) and birth year (70-73), as a
    federation's registry has them."""
    lines = path.read_bytes().decode("latin-1").splitlines()
    return [(line[14:47].strip(), line[57:68].strip(), line[69:73].strip()) for line in lines if line.startswith("001")]


def test_the_commands_are_the_manuals():
    assert in_manual("docs/inputs.md", EXAMPLES)


def test_an_arbiters_fide_report_with_the_federations_registry(tmp_path):
    players = player_lines(FIDE_REPORT)
    write_csv(tmp_path / "registry.csv", ["player_id", "name", "birth_year", "fide_id"],
              [[1000 + n, name, born, fide_id] for n, (name, fide_id, born) in enumerate(players, start=1)])
    shutil.copyfile(FIDE_REPORT, tmp_path / "open-2026.trf")
    done = shell(EXAMPLES.splitlines()[0], tmp_path)
    assert f"{len(players)} players ({len(players)} in the registry, 0 new)" in done.stdout
    assert "the round dates of tag 132 read as DD/MM/YY (29/09/24 = 2024-09-29)" in done.stdout
    games, = query(tmp_path / "w.duckdb", "select count(*), min(date)::varchar, max(date)::varchar from games")
    assert games == (len(players) // 2, "2024-09-29", "2024-09-29")  # every board of the excerpt's round 1
    assert (tmp_path / "lists" / "lists" / "2025-01.csv").is_file()
    audit_ok(tmp_path, "--warehouse", "w.duckdb")


def test_a_national_report_in_the_swar_layout_ingested_then_validated(tmp_path):
    players = player_lines(SWAR_REPORT)
    write_csv(tmp_path / "registry.csv", ["player_id", "name"], [[player_id, name] for name, player_id, _ in players])
    shell("ratings ingest registry.csv --warehouse w.duckdb && ratings validate --warehouse w.duckdb", tmp_path)
    shutil.copyfile(SWAR_REPORT, tmp_path / "round5.txt")
    done = shell(EXAMPLES.splitlines()[1], tmp_path)
    assert "SWAR" in done.stdout and f"{len(players)} players ({len(players)} in the registry, 0 new)" in done.stdout
    assert f"read {len(players) // 2} = accepted {len(players) // 2} + rejected 0" in done.stdout
    audit_ok(tmp_path, "--warehouse", "w.duckdb")


def test_files_refused_whole_each_in_one_message(tmp_path):
    shutil.copyfile(GO_FIXTURES / "swissperfect_gonzaga_2010_export_excerpt.txt", tmp_path / "gonzaga.txt")
    refused = shell("ratings ingest gonzaga.txt --warehouse w.duckdb", tmp_path, expect=1)
    assert "looks like a Swiss Perfect export (its cross table, tab-separated): not read" in said(refused)
    (tmp_path / "club.swar").write_bytes(b"\x00\x01binary save")
    refused = shell("ratings ingest club.swar --warehouse w.duckdb", tmp_path, expect=1)
    assert "named like a SWAR tournament file (.swar, SWAR's own binary save): not read" in said(refused)
    write_csv(tmp_path / "g.csv", ["date", "white", "black", "result"], [["2026-09-05", 1, 2, "1-0"]])
    refused = shell("ratings ingest --games g.csv --warehouse w.duckdb", tmp_path, expect=1)
    assert ("g.csv: given as a games file, it lacks the columns white_id, black_id; it has date, white, black, result "
            "(closest: white → white_id, black → black_id): nothing of it is taken in") in said(refused)
    assert refused.stderr.count("Error: ") == 1  # one message
    assert shell("ratings submissions --format json --warehouse w.duckdb", tmp_path).stdout.strip() == "[]"
