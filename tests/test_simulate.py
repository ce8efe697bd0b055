"""The synthetic federation (pipeline/simulate.py): deterministic, valid input
for the whole pipeline, and realistic enough to exercise its rules."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from click.testing import CliRunner

from pipeline.cli import main
from pipeline.simulate import simulate, windows
from tests.as_user import ratings

PLAYERS, LISTS, SEED = 2000, 3, 1
LIST_IDS = ["2020-01", "2020-05", "2020-09"]


@pytest.fixture(scope="module")
def federation(tmp_path_factory) -> dict[str, Path]:
    return simulate(PLAYERS, LISTS, SEED, tmp_path_factory.mktemp("sim"))


@pytest.fixture(scope="module")
def frames(federation) -> dict[str, pd.DataFrame]:
    return {kind: pd.read_csv(path, dtype=str, keep_default_na=False) for kind, path in federation.items()}


@pytest.fixture(scope="module")
def pipeline_run(federation, tmp_path_factory):
    """One `ratings run` on the simulated files: (output text, warehouse path, out folder)."""
    root = tmp_path_factory.mktemp("run")
    warehouse, out = root / "w.duckdb", root / "out"
    result = CliRunner().invoke(main, [
        "run", "--players", str(federation["players"]), "--ratings", str(federation["ratings"]),
        "--games", str(federation["games"]), "--warehouse", str(warehouse), "--out", str(out)],
        catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output, warehouse, out


def _lists(warehouse: Path) -> pd.DataFrame:
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        return con.sql("select * from lists left join performance_lists using (series, list_id) "
                       "order by list_id").df()
    finally:
        con.close()


def test_same_seed_same_bytes_other_seed_other_games(federation, tmp_path):
    again = simulate(PLAYERS, LISTS, SEED, tmp_path / "again")
    other = simulate(PLAYERS, LISTS, SEED + 1, tmp_path / "other")
    assert sorted(again) == sorted(federation) == ["games", "players", "ratings"]
    for kind in federation:
        assert again[kind].name == f"{kind}.csv"
        assert again[kind].read_bytes() == federation[kind].read_bytes()
    assert other["games"].read_bytes() != federation["games"].read_bytes()
    assert other["ratings"].read_bytes() != federation["ratings"].read_bytes()


def test_parquet_is_deterministic_and_holds_the_same_games(federation, tmp_path):
    first = simulate(PLAYERS, LISTS, SEED, tmp_path / "a", fmt="parquet")
    second = simulate(PLAYERS, LISTS, SEED, tmp_path / "b", fmt="parquet")
    for kind in first:
        assert first[kind].suffix == ".parquet"
        assert first[kind].read_bytes()[:4] == b"PAR1"
        assert first[kind].read_bytes() == second[kind].read_bytes()
    from_parquet = pd.read_parquet(first["games"]).astype(str)
    from_csv = pd.read_csv(federation["games"], dtype=str)
    assert from_parquet.values.tolist() == from_csv.values.tolist()
    with pytest.raises(ValueError):
        simulate(PLAYERS, LISTS, SEED, tmp_path / "c", fmt="xlsx")


def test_the_pipeline_accepts_every_row_and_publishes_every_list(pipeline_run):
    output, warehouse, out = pipeline_run
    counts = re.findall(r"^\s+(players|ratings|games)\s+.*read (\d+) = accepted (\d+) \+ rejected (\d+)$",
                        output, flags=re.M)
    assert sorted(kind for kind, *_ in counts) == ["games", "players", "ratings"], output
    for kind, read, accepted, rejected in counts:
        assert rejected == "0" and read == accepted, (kind, output)
    assert _lists(warehouse)["list_id"].tolist() == LIST_IDS
    for list_id in LIST_IDS:
        published = pd.read_csv(out / "lists" / f"{list_id}.csv")
        assert len(published) > PLAYERS // 2
        assert (out / "lists" / f"{list_id}.parquet").is_file()
        assert (out / "state" / f"{list_id}.parquet").is_file()
    lists = _lists(warehouse)
    assert (lists["new_players"] > 0).all()  # newcomers every window get first ratings


def test_forfeits_are_present_and_counted(frames, pipeline_run):
    results = frames["games"]["result"].value_counts()
    assert set(results.index) == {"1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"}
    share = results[["+/-", "-/+", "-/-"]].sum() / results.sum()
    assert 0.001 < share < 0.015
    draws = results["1/2-1/2"] / results.sum()
    assert 0.1 < draws < 0.35
    lists = _lists(pipeline_run[1])
    assert lists["forfeits"].sum() == results[["+/-", "-/+", "-/-"]].sum()


def test_school_days_make_unanchored_groups(frames, pipeline_run):
    games = frames["games"]
    school = games[games["event"].str.startswith("School day")]
    assert len(school) > 0
    lists = _lists(pipeline_run[1])
    assert (lists["unanchored_players"] > 0).all(), lists
    # School kids are unrated juniors without a club who meet nobody else.
    kids = set(school["white_id"]) | set(school["black_id"])
    others = games[~games["event"].str.startswith("School day")]
    players = frames["players"].set_index("player_id")
    assert (players.loc[sorted(kids), "club"] == "").all()
    assert not kids & set(frames["ratings"]["player_id"])
    first_window = others["date"] < "2020-01-01"
    assert not kids & (set(others.loc[first_window, "white_id"]) | set(others.loc[first_window, "black_id"]))


def test_about_two_games_per_player_per_list(frames):
    games = frames["games"]
    per_list = games.groupby(games["date"].map(_list_of)).size()
    assert per_list.index.tolist() == LIST_IDS
    assert ((per_list > 1.8 * PLAYERS) & (per_list < 2.6 * PLAYERS)).all(), per_list


def _list_of(date: str) -> str:
    day = dt.date.fromisoformat(date)
    return f"{day.year + 1}-01" if day.month >= 9 else (f"{day.year}-05" if day.month <= 4 else f"{day.year}-09")


def test_rows_are_well_formed(frames):
    players, ratings, games = frames["players"], frames["ratings"], frames["games"]
    ids = players["player_id"].astype(int)
    assert ids.is_unique and (ids > 0).all() and len(ids) == PLAYERS
    assert players["name"].str.fullmatch(r"Sim Player \d+").all()
    assert players["club"].str.fullmatch(r"(Club \d+)?").all()
    births = pd.to_numeric(players["birth_year"], errors="coerce")
    assert births.dropna().between(1930, 2019 - 6).all()
    assert (2020 - births < 20).sum() > PLAYERS // 10  # juniors
    # Games: unique ids, no self-play, no duplicate rows, dates in the windows, all in the registry.
    assert games["game_id"].astype(int).tolist() == list(range(1, len(games) + 1))
    assert (games["white_id"] != games["black_id"]).all()
    assert not games.drop(columns="game_id").duplicated().any()
    assert games["date"].min() >= "2019-09-01" and games["date"].max() <= "2020-08-31"
    assert set(games["white_id"]) | set(games["black_id"]) <= set(players["player_id"])
    assert {"Club", "Open", "School"} == set(games["event"].str.split().str[0])
    # Initial ratings: rated players on tens in 1000..2800; archives only for unrated players.
    rated = ratings[ratings["rating"] != ""]
    values = rated["rating"].astype(int)
    assert (values % 10 == 0).all() and values.between(1000, 2800).all()
    assert 1450 < values.mean() < 1750 and 200 < values.std() < 400
    assert (rated["archive_games"] == "").all()
    archived = ratings[ratings["rating"] == ""]
    assert len(archived) > 0 and archived["archive_games"].astype(int).between(1, 7).all()
    # Newcomers (and unrated players without archives) are in the registry, not in the ratings.
    assert 0 < PLAYERS - len(ratings) < PLAYERS // 2


def test_round_robins_and_swiss_rounds(frames):
    games = frames["games"]
    clubs = games[games["event"].str.startswith("Club")]
    sizes = clubs.groupby("event").apply(lambda g: len(set(g["white_id"]) | set(g["black_id"])))
    played = clubs.groupby("event").size()
    assert (played == sizes * (sizes - 1) // 2).all()  # all-play-all
    assert sizes.between(6, 12).all() and 8 <= sizes.mean() <= 12
    opens = games[games["event"].str.startswith("Open")]
    per_round = pd.concat([opens[["event", "round", "white_id"]].set_axis(["event", "round", "p"], axis=1),
                           opens[["event", "round", "black_id"]].set_axis(["event", "round", "p"], axis=1)])
    assert not per_round.duplicated().any()  # nobody plays twice in a round
    assert opens["round"].astype(int).between(1, 9).all()


def test_windows_follow_the_nominal_calendar():
    got = [(w.list_id, str(w.start), w.days) for w in windows("2020-05", 4)]
    assert got == [("2020-05", "2020-01-01", 121), ("2020-09", "2020-05-01", 123),
                   ("2021-01", "2020-09-01", 122), ("2021-05", "2021-01-01", 120)]
    with pytest.raises(ValueError):
        windows("2020-03", 2)


@pytest.mark.parametrize("first, said", [
    ("2020-13", "'2020-13' is not the id of a nominal list: YYYY-01, YYYY-05 or YYYY-09"),
    ("2020-02", "'2020-02' is not the id of a nominal list"),
    ("2020-1", "'2020-1' is not the id of a nominal list"),
    ("2020", "'2020' is not the id of a nominal list"),
    # Six lists from September 9998: 9998-09, 9999-01, -05, -09, then 10000-01.
    ("9998-09", "'9998-09' and 6 lists run from the year 9998 to 10000: a list's year is from 1000 to 9999"),
    ("0999-09", "'0999-09' and 6 lists run from the year 999 to 1001"),
])
def test_a_first_list_that_starts_no_simulation_is_a_usage_error_and_writes_nothing(tmp_path, first, said):
    # Issue 50: `simulate --first-list 2020-13` was an unexpected ValueError, after its folder was made.
    printed = ratings(tmp_path, "simulate", "--players", 10, "--first-list", first, "--out", "sim", code=2)
    assert f"Error: Invalid value for '--first-list': {said}" in printed
    assert not (tmp_path / "sim").exists()
