"""Issue 50, guard rails at intake, each as a rating officer meets it through `ratings`
run in a scratch folder: a header is data, never SQL; a file mixing CR LF and LF is
read; a published list is never taken for a registry, and a registry file that would
blank what the registry holds is refused; any staged submission can be withdrawn; a
corrected file given without --replaces is held, nothing of it rated, until the officer
says which it is."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import duckdb

from tests.as_user import completed
from tests.conftest import write_rows

def ratings(folder: Path, *args, code: int = 0) -> subprocess.CompletedProcess:
    """`ratings ARGS` as the officer runs it, in `folder`; its exit status checked."""
    return completed(folder, *args, code=code)


def query(w: Path, sql: str, params=None) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


# ---------------------------------------------------------------------------
# 1. A header is the file's text


def test_a_french_header_is_kept_in_the_registrys_extra_columns(tmp_path):
    # "club d'origine" was pasted into SQL as '...': the file refused as "not a readable CSV".
    players = write_rows(tmp_path / "joueurs.csv", ["player_id", "name", "club d'origine"],
                         [[1, "Anne", "Liège"], [2, "Bruno", "Namur"]])
    ratings(tmp_path, "ingest", "--players", players, "--warehouse", "w.duckdb")
    ratings(tmp_path, "validate", "--warehouse", "w.duckdb")
    stored = query(tmp_path / "w.duckdb", "select player_id, extra from players order by player_id")
    assert [(p, json.loads(e)) for p, e in stored] == [(1, {"club d'origine": "Liège"}),
                                                        (2, {"club d'origine": "Namur"})]


def test_a_header_written_as_sql_is_a_column_name_and_reads_no_file(tmp_path):
    # The header closed the string and called read_text: the host's name was stored in
    # players.extra under the key "x". Now the whole header is one key, its cell the value.
    secret = tmp_path / "secret.txt"
    secret.write_text("the content of a local file")
    hostile = f"x', (select content from read_text('{secret}')), 'y"
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", hostile], [[1, "Anne", "a"]])
    starting = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", hostile], [[1, 1800, "b"]])
    ratings(tmp_path, "ingest", "--players", players, "--ratings", starting, "--warehouse", "w.duckdb")
    ratings(tmp_path, "validate", "--warehouse", "w.duckdb")
    w = tmp_path / "w.duckdb"
    assert [json.loads(e) for (e,) in query(w, "select extra from players")] == [{hostile: "a"}]
    assert [json.loads(e) for (e,) in query(w, "select extra from initial_ratings")] == [{hostile: "b"}]
    assert not query(w, "select 1 from player_versions where extra::varchar like '%content of a local%'")


# ---------------------------------------------------------------------------
# 4. Lines ending in CR LF and in LF


def test_a_registry_mixing_crlf_and_lf_is_read_row_for_row(tmp_path):
    # Saved on Windows, two rows added on a Mac: DuckDB refused it "when sniffing". Row 3
    # (line 4) has no id: rejected with its own row number, the others stored, in Latin-1 too.
    for encoding in ("utf-8", "latin-1"):
        folder = tmp_path / encoding
        folder.mkdir()
        (folder / "players.csv").write_bytes(
            "player_id,name,club\r\n1,Anne,Liège\r\n2,Bruno,Gent\nx,Nobody,Gent\r\n4,Dora,Namur\n".encode(encoding))
        said = ratings(folder, "ingest", "--players", "players.csv", "--warehouse", "w.duckdb").stdout
        assert "line endings mixed: CR LF (first: line 1) and LF (first: line 3); each read as a line break" in said
        checked = ratings(folder, "validate", "--warehouse", "w.duckdb", code=3).stdout
        assert "read 4 = accepted 3 + rejected 1" in checked
        w = folder / "w.duckdb"
        assert query(w, "select player_id, name, club from players order by 1") == [
            (1, "Anne", "Liège"), (2, "Bruno", "Gent"), (4, "Dora", "Namur")]
        assert query(w, "select row_number from rejects") == [(3,)]


def test_a_games_file_mixing_crlf_and_lf_is_rated_in_a_run(tmp_path, small_federation):
    # In a run each file is staged in a table of its own, read in parallel: the same copy.
    text = small_federation["games"].read_bytes().decode()
    lines = text.split("\n")
    mixed = "".join(line + ("\r\n" if k % 2 else "\n") for k, line in enumerate(lines[:-1]))
    (tmp_path / "games-mixed.csv").write_bytes(mixed.encode())
    said = ratings(tmp_path, "run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                   "--games", "games-mixed.csv", "--warehouse", "w.duckdb", "--out", "out", "--no-reports").stdout
    assert "line endings mixed" in said and "read 10 = accepted 10 + rejected 0" in said


# ---------------------------------------------------------------------------
# 2. A published list is no registry; a registry file never blanks unsaid; any staged
#    submission can be withdrawn


FIDE_TXT_HEADER = ("ID Number      Name                                                         Fed Sex Tit  WTit "
                   "OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")


def registry_now(w: Path) -> list[tuple]:
    return query(w, "select player_id, name, birth_year, club, extra from players order by player_id")


def test_every_published_file_given_to_ingest_is_refused_as_a_list(cli, published, tmp_path):
    # Issue 50: `ratings ingest reports/lists/2019-01.csv` took the list for a registry update;
    # after `validate` each player it lists had lost birth year, sex and region. Each file
    # `ratings publish` writes, and FIDE's own lists, is refused whole and named.
    w, out = published
    cli("publish", "--warehouse", w, "--out", out, "--format", "csv,parquet,txt,swiss-manager",
        "--csv-dialect", "excel", "--no-reports")
    (tmp_path / "players_list_foa.txt").write_text(
        FIDE_TXT_HEADER + "\n1503014        Carlsen, Magnus                                              NOR M   GM   "
                          "                    2830  0 10 2829  0 20 2886  0 20 1990 \n")
    (tmp_path / "standard_rating_list.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n<player><fideid>1503014</fideid>'
        "<name>Carlsen, Magnus</name><country>NOR</country><rating>2830</rating></player>\n</playerslist>\n")
    before = registry_now(w)
    cases = [  # (file, how it is given, what it is said to be)
        (out / "lists" / "2027-01.csv", (), "a published rating list (list 2027-01?), not a registry"),
        (out / "lists" / "2027-01-r1.parquet", ("--players",), "a published rating list (list 2027-01?), not a registry"),
        (out / "lists" / "2027-01-excel.csv", (), "a published rating list (list 2027-01?), not a registry"),
        (out / "lists" / "2027-05.csv", ("--games",), "a published rating list (list 2027-05?), not a games file"),
        (out / "lists" / "2027-01.txt", ("--players",),
         "a rating list in FIDE's TXT layout (list 2027-01?), not a registry"),
        (out / "lists" / "2027-01-swiss-manager.csv", (),
         "a rating list in Swiss-Manager's layout (list 2027-01?), not a registry"),
        (out / "lists" / "2027-01-swiss-manager.csv", ("--ratings",),
         "a rating list in Swiss-Manager's layout (list 2027-01?), not an initial ratings file"),
        (out / "state" / "2027-01.parquet", ("--players",),
         "a rating state or initial ratings file (list 2027-01?), not a registry"),
        (tmp_path / "players_list_foa.txt", (), "a rating list in FIDE's TXT layout, not a registry, initial ratings"),
        (tmp_path / "standard_rating_list.xml", ("--players",), "FIDE's rating list in XML, not a registry"),
    ]
    for path, how, said in cases:
        refused = ratings(tmp_path, "ingest", *how, path, "--warehouse", w, code=1).stderr
        assert f"{path}: this is {said}" in refused and "nothing of it is taken in" in refused, refused
        assert refused.count("\n") == 1, refused  # one message
    readable = ratings(tmp_path, "ingest", out / "lists" / "2027-01.csv", "--warehouse", w, code=1).stderr
    assert "to start from its ratings, give it as --ratings" in readable
    assert "would blank the birth year, sex, region" in readable
    assert query(w, "select count(*) from submissions") == [(3,)] and registry_now(w) == before


def test_a_published_list_given_as_initial_ratings_is_taken_as_the_officer_said(tmp_path, published, small_federation):
    # The list in force before a new warehouse's first window: the list's CSV, as --ratings.
    _, out = published
    fresh = tmp_path / "next.duckdb"
    ratings(tmp_path, "ingest", "--players", small_federation["players"], "--ratings", out / "lists" / "2027-05.csv",
            "--warehouse", fresh)
    ratings(tmp_path, "validate", "--system", "performance", "--warehouse", fresh)
    # 2027-05 by hand (tests/test_submissions.py SECOND): 1770, 1660, 1630, 1500, 1450.
    assert query(fresh, "select player_id, rating from initial_ratings order by 1") == [
        (1, 1770), (2, 1660), (3, 1630), (4, 1500), (5, 1450)]


def test_a_registry_file_that_would_blank_columns_is_refused_naming_them(tmp_path, small_federation):
    # The small federation's registry holds birth_year for 8 players, club for 5 and an
    # email (kept in extra) for 2. A club's update of players 1-3 with names only would
    # blank birth_year for 3 of them, club for 3, email for 2.
    w = tmp_path / "w.duckdb"
    ratings(tmp_path, "run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
            "--games", small_federation["games"], "--warehouse", w, "--out", "out", "--no-reports")
    before = registry_now(w)
    update = write_rows(tmp_path / "update.csv", ["player_id", "name"],
                        [[1, "Anna Rated"], [2, "Bert Rated-Peeters"], [3, "Cara Rated"]])
    refused = ratings(tmp_path, "ingest", "--players", update, "--warehouse", w, code=1).stderr
    assert ("update.csv: as a registry update it would blank birth_year (3 of them), club (3 of them), "
            "email (2 of them) for the players it lists") in refused
    assert "--blank-missing if they are to be emptied" in refused and refused.count("\n") == 1
    assert registry_now(w) == before and query(w, "select count(*) from submissions") == [(3,)]
    # New players only: nothing to blank, taken in as it is.
    newcomers = write_rows(tmp_path / "newcomers.csv", ["player_id", "name"], [[9, "Ines New"]])
    ratings(tmp_path, "ingest", "--players", newcomers, "--warehouse", w)
    # Said so: taken in, and those columns emptied for the three.
    ratings(tmp_path, "run", "--players", update, "--blank-missing", "--warehouse", w, "--out", "out", "--no-reports")
    assert query(w, "select player_id, name, birth_year, club, extra from players where player_id <= 3 "
                    "or player_id = 9 order by 1") == [(1, "Anna Rated", None, None, None),
                                                      (2, "Bert Rated-Peeters", None, None, None),
                                                      (3, "Cara Rated", None, None, None), (9, "Ines New", None, None, None)]


def test_a_staged_registry_ratings_or_calendar_is_withdrawn_before_validation(tmp_path, small_federation):
    # "A staged registry cannot be withdrawn (only game files are replaced or withdrawn)":
    # the way back was a backup. Now any submission not yet validated is cancelled.
    w = tmp_path / "w.duckdb"
    ratings(tmp_path, "run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
            "--games", small_federation["games"], "--warehouse", w, "--out", "out", "--no-reports")
    before = registry_now(w)
    wrong = write_rows(tmp_path / "wrong.csv", ["player_id", "name"], [[1, "Someone Else"], [2, "Another"]])
    calendar = write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"],
                          [["2027-09", "2027-05-01", "2027-08-31"]])
    starting = write_rows(tmp_path / "ratings2.csv", ["player_id", "rating"], [[6, 1900]])
    ratings(tmp_path, "ingest", "--players", wrong, "--ratings", starting, "--calendar", calendar,
            "--blank-missing", "--warehouse", w)
    for sub, name, rows in ((4, "wrong.csv", 2), (5, "ratings2.csv", 1), (6, "calendar.csv", 1)):
        said = ratings(tmp_path, "withdraw", name, "--reason", "given by mistake", "--warehouse", w).stdout
        assert said.startswith(f"Submission {sub} ({name}) withdrawn before validation: its {rows} rows are kept as "
                               "withdrawn, none taken in; no list changes."), said
    assert "nothing staged" in ratings(tmp_path, "validate", "--warehouse", w).stdout
    assert registry_now(w) == before
    assert query(w, "select count(*) from initial_ratings where player_id = 6") == [(0,)]
    listed = json.loads(ratings(tmp_path, "submissions", "--warehouse", w, "--format", "json").stdout)
    assert [(s["status"], s["read"], s["stored"], s["withdrawn"], s["note"]) for s in listed[3:]] == [
        ("withdrawn", rows, 0, rows, "withdrawn before validation: given by mistake") for rows in (2, 1, 1)]
    assert "FAILED" not in ratings(tmp_path, "audit", "--warehouse", w).stdout
    # A validated registry is not withdrawn: the message says how it is corrected.
    refused = ratings(tmp_path, "withdraw", "players.csv", "--reason", "x", "--warehouse", w, code=1).stderr
    assert "is a players file, taken in: only game files are replaced or withdrawn once validated" in refused


def test_the_backup_the_manual_describes_undoes_a_validated_registry_update(tmp_path, small_federation):
    # docs/record.md, "Backing up the warehouse": the file copied before the intake, copied
    # back after a registry update that blanked the birth years, gives the registry back.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    ratings(tmp_path, "run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
            "--games", small_federation["games"], "--warehouse", w, "--out", out, "--no-reports")
    before = registry_now(w)
    assert not (tmp_path / "w.duckdb.wal").exists()  # a command that ended leaves the file whole
    (tmp_path / "backup.duckdb").write_bytes(w.read_bytes())
    update = write_rows(tmp_path / "update.csv", ["player_id", "name"], [[5, "Eva Junior"]])
    ratings(tmp_path, "run", "--players", update, "--blank-missing", "--warehouse", w, "--out", tmp_path / "out2",
            "--no-reports")
    assert query(w, "select birth_year from players where player_id = 5") == [(None,)]
    w.write_bytes((tmp_path / "backup.duckdb").read_bytes())
    assert registry_now(w) == before
    assert "FAILED" not in ratings(tmp_path, "audit", "--warehouse", w).stdout


# ---------------------------------------------------------------------------
# 3. A corrected file given without --replaces is held


def published_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted((out / "lists").iterdir())}


def test_a_corrected_games_file_without_game_id_is_held_until_it_replaces_the_first(tmp_path, small_federation):
    # Issue 50: a CSV without game_id, corrected, given without --replaces: its unchanged rows
    # were rejected as duplicates pointing at --replaces, but the changed game (2026-09-12,
    # 2-3, now 1-0) was rated beside the original and published before the officer could act.
    from tests.test_submissions import CORRECTED_FIRST, CORRECTED_SECOND, FIRST, SECOND, corrected, ratings_of

    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    ratings(tmp_path, "run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
            "--games", small_federation["games"], "--warehouse", w, "--out", out, "--no-reports")
    before = published_bytes(out)
    v2 = corrected(tmp_path, small_federation)  # row 2 of it is row 3 of the first: one removed before it
    held = ratings(tmp_path, "run", "--games", v2, "--warehouse", w, "--out", out, "--no-reports", code=3).stderr
    message = ("games-v2.csv (submission 4) is held: nothing of it is taken in or rated. 1 of its games looks like "
               "a correction of submission 3 (games.csv), the same day, players and event with another result or "
               "colours: row 2 (2026-09-12 2-3 1-0, Club cup, round 2) against submission 3 (games.csv) row 3 "
               "(2026-09-12 2-3 0-1, Club cup, round 2). If it corrects submission 3: "
               f"`ratings ingest {v2} --replaces 3`; if those are other games: `ratings confirm 4 --reason TEXT`; "
               "then `ratings run`. Given by mistake: `ratings withdraw 4 --reason TEXT`.")
    assert message in held and held.count("is held") == 1
    assert published_bytes(out) == before  # nothing of it rated, nothing published
    assert ratings_of(out, "2027-01") == FIRST and ratings_of(out, "2027-05") == SECOND
    # `rate` rates nothing of it and says why; the file stays held, its rows staged.
    rated = ratings(tmp_path, "rate", "--warehouse", w)
    assert message in rated.stderr and "staged file part" not in rated.stdout
    assert query(w, "select status from submissions where submission_id = 4") == [("held",)]
    assert query(w, "select count(*) from staged_games where file_id = (select file_id from source_files "
                    "where submission_id = 4)") == [(10,)]
    # The officer says it corrects the first: it replaces it, and the lists are the corrected ones.
    said = ratings(tmp_path, "ingest", v2, "--replaces", "3", "--warehouse", w).stdout
    assert "submission 4, held until now: replaces submission 3 at the next `ratings validate`" in said
    done = ratings(tmp_path, "run", "--warehouse", w, "--out", out, "--no-reports").stdout
    assert "games 1 changed, 1 added, 1 withdrawn" in done
    assert ratings_of(out, "2027-01") == CORRECTED_FIRST and ratings_of(out, "2027-05") == CORRECTED_SECOND
    assert "FAILED" not in ratings(tmp_path, "audit", "--warehouse", w).stdout


def test_a_held_file_confirmed_as_other_games_is_rated_beside_them(tmp_path, small_federation):
    # A second game of 1 and 2 at the club cup on 2026-09-05, in the arbiter's own file
    # without rounds: it looks like a correction of round 1's 1-0 (colours and result
    # differ). The officer confirms: both are kept, with who and why, and both are rated.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    ratings(tmp_path, "run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
            "--games", small_federation["games"], "--warehouse", w, "--out", out, "--no-reports")
    extra = write_rows(tmp_path / "arbiter.csv", ["date", "white_id", "black_id", "result", "event"],
                       [["2026-09-05", 2, 1, "1/2-1/2", "Club cup"], ["2026-09-05", 7, 8, "0-1", "School day"]])
    held = ratings(tmp_path, "run", "--games", extra, "--warehouse", w, "--out", out, "--no-reports", code=3).stderr
    assert ("row 1 (2026-09-05 2-1 1/2-1/2, Club cup) against submission 3 (games.csv) row 1 "
            "(2026-09-05 1-2 1-0, Club cup, round 1)") in held
    assert "row 2" not in held  # 7-8 played no game at the School day on 2026-09-05 before
    said = ratings(tmp_path, "confirm", "arbiter.csv", "--reason", "the second game of a two-game match",
                   "--by", "officer", "--warehouse", w).stdout
    assert said.startswith("Submission 4 (arbiter.csv) confirmed: its game that looked like a correction is "
                           "another game, to be rated beside those.")
    done = ratings(tmp_path, "run", "--warehouse", w, "--out", out, "--no-reports")
    assert "arbiter.csv  read 2 = accepted 2 + rejected 0" in done.stdout and "held" not in done.stderr
    assert query(w, "select decision, decided_by, reason from duplicate_decisions") == [
        ("kept", "officer", "the second game of a two-game match")]
    assert query(w, "select count(*) from games where date = '2026-09-05' and least(white_id, black_id) = 1 "
                    "and greatest(white_id, black_id) = 2") == [(2,)]
    # Confirmed once, held no more; a file that is not held has nothing to confirm.
    refused = ratings(tmp_path, "confirm", "4", "--reason", "again", "--warehouse", w, code=1).stderr
    assert "submission 4 (arbiter.csv) is taken in, not held: nothing to confirm" in refused


def test_a_corrected_go_games_file_is_held_and_replaces_the_first(tmp_path):
    # Every Go games file has no game_id: the club's corrected file (club night 2: White won,
    # now Black) was rated beside the first.
    from tests.conftest import write_small_go_club

    club = write_small_go_club(tmp_path)
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    ratings(tmp_path, "run", "--system", "go-belgium", "--players", club["players"], "--events", club["events"],
            "--games", club["games"], "--warehouse", w, "--out", out, "--no-reports")
    before = published_bytes(out)
    v2 = write_rows(tmp_path / "games-v2.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"], [
        ["club-1", "2026-01-10", 1, 2, "B", 0],
        ["club-2", "2026-01-11", 2, 1, "B", 1],
        ["open-1", "2026-03-01", 3, 2, "B", 0],
        ["open-1", "2026-03-02", 1, 3, "B", 0]])
    held = ratings(tmp_path, "run", "--games", v2, "--warehouse", w, "--out", out, "--no-reports", code=3).stderr
    assert ("games-v2.csv (submission 4) is held: nothing of it is taken in or rated. 1 of its games looks like a "
            "correction of submission 2 (games.csv), the same day, players and event with another winner, colours "
            "or handicap: row 2 (club-2 2026-01-11 2-1 won by B, handicap 1) against submission 2 (games.csv) row 2 "
            "(club-2 2026-01-11 2-1 won by W, handicap 1)") in held
    assert published_bytes(out) == before
    ratings(tmp_path, "ingest", v2, "--replaces", "games.csv", "--warehouse", w)
    done = ratings(tmp_path, "run", "--warehouse", w, "--out", out, "--no-reports").stdout
    assert "games 1 changed, 0 added, 0 withdrawn" in done
    assert query(w, "select winner from go_games where event_id = 'club-2'") == [("B",)]


def test_two_versions_staged_together_hold_the_later_and_a_held_file_is_withdrawn(tmp_path, small_federation):
    # Both versions given to one `ingest`: the later is held against the earlier's rows.
    from tests.test_submissions import corrected

    w = tmp_path / "w.duckdb"
    v2 = corrected(tmp_path, small_federation)
    ratings(tmp_path, "ingest", "--players", small_federation["players"], "--games", small_federation["games"],
            "--games", v2, "--warehouse", w)
    held = ratings(tmp_path, "validate", "--warehouse", w, code=3)
    assert "games.csv  read 10 = accepted 10 + rejected 0" in held.stdout
    assert "games-v2.csv (submission 3) is held" in held.stderr and "row 2 (2026-09-12 2-3 1-0" in held.stderr
    said = ratings(tmp_path, "withdraw", "3", "--reason", "sent twice", "--warehouse", w).stdout
    assert said.startswith("Submission 3 (games-v2.csv) withdrawn before validation: its 10 rows are kept")
    assert query(w, "select status from submissions order by 1") == [("taken in",), ("taken in",), ("withdrawn",)]
    assert "held" not in ratings(tmp_path, "rate", "--warehouse", w).stderr
