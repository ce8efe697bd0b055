"""FIDE rates a tournament as a whole (rulings X1-X4, X6), through `ratings run
--system fide`, every number computed by hand.

Table 8.1.2 rows used (expected score of the higher / lower rated):
  0–3: 0.50   18–25: 0.53/0.47   77–83: 0.61/0.39   84–91: 0.62/0.38
  99–106: 0.64/0.36   279–290: 0.84/0.16   392–411: 0.92/0.08   485–517: 0.96/0.04
Table 8.1.1: p 0.57 → dp +50.

The lists are monthly (list 2026-03 is dated 1 March 2026 and closes on 26 February,
three days before: X1). Players, with their initial ratings and games to date:
  1 A 2000 (100)   2 B 1800 (100)   3 C 2100 (100)   4 D 1900 (100)   6 E 1700 (100)
  5 N, 7 N2, 8 N3 unrated   9 G 2700 (500, K 10)   10 H 2200 (100)
  11 P 1600 (100)  12 Q 1600 (100)
"""
from __future__ import annotations

import re

import duckdb
import pandas as pd
import pytest

from tests.conftest import cli_runner, copy_built, write_rows

PLAYERS = [[1, "A", 1980], [2, "B", 1980], [3, "C", 1980], [4, "D", 1980], [5, "N", 1990], [6, "E", 1980],
           [7, "N2", 1990], [8, "N3", 1990], [9, "G", 1980], [10, "H", 1980], [11, "P", 1980], [12, "Q", 1980]]
RATINGS = [[1, 2000, 100, 2000], [2, 1800, 100, 1800], [3, 2100, 100, 2100], [4, 1900, 100, 1900],
           [6, 1700, 100, 1700], [9, 2700, 500, 2700], [10, 2200, 100, 2200], [11, 1600, 100, 1600],
           [12, 1600, 100, 1600]]
GAMES = [
    # X4: the 2650 rule by date (the exception from 1 October 2025).
    ["2025-09-20", 9, 10, "1-0", "Sep classic"],
    ["2025-10-20", 9, 10, "1-0", "Oct classic"],
    # X1: events ending 28, 29 and 30 January.
    ["2026-01-28", 11, 12, "1-0", "Ends 28"],
    ["2026-01-29", 11, 12, "1-0", "Ends 29"],
    ["2026-01-30", 11, 12, "1-0", "Ends 30"],
    # N's first event: five games against rated players, score 3.
    ["2026-01-05", 5, 1, "1-0", "Jan pool"], ["2026-01-06", 2, 5, "1/2-1/2", "Jan pool"],
    ["2026-01-07", 5, 3, "0-1", "Jan pool"], ["2026-01-08", 4, 5, "1/2-1/2", "Jan pool"],
    ["2026-01-10", 5, 6, "1-0", "Jan pool"],
    ["2026-01-20", 1, 2, "0-1", "Club Jan"],
    # X2 and X3: an event across the month end, with N, who is rated before it is.
    ["2026-01-28", 1, 3, "1/2-1/2", "Winter open"],
    ["2026-01-29", 5, 1, "1-0", "Winter open"],
    ["2026-02-03", 4, 5, "1/2-1/2", "Winter open"],
    # The first-event rule reads the whole event, across months: score 1, not 0.
    ["2026-01-25", 2, 8, "1-0", "Long"], ["2026-01-26", 6, 8, "1-0", "Long"], ["2026-02-05", 8, 3, "1-0", "Long"],
    # X6: a four-game match decided after three games; a match with an unrated player.
    ["2026-05-04", 2, 4, "1-0", "match-bd"], ["2026-05-05", 4, 2, "0-1", "match-bd"],
    ["2026-05-06", 2, 4, "1-0", "match-bd"], ["2026-05-07", 4, 2, "1-0", "match-bd"],
    ["2026-05-10", 7, 6, "1-0", "N2-E match"], ["2026-05-11", 6, 7, "1-0", "N2-E match"],
]
LATE_GAME = ["2026-03-03", 1, 6, "1-0", "late"]  # X1: a late report, rated on the list the events file names
EVENTS = [["match-bd", "B-D match", "2026-05-04", "2026-05-07", "", 4],
          ["late", "Late report", "2026-03-02", "2026-03-03", "2026-06", ""]]


def _files(tmp_path, games):
    return ["--players", write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"], PLAYERS),
            "--ratings", write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total", "peak_rating"],
                                    RATINGS),
            "--games", write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"], games),
            "--events", write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "rated_in",
                                                              "games_scheduled"], EVENTS)]


@pytest.fixture(scope="module")
def fide_events_once(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fide_events")
    cli_runner()("run", "--system", "fide", *_files(folder, [*GAMES, LATE_GAME]), "--warehouse", folder / "w.duckdb",
                 "--out", folder / "out", "--no-reports", "--format", "csv,txt")
    return folder


@pytest.fixture
def fide_events(fide_events_once, tmp_path):
    """(warehouse, out): a copy for this test of the run the module made once."""
    return copy_built(fide_events_once, tmp_path)


def _lists(out) -> pd.DataFrame:
    """Every player's rating on every list (NaN: not on it)."""
    return pd.DataFrame({p.stem: pd.read_csv(p).set_index("player_id")["rating"]
                         for p in sorted((out / "lists").glob("????-??.csv"))})


def _calc(w, list_id, player_id):
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute("select games, score, expected, k, change, rule from calculations natural left join fide_calculations "
                           "where series = 'fide' and list_id = ? and player_id = ?", [list_id, player_id]).fetchone()


def test_x4_the_2650_rule_applies_to_events_that_start_on_or_after_its_date(fide_events):
    lists = _lists(fide_events[1])
    # Sep classic (before 1 Oct 2025): D = 500 counts as 400, E = 0.92; G (K 10) 10 × 0.08 = 0.8 → +1;
    # H: 20 × (0 − 0.08) = −1.6 → −2.
    assert (lists.loc[9, "2025-10"], lists.loc[10, "2025-10"]) == (2701, 2198)
    # Oct classic: G 2701 uses the real difference 503: E = 0.96, 10 × 0.04 = 0.4 → 0 (capped: +1);
    # H, under 2650, is capped: D = −400, E = 0.08: −2 → 2196.
    assert (lists.loc[9, "2025-11"], lists.loc[10, "2025-11"]) == (2701, 2196)


def test_x1_an_event_is_rated_on_the_first_list_that_closes_on_or_after_its_last_day(fide_events):
    lists = _lists(fide_events[1])
    # List 2026-02 closes on 29 January: Ends 28 and Ends 29 are on it, both from 1600 v 1600
    # (E 0.50): P +10 +10 = +20 → 1620, Q 1580.
    assert (lists.loc[11, "2026-02"], lists.loc[12, "2026-02"]) == (1620, 1580)
    # Ends 30 is on list 2026-03, computed from the list in force on 30 January (2026-01: 1600 v 1600,
    # not list 2026-02's 1620 v 1580, X2): +10 → 1630, Q 1570.
    assert (lists.loc[11, "2026-03"], lists.loc[12, "2026-03"]) == (1630, 1570)


def test_x2_x3_an_event_across_the_month_end_with_a_newcomer(fide_events):
    w, out = fide_events
    lists = _lists(out)
    # List 2026-02 rates Jan pool and Club Jan. N: 5 games, opponents 2000 + 1800 + 2100 + 1900 + 1700 = 9500,
    # score 3: Ra = (9500 + 2 × 1800) / 7 = 1871.43, p = 4 / 7 = 0.571 → 0.57, dp +50: Ru = 1921.43 → 1921.
    # Club Jan: A (2000) loses to B (1800): E 0.76, 20 × −0.76 = −15.2 → 1985; B +15 → 1815.
    assert (lists.loc[5, "2026-02"], lists.loc[1, "2026-02"], lists.loc[2, "2026-02"]) == (1921, 1985, 1815)
    # Winter open (28 January … 3 February) is on list 2026-03, from the ratings of list 2026-01 (X2).
    # A draws C from 2000 v 2100 (not 1985): E 0.36, +0.14 × 20 = 2.8 → +3 on 1985: 1988. A's loss to N
    # does not count: N was unrated when the event started (X3).
    assert lists.loc[1, "2026-03"] == 1988
    assert _calc(w, "2026-03", 1)[:3] == (1, 0.5, 0.36)
    # C: 2100 v 2000, E 0.64: −0.14 × 20 = −2.8 → −3: 2097. D's draw with N does not count: 1900.
    assert (lists.loc[3, "2026-03"], lists.loc[4, "2026-03"]) == (2097, 1900)
    # N plays the event as a rated player (rated 1921 on list 2026-02, K 40: 5 games): against A
    # (2000 at the start) D = −79, E 0.39, S − E = +0.61; against D (1900) D = +21, E 0.53, S − E = −0.03.
    # 40 × 0.58 = 23.2 → +23: 1944.
    assert lists.loc[5, "2026-03"] == 1944
    games, score, expected, k, change, _ = _calc(w, "2026-03", 5)
    assert (games, score, expected, k, change) == (2, 1.5, pytest.approx(0.92), 40, 23)


def test_the_first_event_rule_reads_the_whole_event(fide_events):
    # N3 loses twice in January and wins on 5 February, all in Long (rated on list 2026-03):
    # the first event's score is 1, so its three games join the pool (per month, January's 0 would drop).
    with duckdb.connect(str(fide_events[0]), read_only=True) as con:
        assert con.execute("select list_id, games, score, ignored_games from pooled_games "
                           "where series = 'fide' and player_id = 8").fetchall() == [("2026-03", 3, 1.0, 0)]


def test_x6_matches(fide_events):
    w, out = fide_events
    lists = _lists(out)
    # B-D match (4 games scheduled): B wins the first three, so the fourth is played after the match was
    # decided and is not rated. From list 2026-05 (1815 v 1900, D = −85): E(B) 0.38, 3 × 0.62 × 20 = 37.2
    # → +37: 1852; D 3 × −0.62 × 20 = −37.2 → 1863 (with the fourth game B would get +30).
    assert (lists.loc[2, "2026-06"], lists.loc[4, "2026-06"]) == (1852, 1863)
    assert _calc(w, "2026-06", 2)[:2] == (3, 3.0)
    # N2-E match: N2 is unrated, so the match is not rated at all: nothing pooled, the rule says why.
    assert _calc(w, "2026-06", 7)[:2] == (0, 0.0)
    assert "X6" in _calc(w, "2026-06", 7)[5]


def test_x6_applies_to_two_players_only(cli, tmp_path):
    """A scheduled event of three players is no match, however its games fall: A (1) plays
    C (3) twice, then B (2). As a match of two games, A's two wins would decide it and the
    third game would go unrated; with three players every game is rated."""
    ratings = [[1, 2000, 100, 2000], [2, 1800, 100, 1800], [3, 1900, 100, 1900]]
    games = [["2026-05-04", 1, 3, "1-0", "trio"], ["2026-05-05", 3, 1, "0-1", "trio"],
             ["2026-05-06", 1, 2, "1-0", "trio"]]
    files = ["--players", write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year"], PLAYERS[:3]),
             "--ratings", write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total", "peak_rating"],
                                     ratings),
             "--games", write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result", "event"], games),
             "--events", write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date",
                                                               "games_scheduled"],
                                    [["trio", "Trio", "2026-05-04", "2026-05-06", 2]])]
    w = tmp_path / "w.duckdb"
    cli("run", "--system", "fide", *files, "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    # Rated on 2026-06 (X1: the list whose window holds 6 May): A 3 games, 3 points; B 1, 0; C 2, 0.
    assert [_calc(w, "2026-06", player)[:2] for player in (1, 2, 3)] == [(3, 3.0), (1, 0.0), (2, 0.0)]


def test_x1_a_late_report_is_rated_on_the_list_the_events_file_names(fide_events):
    lists = _lists(fide_events[1])
    # Late report (2–3 March) would be on list 2026-04; rated_in puts it on 2026-06, from the ratings of
    # list 2026-03 (A 1988, E 1700: D = 288, E 0.84): A +3.2 → +3: 1991; E −3.2 → −3: 1697.
    assert (lists.loc[1, "2026-04"], lists.loc[1, "2026-05"], lists.loc[1, "2026-06"]) == (1988, 1988, 1991)
    assert (lists.loc[6, "2026-05"], lists.loc[6, "2026-06"]) == (1700, 1697)


def test_a_late_result_recomputes_with_the_same_rules(cli, tmp_path):
    # Without the late report first; then it comes in: only list 2026-06 gets a new revision, computed
    # from the stored state of list 2026-03, with the late games as its reason.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "fide", *_files(tmp_path, GAMES), "--warehouse", w, "--out", out, "--no-reports")
    before = _lists(out)
    assert before.loc[1, "2026-06"] == 1988
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result", "event"], [LATE_GAME])
    cli("run", "--games", late, "--warehouse", w, "--out", out, "--no-reports")
    after = _lists(out)
    assert (after.loc[1, "2026-06"], after.loc[6, "2026-06"]) == (1991, 1697)
    assert after.drop(columns="2026-06").equals(before.drop(columns="2026-06"))
    with duckdb.connect(str(w), read_only=True) as con:
        revised = con.execute("select list_id, reason from list_revisions where series = 'fide' and revision = 2"
                              ).fetchall()
    assert [r[0] for r in revised] == ["2026-06"] and "late games" in revised[0][1]


def test_recomputing_from_a_list_gives_the_same_lists(cli, fide_events):
    # rate --from reads the start lists' stored states (X2): the same lists, no new revision.
    w, out = fide_events
    before = {p.name: p.read_bytes() for p in (out / "lists").glob("*")}
    for start in ("2026-03", "2026-05", "2026-06"):
        assert "unchanged" in cli("rate", "--from", start, "--warehouse", w).output
    cli("publish", "--warehouse", w, "--out", out, "--no-reports", "--format", "csv,txt")
    assert {p.name: p.read_bytes() for p in (out / "lists").glob("*")} == before


def test_the_card_shows_each_event_with_the_list_it_took_ratings_from(cli, fide_events):
    card = cli("explain", 1, "--list", "2026-03", "--warehouse", fide_events[0]).output
    assert "Event: Winter open (2026-01-28 … 2026-02-03), from the ratings of list 2026-01" in card
    assert "D = -100, E = 0.36, S − E = +0.14" in card
    assert "not counted: the opponent is unrated" in card  # N, unrated when the event started
    # Each game names the opponent and its day: 1 drew 3 (C) on 28 January, lost to 5 (N) on the 29th.
    assert re.search(r"\n +3  C +2026-01-28 +\d+ +draw", card) and re.search(r"\n +5  N +2026-01-29 +- +loss", card)
    card = cli("explain", 5, "--list", "2026-03", "--warehouse", fide_events[0]).output
    assert "own rating counted: 1921 (unrated when the event started, rated since: counted as rated, X3)" in card
    assert "Change = K × Σ(S − E) = 40 × +0.58 = +23.20 → +23" in card


def test_the_txt_list_carries_k_birth_year_and_the_inactive_flag(fide_events, cli, tmp_path, monkeypatch):
    w, out = fide_events
    lines = (out / "lists" / "2026-06.txt").read_text().splitlines()
    row = {int(line[:15]): line for line in lines[1:]}
    # K at column 124, B-day at 127, Flag at 133 (1-based). G (peak 2700): K 10, last game October
    # 2025, more than 12 months before 1 June 2026? No: 20 October 2025 is within: active. The
    # birth year is private: B-day stays blank until ratings.toml publishes it.
    assert (row[9][123:125].strip(), row[9][126:130].strip(), row[9][132:].strip()) == ("10", "", "")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").write_text("publish_birth_year = true\n")
    cli("publish", "--warehouse", w, "--out", tmp_path / "with-years", "--format", "txt", "--no-reports")
    lines = (tmp_path / "with-years" / "lists" / "2026-06.txt").read_text().splitlines()
    row = {int(line[:15]): line for line in lines[1:]}
    assert (row[9][123:125].strip(), row[9][126:130], row[9][132:].strip()) == ("10", "1980", "")
    # N: 7 rated games (5 pooled + 2), K 40, born 1990.
    assert (row[5][123:125].strip(), row[5][126:130]) == ("40", "1990")
    # P last played 30 January 2026: active on 2026-06. On a list a year later P would be inactive:
    # tested in test_inactive_flag_after_twelve_months.


def test_inactive_flag_after_twelve_months(cli, tmp_path):
    # P plays in January 2026 and Q again in March 2027: on list 2027-02 (1 February 2027) P's last
    # rated game (28 January 2026) is more than 12 months old: flag i; on 2027-01 it is not.
    games = [["2026-01-28", 11, 12, "1-0", "Jan"], ["2027-03-10", 12, 9, "0-1", "Mar"]]
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--system", "fide", *_files(tmp_path, games), "--warehouse", w, "--out", out, "--no-reports",
        "--format", "csv,txt")
    flags = {}
    for list_id in ("2027-01", "2027-02"):
        lines = (out / "lists" / f"{list_id}.txt").read_text().splitlines()[1:]
        flags[list_id] = {int(line[:15]): line[132:].strip() for line in lines}
    assert flags["2027-01"][11] == "" and flags["2027-02"][11] == "i"
    # A never played in the history, which began with list 2026-02 (window from 30 December 2025):
    # inactive once that is more than 12 months back.
    assert flags["2027-01"][1] == "i"


def test_a_tournament_file_is_one_event(cli, tmp_path):
    # A TRF whose rounds are 30 January, 31 January and 1 February 2026: one event, rated on list
    # 2026-03 (it ends after list 2026-02 closed), from the initial ratings (in force on 30 January),
    # although list 2026-02 rates player 1's club game of 10 January first.
    from tests.test_trf import player
    trf = tmp_path / "cross.trf"
    trf.write_text("\n".join([
        "012 Cross Open", "042 2026/01/30", "052 2026/02/01",
        "132".ljust(91) + "26/01/30  26/01/31  26/02/01",
        player(1, "One, A", 2.0, "   4 w 1", "   3 b =", "   2 w ="),
        player(2, "Two, B", 2.0, "   3 w =", "   4 b 1", "   1 b ="),
        player(3, "Three, C", 2.0, "   2 b =", "   1 w =", "   4 w 1"),
        player(4, "Four, D", 0.0, "   1 b 0", "   2 w 0", "   3 b 0")]), encoding="utf-8")
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "fide_id"],
                         [[i, f"Registered {i}", 100 + i] for i in range(1, 5)])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "games_total"],
                         [[1, 2000, 100], [2, 1900, 100], [3, 1800, 100], [4, 1700, 100]])
    club = write_rows(tmp_path / "club.csv", ["date", "white_id", "black_id", "result"], [["2026-01-10", 1, 2, "1-0"]])
    out = tmp_path / "out"
    cli("run", "--system", "fide", "--players", players, "--ratings", ratings, "--games", club, "--games", trf,
        "--warehouse", tmp_path / "w.duckdb", "--out", out, "--no-reports")
    lists = _lists(out)
    # List 2026-02: 1 (2000) beats 2 (1900): E 0.64, 20 × 0.36 = 7.2 → 2007; 2: 1893.
    assert (lists.loc[1, "2026-02"], lists.loc[2, "2026-02"]) == (2007, 1893)
    # List 2026-03, from 2000 / 1900 / 1800 / 1700: player 1 beats 4 (D 300, E 0.85: +0.15), draws 3
    # (D 200, E 0.76: −0.26) and 2 (D 100, E 0.64: −0.14): 20 × −0.25 = −5 → 2002. Player 2 draws 3
    # (E 0.64: −0.14), beats 4 (E 0.76: +0.24), draws 1 (E 0.36: +0.14): 20 × 0.24 = 4.8 → +5 → 1898.
    assert (lists.loc[1, "2026-03"], lists.loc[2, "2026-03"]) == (2002, 1898)


def test_games_alike_but_for_their_event_come_in_one_order():
    """Two games of the same players, list and score may come from events that started
    from different lists (other ratings, other K): whatever order the query gives them
    in, they are summed in one order, so that a recomputation with nothing changed
    gives the same bits (and no new revision)."""
    import itertools

    import numpy as np

    from pipeline.ruleset.games import _canonical_order

    rows = [(1, 5, 7, 1.0, "event b", "2026-01"), (1, 5, 7, 1.0, "event a", None),
            (1, 5, 7, 1.0, "event a", "2025-12"), (1, 3, 7, 0.5, "event c", "2026-01")]
    orders = set()
    for permutation in itertools.permutations(rows):
        columns = [np.array(c, dtype=object if k >= 4 else (float if k == 3 else np.int64))
                   for k, c in enumerate(zip(*permutation))]
        out = _canonical_order(*columns)
        orders.add(tuple(zip(*(c.tolist() for c in out))))
    assert len(orders) == 1
    # By list, white, black, score, then event and start list (none last).
    assert [r[4:] for r in orders.pop()] == [("event c", "2026-01"), ("event a", "2025-12"), ("event a", None),
                                            ("event b", "2026-01")]


def test_only_the_tied_games_are_sorted_by_what_they_carry():
    """The canonical order sorts by the carried columns only the games that share list,
    players and score with another; it is the order of one sort by every column."""
    import numpy as np

    from pipeline.ruleset.games import _canonical_order

    def one_sort(list_index, white, black, score, *carried):
        code = np.where(np.isnan(score), 3, score * 2)
        ranks = [pd.factorize(c, sort=True, use_na_sentinel=False)[0] for c in carried]
        order = np.lexsort((*reversed(ranks), code, black, white, list_index))
        return [k[order] for k in (list_index, white, black, score, *carried)]

    rng = np.random.default_rng(18)
    for _ in range(200):
        n = int(rng.integers(1, 300))
        keys = [rng.integers(1, 4, n), rng.integers(0, 6, n), rng.integers(0, 6, n),
                rng.choice([0.0, 0.5, 1.0, np.nan], n)]
        event = np.array(rng.choice(["a", "b", "c", None], n), dtype=object)
        start = np.array(rng.choice(["2026-01", "2025-12", None], n), dtype=object)
        for carried in ([event, start], [event], [rng.integers(0, 3, n).astype(float)]):
            got, expected = _canonical_order(*keys, *carried), one_sort(*keys, *carried)
            assert all(pd.Series(g).equals(pd.Series(e)) for g, e in zip(got, expected))
