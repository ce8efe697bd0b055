"""The record's workflows (docs/record.md, docs/commands.md), each on a copy of the
README's season once published (list 2027-01, revision 2: the commission's correction of
player 12345): a late result, a corrected TRF file, a withdrawn file, a correction listed
and withdrawn, a reject no fix can take in closed and reopened, possible duplicate games
decided, and a corrected file given without --replaces. Each ends with `ratings audit`
passing."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.workflows.helpers import (
    audit_ok,
    copied,
    in_manual,
    query,
    said,
    shell,
    user_env,
)
from tests.workflows.inputs import SEASON_LIST, read_csv, write_csv
from tests.workflows.season import TODAY, fix_typos

WAREHOUSE = Path("data") / "warehouse.duckdb"
JQ = """ratings rejects --format json | jq -r '.[] | "\\(.file_name) row \\(.row): \\(.reason)"'"""


@pytest.fixture
def published(season, tmp_path) -> Path:
    """A copy of the season as published, to go on from."""
    return copied(season.folder, tmp_path / "season")


def run(line: str, folder: Path, expect: int | tuple[int, ...] | None = 0):
    return shell(line, folder, expect=expect, env=user_env(today=TODAY))


def revisions(folder: Path) -> list[tuple]:
    return query(folder / WAREHOUSE, "select revision, reason from list_revisions where series = 'performance' "
                                     "and list_id = ? order by revision", [SEASON_LIST])


def league(folder: Path) -> list[dict]:
    header, rows = read_csv(folder / "league-v2.csv")
    return [dict(zip(header, row)) for row in rows]


def test_the_listing_for_a_script_is_the_manuals():
    assert in_manual("docs/commands.md", JQ)


def test_a_late_result_revises_the_list_and_says_why(published):
    game = league(published)[20]
    white, black = game["white_id"], game["black_id"]
    write_csv(published / "late.csv", ["date", "white_id", "black_id", "result", "event"],
              [["2026-12-20", white, black, "1-0", "Late club game"], ["2026-12-21", black, white, "1/2-1/2",
                                                                        "Late club game"]])
    run("ratings ingest late.csv", published)
    done = run("ratings run", published)
    assert "late.csv  read 2 = accepted 2 + rejected 0" in done.stdout
    assert revisions(published)[-1] == (3, "late games: submission 10 (late.csv)")
    diff = (published / "reports" / "diffs" / f"{SEASON_LIST}-r3.csv").read_text()
    assert f",3,{white}," in diff and f",3,{black}," in diff
    assert (published / "reports" / "lists" / f"{SEASON_LIST}-r3.csv").is_file()
    audit_ok(published)


def test_a_corrected_trf_file_replaces_the_first_and_each_change_is_recorded(published):
    games_of = "select count(*) from games g join source_files f using (file_id) where f.submission_id = ?"
    first, = query(published / WAREHOUSE, games_of, [6])
    done = run("ratings ingest open-v2.trf --replaces open.trf", published)
    assert "open-v2.trf  submission 10: staged" in done.stdout and "replacing submission 6" in said(done)
    done = run("ratings run", published)
    assert "submission 10 replaces submission 6" in done.stdout and "games 1 changed, 0 added, 0 withdrawn" in done.stdout
    assert revisions(published)[-1] == (3, "submission 10 (open-v2.trf) replaces submission 6")
    assert query(published / WAREHOUSE, games_of, [10]) == [first] and query(published / WAREHOUSE, games_of, [6]) == [(0,)]
    audit_ok(published)


def test_a_withdrawn_file_is_audited_until_the_lists_are_recomputed(published):
    done = run('ratings withdraw 7 --reason "event cancelled"', published)
    assert "Submission 7 (rapid.trf) withdrawn:" in done.stdout
    refused = run("ratings audit", published, expect=1)
    assert "FAILED lists_on_withdrawn_games" in refused.stdout
    assert (f"performance {SEASON_LIST}: rests on games withdrawn or replaced since it was computed "
            "(run `ratings rate`)") in refused.stdout
    run("ratings rate", published)
    audit_ok(published)
    assert revisions(published)[-1] == (3, "submission 7 (rapid.trf) withdrawn: event cancelled")
    run("ratings publish", published)
    assert (published / "reports" / "lists" / f"{SEASON_LIST}-r3.csv").is_file()
    # Forcing the computation again changes nothing: same results, same revision.
    run(f"ratings rate --from {SEASON_LIST}", published)
    assert len(revisions(published)) == 3


def test_a_correction_is_listed_and_withdrawn(published):
    listed = run("ratings corrections --player 12345", published)
    assert "12345" in listed.stdout and "appeal upheld" in listed.stdout and "in force" in listed.stdout
    run("ratings corrections --format csv > corrections.csv", published)
    header, rows = read_csv(published / "corrections.csv")
    assert header[:3] == ["id", "series", "player_id"] and [r[:3] for r in rows] == [["1", "performance", "12345"]]
    before = query(published / WAREHOUSE, "select rating from calculations where list_id = ? and player_id = 12345",
                   [SEASON_LIST])
    run('ratings correct --withdraw 1 --reason "appeal reversed"', published)
    run("ratings run", published)
    assert "withdrawn" in run("ratings corrections --player 12345", published).stdout
    rating, = query(published / WAREHOUSE, "select rating from player_state where series = 'performance' "
                                            "and list_id = ? and player_id = 12345", [SEASON_LIST])
    assert before == [(1850,)] and rating != (1850,)
    assert revisions(published)[-1][0] == 3
    audit_ok(published)


def autumn(folder: Path) -> list[list[str]]:
    """docs/record.md's autumn.csv: row 2 a player against themself, row 3 a league game sent
    again under another game_id, rows 1 and 4 one game twice (two game_ids)."""
    players = [g["white_id"] for g in league(folder)[:6]]
    copy = league(folder)[30]
    rows = [["2026-11-14", players[0], players[1], "1-0", "Autumn", "1", "a1"],
            ["2026-11-14", players[2], players[2], "1-0", "Autumn", "1", "a2"],
            [copy["date"], copy["white_id"], copy["black_id"], copy["result"], copy["event"], "", "a3"],
            ["2026-11-14", players[0], players[1], "1-0", "Autumn", "2", "a4"]]
    write_csv(folder / "autumn.csv", ["date", "white_id", "black_id", "result", "event", "round", "game_id"], rows)
    return rows


def test_a_reject_no_fix_can_take_in_is_closed_and_reopened(published):
    rows = autumn(published)
    first = run("ratings run --games autumn.csv", published, expect=3)
    assert f"autumn.csv, row 2: a player plays against themself (player {int(rows[1][1])})" in said(first)
    listed = run("ratings rejects", published)
    assert "autumn.csv" in listed.stdout and "a player plays against themself" in listed.stdout
    # docs/commands.md: the listing in JSON, for a script (jq, where it is installed).
    line = f"autumn.csv row 2: a player plays against themself (player {int(rows[1][1])})"
    if shutil.which("jq"):
        assert line in run(JQ, published).stdout.splitlines()
    else:
        listing = json.loads(run("ratings rejects --format json", published).stdout)
        assert line in [f"{r['file_name']} row {r['row']}: {r['reason']}" for r in listing]
    closed = run('ratings rejects --close autumn.csv:2 --reason "the organiser cannot say who played" --by officer',
                 published)
    assert "Closed 1 reject (officer: the organiser cannot say who played):" in closed.stdout
    assert "submission 10 (autumn.csv), row 2: a player plays against themself" in closed.stdout
    assert "closed" in run("ratings rejects --closed", published).stdout
    assert "1 reject closed (ratings rejects --closed)" in run("ratings submissions", published).stdout
    run("ratings run --games autumn.csv", published, expect=0)  # a closed reject never counts
    run('ratings rejects --reopen autumn.csv:2 --reason "the arbiter found the scoresheet"', published)
    run("ratings run --games autumn.csv", published, expect=3)  # open again: examined again
    audit_ok(published)


def test_possible_duplicate_games_are_warned_about_and_decided(published):
    autumn(published)
    first = run("ratings run --games autumn.csv", published, expect=3)
    assert "2 possible duplicate games (same date, players, result and event under another game_id): " \
           "`ratings rejects --warnings` lists them" in said(first)
    warned = run("ratings rejects --warnings", published)
    assert warned.stdout.count("autumn.csv") >= 3 and "league-v2.csv" in warned.stdout
    assert "Withdraw one copy: `ratings rejects --withdraw-duplicate SUBMISSION:ROW --reason TEXT`" in said(warned)
    run('ratings rejects --withdraw-duplicate autumn.csv:3 --reason "sent by the club and the arbiter"', published)
    assert "FAILED lists_on_withdrawn_games" in run("ratings audit", published, expect=1).stdout
    run('ratings rejects --keep-duplicate autumn.csv:1 autumn.csv:4 --reason "double round robin"', published)
    assert "autumn.csv" not in run("ratings rejects --warnings", published).stdout
    decided = run("ratings rejects --warnings --closed", published)
    assert "both kept" in decided.stdout and "withdrawn" in decided.stdout
    run("ratings run", published, expect=(0, 3))
    reason = revisions(published)[-1][1]
    assert "submission 10 (autumn.csv): a duplicate game withdrawn: sent by the club and the arbiter" in reason
    audit_ok(published)


def cup(folder: Path, with_game_id: bool) -> tuple[list[str], list[list[str]], list[list[str]]]:
    """A cup's games (cup.csv), and the organiser's corrected file (cup-v2.csv): the first
    game's result the other way, the others as they were."""
    players = [g["white_id"] for g in league(folder)[40:48]]
    header = ["game_id", "date", "white_id", "black_id", "result", "event"]
    rows = [[f"g{n + 1}", f"2026-12-{12 + n}", players[2 * n], players[2 * n + 1], "1-0", "Cup"] for n in range(4)]
    corrected = [row[:] for row in rows]
    corrected[0][4] = "0-1"
    if not with_game_id:
        header, rows, corrected = header[1:], [r[1:] for r in rows], [r[1:] for r in corrected]
    write_csv(folder / "cup.csv", header, rows)
    write_csv(folder / "cup-v2.csv", header, corrected)
    return header, rows, corrected


def cup_games(folder: Path) -> list[tuple]:
    return query(folder / WAREHOUSE, "select date::varchar, white_id, black_id, result from games "
                                     "where event = 'Cup' order by date, result")


def test_a_corrected_file_given_without_replaces_is_not_rated_beside_the_first(published):
    # docs/record.md: a file whose games have the day, players and event of another file's
    # games with another result is held, nothing of it rated, until the officer says
    # --replaces (or confirms): the run says so, exit status 3.
    cup(published, with_game_id=True)
    run("ratings run --games cup.csv", published)
    rated = cup_games(published), revisions(published)
    done = run("ratings run --games cup-v2.csv", published, expect=3)
    assert (cup_games(published), revisions(published)) == rated  # nothing of it rated
    assert "cup-v2.csv (submission 11) is held: nothing of it is taken in or rated" in said(done), said(done)
    assert "--replaces 10" in said(done) and "ratings confirm 11" in said(done)
    audit_ok(published)


def test_a_corrected_file_without_game_ids_given_without_replaces_is_held_then_replaces(published):
    cup(published, with_game_id=False)
    run("ratings run --games cup.csv", published)
    rated = cup_games(published), revisions(published)
    done = run("ratings run --games cup-v2.csv", published, expect=3)
    assert (cup_games(published), revisions(published)) == rated, said(done)
    assert "cup-v2.csv (submission 11) is held" in said(done), said(done)
    # The way on the message gives: the held file replaces the first; its changed game alone counts.
    run("ratings ingest cup-v2.csv --replaces cup.csv && ratings run", published)
    games = cup_games(published)
    assert len(games) == 4 and ("2026-12-12", games[0][1], games[0][2], "0-1") in games, games
    audit_ok(published)


def test_a_files_fixed_rows_go_with_it_when_it_is_replaced(published):
    """The README's lines 3-5 on a cup's file: its second game is dated the 31st of November;
    the officer fixes it as the 30th, the organiser's corrected file says December 1st. The
    corrected file replaces the cup's: its games, not the fix's."""
    header, rows, _ = cup(published, with_game_id=True)
    typo = [row[:] for row in rows]
    typo[1][1] = "2026-11-31"
    write_csv(published / "cup.csv", header, typo)
    truth = [row[:] for row in rows]
    truth[1][1] = "2026-12-01"
    write_csv(published / "cup-v2.csv", header, truth)
    run("ratings ingest cup.csv && ratings validate", published, expect=3)
    run("ratings rejects --out fix.csv --file cup.csv", published)
    guessed = [row[:] for row in rows]
    guessed[1][1] = "2026-11-30"
    fix_typos(published / "fix.csv", guessed, header)
    run("ratings ingest fix.csv", published)
    run("ratings ingest cup-v2.csv --replaces cup.csv", published)
    run("ratings run", published, expect=None)
    assert query(published / WAREHOUSE, "select date::varchar from games where game_id = 'g2' and event = 'Cup'") \
        == [("2026-12-01",)]
    audit_ok(published)
