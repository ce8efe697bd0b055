"""`ratings evaluate` and `ratings compare` on Go series (issue 53): each Go game scored by
the list in force on its day (an event's list from the day after the event), by the
Belgian rules' own forecast (A of table I at White's points, the handicap White gives)
and by the logistic yardstick on a scale fitted to Go points; the 1984 rules, which
declare no forecast, by the yardstick alone. Worked by hand on a small club, and
recomputed with numpy, independently of pipeline/, over a simulated season."""
from __future__ import annotations

import csv
import math
import re
from datetime import date

import duckdb
import numpy as np
import pandas as pd
import pytest

from pipeline.analysis.played import BY_DEFAULT
from pipeline.analysis.scales import fitted_scale
from pipeline.systems.go import BY_DEFAULT as RULES_BY_DEFAULT
from pipeline.warehouse import stage_sql
from tests.as_user import completed, ratings
from tests.conftest import PROJECT_DIR, write_rows

GO_GAMES = ["event_id", "date", "black_id", "white_id", "winner", "handicap"]
EVENTS = ["event_id", "name", "start_date", "end_date", "class", "board_size"]


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """Four players with starting points (3 dan 250, 2 dan 120, 4 kyu −350, 15 kyu −1500),
    three events, rated by both Go rule sets. The four games of e1 are scored by the
    starting points (the list `(initial)`, in force from the first event's first day),
    e2's by e1's list (dated 2026-01-12), e3's by e2's; e2's game won by default never."""
    folder = tmp_path_factory.mktemp("go-club")
    players = write_rows(folder / "players.csv", ["player_id", "name"],
                         [[1, "Anna"], [2, "Bram"], [3, "Cleo"], [4, "Dirk"]])
    initial = write_rows(folder / "ratings.csv", ["player_id", "rating"], [[1, 250], [2, 120], [3, -350], [4, -1500]])
    events = write_rows(folder / "events.csv", EVENTS, [
        ["e1", "Winter open", "2026-01-10", "2026-01-11", "B", 19],
        ["e2", "Club night", "2026-02-07", "2026-02-07", "C", 19],
        ["e3", "Spring open", "2026-03-07", "2026-03-07", "B", 19]])
    games = write_rows(folder / "games.csv", GO_GAMES, [
        ["e1", "2026-01-10", 2, 1, "B", 0],
        ["e1", "2026-01-11", 3, 2, "W", 2],
        ["e1", "2026-01-11", 4, 3, "jigo", 5],
        ["e1", "2026-01-11", 1, 2, "B", 0],
        ["e2", "2026-02-07", 3, 1, "B+F", 0],  # won by default: counted, never rated, never scored
        ["e2", "2026-02-07", 4, 2, "W", 9],
        ["e3", "2026-03-07", 2, 1, "W", 1]])
    ratings(folder, "run", "--system", "go-belgium", "--players", players, "--ratings", initial, "--events", events,
            "--games", games, "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    ratings(folder, "rate", "--system", "go-ffg1984", "--warehouse", "w.duckdb")
    return folder


def scored_games(folder, name="scores") -> pd.DataFrame:
    """forecasts.parquet with each game's day, White and Black (a Go game's id is its game_key)."""
    forecasts = pd.read_parquet(folder / name / "forecasts.parquet")
    with duckdb.connect(str(folder / "w.duckdb"), read_only=True) as con:
        games = con.sql("select game_key::varchar as game_id, date::varchar as date, white_id, black_id, handicap "
                        "from go_games").df()
    return forecasts.merge(games, on="game_id", how="left")


def whole_line(printed: str, source: str) -> list[str]:
    return next(x.split() for x in printed.splitlines() if x.split()[:1] == [source])


def log_loss(p, s) -> float:
    p, s = np.asarray(p, dtype=float), np.asarray(s, dtype=float)
    return float(np.mean(-(s * np.log(p) + (1 - s) * np.log(1 - p))))


def test_the_belgian_forecast_of_the_first_games_by_hand(club):
    printed = ratings(club, "evaluate", "--system", "go-belgium", "--warehouse", "w.duckdb", "--out", "scores")
    games = scored_games(club).query("source == 'go-belgium'")
    # Six games scored: the one won by default (B+F) never is, as a chess forfeit.
    assert len(games) == 6 and games["list_id"].tolist() == ["(initial)"] * 4 + ["e1", "e2"]
    first = games.set_index(["date", "white_id", "black_id"]).loc[:, ["forecast", "score"]]
    # White's expectation as rate_event computes White's side, from the starting points:
    # d = White − Black − (h − 0.5) × 100 (White gives the h stones, G3; nothing at h = 0);
    # A of table I at White's points, linear between rows (120: between 50, A 100, and 150,
    # A 95: 100 − 5 × 70/100 = 96.5; 250 is a row: 90; −350 a row: 120); the stronger
    # (d > 0) expects 0.986 − 1/(e^(d/A) + 1), the weaker 1/(e^(−d/A) + 1).
    # Anna 250 (White) and Bram 120, even: d = 130, 0.986 − 1/(e^(130/90) + 1) = 0.795142; Bram won.
    assert first.loc[("2026-01-10", 1, 2)].tolist() == pytest.approx([0.795142, 0.0], abs=1e-6)
    # Bram 120 (White) gives Cleo −350 two stones: d = 470 − 150 = 320, 0.986 − 1/(e^(320/96.5) + 1) = 0.950976.
    assert first.loc[("2026-01-11", 2, 3)].tolist() == pytest.approx([0.950976, 1.0], abs=1e-6)
    # Cleo −350 (White) gives Dirk −1500 five stones: d = 1150 − 450 = 700, A 120:
    # 0.986 − 1/(e^(700/120) + 1) = 0.983080; a jigo scores ½, as a chess draw.
    assert first.loc[("2026-01-11", 3, 4)].tolist() == pytest.approx([0.983080, 0.5], abs=1e-6)
    # Bram 120 (White) against Anna 250, even: d = −130, the weaker: 1/(e^(130/96.5) + 1) = 0.206337; Anna won.
    assert first.loc[("2026-01-11", 2, 1)].tolist() == pytest.approx([0.206337, 0.0], abs=1e-6)
    # Printed: six games, the own forecast's log-loss, and the yardstick's scale said.
    line = whole_line(printed, "go-belgium")
    assert line[1:3] == ["6", f"{log_loss(games['forecast'], games['score']):.4f}"] and line[-2:] == ["its", "own"]
    said = re.search(r"go-belgium: the yardstick 1 / \(1 \+ 10\^\(−D/S\)\) on its go ratings \(not on the Elo "
                     r"scale\), S fitted by maximum likelihood on its 6 games: ([0-9.]+)", printed)
    assert said, printed
    # The yardstick at that scale, on the points alone (no handicap: one number, as for chess).
    with duckdb.connect(str(club / "w.duckdb"), read_only=True) as con:
        points = dict(con.sql("select player_id, rating from player_state where series = 'go-belgium' "
                              "and list_id = 'e2'").fetchall())
    last = games.iloc[-1]  # e3: Anna (White) against Bram, on e2's list
    scale = float(said.group(1))
    assert last["yardstick"] == pytest.approx(1 / (1 + 10 ** (-(points[1] - points[2]) / scale)), rel=1e-5)


def test_the_1984_rules_are_scored_by_the_yardstick_alone_and_say_so(club):
    printed = ratings(club, "evaluate", "--system", "go-belgium", "--system", "go-ffg1984", "--warehouse", "w.duckdb",
                      "--out", "both")
    line = whole_line(printed, "go-ffg1984")
    assert " ".join(line[6:]) == "the yardstick (no forecast of its own)"
    assert line[2:4] == line[4:6]  # its log-loss and Brier are the yardstick's
    assert "go-ffg1984: the yardstick 1 / (1 + 10^(−D/S)) on its go ratings" in printed
    games = scored_games(club, "both").query("source == 'go-ffg1984'")
    assert (games["forecast"] == games["yardstick"]).all() and len(games) == 6
    accuracy = pd.read_csv(club / "both" / "accuracy.csv").query("list_id != list_id").set_index("source")
    assert accuracy.loc["go-ffg1984", "forecast"] == "yardstick" and accuracy.loc["go-belgium", "forecast"] == "own"
    # With no source named, every series of the warehouse is scored: both Go rule sets.
    every = ratings(club, "evaluate", "--warehouse", "w.duckdb")
    assert whole_line(every, "go-belgium")[1] == whole_line(every, "go-ffg1984")[1] == "6"


def test_compare_sets_two_go_series_side_by_side(club):
    printed = ratings(club, "compare", "go-belgium", "go-ffg1984", "--warehouse", "w.duckdb", "--out", "cmp")
    # The starting points and each event's list, each beside the other rule set's of its day.
    assert "4 lists of go-belgium compared with go-ffg1984's" in printed
    assert " ".join(whole_line(printed, "go-ffg1984")[6:]) == "the yardstick (no forecast of its own)"
    lists = pd.read_csv(club / "cmp" / "lists.csv")
    assert lists["list_id"].tolist() == lists["b_list_id"].tolist() == ["(initial)", "e1", "e2", "e3"]
    assert lists["games_scored"].tolist()[:1] == [4]  # e1's four games, by the starting points


def test_a_chess_file_against_a_go_series_is_one_message(club):
    """A file of ratings names players, not a game: it is scored on the warehouse's games
    (Go's here). A chess federation's list, whose ids are not the Go club's players, meets
    none of them: one message naming it, not an empty score."""
    write_rows(club / "federation.csv", ["player_id", "list_id", "rating"],
               [[20101, "2026-01", 1850], [20102, "2026-01", 1720]])
    refused = completed(club, "evaluate", "--system", "go-belgium", "--ratings", "federation.csv",
                        "--warehouse", "w.duckdb", code=1)
    said = refused.stdout + refused.stderr
    assert "federation.csv: none of its 2 players plays a game of the warehouse, whose games are go's" in said
    assert len([x for x in said.splitlines() if x.strip()]) == 1


def test_a_file_of_forecasts_names_a_go_game_by_its_game_key(club):
    """What --out writes of the Go games (their game_key as game_id) reads back as a file of
    forecasts, scored as the Belgian rules' own forecast was, on the same six games."""
    ratings(club, "evaluate", "--system", "go-belgium", "--warehouse", "w.duckdb", "--out", "back")
    mine = pd.read_parquet(club / "back" / "forecasts.parquet")
    mine.rename(columns={"forecast": "probability"})[["game_id", "probability"]].to_csv(club / "mine.csv", index=False)
    printed = ratings(club, "evaluate", "--system", "go-belgium", "--forecasts", "mine.csv", "--warehouse", "w.duckdb")
    assert whole_line(printed, "mine")[1:4] == whole_line(printed, "go-belgium")[1:4]
    assert whole_line(printed, "mine")[1] == "6"


def test_compare_sets_a_list_beside_the_last_rated_of_the_others_lists_of_its_day():
    """B's two events ending on one day are in force from the next: the one rated last
    (list_order), which holds the other's games, whatever their ids' order."""
    for order in ("asc", "desc"):  # in either order the rows are added in
        con = duckdb.connect()
        con.execute(f"""create table source_ratings as select * from (values
            ('a', 'e9', date '2026-11-09', 1, 100.0, 7), ('b', 'a-night', date '2026-11-09', 1, 120.0, 5),
            ('b', 'z-weekend', date '2026-11-09', 1, 90.0, 4))
            t(source, list_id, list_date, player_id, rating, list_order) order by list_id {order}""")
        con.execute(f"""create table source_lists as select source, list_id, list_date, list_order, count(*) as players
                        from source_ratings group by all order by list_id {order}""")
        con.execute("set variable a = 'a'")
        con.execute("set variable b = 'b'")
        assert con.sql(stage_sql("analysis/compared_pairs")).fetchall() == [
            ("e9", date(2026, 11, 9), "a-night", 1, 100.0, 120.0)], order


def test_the_rules_and_the_analysis_agree_on_games_won_by_default():
    assert BY_DEFAULT == RULES_BY_DEFAULT


# A simulated season: 40 players, nine events (two end on one day, rated in the order end
# date, start date, id: the later-starting one, whose id sorts first, is rated last; a long
# league overlaps the others; one is named like a month, and is in force from the day after
# it all the same, not from the first of its month), even and handicap games, jigos, games
# won by default.
SEASON = [  # event_id, start, end, class, board size
    ("autumn", "2026-09-05", "2026-09-06", "B", 19), ("club-oct", "2026-10-03", "2026-10-03", "C", 19),
    ("league", "2026-09-12", "2026-12-12", "C", 19), ("z-weekend", "2026-11-07", "2026-11-08", "A", 19),
    ("a-night", "2026-11-08", "2026-11-08", "C", 13), ("club-dec", "2026-12-05", "2026-12-05", "D", 19),
    ("2027-01", "2027-01-09", "2027-01-10", "B", 19), ("club-feb", "2027-02-06", "2027-02-06", "C", 9),
    ("spring", "2027-03-06", "2027-03-07", "A", 19)]


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    rng = np.random.default_rng(53)
    folder = tmp_path_factory.mktemp("go-season")
    n = 40
    strength = rng.uniform(-1800, 600, n).round(1)
    players = write_rows(folder / "players.csv", ["player_id", "name"], [[i + 1, f"P{i + 1}"] for i in range(n)])
    initial = write_rows(folder / "ratings.csv", ["player_id", "rating"],
                         [[i + 1, strength[i]] for i in range(n)])
    events = write_rows(folder / "events.csv", EVENTS, [[e, e, s, t, c, b] for e, s, t, c, b in SEASON])
    rows = []
    for event, start, end, _, _ in SEASON:
        days = pd.date_range(start, end, freq="D").strftime("%Y-%m-%d").to_numpy()
        met = set()
        while len(met) < 24:
            a, b = rng.choice(n, 2, replace=False)
            if (a, b) in met or (b, a) in met:  # a pair once an event: the same game twice is a duplicate
                continue
            met.add((a, b))
            weaker, stronger = (a, b) if strength[a] < strength[b] else (b, a)
            gap = strength[stronger] - strength[weaker]
            stones = int(min(9, gap // 100)) if rng.random() < 0.5 else 0
            p_white = 1 / (1 + math.exp(-(gap - 100 * max(stones - 0.5, 0)) / 110))
            u = rng.random()
            winner = ("W+F" if u < 0.02 else "B+F" if u < 0.04 else "jigo" if u < 0.06
                      else "W" if rng.random() < p_white else "B")
            rows.append([event, rng.choice(days), weaker + 1, stronger + 1, winner, stones])
    games = write_rows(folder / "games.csv", GO_GAMES, rows)
    ratings(folder, "run", "--system", "go-belgium", "--players", players, "--ratings", initial, "--events", events,
            "--games", games, "--warehouse", "w.duckdb", "--out", "out", "--no-reports")
    return folder


def table_one() -> np.ndarray:
    with open(PROJECT_DIR / "pipeline" / "systems" / "go_belgium" / "go-belgium-table-1.csv", newline="") as fh:
        return np.array([[float(r["rating"]), float(r["a"])] for r in csv.DictReader(fh)])


def independent_season(folder) -> pd.DataFrame:
    """Each scored game's list, own forecast and yardstick's difference, from the warehouse's
    stored points and the input files, with numpy and pandas, not with pipeline/."""
    with duckdb.connect(str(folder / "w.duckdb"), read_only=True) as con:
        state = con.sql("select list_id, player_id, rating from player_state where series = 'go-belgium'").df()
        keys = con.sql("select game_key::varchar as game_id, event_id, date::varchar as date, black_id, white_id, "
                       "winner, handicap from go_games").df()
    initial = pd.read_csv(folder / "ratings.csv").assign(list_id="(initial)")
    points = pd.concat([state, initial]).set_index(["list_id", "player_id"])["rating"]
    events = pd.read_csv(folder / "events.csv")
    # The Belgian order of rating: end date, then start date, then id; each event's list in
    # force from the day after it, the starting points from the first event's first day; of
    # lists in force from one day, the last rated.
    events = events.sort_values(["end_date", "start_date", "event_id"]).reset_index(drop=True)
    lists = pd.DataFrame({"list_id": ["(initial)", *events["event_id"]],
                          "from": pd.to_datetime([events["start_date"].min(), *events["end_date"]])
                          + pd.to_timedelta([0] + [1] * len(events), unit="D")})
    lists = lists.groupby("from", as_index=False).last()
    games = keys[~keys["winner"].isin(["B+F", "W+F"])].assign(day=lambda g: pd.to_datetime(g["date"]))
    games = pd.merge_asof(games.sort_values("day"), lists, left_on="day", right_on="from")
    games["score"] = games["winner"].map({"W": 1.0, "B": 0.0, "jigo": 0.5})
    white = points.reindex(list(zip(games["list_id"], games["white_id"]))).to_numpy()
    black = points.reindex(list(zip(games["list_id"], games["black_id"]))).to_numpy()
    games = games.assign(white=white, black=black).dropna(subset=["white", "black"])
    t = table_one()
    w, h = games["white"].to_numpy(), games["handicap"].to_numpy(float)
    # A of table I: linear between rows, flat above the last (G5), the first rows' slope below.
    a = np.where(w < t[0, 0], t[0, 1] + (w - t[0, 0]) * (t[1, 1] - t[0, 1]) / (t[1, 0] - t[0, 0]),
                 np.interp(w, t[:, 0], t[:, 1]))
    d = w - games["black"].to_numpy() - np.where(h >= 1, (h - 0.5) * 100, 0.0)
    games["forecast"] = np.where(d <= 0, 1 / (np.exp(-d / a) + 1), 0.986 - 1 / (np.exp(np.minimum(d / a, 700)) + 1))
    games["difference"] = w - games["black"].to_numpy()
    return games


def fitted_by_golden_section(d: np.ndarray, s: np.ndarray) -> float:
    """S maximising the yardstick's likelihood, by a golden-section search on ln S (not Newton's)."""
    def loss(log_s):
        p = np.clip(1 / (1 + 10 ** (-d / math.exp(log_s))), 1e-15, 1 - 1e-15)
        return -np.sum(s * np.log(p) + (1 - s) * np.log(1 - p))
    lo, hi, g = math.log(10), math.log(100000), (math.sqrt(5) - 1) / 2
    for _ in range(200):
        x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
        lo, hi = (lo, x2) if loss(x1) < loss(x2) else (x1, hi)
    return math.exp((lo + hi) / 2)


def test_a_simulated_season_agrees_with_an_independent_recomputation(season):
    printed = ratings(season, "evaluate", "--system", "go-belgium", "--warehouse", "w.duckdb", "--out", "scores")
    mine = independent_season(season).set_index("game_id")
    got = pd.read_parquet(season / "scores" / "forecasts.parquet").set_index("game_id")
    assert sorted(got.index) == sorted(mine.index) and len(got) > 150
    mine = mine.loc[got.index]
    assert got["list_id"].tolist() == mine["list_id"].tolist()
    # The day after two events ending on one day: the later-rated (a-night) is in force.
    assert "a-night" in set(got["list_id"]) and "z-weekend" not in set(got["list_id"])
    # The event named like a month scores none of its own games (played 2027-01-09 and 10).
    assert not got.loc[got["list_id"] == "2027-01"].index.isin(mine.query("event_id == '2027-01'").index).any()
    assert got["score"].tolist() == mine["score"].tolist() and (got["score"] == 0.5).any()
    assert got["forecast"].to_numpy() == pytest.approx(mine["forecast"].to_numpy(), abs=1e-12)
    scale = fitted_by_golden_section(mine["difference"].to_numpy(), mine["score"].to_numpy())
    said = float(re.search(r"S fitted by maximum likelihood on its [0-9,]+ games: ([0-9.]+)", printed).group(1))
    assert said == pytest.approx(scale, rel=1e-5)
    yardstick = 1 / (1 + 10 ** (-mine["difference"].to_numpy() / scale))
    assert got["yardstick"].to_numpy() == pytest.approx(yardstick, abs=1e-7)
    line = whole_line(printed, "go-belgium")
    assert line[1:3] == [f"{len(mine):,}", f"{log_loss(mine['forecast'], mine['score']):.4f}"]
    assert line[4] == f"{log_loss(yardstick, mine['score']):.4f}"


def test_the_scale_is_fitted_where_plain_newton_overshot():
    """The club's six games (White's points less Black's, White's score): a jigo and a
    9-stone game far out pushed plain Newton's method from S = 400 to a negative b, and no
    scale was said; the safeguarded one finds the maximum a golden-section search finds."""
    d = np.array([130.0, 470.0, 1150.0, -130.0, 1608.9, 105.7])
    s = np.array([0.0, 1.0, 0.5, 0.0, 1.0, 1.0])
    assert fitted_scale(d, s) == pytest.approx(fitted_by_golden_section(d, s), rel=1e-6)
    # Every game won by the higher rated: no finite scale; nor for equal ratings.
    assert fitted_scale(np.array([100.0, 200.0]), np.array([1.0, 1.0])) is None
    assert fitted_scale(np.zeros(3), np.ones(3)) is None
