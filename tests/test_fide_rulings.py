"""The sharpened FIDE rulings X6a, X8 and X9 (fide-elo.md), each on the case that asked
for it (issue 50), through `ratings run --system fide`, every number computed by hand.

The rated players are all 1800 with 100 rated games (K 20), and stay 1800 wherever it
matters: their games against unrated players change nothing for them (B02 8.2), and
their games between themselves are draws. Table 8.1.1 rows used (p → dp): 0.29 → −158,
0.31 → −141, 0.50 → 0, 0.57 → +50. An unrated player's Ru = Ra + dp(p), where
Ra = (Σ opponents + 2 × 1800) / (n + 2) and p = (score + 2 × 0.5) / (n + 2): against
1800s only, Ra = 1800.
"""
from __future__ import annotations

import datetime as dt

import duckdb
import numpy as np
import pandas as pd
import pytest

from pipeline.systems.fide.first_event import FirstEvents
from tests.conftest import cli_runner, write_rows

RATED = {1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F", 7: "G", 8: "H"}
NEWCOMERS = {21: "N1", 22: "N2", 23: "N3", 24: "N4"}


def _run(folder, games, events=None, players=None):
    """`ratings run --system fide` on these games; (warehouse, the lists as a frame of
    ratings: player × list, NaN where not on the list)."""
    players = players or {**RATED, **NEWCOMERS}
    args = ["--players", write_rows(folder / "players.csv", ["player_id", "name"], [[p, n] for p, n in players.items()]),
            "--ratings", write_rows(folder / "ratings.csv", ["player_id", "rating", "games_total"],
                                    [[p, 1800, 100] for p in RATED if p in players]),
            "--games", write_rows(folder / "games.csv", ["date", "white_id", "black_id", "result", "event"], games)]
    if events:
        args += ["--events", write_rows(folder / "events.csv", ["event_id", "name", "start_date", "end_date"], events)]
    w, out = folder / "w.duckdb", folder / "out"
    cli_runner()("run", "--system", "fide", *args, "--warehouse", w, "--out", out, "--no-reports")
    return w, _lists(out)


def _lists(out) -> pd.DataFrame:
    return pd.DataFrame({p.stem: pd.read_csv(p).set_index("player_id")["rating"]
                         for p in sorted((out / "lists").glob("????-??.csv"))})


def _pooled(w, list_id, player):
    """(games pooled, score, games ignored as a zero-score first event) on a list."""
    with duckdb.connect(str(w), read_only=True) as con:
        found = con.execute("select games, score, ignored_games from pooled_games where series = 'fide' "
                            "and list_id = ? and player_id = ?", [list_id, player]).fetchall()
    return found[0] if found else (0, 0.0, 0)


# ---------------------------------------------------------------------------
# X8: a player's first event is the event of their earliest game against a rated
# opponent, whichever list rates it.
#
# "League" runs from 10 January to 14 March 2026 (one game each newcomer on each date):
# it ends after list 2026-03 closed (26 February) and before list 2026-04 closes
# (29 March): rated on list 2026-04. "Weekend", 7-8 February, is rated on list 2026-03.
# Both start from the initial ratings (no list of the series is dated before them: the
# first list is 2026-03, the first that rates a game). Each newcomer's earliest game
# against a rated player is the League's of 10 January: the League is their first event.

LEAGUE = {21: "00", 22: "10", 23: "00", 24: "11"}  # each newcomer's results on 10 January and 14 March
WEEKEND = {21: "1=00", 22: "000", 23: "11=00", 24: "=="}  # their results against A, B, C, ... in the Weekend
SCORE = {"1": "1-0", "0": "0-1", "=": "1/2-1/2"}


def _x8_games() -> list[list]:
    games = []
    for n, (first, last) in LEAGUE.items():
        games += [["2026-01-10", n, 5 + n % 4, SCORE[first], "League"], ["2026-03-14", n, 5 + n % 4, SCORE[last], "League"]]
    for n, results in WEEKEND.items():
        games += [[f"2026-02-0{7 + k % 2}", n, 1 + k, SCORE[r], "Weekend"] for k, r in enumerate(results)]
    return games


@pytest.fixture(scope="module")
def x8(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("x8"), _x8_games())


@pytest.mark.parametrize("player, march, april, pooled_march, pooled_april", [
    # N1: League 0/2 (the first event, zero), Weekend 1.5/4. List 2026-03: the Weekend is not
    #   N1's first event: its 4 games are pooled (score 1.5), no rating yet (4 < 5). List 2026-04:
    #   the League is ignored, N1 still unrated: 4 games pooled. (Before X8 the Weekend was taken
    #   for the first event, the League counted: 6 games, Ra 1800, p = 2.5 / 8 = 0.3125 → 0.31,
    #   dp −141: 1659.)
    (21, None, None, (4, 1.5, 0), (0, 0.0, 2)),
    # N2: League 1/2 (the first event, not zero), Weekend 0/3. List 2026-03: the Weekend is not the
    #   first event: its 3 games are pooled even with a zero score. List 2026-04: the League counts:
    #   5 games, score 1; Ra 1800, p = (1 + 1) / 7 = 0.2857 → 0.29, dp −158: Ru = 1642 (rated: no
    #   pool left). (Before X8 the Weekend was ignored as the first event and N2 stayed unrated.)
    (22, None, 1642, (3, 0.0, 0), (0, 0.0, 0)),
    # N3: League 0/2, Weekend 2.5/5. List 2026-03: the Weekend's 5 games give a rating: Ra 1800,
    #   p = (2.5 + 1) / 7 = 0.50, dp 0: 1800. List 2026-04: N3, rated since, plays the League as a
    #   rated player (X3; "a player already rated from the later event is rated on the league's
    #   games as usual"): 1800 (K 40: 5 games) against 1800 twice, E 0.50: 40 × (0 − 1) = −40: 1760.
    #   (A player rated on a list keeps no pool.)
    (23, 1800, 1760, (0, 0.0, 0), (0, 0.0, 0)),
    # N4: League 2/2, Weekend 1/2: pooled 2 on list 2026-03 (unrated), then 4 (2 + 2 of the
    #   League, 3 points) on 2026-04: still unrated (4 < 5).
    (24, None, None, (2, 1.0, 0), (2, 2.0, 0)),
])
def test_x8_the_first_event_is_the_earliest_games_whichever_list_rates_it(x8, player, march, april,
                                                                          pooled_march, pooled_april):
    w, lists = x8
    assert list(lists.columns) == ["2026-03", "2026-04"]
    on = {list_id: None if pd.isna(lists[list_id].get(player)) else int(lists[list_id][player])
          for list_id in lists.columns}
    assert (on["2026-03"], on["2026-04"]) == (march, april)
    assert (_pooled(w, "2026-03", player), _pooled(w, "2026-04", player)) == (pooled_march, pooled_april)


def test_x8_the_card_replays_the_first_event_as_the_list_was_rated(x8):
    # A card replays one list from the warehouse (the first events known from the lists before
    # it), not the pass that rated it: the same verdicts.
    w, _ = x8
    n1 = cli_runner()("explain", 21, "--list", "2026-04", "--warehouse", w).output
    assert n1.count("loss  not counted: first event with a zero score (B02 8.2)") == 2
    assert "2 games of a first event with a zero score are ignored" in n1
    n2 = cli_runner()("explain", 22, "--list", "2026-03", "--warehouse", w).output
    assert n2.count("loss  joins the pool") == 3 and "first event" not in n2


def test_x8_a_league_taken_in_late_revises_the_list_of_a_tournament_rated_before_it(tmp_path):
    # The Weekend alone first: N2's 3 losses are their first event, ignored on list 2026-03.
    # Then the League (which started before it) is taken in: the Weekend is no longer N2's first
    # event, so list 2026-03 is recomputed (its signature reads the League's games of its window)
    # and pools the three games; every list is then the one a run from scratch makes.
    games = _x8_games()
    weekend = [g for g in games if g[4] == "Weekend"]
    w, _ = _run(tmp_path, weekend)
    assert _pooled(w, "2026-03", 22) == (0, 0.0, 3)
    cli_runner()("run", "--games", write_rows(tmp_path / "league.csv", ["date", "white_id", "black_id", "result",
                                                                        "event"], [g for g in games if g[4] == "League"]),
                 "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert _pooled(w, "2026-03", 22) == (3, 0.0, 0)
    clean = tmp_path / "clean"
    clean.mkdir()
    _, from_scratch = _run(clean, games)
    assert _lists(tmp_path / "out").equals(from_scratch)


@pytest.mark.parametrize("known, games, first", [
    # (day, event's first day, event rank, event key) of what was known and of the games; the
    # first event is the earliest game's: by day, then the earlier start, then the event id (rank).
    (None, [(10, 10, 2, 200), (9, 3, 5, 500)], 500),  # the earlier day, whatever the start
    (None, [(10, 10, 2, 200), (10, 4, 5, 500)], 500),  # the same day: the earlier start
    (None, [(10, 4, 2, 200), (10, 4, 5, 500)], 200),  # the same day and start: the smaller id
    ((8, 8, 9, 900), [(10, 4, 2, 200)], 900),  # known from an earlier list's games, and earlier
    ((11, 1, 1, 100), [(10, 4, 2, 200)], 200),  # known, but a later game
])
def test_x8_the_earliest_game_decides_the_first_event(known, games, first):
    firsts = FirstEvents.none(1)
    if known is not None:
        firsts.merge(np.zeros(1, dtype=np.int64), *(np.array([v]) for v in known))
    firsts.merge(np.zeros(len(games), dtype=np.int64), *(np.array(column) for column in zip(*games)))
    assert firsts.event[0] == first


# ---------------------------------------------------------------------------
# X9: the pool of a list holds the games of the 26 lists that end with it, counted in lists.
#
# N1 wins one game against A in "Early" (on the 10th of the month before the early list's
# month: inside its window), and draws A, B, C, D in "Late" (the month before list L). On L,
# with the early game: 5 games, opponents 5 × 1800, score 1 + 2 = 3: Ra 1800,
# p = (3 + 1) / 7 = 0.5714 → 0.57, dp +50: Ru = 1850. Without it: 4 games, unrated.
# (B and C draw in Early too: an event of two players would be a match, X6. E and F draw
# once a year between: a game more than two years from the others is taken for a typo.)

def _month_before(list_id: str) -> str:
    year, month = map(int, list_id.split("-"))
    day = dt.date(year, month, 1) - dt.timedelta(days=20)
    return f"{day.year}-{day.month:02d}-10"


@pytest.mark.parametrize("list_id, early, rating", [
    # February: list 2024-01 is the 26th; its window starts on 29 November 2023, which a cutoff
    # of "the window's end (29 January) + 1 day − 26 months" (30 November 2023) left out.
    ("2026-02", "2024-01", 1850),
    # May: list 2024-04's window starts on 28 February 2024 (a leap year); the date cutoff was 29 February.
    ("2026-05", "2024-04", 1850),
    # September: list 2024-08's window starts on 29 June 2024; the date cutoff was 30 June.
    ("2026-09", "2024-08", 1850),
    # March: list 2024-02 starts on 29 December 2023, the date cutoff 27 December: both keep it.
    ("2026-03", "2024-02", 1850),
    # 27 lists back: out of the pool, N1 has 4 games and stays unrated.
    ("2026-02", "2023-12", None),
])
def test_x9_the_pool_holds_the_26_lists_that_end_with_the_list(tmp_path, list_id, early, rating):
    games = [[_month_before(early), 21, 1, "1-0", "Early"], [_month_before(early), 2, 3, "1/2-1/2", "Early"],
             *[[f"{year}-06-10", 5, 6, "1/2-1/2", f"Club {year}"] for year in (2024, 2025)],
             *[[_month_before(list_id), 21, k, "1/2-1/2", "Late"] for k in (1, 2, 3, 4)]]
    w, lists = _run(tmp_path, games, players={**RATED, 21: "N1"})
    assert lists.columns[-1] == list_id
    got = lists[list_id].get(21)
    assert (None if pd.isna(got) else int(got)) == rating
    # Recomputed from the list, the pool is rebuilt from the warehouse, counted in lists too.
    assert "unchanged" in cli_runner()("rate", "--from", list_id, "--warehouse", w).output


# ---------------------------------------------------------------------------
# X6a: only declared events are matches; a calendar month of a plain game table in which
# only two players played is an event like any other.

@pytest.mark.parametrize("games, player, list_id, rating", [
    # N1 (unrated) and A alone in January 2026, without an event: not a match, N1's five games
    # are pooled: score 2.5, Ra 1800, p = (2.5 + 1) / 7 = 0.50, dp 0: Ru = 1800 on list 2026-02.
    # (As a match with an unrated player they were not rated at all, X6: N1 stayed unrated.)
    ([["2026-01-05", 21, 1, "1-0", ""], ["2026-01-06", 1, 21, "1-0", ""], ["2026-01-07", 21, 1, "1/2-1/2", ""],
      ["2026-01-08", 1, 21, "1-0", ""], ["2026-01-09", 21, 1, "1-0", ""]], 21, "2026-02", 1800),
    # The same games as an event the games file names ("Duel"): a match with an unrated player, not rated (X6).
    ([["2026-01-05", 21, 1, "1-0", "Duel"], ["2026-01-06", 1, 21, "1-0", "Duel"],
      ["2026-01-07", 21, 1, "1/2-1/2", "Duel"], ["2026-01-08", 1, 21, "1-0", "Duel"],
      ["2026-01-09", 21, 1, "1-0", "Duel"]], 21, "2026-02", None),
])
def test_x6a_a_month_of_two_players_without_an_event_is_no_match(tmp_path, games, player, list_id, rating):
    _, lists = _run(tmp_path, games, players={**RATED, 21: "N1"})
    got = lists[list_id].get(player)
    assert (None if pd.isna(got) else int(got)) == rating
