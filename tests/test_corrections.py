"""Corrections are data with a trail: checked before they are recorded, listed with
who entered them, withdrawn with a reason, and the lists follow at the next rate."""
from __future__ import annotations

import os
import subprocess

import duckdb
import pytest

from tests.as_user import completed
from tests.conftest import copy_built, write_rows
from tests.test_go_pipeline import go_files  # noqa: F401 (a fixture)
from tests.test_publication_record import SHARED_INITIAL_COLUMNS
from tests.test_submissions import FIRST, SECOND, query, ratings_of


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


@pytest.mark.parametrize("args, says", [
    ((2, "--list", "2027-01", "--rating", -100), "rating -100 refused: a performance list publishes a multiple of 10 "
                                                 "from 10 to 3000 (R3)"),
    ((2, "--list", "2027-01", "--rating", 1505), "rating 1505 refused: a performance list publishes a multiple of 10"),
    ((2, "--list", "2031-01", "--rating", 1500), "no computed list '2031-01' (the lists are 2027-01 … 2027-05)"),
    ((2, "--list", "2027-09", "--rating", 1500), "no computed list '2027-09'"),
    ((99, "--list", "2027-01", "--rating", 1500), "player 99 is not in the registry"),
    ((2, "--list", "2027-01", "--rating", 1500, "--reason", " "), "give the commission's reason"),
])
def test_a_bad_correction_is_refused_with_its_reason(cli, published, args, says):
    w, _ = published
    reason = () if "--reason" in args else ("--reason", "appeal")
    refused = cli("correct", *args, *reason, "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and says in refused.output, refused.output
    assert query(w, "select count(*) from corrections") == [(0,)]


def test_a_correction_is_listed_withdrawn_and_the_lists_follow(cli, published):
    w, out = published
    recorded = cli("correct", 2, "--list", "2027-01", "--rating", 1700, "--reason", "appeal upheld",
                   "--by", "commission", "--warehouse", w).output
    assert "Correction 1 recorded by commission: player 2, list 2027-01, rating 1700 (appeal upheld)." in recorded
    cli("rate", "--warehouse", w)
    cli("publish", "--warehouse", w, "--out", out)
    assert ratings_of(out, "2027-01")[2] == 1700 and ratings_of(out, "2027-05")[2] == 1700
    listing = cli("corrections", "--warehouse", w).output
    assert "commission" in listing and "in force" in listing and "Bert Rated" in listing
    withdrawn = cli("correct", "--withdraw", 1, "--reason", "appeal reversed", "--by", "board", "--warehouse", w).output
    assert "Correction 1 withdrawn (player 2, list 2027-01): appeal reversed." in withdrawn
    cli("run", "--warehouse", w, "--out", out)
    assert ratings_of(out, "2027-01") == FIRST and ratings_of(out, "2027-05") == SECOND
    assert "withdrawn by board: appeal reversed" in cli("corrections", "--player", 2, "--warehouse", w).output
    assert query(w, "select revision, reason from list_revisions where list_id = '2027-01' order by 1") == [
        (1, "first computed"), (2, "correction 1 (player 2)"), (3, "correction 1 withdrawn")]
    assert query(w, "select reason from rating_changes where list_id = '2027-01' and revision = 3") == [
        ("correction 1 withdrawn by board: appeal reversed",)]
    again = cli("correct", "--withdraw", 1, "--reason", "x", "--warehouse", w, ok=False)
    assert "correction 1 was already withdrawn" in again.output
    assert "no correction 7" in cli("correct", "--withdraw", 7, "--reason", "x", "--warehouse", w, ok=False).output


def test_fide_corrections_are_whole_numbers_from_the_floor(cli, small_federation, tmp_path):
    w = tmp_path / "fide.duckdb"
    cli("run", "--system", "fide", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    for rating in (1850.5, 1300):
        refused = cli("correct", 1, "--list", "2026-10", "--rating", rating, "--reason", "x", "--warehouse", w, ok=False)
        assert "refused: a fide list publishes a whole number from 1400 to 3000" in refused.output
    cli("correct", 1, "--list", "2026-10", "--rating", 1851, "--reason", "appeal", "--warehouse", w)


def test_go_corrections_are_points_at_a_computed_event(cli, go_files, tmp_path):  # noqa: F811
    w = tmp_path / "go.duckdb"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
        "--games", go_files["games"], "--warehouse", w, "--out", tmp_path / "out")
    assert "refused: a go-belgium list publishes Go points from -2450 to 1000" in cli(
        "correct", 1, "--list", "club-1", "--rating", 3500, "--reason", "x", "--warehouse", w, ok=False).output
    assert "no computed event 'club-9'" in cli(
        "correct", 1, "--list", "club-9", "--rating", -1900, "--reason", "x", "--warehouse", w, ok=False).output
    cli("correct", 1, "--list", "club-1", "--rating", -1900.5, "--reason", "appeal", "--warehouse", w)
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select rating from corrections").fetchall() == [(-1900.5,)]


# ---------------------------------------------------------------------------
# Issue 50: after FIDE re-places an event on a later list, a correction entered on the
# list it left no longer stands there: it is set aside (said in the run, in `ratings
# corrections` and in the list's revision), never applied to another list; the lists are
# those a run from scratch makes with the corrections that still stand.

FIDE_PLAYERS = [[1, "Anna"], [2, "Bert"], [3, "Cleo"], [4, "Dirk"], [5, "Emil"]]
FIDE_RATINGS = [[1, 2000, 100], [2, 1900, 100], [3, 1800, 100], [4, 1700, 100], [5, 1600, 100]]
# E (January) on list 2026-02, F (February) on 2026-03, G (March) on 2026-04.
FIDE_GAMES = [["2026-01-10", 1, 2, "1-0", "E"], ["2026-01-11", 3, 4, "1-0", "E"],
              ["2026-02-10", 1, 3, "1-0", "F"], ["2026-02-11", 2, 4, "1-0", "F"],
              ["2026-03-10", 1, 2, "1/2-1/2", "G"], ["2026-03-11", 2, 3, "0-1", "G"]]


def _fide_season(cli, folder, corrections, events=None):
    """A FIDE run of the season, then the corrections entered and rated, then the events file
    (if any) taken in: (warehouse, out, the last run's output)."""
    folder.mkdir(exist_ok=True)
    w, out = folder / "w.duckdb", folder / "out"
    cli("run", "--system", "fide", "--warehouse", w, "--out", out, "--no-reports",
        "--players", write_rows(folder / "players.csv", ["player_id", "name"], FIDE_PLAYERS),
        "--ratings", write_rows(folder / "ratings.csv", ["player_id", "rating", "games_total"], FIDE_RATINGS),
        "--games", write_rows(folder / "games.csv", ["date", "white_id", "black_id", "result", "event"], FIDE_GAMES))
    for player, list_id, rating in corrections:
        cli("correct", player, "--list", list_id, "--rating", rating, "--reason", "appeal", "--warehouse", w)
    result = cli("run", "--warehouse", w, "--out", out, "--no-reports")
    if events:
        result = cli("run", "--warehouse", w, "--out", out, "--no-reports", "--events", write_rows(
            folder / "events.csv", ["event_id", "name", "start_date", "end_date", "rated_in"], events))
    return w, out, result.output


def _ratings(out):
    return {p.stem: ratings_of(out, p.stem) for p in sorted((out / "lists").glob("????-??.csv"))}


@pytest.mark.parametrize("case, events, corrections, status", [
    # E's report is late: rated on 2026-05 (rated_in). List 2026-02 rated nothing else: a run from
    # scratch starts with 2026-03; the list stays (a published list is never removed) and Anna's
    # correction on it is set aside.
    ("the list left is no longer made", [["E", "E", "2026-01-10", "2026-01-11", "2026-05"]],
     [(1, "2026-02", 2050)],
     ["set aside: a run from scratch would not make list 2026-02: the games it rated are now rated on other lists"]),
    # F rated on 2026-05: list 2026-03 is still made (between E's and G's) but no longer rates Dirk,
    # whose F game it rated when the correction was entered: set aside. Anna's on 2026-04 (G stays
    # there) and Bert's on 2026-02 (E stays there) stand.
    ("the list left no longer rates the player", [["F", "F", "2026-02-10", "2026-02-11", "2026-05"]],
     [(4, "2026-03", 1750), (1, "2026-04", 2040), (2, "2026-02", 1880)],
     ["set aside: list 2026-03 no longer rates player 4, whose games it rated when the correction was entered "
      "(their event now rated on another list, or their games withdrawn)", "in force", "in force"]),
    # A correction of a player who did not play on its list stands wherever the list is made: Dirk
    # plays nothing on 2026-04 (G is Anna, Bert and Cleo's).
    ("a player who did not play", [["F", "F", "2026-02-10", "2026-02-11", "2026-05"]],
     [(4, "2026-04", 1720)], ["in force"]),
])
def test_a_correction_on_a_list_its_event_left_is_set_aside(cli, tmp_path, case, events, corrections, status):
    w, out, said = _fide_season(cli, tmp_path / "kept", corrections, events)
    listed = cli("corrections", "--format", "csv", "--warehouse", w).output.splitlines()[1:]
    assert [line.split(",", 9)[9].strip('"') for line in listed] == status, case
    aside = [c for c, s in zip(corrections, status) if s.startswith("set aside")]
    for k, (player, list_id, _) in enumerate(aside):
        assert f"(player {player}, list {list_id}) is set aside, no longer applied" in said
        reasons = query(w, "select reason from list_revisions where list_id = ? order by revision desc limit 1",
                        [list_id])
        assert reasons[0][0].startswith("correction ") and " set aside: " in reasons[0][0]
    # The lists a run from scratch makes, with the corrections that stand entered on them.
    standing = [c for c, s in zip(corrections, status) if s == "in force"]
    clean = tmp_path / "clean"
    clean.mkdir()
    write_rows(clean / "events.csv", ["event_id", "name", "start_date", "end_date", "rated_in"], events)
    w2, out2, _ = _fide_season(cli, clean, [])
    cli("run", "--events", clean / "events.csv", "--warehouse", w2, "--out", out2, "--no-reports")
    for player, list_id, rating in standing:
        cli("correct", player, "--list", list_id, "--rating", rating, "--reason", "appeal", "--warehouse", w2)
    cli("run", "--warehouse", w2, "--out", out2, "--no-reports")
    kept, from_scratch = _ratings(out), _ratings(out2)
    assert {k: v for k, v in kept.items() if k in from_scratch} == from_scratch
    assert set(kept) - set(from_scratch) <= {"2026-02"}  # a published list stays


def test_a_correction_set_aside_is_back_in_force_when_the_players_games_come_back(cli, tmp_path):
    # Emil's one game (against Dirk, in F) came in a file of its own; corrected on list 2026-03,
    # then the file withdrawn: the list no longer rates him, his correction is set aside. The game
    # given again, the correction is back in force (set aside while it does not stand, not dropped).
    w, out, _ = _fide_season(cli, tmp_path, [])
    emil = write_rows(tmp_path / "emil.csv", ["date", "white_id", "black_id", "result", "event"],
                      [["2026-02-12", 5, 4, "1-0", "F"]])
    cli("run", "--games", emil, "--warehouse", w, "--out", out, "--no-reports")
    cli("correct", 5, "--list", "2026-03", "--rating", 1650, "--reason", "appeal", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out, "--no-reports")
    assert ratings_of(out, "2026-03")[5] == 1650
    cli("withdraw", "emil.csv", "--reason", "played in a friendly", "--warehouse", w)
    said = cli("run", "--warehouse", w, "--out", out, "--no-reports").output
    assert "(player 5, list 2026-03) is set aside, no longer applied: list 2026-03 no longer rates player 5" in said
    assert ratings_of(out, "2026-03")[5] == 1600
    again = write_rows(tmp_path / "emil-again.csv", ["date", "white_id", "black_id", "result", "event"],
                       [["2026-02-12", 5, 4, "1-0", "F"]])
    said = cli("run", "--games", again, "--again", "--warehouse", w, "--out", out, "--no-reports").output
    assert "set aside" not in said and ",in force" in cli("corrections", "--format", "csv", "--warehouse", w).output
    assert ratings_of(out, "2026-03")[5] == 1650
    assert [r[0] for r in query(w, "select reason from list_revisions where list_id = '2026-03' order by revision")][2:] == [
        "correction 1 (player 5)",
        "correction 1 set aside: list 2026-03 no longer rates player 5, whose games it rated when the correction "
        "was entered (their event now rated on another list, or their games withdrawn); submission 4 (emil.csv) "
        "withdrawn: played in a friendly",
        "correction 1 back in force; late games: submission 5 (emil-again.csv)"]


def test_a_warehouse_of_layout_10_knows_whether_its_corrections_lists_rated_their_players(cli, tmp_path):
    # Layout 11 records, with a correction, whether its list rated the player then; a warehouse
    # made before it learns that from the revision of the list in force when each was entered
    # (revision 1 of 2026-03 rated Dirk; revision 2, the correction's own, too), so that Dirk's
    # correction is set aside once his event moves; Emil's, who played nothing on 2026-03, stands.
    w, out, _ = _fide_season(cli, tmp_path, [(4, "2026-03", 1750), (5, "2026-03", 1650)])
    with duckdb.connect(str(w)) as con:
        for column in ("rated_at_entry", "set_aside", "set_aside_run"):
            con.execute(f"alter table corrections drop column {column}")
        con.execute(SHARED_INITIAL_COLUMNS)  # layout 14 moved them to `extra`
        con.execute("delete from warehouse_version where version > 10")
        con.execute("insert into warehouse_version select 10 where not exists (select 1 from warehouse_version)")
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "rated_in"],
                        [["F", "F", "2026-02-10", "2026-02-11", "2026-05"]])
    cli("run", "--events", events, "--warehouse", w, "--out", out, "--no-reports")
    assert query(w, "select correction_id, rated_at_entry, set_aside is not null from corrections order by 1") == [
        (1, True, True), (2, False, False)]


def test_a_correction_set_aside_as_an_officer_sees_it(tmp_path):
    # The same case through the `ratings` command in a scratch folder, each step a fresh process:
    # the run that takes the late report in says which correction it set aside and why (exit 0),
    # and `ratings corrections` shows it. The warehouse is the default one, in the folder.
    environment = {k: v for k, v in os.environ.items() if k not in ("RATINGS_WAREHOUSE", "RATINGS_OUT")}

    def ratings(*args) -> subprocess.CompletedProcess:
        return completed(tmp_path, *args, env=environment)

    write_rows(tmp_path / "players.csv", ["player_id", "name"], FIDE_PLAYERS)
    write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total"], FIDE_RATINGS)
    write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"], FIDE_GAMES)
    write_rows(tmp_path / "late.csv", ["event_id", "name", "start_date", "end_date", "rated_in"],
               [["F", "F", "2026-02-10", "2026-02-11", "2026-05"]])
    ratings("run", "--system", "fide", "--players", "players.csv", "--ratings", "ratings.csv", "--games", "games.csv",
            "--out", "lists", "--no-reports")
    ratings("correct", 4, "--list", "2026-03", "--rating", 1750, "--reason", "appeal upheld")
    assert ratings_of(tmp_path / "lists", "2026-03")[4] != 1750
    ratings("run", "--out", "lists", "--no-reports")
    assert ratings_of(tmp_path / "lists", "2026-03")[4] == 1750
    said = ratings("run", "--events", "late.csv", "--out", "lists", "--no-reports").stdout
    assert ("Note: correction 1 of the fide lists (player 4, list 2026-03) is set aside, no longer applied: "
            "list 2026-03 no longer rates player 4") in " ".join(said.split())
    assert ratings_of(tmp_path / "lists", "2026-03")[4] != 1750
    listed = ratings("corrections").stdout
    assert "set aside: list 2026-03 no longer rates player 4" in listed and "in force" not in listed
