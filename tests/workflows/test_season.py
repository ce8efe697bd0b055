"""The README's "A season, command by command", line by line (tests/workflows/season.py runs
them, once, as the officer runs them): what each line says, the files it writes, the
record it leaves; a second run changes nothing, a publication elsewhere writes the same
bytes."""
from __future__ import annotations

import shutil

import pyarrow.parquet as pq

from tests.conftest import PROJECT_DIR
from tests.workflows.helpers import audit_ok, digests, query, ratings, said, shell, user_env
from tests.workflows.inputs import GAME_COLUMNS, SEASON_LIST, SEASON_PLAYER, TRF_NAMES, read_csv
from tests.workflows.season import EVERY_FORMAT, SEASON, TODAY, Season


def step(season: Season, number: int, status: int = 0):
    done = season.steps[number]
    assert done.returncode == status, f"line {number} of the season: {SEASON[number - 1]}\n" + said(done)
    return done


def test_the_commands_are_the_readmes():
    readme = (PROJECT_DIR / "README.md").read_text(encoding="utf-8")
    assert [line for line in SEASON if line not in readme] == []


def test_the_registry_is_taken_in_first(season):
    done = step(season, 1)
    assert "registry.csv  submission 1: 1500 rows staged" in done.stdout
    assert "registry.csv  read 1500 = accepted 1500 + rejected 0" in done.stdout
    assert "ratings.csv  read 1363 = accepted 1363 + rejected 0" in done.stdout


def test_ingest_stages_each_file_and_matches_the_arbiters_players(season):
    done = step(season, 2)
    assert "league.csv  submission 3: 1400 rows staged" in done.stdout
    assert "friendly.csv  submission 4: 15 rows staged" in done.stdout
    for number, name in enumerate(TRF_NAMES, start=5):
        assert f"autumn/{name}.trf  submission {number}: staged" in done.stdout
    # Every player of the three TRF files is the registry's, found by their FIDE id.
    reports = [line for line in done.stdout.splitlines() if "FIDE TRF: 1 event" in line]
    assert len(reports) == 3 and all(" 0 new)" in line and " 0 problems" in line for line in reports)


def test_validate_rejects_the_two_typos_with_their_reasons(season):
    done = step(season, 3, status=3)
    assert "league.csv  read 1400 = accepted 1398 + rejected 2" in done.stdout
    assert "league.csv, row 4: white_id: 122930 is not in the player registry" in said(done)
    assert "league.csv, row 8: date: not a calendar date (2026-11-31)" in said(done)
    assert "2 rows rejected: `ratings rejects --out FILE.csv` writes them out" in said(done)


def test_rejects_out_writes_the_open_rejects_in_their_input_layout(season):
    done = step(season, 4)
    assert "2 rejected games rows written to fix.csv" in done.stdout
    header, rows = read_csv(season.folder / "fix-as-written.csv")
    assert header[-4:] == ["reason", "submission", "file", "row"] and set(GAME_COLUMNS) <= set(header)
    by_row = {row[header.index("row")]: dict(zip(header, row)) for row in rows}
    assert set(by_row) == {"4", "8"}
    assert by_row["4"]["white_id"] == season.files["typos"][0][2] + "0"
    assert by_row["8"]["date"] == "2026-11-31" and by_row["8"]["reason"] == "date: not a calendar date (2026-11-31)"
    assert {row["submission"] for row in by_row.values()} == {"3"}


def test_the_fix_and_the_corrected_file_are_staged_and_the_friendly_withdrawn(season):
    assert "fix.csv  submission 8: 2 rows staged" in step(season, 5).stdout
    assert "league-v2.csv  submission 9: 1400 rows staged, replacing submission 3" in step(season, 6).stdout
    withdrawn = step(season, 7)
    assert "Submission 4 (friendly.csv) withdrawn: 15 rows." in withdrawn.stdout


def test_run_takes_everything_in_rates_and_publishes(season):
    # The corrected file repeats the two rows the officer fixed: the fixes go with the file
    # they fixed (league.csv's 1,398 games and the 2 fixes: 1,400 withdrawn), so none is
    # taken for a duplicate, and the one result the league corrected is the one change.
    done = step(season, 8)
    assert "rows rejected" not in said(done) and "+ rejected 0" in done.stdout
    assert "submission 9 replaces submission 3: 1400 rows withdrawn; games 1 changed, 0 added, 0 withdrawn" \
        in done.stdout


def test_run_publishes_the_list_from_the_files_in_force(season):
    done = step(season, 8)
    assert "changed 2026-09-07" in done.stdout  # the league's one changed result
    lists = season.folder / "reports" / "lists"
    assert {"2027-01-r1.csv", "2027-01-r1.parquet"} <= {p.name for p in lists.iterdir()}
    assert (season.folder / "reports" / SEASON_LIST / "index.html").is_file()
    w = season.folder / "data" / "warehouse.duckdb"
    game_id, date, white, black, result = season.files["changed"][:5]
    assert query(w, "select result from games where game_id = ? and white_id = ? and black_id = ?",
                 [game_id, int(white), int(black)]) == [(result,)]
    # The typos as the officer fixed them are rated once: the corrected file's rows.
    for game_id, *_ in season.files["typos"]:
        assert query(w, "select count(*) from games where game_id = ?", [game_id]) == [(1,)]
    # The friendly's games are kept, withdrawn, never rated.
    assert query(w, "select count(*) from games where event = 'Friendly match'") == [(0,)]
    assert query(w, "select count(*) from withdrawn_rows w join source_files f using (file_id) "
                    "where f.submission_id = 4") == [(15,)]


def test_the_correction_is_recorded_and_applied_with_every_format(season):
    assert "Correction 1 recorded by" in step(season, 9).stdout
    done = step(season, 10)
    assert "10 files written" in done.stdout
    lists = season.folder / "reports" / "lists"
    for name in ("2027-01-r2.csv", "2027-01-r2.parquet", "2027-01-r2.txt", "2027-01-r2-swiss-manager.csv",
                 "2027-01.txt", "2027-01-swiss-manager.csv"):
        assert (lists / name).is_file(), name
    row = [line for line in (lists / "2027-01.csv").read_text().splitlines() if f",{SEASON_PLAYER}," in line]
    assert len(row) == 1 and row[0].split(",")[4] == "1850"
    table = pq.read_table(lists / "2027-01.parquet").to_pylist()
    assert [r["rating"] for r in table if r["player_id"] == SEASON_PLAYER] == [1850]
    txt = [line for line in (lists / "2027-01.txt").read_text().splitlines() if line.startswith(f"{SEASON_PLAYER} ")]
    assert len(txt) == 1 and " 1850 " in txt[0]
    swiss = (lists / "2027-01-swiss-manager.csv").read_text().splitlines()
    assert any(line.startswith(f'"{SEASON_PLAYER}";') and ';"1850";' in line for line in swiss)
    diff = (season.folder / "reports" / "diffs" / "2027-01-r2.csv").read_text()
    assert f",2,{SEASON_PLAYER}," in diff and "appeal upheld" in diff and "correction 1 (player 12345)" in diff


def test_the_audit_passes_and_the_revisions_say_why(season):
    done = step(season, 11)
    assert "FAILED" not in done.stdout and "ok     rows_accounted" in done.stdout
    revisions = [line.split() for line in done.stdout.splitlines() if line.startswith(SEASON_LIST)]
    assert [r[:2] for r in revisions] == [[SEASON_LIST, "1"], [SEASON_LIST, "2"]]
    assert done.stdout.rstrip().endswith("correction 1 (player 12345)")
    audit_ok(season.folder)


def test_a_second_run_changes_no_file_and_a_publication_elsewhere_the_same_bytes(season, tmp_path):
    folder = tmp_path / "season"
    shutil.copytree(season.folder, folder)
    env = user_env(today=TODAY)
    before = digests(folder / "reports")
    again = shell(f"ratings run --format {EVERY_FORMAT}", folder, env=env)
    assert "no file changed" in again.stdout
    assert digests(folder / "reports") == before
    for out in ("copy-1", "copy-2"):
        ratings("publish", "--format", EVERY_FORMAT, "--out", out, cwd=folder, env=env)
    assert digests(folder / "copy-1") == digests(folder / "copy-2")
    latest = {name: digest for name, digest in digests(folder / "copy-1").items() if name.startswith("lists/")}
    assert latest and all(before[name] == digest for name, digest in latest.items())
    audit_ok(folder)
