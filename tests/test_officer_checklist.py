"""The rating officer's checklist (issue 39), through the CLI as an officer runs it, on
the small federation of tests/conftest.py: a reject no fix can take in is closed (and
reopened), a game sent twice under another game_id is warned about and one copy
withdrawn, and the list report and list_summary count only the files in force."""
from __future__ import annotations

import re

import duckdb
import pandas as pd

from pipeline.warehouse import WAREHOUSE_VERSION
from tests.conftest import write_rows
from tests.test_publication_record import SHARED_INITIAL_COLUMNS

GAMES_HEADER = ["date", "white_id", "black_id", "result", "game_id", "event", "round"]


def query(w, sql, params=None) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def audits_pass(cli, w) -> None:
    output = cli("audit", "--warehouse", w).output
    assert "FAILED" not in output and "ok     rows_accounted" in output and "ok     rows_conserved" in output, output


def ratings_of(out, list_id) -> dict[int, int]:
    frame = pd.read_csv(out / "lists" / f"{list_id}.csv")
    return dict(zip(frame["player_id"], frame["rating"]))


def line_of(output: str, needle: str) -> list[str]:
    """The cells of the one line of a listing that holds `needle` (numbers right-aligned or not)."""
    found = [line.split() for line in output.splitlines() if needle in line]
    assert len(found) == 1, output
    return found[0]


def inputs_table(page: str) -> dict[str, list[str]]:
    """The report's table of input files: file (and kind) → the cells after them."""
    section = page.split('id="inputs"')[1].split("</section>")[0]
    rows = {}
    for row in re.findall(r"<tr class=\"num[^\"]*\">(.*?)</tr>", section, flags=re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)]
        if cells[0].startswith("in force"):
            rows[cells[0]] = cells[1:]
        else:
            rows[f"{cells[0]} {cells[1]}"] = cells[2:]
    return rows


def autumn(tmp_path, name="autumn.csv", rows=(1, 2, 3, 4)):
    every = {
        1: ["2026-11-14", 4, 3, "1-0", "a1", "Autumn", 1],
        2: ["2026-11-14", 5, 5, "1-0", "a2", "Autumn", 1],  # a player against themself: no fix is possible
        3: ["2026-09-12", 2, 3, "0-1", "a3", "Club cup", 2],  # games.csv's row 3 again, under a game_id
        4: ["2026-11-14", 4, 3, "1-0", "a4", "Autumn", 2],  # row 1's pairing again: a double round robin
    }
    return write_rows(tmp_path / name, GAMES_HEADER, [every[k] for k in rows])


def test_a_season_closes_an_unfixable_reject_and_withdraws_a_duplicate(cli, small_federation, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w, "--out", out)
    season = autumn(tmp_path)
    first = cli("run", "--games", season, "--warehouse", w, "--out", out, rejected=True).output
    assert "read 4 = accepted 3 + rejected 1" in first
    # Two pairs: autumn rows 1 and 4 (4-3 1-0, Autumn), games.csv row 3 and autumn row 3 (2-3 0-1, Club cup).
    assert "2 possible duplicate games (same date, players, result and event under another game_id): " \
           "`ratings rejects --warnings` lists them" in first
    assert line_of(cli("rejects", "--warehouse", w).output, "themself")[:5] == ["4", "autumn.csv", "4", "games", "2"]

    # Before: the same content again examines the self-game again, and validate exits 3 every time.
    cli("ingest", season, "--warehouse", w)
    cli("validate", "--warehouse", w, rejected=True)

    # Refusals: one message naming each row that is no open reject, nothing closed.
    refused = cli("rejects", "--close", "autumn.csv:1", "autumn.csv:2", "autumn.csv:9", "--reason", "x",
                  "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert "submission 4 (autumn.csv), row 1: no reject" in refused.output
    assert "submission 4 (autumn.csv), row 9: no reject" in refused.output and "nothing was closed" in refused.output
    assert query(w, "select status from rejects") == [("open",)]
    assert cli("rejects", "--reopen", "autumn.csv:2", "--reason", "x", "--warehouse", w, ok=False).exit_code == 1
    assert cli("rejects", "--close", "autumn.csv:2", "--warehouse", w, ok=False).exit_code == 2  # no --reason
    assert cli("rejects", "--close", "nosuch.csv:2", "--reason", "x", "--warehouse", w, ok=False).exit_code == 1

    closed = cli("rejects", "--close", "autumn.csv:2", "--reason", "the organiser cannot say who played",
                 "--by", "officer", "--warehouse", w).output
    assert "Closed 1 reject (officer: the organiser cannot say who played):" in closed
    assert "submission 4 (autumn.csv), row 2: a player plays against themself" in closed
    again = cli("rejects", "--close", "4:2", "--reason", "x", "--warehouse", w, ok=False)
    assert again.exit_code == 1 and "submission 4 (autumn.csv), row 2: not an open reject (it is closed already)" \
        in again.output

    # After: the same content again stages nothing, and validate and run exit 0.
    assert "nothing of it rejected: adds nothing" in cli("ingest", season, "--warehouse", w).output
    cli("validate", "--warehouse", w)
    cli("run", "--games", season, "--warehouse", w, "--out", out)
    assert "no rejected row is open" in cli("rejects", "--warehouse", w).output
    assert "no rejected row is open" in cli("rejects", "--out", tmp_path / "fix.csv", "--warehouse", w).output
    assert not (tmp_path / "fix.csv").exists()
    listed = line_of(cli("rejects", "--closed", "--warehouse", w).output, "themself")
    assert listed[:6] == ["4", "autumn.csv", "4", "games", "2", "closed"]
    assert "officer" in listed and listed[-6:] == "the organiser cannot say who played".split()
    # ratings submissions: read 4 = stored 3 + rejected 0 + fixed 0 + withdrawn 0 + closed 1.
    submissions = cli("submissions", "--warehouse", w).output
    assert submissions.splitlines()[0].split()[6:12] == ["read", "stored", "rejected", "fixed", "withdrawn", "closed"]
    row = line_of(submissions, " autumn.csv ")
    assert row[row.index("in") + 1:row.index("in") + 7] == ["4", "3", "0", "0", "0", "1"]
    assert "1 reject closed" in " ".join(row)
    # The report of 2027-01 (its window holds the autumn games) shows it closed, none open.
    cli("publish", "--warehouse", w, "--out", out)
    page = (out / "2027-01" / "index.html").read_text()
    assert inputs_table(page)["autumn.csv games"] == ["taken in", "4", "3", "0", "1", "0", "0", ""]
    assert query(w, "select rejected_rows from list_summary where list_id = '2027-01'") == [(0,)]
    audits_pass(cli, w)

    # Reopened: open again, and the same content again exits 3 again.
    reopened = cli("rejects", "--reopen", "autumn.csv:2", "--reason", "the arbiter found the scoresheet",
                   "--by", "chief arbiter", "--warehouse", w).output
    assert "Reopened 1 reject" in reopened
    assert line_of(cli("rejects", "--warehouse", w).output, "themself")[4] == "2"
    assert query(w, "select rejected_rows from list_summary where list_id = '2027-01'") == [(1,)]
    cli("ingest", season, "--warehouse", w)
    cli("validate", "--warehouse", w, rejected=True)
    assert query(w, "select action, decided_by, reason from reject_closures order by decided_at") == [
        ("closed", "officer", "the organiser cannot say who played"),
        ("reopened", "chief arbiter", "the arbiter found the scoresheet")]
    cli("rejects", "--close", "autumn.csv:2", "--reason", "no scoresheet after all", "--warehouse", w)

    # The possible duplicates, each copy by submission, file name and row.
    warned = cli("rejects", "--warnings", "--warehouse", w).output
    assert line_of(warned, "Club cup")[6:] == ["3", "games.csv", "3", "4", "autumn.csv", "3", "a3"]
    assert line_of(warned, "Autumn")[5:] == ["4", "autumn.csv", "1", "a1", "4", "autumn.csv", "4", "a4"]
    both = cli("rejects", "--withdraw-duplicate", "autumn.csv:1", "--keep-duplicate", "--reason", "x",
               "--warehouse", w, ok=False)
    assert both.exit_code == 2 and "one decision at a time" in both.output
    alone = cli("rejects", "--keep-duplicate", "autumn.csv:1", "--reason", "x", "--warehouse", w, ok=False)
    assert alone.exit_code == 1 and "no possible duplicate of another game named here" in alone.output
    not_a_copy = cli("rejects", "--withdraw-duplicate", "games.csv:1", "--reason", "x", "--warehouse", w, ok=False)
    assert not_a_copy.exit_code == 1 and "submission 3 (games.csv), row 1 repeats no game in force" in not_a_copy.output
    kept = cli("rejects", "--keep-duplicate", "autumn.csv:1", "autumn.csv:4", "--reason", "double round robin",
               "--warehouse", w).output
    assert "Kept both copies of 1 pair" in kept
    clean_before = dict(ratings_of(out, "2027-01"))
    withdrawn = cli("rejects", "--withdraw-duplicate", "autumn.csv:3", "--reason", "sent by the club and the arbiter",
                    "--by", "officer", "--warehouse", w).output
    assert "submission 4 (autumn.csv), row 3, a copy of submission 3 (games.csv), row 3" in withdrawn
    assert "1 possible duplicate" not in cli("validate", "--warehouse", w).output  # every pair decided
    assert "no possible duplicate game" in cli("rejects", "--warnings", "--warehouse", w).output
    decided = cli("rejects", "--warnings", "--closed", "--warehouse", w).output
    assert "both kept" in " ".join(line_of(decided, "Autumn")) and "officer" in line_of(decided, "Club cup")
    # Until the next rate, 2027-01 rests on the withdrawn copy, and the audit says so.
    assert "FAILED lists_on_withdrawn_games" in cli("audit", "--warehouse", w, ok=False).output
    cli("run", "--warehouse", w, "--out", out)
    assert query(w, "select reason from list_revisions where list_id = '2027-01' order by revision desc limit 1") == [
        ("submission 4 (autumn.csv): a duplicate game withdrawn: sent by the club and the arbiter",)]
    assert query(w, "select player_id, reason from rating_changes where list_id = '2027-01' and reason like "
                    "'%duplicate%' order by 1") == [
        (p, "submission 4: withdrawn 2026-09-12 2-3 0-1 (a duplicate of submission 3 (games.csv), row 3)")
        for p in (2, 3)]
    # ratings submissions: read 4 = stored 2 + rejected 0 + fixed 0 + withdrawn 1 + closed 1.
    row = line_of(cli("submissions", "--warehouse", w).output, " autumn.csv ")
    assert row[row.index("in") + 1:row.index("in") + 7] == ["4", "2", "0", "0", "1", "1"]
    assert "1 game withdrawn as a duplicate" in " ".join(row)
    audits_pass(cli, w)

    # The list is the one a clean season without the copy (and without the self-game) gives.
    clean_w, clean_out = tmp_path / "clean.duckdb", tmp_path / "clean-out"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--games", autumn(tmp_path, "clean.csv", (1, 4)),
        "--warehouse", clean_w, "--out", clean_out)
    assert ratings_of(out, "2027-01") == ratings_of(clean_out, "2027-01") != clean_before
    assert ratings_of(out, "2027-05") == ratings_of(clean_out, "2027-05")


def test_the_report_and_list_summary_count_only_the_files_in_force(cli, small_federation, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", w, "--out", out)
    spring = write_rows(tmp_path / "spring.csv", GAMES_HEADER, [
        ["2026-11-07", 4, 3, "1-0", "", "Spring", 1], ["2026-11-07", 1, 2, "0-1", "", "Spring", 1],
        ["2026-11-14", 1, 99, "1-0", "", "Spring", 2]])  # 99 is not registered
    cli("run", "--games", spring, "--warehouse", w, "--out", out, rejected=True)
    # 2027-01 (2026-09-01 … 2026-12-31): games.csv's 8 played games (and its forfeit), spring's 2; its reject.
    assert query(w, "select games_rated, forfeits, rejected_rows from list_summary where list_id = '2027-01'") == [
        (10, 1, 1)]
    v2 = write_rows(tmp_path / "spring-v2.csv", GAMES_HEADER, [
        ["2026-11-07", 4, 3, "1-0", "", "Spring", 1], ["2026-11-07", 1, 2, "0-1", "", "Spring", 1],
        ["2026-11-14", 1, 6, "1-0", "", "Spring", 2]])
    cli("ingest", v2, "--replaces", "spring.csv", "--warehouse", w)
    late = write_rows(tmp_path / "late.csv", GAMES_HEADER, [["2026-12-05", 2, 4, "1/2-1/2", "", "Friendly", 1]])
    cli("run", "--games", late, "--warehouse", w, "--out", out)
    cli("withdraw", "late.csv", "--reason", "a friendly, not rated", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out)
    # 2027-01 now: games.csv's 8 played games and spring-v2's 3; spring.csv's reject went with it, late.csv's game too.
    assert query(w, "select games_rated, forfeits, rejected_rows from list_summary where list_id = '2027-01'") == [
        (11, 1, 0)]
    table = inputs_table((out / "2027-01" / "index.html").read_text())
    # status, read, in force, rejected, closed, fixed, withdrawn, most frequent reason:
    assert table == {
        "players.csv players": ["taken in", "8", "8", "0", "0", "0", "0", ""],
        "ratings.csv ratings": ["taken in", "5", "5", "0", "0", "0", "0", ""],
        "games.csv games": ["taken in", "10", "10", "0", "0", "0", "0", ""],
        # its 2 games taken in and its 1 rejected row, all withdrawn by the replacement
        "spring.csv games": ["replaced by spring-v2.csv", "3", "0", "0", "0", "0", "3", ""],
        "spring-v2.csv games": ["taken in", "3", "3", "0", "0", "0", "0", ""],
        "late.csv games": ["withdrawn", "1", "0", "0", "0", "0", "1", ""],
        # the files in force: 8 + 5 + 10 + 3 = 26 rows read, all in force
        "in force: 4 files": ["26", "26", "0", "0", "0", "0", ""],
    }
    audits_pass(cli, w)


def test_a_warehouse_of_layout_7_is_migrated_before_it_is_read(cli, published):
    w, out = published
    with duckdb.connect(str(w)) as con:
        for table in ("reject_closures", "duplicate_decisions"):
            con.execute(f"drop table {table}")
        con.execute(SHARED_INITIAL_COLUMNS)  # layout 14 moved them to `extra`
        con.execute("delete from warehouse_version where version > 7")
        con.execute("insert into warehouse_version select 7 where not exists (select 1 from warehouse_version)")
    # Read-only, it is refused with what to do (layout 9 moved the rule sets' columns to
    # tables of their own, which every reader joins), and left as it is.
    refused = cli("submissions", "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "(ratings validate) brings it to version 14" in refused.output
    assert query(w, "select max(version) from warehouse_version") == [(7,)]
    # Its first writable command brings it to layout 9; the listings then read it.
    cli("validate", "--warehouse", w)
    assert query(w, "select max(version) from warehouse_version") == [(WAREHOUSE_VERSION,)]
    assert "games.csv" in cli("submissions", "--warehouse", w).output
    assert "no reject closed" in cli("rejects", "--closed", "--warehouse", w).output
    assert "no possible duplicate game" in cli("rejects", "--warnings", "--warehouse", w).output
    assert query(w, "select count(*) from reject_closures") == [(0,)]
    audits_pass(cli, w)
