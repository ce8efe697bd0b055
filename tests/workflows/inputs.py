"""The files a rating officer has, written into a scratch folder: a season's registry,
initial ratings, the arbiters' TRF files and the league's table (made from a federation
`ratings simulate` writes), and the embedded sample as the Belgian history's files.

Each is written the way a user's file comes: CSV tables with a header, TRF files of a
pairing program (the project's TRF writer, whose files the reader takes back whole:
tests/test_trf.py), Parquet tables of the sample."""
from __future__ import annotations

import csv
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from bench.belgium_inputs import list_windows
from pipeline.formats.trf import trf_text
from tests.conftest import PROJECT_DIR
from tests.workflows.helpers import ratings

SAMPLE = PROJECT_DIR / "data" / "sample"
OFFICIAL_RATINGS = PROJECT_DIR / "tests" / "fixtures" / "belgium" / "official_ratings.parquet"
BELGIUM = PROJECT_DIR / "data" / "belgium"
TRF_FIXTURES = PROJECT_DIR / "tests" / "fixtures" / "trf"
GO_FIXTURES = PROJECT_DIR / "tests" / "fixtures" / "go"

# The README's season: player 12345's list 2027-01 (the games of 2026-09-01 ... 2026-12-31).
SEASON_PLAYER = 12345
SEASON_LIST = "2027-01"
FIDE_ID_BASE = 205_000_000  # the registry's fide_id: the FIDE ids the arbiters' TRF files carry
TRF_NAMES = ("masters", "open", "rapid")  # autumn/*.trf, taken in in this order: submissions 5, 6, 7
GAME_COLUMNS = ["game_id", "date", "white_id", "black_id", "result", "event", "round"]


def write_csv(path: Path, header: list[str], rows: list[list]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    return path


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def simulated(folder: Path, players: int, lists: int, first_list: str, seed: int = 1) -> Path:
    """`ratings simulate` into folder/sim, as a user makes a federation to try the pipeline on."""
    ratings("simulate", "--players", players, "--lists", lists, "--first-list", first_list, "--seed", seed,
            "--out", "sim", cwd=folder)
    return folder / "sim"


def write_season(folder: Path) -> dict[str, Path]:
    """The README's season, command by command: registry.csv (with each player's fide_id),
    ratings.csv, autumn/*.trf (the three biggest opens, as an arbiter's pairing program
    writes them: masters, open, rapid), open-v2.trf (the open's arbiter's corrected file:
    one result the other way), league.csv (the club championships, two rows with a clerk's typos:
    an unknown player and a day that does not exist), league-v2.csv (the league's
    corrected file: those two rows right and one result changed) and friendly.csv (one
    club's games, not a rated event). Player ids are shifted so that 12345 is the player
    of the league with the most games."""
    (folder / ".sim").mkdir()
    sim = simulated(folder / ".sim", players=1500, lists=1, first_list=SEASON_LIST, seed=3)
    con = duckdb.connect()
    games = con.execute(f"select * from read_csv('{sim}/games.csv', all_varchar = true)").df()
    players = con.execute(f"select * from read_csv('{sim}/players.csv', all_varchar = true)").df()
    initial = con.execute(f"select * from read_csv('{sim}/ratings.csv', all_varchar = true)").df()
    con.close()

    in_league = games["event"].str.contains("championship")
    sides = pd.concat([games.loc[in_league, "white_id"], games.loc[in_league, "black_id"]]).astype("int64")
    rated = set(initial.loc[initial["rating"].notna(), "player_id"].astype("int64"))
    busiest = sides[sides.isin(rated)].value_counts().sort_index().sort_values(ascending=False, kind="stable")
    shift = SEASON_PLAYER - int(busiest.index[0])

    def shifted(ids: pd.Series) -> pd.Series:
        return (ids.astype("int64") + shift).astype(str)

    for frame, columns in ((games, ["white_id", "black_id"]), (players, ["player_id"]), (initial, ["player_id"])):
        for column in columns:
            frame[column] = shifted(frame[column])
    players["name"] = "Sim Player " + players["player_id"]
    league = games[in_league]

    files = {"registry": folder / "registry.csv", "ratings": folder / "ratings.csv"}
    players = players.assign(fide_id=(players["player_id"].astype("int64") + FIDE_ID_BASE).astype(str))
    players.to_csv(files["registry"], index=False)
    initial.to_csv(files["ratings"], index=False)

    # The three biggest opens, each an arbiter's TRF file; the open's arbiter sends a
    # corrected file later (open-v2.trf: one result of round 1 the other way).
    opens = games[games["event"].str.startswith("Open")]
    biggest = opens["event"].value_counts().sort_index().sort_values(ascending=False, kind="stable").index[:3]
    by_id = players.set_index("player_id")
    start = initial.set_index("player_id")["rating"]
    fide = by_id["fide_id"].astype("int64")
    for name, event in zip(TRF_NAMES, sorted(biggest)):
        played = opens[opens["event"] == event]
        ids = np.sort(pd.unique(pd.concat([played["white_id"], played["black_id"]]).astype("int64"))).astype(str)
        entrants = by_id.loc[ids]
        table = pd.DataFrame({"id": entrants["fide_id"].astype("int64").to_numpy(),
                              "name": entrants["name"].to_numpy(),
                              "rating": pd.to_numeric(start.reindex(ids)).astype("Int64").to_numpy(),
                              "federation": "BEL",
                              "birth_year": entrants["birth_year"].astype("int64").to_numpy()})
        rounds = pd.DataFrame({"white_id": played["white_id"].map(fide).to_numpy(),
                               "black_id": played["black_id"].map(fide).to_numpy(),
                               "result": played["result"].to_numpy(),
                               "round": played["round"].astype("int64").to_numpy(),
                               "date": pd.to_datetime(played["date"]).dt.date.to_numpy()})
        first = min(rounds["date"])
        files[name] = folder / "autumn" / f"{name}.trf"
        files[name].parent.mkdir(exist_ok=True)
        files[name].write_bytes(trf_text(event, first, table, rounds).encode("utf-8"))
        if name == "open":
            flipped = rounds.index[rounds["result"].isin(["1-0", "0-1"])][0]
            rounds.loc[flipped, "result"] = {"1-0": "0-1", "0-1": "1-0"}[rounds.loc[flipped, "result"]]
            files["open-v2"] = folder / "open-v2.trf"
            files["open-v2"].write_bytes(trf_text(event, first, table, rounds).encode("utf-8"))

    clubs = league["event"].value_counts().sort_index().sort_values(ascending=False, kind="stable").index
    friendly, championships = clubs[-1], league[league["event"] != clubs[-1]]
    rows = championships[GAME_COLUMNS].astype(str).values.tolist()
    # The clerk's typos: an id with a digit too many, the 31st of November.
    typo_player, typo_date = rows[3][:], rows[7][:]
    rows[3][2], rows[7][1] = rows[3][2] + "0", "2026-11-31"
    files["league"] = write_csv(folder / "league.csv", GAME_COLUMNS, rows)
    corrected = [r[:] for r in rows]
    corrected[3], corrected[7] = typo_player, typo_date
    changed = corrected[11]
    changed[4] = {"1-0": "0-1", "0-1": "1-0"}.get(changed[4], "1-0")
    files["league-v2"] = write_csv(folder / "league-v2.csv", GAME_COLUMNS, corrected)
    games_of_friendly = league[league["event"] == friendly].assign(event="Friendly match")
    files["friendly"] = write_csv(folder / "friendly.csv", GAME_COLUMNS,
                                  games_of_friendly[GAME_COLUMNS].astype(str).values.tolist())
    return files | {"typos": [typo_player, typo_date], "changed": changed}


def write_sample_parquet(folder: Path) -> dict[str, Path]:
    """The embedded sample as the Belgian history's files (what bench/belgium_inputs.py
    writes from data/belgium: players, ratings, games, and the federation's own lists
    as `player_id, list_id, rating, window_end`, the excerpt's lists with the day each
    closed), in folder/belgium/."""
    out = folder / "belgium"
    out.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    for kind in ("players", "ratings", "games"):
        con.execute(f"copy (select * from read_csv('{SAMPLE / f'{kind}.csv'}')) to '{out / f'{kind}.parquet'}' "
                    "(format parquet)")
    con.execute(f"""copy (select o.player_id, substr(o.list_period, 1, 4) || '-' || substr(o.list_period, 5, 2) as list_id,
                                o.rating, w.window_end
                         from '{OFFICIAL_RATINGS}' o join ({list_windows(BELGIUM)}) w using (list_period)
                         order by o.list_period, o.player_id)
                    to '{out / 'federation.parquet'}' (format parquet)""")
    con.close()
    return {kind: out / f"{kind}.parquet" for kind in ("players", "ratings", "games", "federation")}
