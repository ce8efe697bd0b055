"""A record the federation can trust: the workflows a rating officer chains, through
the CLI, on the small federation of tests/conftest.py (lists computed by hand there
and below): ingest then run, a corrected file, a withdrawal, rejects fixed, a
tournament taken in again with --register-new, a rename after publication."""
from __future__ import annotations

import duckdb
import pandas as pd

from tests.conftest import write_rows
from tests.test_tournament_files import _tiny_registry
from tests.test_trf import TINY

# The small federation's lists (tests/test_pipeline_end_to_end.py has the arithmetic).
FIRST = {1: 1780, 2: 1660, 3: 1620, 4: 1500, 5: 1450}
SECOND = {1: 1770, 2: 1660, 3: 1630, 4: 1500, 5: 1450}
GAME_COLUMNS = ["date", "white_id", "black_id", "result", "event", "round"]


def ratings_of(out, list_id) -> dict[int, int]:
    frame = pd.read_csv(out / "lists" / f"{list_id}.csv")
    return dict(zip(frame["player_id"], frame["rating"]))


def query(w, sql, params=None) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def audits_pass(cli, w) -> None:
    output = cli("audit", "--warehouse", w).output
    assert "FAILED" not in output and "ok     rows_accounted" in output, output


def test_files_staged_by_ingest_are_taken_in_by_the_next_run(cli, small_federation, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    staged = cli("ingest", "--players", small_federation["players"], "--warehouse", w, "--by", "anna").output
    assert "players   " in staged and "submission 1: 8 rows staged" in staged
    result = cli("run", "--ratings", small_federation["ratings"], "--games", small_federation["games"],
                 "--warehouse", w, "--out", out)
    # The registry staged before is validated first, then the run's own files.
    assert "players.csv  read 8 = accepted 8 + rejected 0" in result.output
    assert "games.csv  read 10 = accepted 10 + rejected 0" in result.output
    assert ratings_of(out, "2027-01") == FIRST and ratings_of(out, "2027-05") == SECOND
    assert query(w, "select submission_id, status, submitted_by from submissions order by 1")[0] == (1, "taken in", "anna")
    assert query(w, "select count(*) from players") == [(8,)]
    audits_pass(cli, w)
    # The same content again is the same submission: nothing of it is rejected, so nothing is added.
    again = cli("ingest", "--players", small_federation["players"], "--warehouse", w).output
    assert "already taken in as submission 1, nothing of it rejected: adds nothing" in again
    assert query(w, "select count(*) from submissions") == [(3,)]


def corrected(tmp_path, small_federation):
    """The organiser's corrected file: game 3 (2026-09-12, 2-3) now 1-0 instead of 0-1,
    game 2 (2026-09-05, 3-4 draw) removed, a game 2026-10-10 4-5 1-0 added."""
    rows = pd.read_csv(small_federation["games"], dtype=str, keep_default_na=False).values.tolist()
    rows[2][3] = "1-0"
    del rows[1]
    rows.append(["2026-10-10", "4", "5", "1-0", "Club cup", "6"])
    return write_rows(tmp_path / "games-v2.csv", GAME_COLUMNS, rows)


# The lists on the corrected file, by hand (2026-09-01 … 2026-12-31; 6 is estimated at
# 1843 as before: a draw with 2 at 1700 and a win over 3 at 1600, Ea 1650 + D(0.75) 193):
# 1 (1800): beats 2 and 4, loses to 5: Nj 3, P 2/3, Ea 1533.33, D 117 + 0.667·8 = 122.33,
#   Pj 1655.67 < 1800: brake (16·1800 + 3·1655.67)/19 = 1777.2 → 1780.
# 2 (1700): loses to 1, beats 3, draws 6 (1843): P 0.5, Ea 5243/3 = 1747.67 ≥ 1700:
#   barycentre (3·1747.67 + 13·1700)/16 = 1708.9 → 1710.
# 3 (1600): loses to 2 and to 6 (243 above: counts): P 0, D −470, Ea 1771.5, Pj 1301.5:
#   brake (16·1600 + 2·1301.5)/18 = 1566.8 → 1570.
# 4 (1500): loses to 1, beats 5: P 0.5, Ea 1600: barycentre (2·1600 + 14·1500)/16 = 1512.5 → 1510.
# 5 (junior 1400): beats 1, loses to 4: P 0.5, Ea 1650: barycentre (2·1650 + 14·1400)/16 = 1431.25 → 1430.
CORRECTED_FIRST = {1: 1780, 2: 1710, 3: 1570, 4: 1510, 5: 1430}
# 2027-05: 1 (1780) draws 3 (1570): 1 brakes to (16·1780 + 1570)/17 = 1767.6 → 1770;
# 3: barycentre (1780 + 15·1570)/16 = 1583.1 → 1580; the others keep their ratings.
CORRECTED_SECOND = {1: 1770, 2: 1710, 3: 1580, 4: 1510, 5: 1430}


def test_a_corrected_file_replaces_the_first_version(cli, published, small_federation, tmp_path):
    w, out = published
    first_r1 = (out / "lists" / "2027-01-r1.csv").read_bytes()
    v2 = corrected(tmp_path, small_federation)
    staged = cli("ingest", v2, "--replaces", "games.csv", "--warehouse", w, "--by", "organiser").output
    assert "submission 4: 10 rows staged, replacing submission 3" in staged
    result = cli("run", "--warehouse", w, "--out", out).output
    assert "submission 4 replaces submission 3: 10 rows withdrawn; games 1 changed, 1 added, 1 withdrawn" in result
    assert "changed 2026-09-12 2-3 0-1 → 2026-09-12 2-3 1-0" in result
    assert ratings_of(out, "2027-01") == CORRECTED_FIRST and ratings_of(out, "2027-05") == CORRECTED_SECOND

    # The same lists as a clean run on the corrected file, byte for byte.
    clean = tmp_path / "clean"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"], "--games", v2,
        "--warehouse", tmp_path / "clean.duckdb", "--out", clean)
    for list_id in ("2027-01", "2027-05"):
        assert (out / "lists" / f"{list_id}.csv").read_bytes() == (clean / "lists" / f"{list_id}.csv").read_bytes()

    # Nothing lost: the first version's games stay, withdrawn, never rated; each change recorded.
    assert query(w, "select status from submissions where submission_id = 3") == [("replaced",)]
    assert query(w, "select count(*), min(reason) from withdrawn_rows") == [(10, "replaced by submission 4 (games-v2.csv)")]
    assert query(w, "select count(*) from games") == [(10,)]
    assert query(w, "select change, description from game_changes order by date") == [
        ("withdrawn", "withdrawn 2026-09-05 3-4 1/2-1/2"),
        ("changed", "changed 2026-09-12 2-3 0-1 → 2026-09-12 2-3 1-0"),
        ("added", "added 2026-10-10 4-5 1-0")]
    # The revision says why; the first revision's published file is untouched.
    assert query(w, "select list_id, revision, reason from list_revisions where revision = 2 order by 1") == [
        ("2027-01", 2, "submission 4 (games-v2.csv) replaces submission 3"),
        ("2027-05", 2, "follows from the revision of an earlier list")]
    assert (out / "lists" / "2027-01-r1.csv").read_bytes() == first_r1
    assert (out / "lists" / "2027-01-r2.csv").read_bytes() == (out / "lists" / "2027-01.csv").read_bytes()
    diff = pd.read_csv(out / "diffs" / "2027-01-r2.csv").set_index("player_id")
    assert diff.loc[3, "reason"] == ("submission 4 replaces submission 3: withdrawn 2026-09-05 3-4 1/2-1/2, "
                                     "changed 2026-09-12 2-3 0-1 → 2026-09-12 2-3 1-0")
    assert diff.loc[5, "reason"] == "submission 4 replaces submission 3: added 2026-10-10 4-5 1-0"
    assert set(diff["revision_reason"]) == {"submission 4 (games-v2.csv) replaces submission 3"}
    assert 1 not in diff.index  # 1780 both times, 3 games both times
    audits_pass(cli, w)
    # The old version cannot come back silently, nor be replaced twice.
    back = cli("ingest", small_federation["games"], "--warehouse", w, ok=False)
    assert back.exit_code == 1 and "this content is submission 3 (games.csv), which was replaced" in back.output
    twice = cli("ingest", v2, "--replaces", "3", "--warehouse", w, ok=False)
    assert "the same content as submission 4" in twice.output


def test_a_withdrawn_file_is_never_rated_and_the_lists_it_touched_are_revised(cli, published, tmp_path):
    w, out = published
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"],
                      [["2026-11-15", 4, 3, "1-0"]])
    cli("run", "--games", late, "--warehouse", w, "--out", out)
    assert ratings_of(out, "2027-01") == FIRST | {3: 1590, 4: 1530}  # tests/test_revisions.py
    result = cli("withdraw", "late.csv", "--reason", "played in a friendly, not rated", "--by", "arbiter",
                 "--warehouse", w).output
    assert "Submission 4 (late.csv) withdrawn: 1 rows." in result
    cli("run", "--warehouse", w, "--out", out)
    assert ratings_of(out, "2027-01") == FIRST and ratings_of(out, "2027-05") == SECOND
    assert query(w, "select revision, reason from list_revisions where list_id = '2027-01' order by 1") == [
        (1, "first computed"), (2, "late games: submission 4 (late.csv)"),
        (3, "submission 4 (late.csv) withdrawn: played in a friendly, not rated")]
    assert query(w, "select status, withdrawn_by, withdrawn_reason from submissions where submission_id = 4") == [
        ("withdrawn", "arbiter", "played in a friendly, not rated")]
    assert query(w, "select kind, record->>'result' from withdrawn_rows") == [("games", "1-0")]
    audits_pass(cli, w)
    refused = cli("withdraw", "players.csv", "--reason", "x", "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "only game files are replaced or withdrawn" in refused.output
    again = cli("withdraw", "4", "--reason", "x", "--warehouse", w, ok=False)
    assert "submission 4 (late.csv) was already withdrawn" in again.output


def test_rejected_rows_are_written_out_fixed_and_taken_in(cli, published, tmp_path):
    w, out = published
    bad = write_rows(tmp_path / "round6.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-11-20", 4, 3, "1-0"],  # fine
        ["2026-11-20", 5, 2, "2-0"],  # unknown result
        ["2026-11-20", 1, 99, "0-1"]])  # 99 is not registered
    result = cli("run", "--games", bad, "--warehouse", w, "--out", out, rejected=True)
    assert "read 3 = accepted 1 + rejected 2" in result.output and "2 rows rejected" in result.output
    assert query(w, "select rejected_rows from list_summary where list_id = '2027-01'") == [(2,)]
    cli("rejects", "--out", tmp_path / "fix.csv", "--warehouse", w)
    fix = pd.read_csv(tmp_path / "fix.csv", dtype=str)
    assert list(fix.columns) == ["date", "white_id", "black_id", "result", "game_id", "event", "round", "reason",
                                 "submission", "file", "row"]
    assert fix[["result", "row", "submission"]].values.tolist() == [["2-0", "2", "4"], ["0-1", "3", "4"]]
    fix.loc[0, "result"], fix.loc[1, "black_id"] = "1-0", "6"  # the organiser's answers
    fix.to_csv(tmp_path / "fix.csv", index=False)
    taken = cli("run", "--games", tmp_path / "fix.csv", "--warehouse", w, "--out", out)
    assert "fix.csv  read 2 = accepted 2 + rejected 0" in taken.output
    assert query(w, "select row_number, status, resolved_by_row from rejects order by 1") == [
        (2, "fixed", 1), (3, "fixed", 2)]
    assert query(w, "select rejected_rows from list_summary where list_id = '2027-01'") == [(0,)]
    assert query(w, "select count(*) from games where date = '2026-11-20'") == [(3,)]
    assert "no rejected row is open" in cli("rejects", "--warehouse", w).output
    audits_pass(cli, w)


def test_a_withdrawn_file_takes_the_fixes_of_its_rejected_rows_with_it(cli, published, tmp_path):
    # round6.csv: one game stored, one rejected and fixed by fix.csv (taken in as fix.csv's row 1),
    # one rejected, fixed by a fix rejected in turn (its reject the open one). Withdrawn, the file
    # takes its three games as the officer made them: its stored game, the fix that was taken in,
    # and the open reject of the fix rejected in turn; fix.csv's own game (row 3, no fix) stays.
    w, out = published
    bad = write_rows(tmp_path / "round6.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-11-20", 4, 3, "1-0"], ["2026-11-20", 5, 2, "2-0"], ["2026-11-20", 1, 99, "0-1"]])
    cli("run", "--games", bad, "--warehouse", w, "--out", out, rejected=True)
    cli("rejects", "--out", tmp_path / "fix.csv", "--warehouse", w)
    fix = pd.read_csv(tmp_path / "fix.csv", dtype=str)
    fix.loc[0, "result"], fix.loc[1, "black_id"] = "1-0", "98"  # taken in; 98 is not registered either
    own = pd.DataFrame([{"date": "2026-11-21", "white_id": "6", "black_id": "1", "result": "1-0"}])  # a game of its own
    pd.concat([fix, own]).to_csv(tmp_path / "fix.csv", index=False)
    cli("run", "--games", tmp_path / "fix.csv", "--warehouse", w, "--out", out, rejected=True)
    assert query(w, "select count(*) from games where date between '2026-11-20' and '2026-11-21'") == [(3,)]
    cli("withdraw", "round6.csv", "--reason", "not rated", "--warehouse", w)
    assert query(w, "select date::varchar, white_id, black_id from games "
                    "where date between '2026-11-20' and '2026-11-21'") == [("2026-11-21", 6, 1)]
    assert query(w, "select reason from withdrawn_rows w join source_files f using (file_id) "
                    "where f.path like '%fix.csv'") == [("withdrawn: not rated: the fix of one of its rejected rows",)]
    assert query(w, "select r.status from rejects r join source_files f using (file_id) "
                    "where f.path like '%fix.csv'") == [("withdrawn",)]
    assert "no rejected row is open" in cli("rejects", "--warehouse", w).output
    cli("rate", "--warehouse", w)
    audits_pass(cli, w)


def test_the_same_content_again_examines_only_its_rejected_rows(cli, published, tmp_path):
    w, out = published
    games = write_rows(tmp_path / "newcomer.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-11-21", 9, 1, "0-1"], ["2026-11-21", 2, 3, "1/2-1/2"]])
    cli("run", "--games", games, "--warehouse", w, "--out", out, rejected=True)
    registry = write_rows(tmp_path / "newcomer-registry.csv", ["player_id", "name", "birth_year", "club"],
                          [[9, "Ivo Newcomer", 1999, "Club A"]])
    cli("run", "--players", registry, "--warehouse", w, "--out", out)
    again = cli("run", "--games", games, "--warehouse", w, "--out", out).output
    assert "already taken in as submission 4: its rejected rows are examined again (1)" in again
    assert "newcomer.csv  examined again 1 = accepted 1 + rejected 0" in again
    assert query(w, """select f.rows_read, f.rows_accepted, f.rows_rejected from source_files f
                       join submissions s using (submission_id) where s.name = 'newcomer.csv'""") == [(2, 2, 0)]
    assert query(w, "select status from rejects") == [("taken in",)]
    assert query(w, "select count(*) from games where date = '2026-11-21'") == [(2,)]  # not twice
    audits_pass(cli, w)


def test_register_new_after_a_rejected_tournament_file(cli, tmp_path):
    tiny = tmp_path / "tiny.trf"
    tiny.write_text("\n".join(TINY), encoding="utf-8")
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    first = cli("run", "--players", _tiny_registry(tmp_path), "--games", tiny, "--warehouse", w, "--out", out,
                "--no-reports", rejected=True).output
    # tests/test_tournament_files.py: 7 games and 8 bad lines; players 9 and 10 unknown: 5 games kept.
    assert "read 15 = accepted 5 + rejected 10" in first
    again = cli("run", "--games", tiny, "--register-new", "--warehouse", w, "--out", out, "--no-reports",
                rejected=True).output
    assert "already taken in as submission 2: its rejected rows are examined again" in again
    assert "examined again 10 = accepted 2 + rejected 8" in again  # the 2 games in; the 8 bad lines stay
    assert query(w, "select count(*) from games") == [(7,)]
    assert query(w, "select count(*) from players where player_id in (109, 110)") == [(2,)]
    audits_pass(cli, w)


def test_a_rename_after_publication_changes_no_published_file(cli, published, small_federation, tmp_path):
    w, out = published
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (out / "lists").iterdir()}
    rename = write_rows(tmp_path / "registry-update.csv", ["player_id", "name", "birth_year", "club"],
                        [[3, "Cara Renamed", 1990, "Club C"]])
    result = cli("run", "--players", rename, "--warehouse", w, "--out", out).output
    assert "no file changed" in result
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (out / "lists").iterdir()} == before
    assert query(w, "select count(*) from player_versions where player_id = 3") == [(2,)]
    # A late game revises 2027-01: its new revision shows the registry as it is now.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2026-11-15", 4, 3, "1-0"]])
    cli("run", "--games", late, "--warehouse", w, "--out", out)
    r1 = pd.read_csv(out / "lists" / "2027-01-r1.csv").set_index("player_id")
    r2 = pd.read_csv(out / "lists" / "2027-01-r2.csv").set_index("player_id")
    assert (r1.loc[3, "name"], r1.loc[3, "club"]) == ("Cara Rated", "Club B")
    assert (r2.loc[3, "name"], r2.loc[3, "club"]) == ("Cara Renamed", "Club C")
    assert (out / "lists" / "2027-01-r1.csv").read_bytes() == before["2027-01-r1.csv"][0]
    diff = pd.read_csv(out / "diffs" / "2027-01-r2.csv").set_index("player_id")
    assert diff.loc[3, "reason"] == ("late games (submission 5): 2026-11-15 4-3 1-0; "
                                     "name: Cara Rated → Cara Renamed; club: Club B → Club C")
    # rating_history (the lists' rows) names every row as the registry stood when its
    # list's revision was computed: the latest version up to the revision's.
    assert query(w, """select count(*), count(*) filter (where h.name = (
                           select arg_max(v.name, v.version) from player_versions v
                           where v.player_id = h.player_id and v.version <= l.registry_version))
                       from rating_history h join lists l using (series, list_id)
                       where h.player_id = 3""") == [(2, 2)]
    audits_pass(cli, w)


def test_each_list_names_its_players_as_its_revision_saw_the_registry(cli, published, tmp_path):
    w, out = published
    rename = write_rows(tmp_path / "registry-update.csv", ["player_id", "name", "birth_year", "club"],
                        [[3, "Cara Renamed", 1990, "Club C"]])
    cli("run", "--players", rename, "--warehouse", w, "--out", out)
    # A late game in 2027-05's window only: 2027-05 gets a revision that sees the
    # rename, 2027-01 keeps its revision and the registry it saw.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2027-02-15", 4, 3, "1-0"]])
    cli("run", "--games", late, "--warehouse", w, "--out", out)
    assert query(w, "select list_id, revision from lists order by list_id") == [("2027-01", 1), ("2027-05", 2)]
    assert query(w, "select count(distinct registry_version) from lists") == [(2,)]
    assert query(w, "select list_id, name, club from rating_history where player_id = 3 order by list_id") == [
        ("2027-01", "Cara Rated", "Club B"), ("2027-05", "Cara Renamed", "Club C")]
    assert pd.read_csv(out / "lists" / "2027-05.csv").set_index("player_id").loc[3, "name"] == "Cara Renamed"
    assert pd.read_csv(out / "lists" / "2027-01.csv").set_index("player_id").loc[3, "name"] == "Cara Rated"


def test_a_run_that_changes_nothing_writes_nothing(cli, published):
    w, out = published
    before = {str(p): (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    assert "no file changed" in cli("run", "--warehouse", w, "--out", out).output
    assert {str(p): (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()} == before


def test_a_published_revision_is_never_overwritten_with_other_content(cli, published, small_federation, tmp_path):
    _, out = published
    other = tmp_path / "other.duckdb"  # another warehouse, other games, the same output folder
    games = write_rows(tmp_path / "g.csv", ["date", "white_id", "black_id", "result"], [["2026-09-05", 2, 1, "1-0"]])
    refused = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                  "--games", games, "--warehouse", other, "--out", out, ok=False)
    assert refused.exit_code == 1 and "2027-01-r1.csv was published before with other content" in refused.output


def test_a_folder_of_another_warehouse_gets_no_new_revision_either(cli, published, small_federation, tmp_path):
    # The other warehouse's first list, 2026-09 (games of May 2026), is new to the folder;
    # its second, 2027-01, was published there with other bytes. The lists are written in
    # threads, the revisions published before first: the conflict is found before
    # 2026-09 is added, so the folder is left as it was (not one list of another federation in it).
    _, out = published
    before = {p.name: p.read_bytes() for p in (out / "lists").iterdir()}
    other = tmp_path / "other.duckdb"
    games = write_rows(tmp_path / "g.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-05-09", 1, 2, "1-0"], ["2026-09-05", 2, 1, "1-0"]])
    refused = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                  "--games", games, "--warehouse", other, "--out", out, ok=False)
    assert refused.exit_code == 1 and "2027-01-r1.csv was published before with other content" in refused.output
    assert query(other, "select list_id from lists order by list_id")[:2] == [("2026-09",), ("2027-01",)]
    assert {p.name: p.read_bytes() for p in (out / "lists").iterdir()} == before
    assert not (out / "2026-09").exists()  # nor a report page of it


def test_validate_exits_3_when_rows_are_rejected(cli, published, tmp_path):
    w, _ = published
    bad = write_rows(tmp_path / "bad.csv", ["date", "white_id", "black_id", "result"], [["2026-11-20", 1, 2, "9-9"]])
    cli("ingest", bad, "--warehouse", w)
    assert cli("validate", "--warehouse", w, ok=False).exit_code == 3
    assert cli("validate", "--warehouse", w).exit_code == 0  # nothing staged any more


def test_a_submission_without_by_is_the_systems_user_or_user_when_it_has_no_entry(cli, small_federation, tmp_path,
                                                                                   monkeypatch):
    w = tmp_path / "w.duckdb"
    monkeypatch.setattr("getpass.getuser", lambda: "officer")
    cli("ingest", "--players", small_federation["players"], "--warehouse", w)
    # A container's user with no entry in the password database: getpass raises, $USER says who.
    monkeypatch.setattr("getpass.getuser", lambda: (_ for _ in ()).throw(KeyError("uid 1000")))
    monkeypatch.setenv("USER", "arbiter")
    cli("ingest", "--ratings", small_federation["ratings"], "--warehouse", w)
    monkeypatch.delenv("USER")
    cli("ingest", "--games", small_federation["games"], "--warehouse", w)
    assert query(w, "select submitted_by from submissions order by submission_id") == [
        ("officer",), ("arbiter",), ("unknown",)]
