"""The record at its edges (issue 36): a first or last list whose games are all withdrawn
or replaced away, late events under the FIDE and Go rules, a corrected file given without
--replaces, a staged replacement withdrawn, the audit of the lists in force; and a property
over sequences of ingests, replacements, withdrawals of whole lists and corrections."""
from __future__ import annotations

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.simulate import generate
from tests.conftest import write_rows

GAMES = ["date", "white_id", "black_id", "result", "event"]


@pytest.fixture
def season(tmp_path):
    """Three seniors (born 1980) rated 1800, 1700 and 1600; one file for list 2027-01
    (September–December 2026), one for list 2027-05 (January–April 2027)."""
    files = {
        "players": write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                              [[1, "Anna", 1980], [2, "Bert", 1980], [3, "Cara", 1980]]),
        "ratings": write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1800], [2, 1700], [3, 1600]]),
        "autumn": write_rows(tmp_path / "autumn.csv", GAMES, [["2026-09-05", 1, 2, "1-0", "Autumn"],
                                                              ["2026-09-06", 2, 3, "1-0", "Autumn"]]),
        "spring": write_rows(tmp_path / "spring.csv", GAMES, [["2027-01-05", 1, 3, "0-1", "Spring"],
                                                              ["2027-02-06", 2, 3, "1-0", "Spring"]]),
    }
    return files


def ratings_of(w, list_id: str, series: str = "performance") -> dict[int, float]:
    with duckdb.connect(str(w), read_only=True) as con:
        return dict(con.execute("select player_id, rating from player_state where series = ? and list_id = ?",
                                [series, list_id]).fetchall())


def lists_of(w, series: str = "performance") -> dict[str, tuple[int, int]]:
    """list_id → (revision, games rated)."""
    with duckdb.connect(str(w), read_only=True) as con:
        return {k: (r, g) for k, r, g in con.execute(
            "select list_id, revision, games_rated from lists where series = ? order by position", [series]).fetchall()}


# Spring (list 2027-05) rated from the initial ratings, by hand (seniors: quota 16):
# - Anna 1800 loses to Cara 1600 (a loss down always counts): Nj 1, P 0, D −470, Pj = 1600 − 470 = 1130
#   < 1800, the brake: (16 × 1800 + 1130) / 17 = 29930 / 17 = 1760.59 → 1760.
# - Bert 1700 beats Cara 1600 (100 below: counts): P 1, D +470, Pj 2070 ≥ 1700, quota not met:
#   (2070 + 15 × 1700) / 16 = 27570 / 16 = 1723.1 → 1720.
# - Cara 1600 beats Anna 1800, loses to Bert 1700: Nj 2, P 0.5, D 0, Ea 1750, Pj 1750 ≥ 1600:
#   (2 × 1750 + 14 × 1600) / 16 = 25900 / 16 = 1618.75 → 1620.
SPRING_FROM_THE_START = {1: 1760, 2: 1720, 3: 1620}
INITIAL = {1: 1800, 2: 1700, 3: 1600}


def test_first_list_withdrawn_whole_is_revised_and_published(cli, season, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", season["players"], "--ratings", season["ratings"], "--games", season["autumn"],
        "--games", season["spring"], "--warehouse", w, "--out", out)
    assert lists_of(w) == {"2027-01": (1, 2), "2027-05": (1, 2)}
    assert ratings_of(w, "2027-01") != INITIAL  # the autumn games moved every rating
    cli("withdraw", "autumn.csv", "--reason", "event cancelled", "--warehouse", w)
    # Until the lists are recomputed, the audit says the first list rests on withdrawn games.
    audit = cli("audit", "--warehouse", w, ok=False)
    assert audit.exit_code != 0 and "performance 2027-01" in audit.output
    cli("rate", "--from", "2027-01", "--warehouse", w)  # the list still exists for --from
    # The first list: no game left, everyone keeps the initial rating; a new revision naming the withdrawal.
    assert lists_of(w) == {"2027-01": (2, 0), "2027-05": (2, 2)}
    assert ratings_of(w, "2027-01") == INITIAL
    assert ratings_of(w, "2027-05") == SPRING_FROM_THE_START
    reasons = cli("revisions", "--list", "2027-01", "--warehouse", w).output
    assert "submission 3 (autumn.csv) withdrawn: event cancelled" in reasons
    cli("publish", "--warehouse", w, "--out", out)  # the revisions published before stay; r2 is new
    assert (out / "lists" / "2027-01-r1.csv").exists() and (out / "lists" / "2027-01-r2.csv").exists()
    fresh = tmp_path / "fresh"
    cli("publish", "--warehouse", w, "--out", fresh)
    assert (fresh / "lists" / "2027-01-r2.csv").read_bytes() == (out / "lists" / "2027-01-r2.csv").read_bytes()
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_last_list_replaced_away_is_revised(cli, season, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", season["players"], "--ratings", season["ratings"], "--games", season["autumn"],
        "--games", season["spring"], "--warehouse", w, "--out", out)
    # The organiser's corrected file: the spring games were played in December (list 2027-01).
    moved = write_rows(tmp_path / "spring-v2.csv", GAMES, [["2026-12-05", 1, 3, "0-1", "Spring"],
                                                           ["2026-12-06", 2, 3, "1-0", "Spring"]])
    cli("run", "--games", moved, "--replaces", "spring.csv", "--warehouse", w, "--out", out)
    assert lists_of(w) == {"2027-01": (2, 4), "2027-05": (2, 0)}
    # The last list has no game: its players keep the ratings of 2027-01.
    assert ratings_of(w, "2027-05") == ratings_of(w, "2027-01")
    reasons = cli("revisions", "--list", "2027-05", "--warehouse", w).output
    assert "submission 5 (spring-v2.csv) replaces submission 4" in reasons
    cli("publish", "--warehouse", w, "--out", out)
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_last_list_withdrawn_under_fide_rules(cli, season, tmp_path):
    # X1: the autumn event ends 2026-09-06, on the list of 2026-10; the spring one ends
    # 2027-02-06, on the list of 2027-03 (it closes 2027-02-26).
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "fide", "--players", season["players"], "--ratings", season["ratings"],
        "--games", season["autumn"], "--games", season["spring"], "--warehouse", w, "--out", out, "--no-reports")
    assert lists_of(w, "fide")["2027-03"] == (1, 2)
    cli("withdraw", "spring.csv", "--reason", "not a rated event", "--warehouse", w)
    cli("run", "--warehouse", w, "--out", out, "--no-reports")
    assert lists_of(w, "fide")["2027-03"] == (2, 0)
    assert ratings_of(w, "2027-03", "fide") == ratings_of(w, "2027-02", "fide")
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def interclub_rounds(dates: list[str], flip_last: bool = False) -> list[list]:
    """Eight players, four boards a round; round r pairs i with i + 4 (colours alternate)."""
    rows = []
    for r, day in enumerate(dates, start=1):
        for board in range(1, 5):
            white, black = (board, board + 4) if r % 2 else (board + 4, board)
            result = "1-0" if (board + r) % 3 else "1/2-1/2"
            if flip_last and r == len(dates) and board == 1:
                result = "0-1"
            rows.append([f"r{r}b{board}", day, white, black, result, "Interclubs 2024-25", r])
    return rows


def test_fide_season_corrected_with_replaces_keeps_every_game(cli, tmp_path):
    # The event ends 2025-02-09: X1, on the list of 2025-03 (window 2025-01-30 … 2025-02-26), the
    # first list; rounds 1-4 were played before that window opened, and belong to it all the same.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"],
                         [[p, f"P{p}", 1970 + p] for p in range(1, 9)])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total"],
                         [[p, 2000 - 20 * p, 50] for p in range(1, 9)])
    header = ["game_id", "date", "white_id", "black_id", "result", "event", "round"]
    season = write_rows(tmp_path / "season.csv", header, interclub_rounds(
        ["2024-10-06", "2024-11-10", "2024-12-08", "2025-01-12", "2025-02-09"]))
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "fide", "--players", players, "--ratings", ratings, "--games", season,
        "--warehouse", w, "--out", out, "--no-reports")
    assert lists_of(w, "fide") == {"2025-03": (1, 20)}
    # The corrected file: round 5 was played a week later, one result reversed.
    corrected = write_rows(tmp_path / "season-v2.csv", header, interclub_rounds(
        ["2024-10-06", "2024-11-10", "2024-12-08", "2025-01-12", "2025-02-16"], flip_last=True))
    result = cli("run", "--games", corrected, "--replaces", "season.csv", "--warehouse", w, "--out", out,
                 "--no-reports")
    assert "read 20 = accepted 20 + rejected 0" in result.output
    assert lists_of(w, "fide") == {"2025-03": (2, 20)}
    # A late first report of another event ending inside the first list's window (2025-02-20):
    # its December round belongs to that list too.
    late = write_rows(tmp_path / "winter.csv", header, [["w1", "2024-12-20", 1, 2, "1-0", "Winter cup", 1],
                                                         ["w2", "2025-02-20", 2, 1, "1-0", "Winter cup", 2]])
    result = cli("run", "--games", late, "--warehouse", w, "--out", out, "--no-reports")
    assert "read 2 = accepted 2 + rejected 0" in result.output
    assert lists_of(w, "fide") == {"2025-03": (3, 22)}
    # A game whose event ended before the first list's window is still refused, with the event's end.
    early = write_rows(tmp_path / "early.csv", header, [["e1", "2024-12-20", 1, 3, "1-0", "Autumn cup", 1]])
    result = cli("run", "--games", early, "--warehouse", w, "--out", out, "--no-reports", rejected=True)
    assert ("is in an event ending 2024-12-20, before the history of the fide lists starts (the first list, "
            "2025-03, rates the events ending from 2025-01-30)") in result.output
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_late_go_event_older_than_the_first_becomes_the_first(cli, tmp_path):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "grade"],
                         [[1, "Anna", "20k"], [2, "Bram", "20k"], [3, "Cleo", "NC"]])
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"],
                        [["club-1", "Club night", "2026-01-10", "2026-01-10", "C", 19]])
    games = write_rows(tmp_path / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"],
                       [["club-1", "2026-01-10", 1, 2, "B", 0]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "go-belgium", "--players", players, "--events", events, "--games", games,
        "--warehouse", w, "--out", out, "--no-reports")
    older_events = write_rows(tmp_path / "old-events.csv",
                              ["event_id", "name", "start_date", "end_date", "class", "board_size"],
                              [["old-1", "Autumn club night", "2025-11-10", "2025-11-10", "C", 19]])
    older = write_rows(tmp_path / "old-games.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"],
                       [["old-1", "2025-11-10", 2, 1, "B", 0]])
    result = cli("run", "--events", older_events, "--games", older, "--warehouse", w, "--out", out, "--no-reports")
    assert "read 1 = accepted 1 + rejected 0" in result.output
    # old-1 is now the first event: both 20 kyu start at the middle of 20 kyu, −1950; a club game
    # (class C, 0.8): the winner (Bram, Black) +46.4 → −1903.6, Anna −46.4 → −1996.4
    # (tests/test_go_pipeline.py works the same game through).
    first = ratings_of(w, "old-1", "go-belgium")
    assert first[2] == pytest.approx(-1903.6) and first[1] == pytest.approx(-1996.4)
    assert list(lists_of(w, "go-belgium")) == ["old-1", "club-1"]
    assert lists_of(w, "go-belgium")["club-1"][0] == 2  # revised: it now starts from old-1
    reasons = cli("revisions", "--list", "club-1", "--warehouse", w).output
    assert "follows from the revision of an earlier list" in reasons


def test_corrected_file_without_replaces_is_held_then_refused_for_its_changed_rows(cli, season, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    header = ["game_id", *GAMES]
    first = write_rows(tmp_path / "cup.csv", header, [["g1", "2026-09-05", 1, 2, "1-0", "Cup"],
                                                      ["g2", "2026-09-06", 2, 3, "1-0", "Cup"]])
    cli("run", "--players", season["players"], "--ratings", season["ratings"], "--games", first,
        "--warehouse", w, "--out", out, "--no-reports")
    before = ratings_of(w, "2027-01")
    corrected = write_rows(tmp_path / "cup-corrected.csv", header, [["g1", "2026-09-05", 1, 2, "0-1", "Cup"],
                                                                    ["g2", "2026-09-06", 2, 3, "1-0", "Cup"]])
    # Issue 50: a game of the same day, players and event with another result holds the file.
    result = cli("run", "--games", corrected, "--warehouse", w, "--out", out, "--no-reports", rejected=True)
    assert ("cup-corrected.csv (submission 4) is held: nothing of it is taken in or rated. 1 of its games looks "
            "like a correction of submission 3 (cup.csv)") in result.output
    assert lists_of(w) == {"2027-01": (1, 2)} and ratings_of(w, "2027-01") == before  # nothing rated twice
    # Said to be other games, its game_id is still the stored game's: the row is refused for it.
    cli("confirm", "4", "--reason", "another game", "--warehouse", w)
    result = cli("run", "--warehouse", w, "--out", out, "--no-reports", rejected=True)
    assert ("row 1: game_id: g1 is already in the warehouse with result 1-0 (submission 3, cup.csv, row 1), "
            "here 0-1: a corrected file replaces the old one with --replaces 3") in result.output
    assert "row 2: duplicate game: already in the warehouse (submission 3, cup.csv, row 2)" in result.output
    assert lists_of(w) == {"2027-01": (1, 2)} and ratings_of(w, "2027-01") == before


def test_rows_that_do_not_parse_are_not_duplicates_of_each_other(cli, season, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    bad = write_rows(tmp_path / "bad.csv", GAMES, [["2026-13-01", 1, 2, "1-0", "Cup"],
                                                   ["2026-13-01", 1, 2, "1-0", "Cup"]])
    result = cli("run", "--players", season["players"], "--ratings", season["ratings"], "--games", bad,
                 "--warehouse", w, "--out", out, "--no-reports", rejected=True)
    assert "duplicate" not in result.output and result.output.count("2026-13-01") == 2


def test_withdrawing_a_staged_replacement_cancels_it(cli, season, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", season["players"], "--ratings", season["ratings"], "--games", season["autumn"],
        "--warehouse", w, "--out", out, "--no-reports")
    before = ratings_of(w, "2027-01")
    v2 = write_rows(tmp_path / "autumn-v2.csv", GAMES, [["2026-09-05", 1, 2, "0-1", "Autumn"],
                                                        ["2026-09-06", 2, 3, "1-0", "Autumn"]])
    cli("ingest", v2, "--replaces", "autumn.csv", "--warehouse", w)
    said = cli("withdraw", "autumn-v2.csv", "--reason", "sent by mistake", "--warehouse", w).output
    assert ("It was to replace submission 3 (autumn.csv): the replacement is cancelled, "
            "and submission 3 stays in force.") in said
    cli("run", "--warehouse", w, "--out", out, "--no-reports")
    assert lists_of(w) == {"2027-01": (1, 2)} and ratings_of(w, "2027-01") == before
    status = dict(duckdb.connect(str(w), read_only=True).execute(
        "select name, status from submissions").fetchall())
    assert status["autumn.csv"] == "taken in" and status["autumn-v2.csv"] == "withdrawn"


# --- the property -----------------------------------------------------------------------

WINDOWS = {"first": ("2019-09-01", "2019-12-31"), "base": ("2020-01-01", "2020-04-30"),
           "last": ("2020-05-01", "2020-08-31")}  # lists 2020-01, 2020-05, 2020-09


def whole_lists(seed: int):
    """A federation of 40 players over three lists, its games split by list: the first and
    the last list's games each one file (withdrawn and replaced whole), the middle one's the base."""
    tables = {k: v.to_pandas() for k, v in generate(40, 3, seed).items()}
    games = tables["games"].assign(date=lambda g: pd.to_datetime(g["date"]).dt.strftime("%Y-%m-%d"))
    parts = {name: games[(games["date"] >= lo) & (games["date"] <= hi)].reset_index(drop=True)
             for name, (lo, hi) in WINDOWS.items()}
    return tables, parts


def version_of(games: pd.DataFrame, slot: str, version: int) -> pd.DataFrame:
    """Version 1: as played; 2: one result reversed; 3: every game moved into the middle list
    (the whole list replaced away)."""
    out = games.copy()
    if version == 2:
        out.loc[0, "result"] = {"1-0": "0-1", "0-1": "1-0"}.get(out.loc[0, "result"], "1-0")
    if version == 3:
        out["date"] = "2020-02-15" if slot == "first" else "2020-03-15"
    return out


STEPS = st.lists(st.one_of(
    st.tuples(st.just("put"), st.sampled_from(["first", "last"]), st.integers(1, 3)),
    st.tuples(st.just("withdraw"), st.sampled_from(["first", "last"])),
    st.tuples(st.just("correct"), st.integers(0, 39), st.integers(120, 200)),
), min_size=2, max_size=5)


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=STEPS)
def test_whole_lists_in_any_sequence_end_as_a_clean_run(cli, tmp_path_factory, steps):
    tmp = tmp_path_factory.mktemp("whole")
    tables, parts = whole_lists(5)
    tables["players"].astype({"birth_year": "Int64"}).to_csv(tmp / "players.csv", index=False)
    tables["ratings"].astype({"archive_games": "Int64"}).to_csv(tmp / "ratings.csv", index=False)
    parts["base"].to_csv(tmp / "base.csv", index=False)
    w, out = tmp / "w.duckdb", tmp / "out"
    seen: set[str] = set()
    in_force: dict[str, str] = {}  # slot → file name
    corrected: dict[int, int] = {}  # player → rating on 2020-05 (the base list, never emptied)

    def file_of(slot: str, version: int) -> str:
        name = f"{slot}-v{version}.csv"
        version_of(parts[slot], slot, version).to_csv(tmp / name, index=False)
        return name

    def publish_and_audit() -> None:
        cli("run", "--warehouse", w, "--out", out, "--no-reports")  # publication never refuses
        assert "FAILED" not in cli("audit", "--warehouse", w).output

    cli("run", "--players", tmp / "players.csv", "--ratings", tmp / "ratings.csv", "--games", tmp / "base.csv",
        "--games", tmp / file_of("first", 1), "--games", tmp / file_of("last", 1),
        "--warehouse", w, "--out", out, "--no-reports")
    in_force = {"first": "first-v1.csv", "last": "last-v1.csv"}
    seen |= set(in_force.values())
    players = tables["players"]["player_id"].tolist()
    for step in steps:
        if step[0] == "put":
            name = file_of(step[1], step[2])
            if in_force.get(step[1]) == name:
                continue
            args = ["--replaces", in_force[step[1]]] if step[1] in in_force else (["--again"] if name in seen else [])
            cli("ingest", tmp / name, *args, "--warehouse", w)
            in_force[step[1]], seen = name, seen | {name}
        elif step[0] == "withdraw" and step[1] in in_force:
            cli("withdraw", in_force.pop(step[1]), "--reason", "cancelled", "--warehouse", w)
        elif step[0] == "correct" and players[step[1]] not in corrected:
            corrected[players[step[1]]] = step[2] * 10
            cli("correct", players[step[1]], "--list", "2020-05", "--rating", step[2] * 10, "--reason", "appeal",
                "--warehouse", w)
        publish_and_audit()

    clean_w, clean_out = tmp / "clean.duckdb", tmp / "clean-out"
    given_files = [tmp / "base.csv", *(tmp / name for name in in_force.values())]
    cli("run", "--players", tmp / "players.csv", "--ratings", tmp / "ratings.csv",
        *[a for f in given_files for a in ("--games", f)], "--warehouse", clean_w, "--out", clean_out, "--no-reports")
    for player, rating in corrected.items():
        cli("correct", player, "--list", "2020-05", "--rating", rating, "--reason", "appeal", "--warehouse", clean_w)
    cli("run", "--warehouse", clean_w, "--out", clean_out, "--no-reports")
    clean = lists_of(clean_w)
    for list_id in clean:  # every list of the clean run is the same, byte for byte
        assert (out / "lists" / f"{list_id}.csv").read_bytes() == (clean_out / "lists" / f"{list_id}.csv").read_bytes()
    for list_id, (_, games) in lists_of(w).items():  # a list only the sequence has lost all its games
        assert list_id in clean or games == 0


def test_rate_says_what_is_staged_and_not_yet_taken_in(cli, season, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", season["players"], "--ratings", season["ratings"], "--games", season["autumn"],
        "--warehouse", w, "--out", out, "--no-reports")
    cli("ingest", season["spring"], "--warehouse", w)  # staged: one games part
    said = cli("rate", "--warehouse", w).output
    assert "1 staged file part is not taken in yet: `ratings validate` (or `ratings run`) takes them in" in said
    assert lists_of(w) == {"2027-01": (1, 2)}  # rate took nothing in
