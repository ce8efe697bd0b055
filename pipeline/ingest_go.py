"""Ingest a Go tournament file (OpenGotha XML, EGD results): its event, its games
and its bad lines into the staging tables, its players matched to the registry.

As for chess tournament files (pipeline/ingest_trf.py), a row is a record: the
games, then the games that are not counted (by default, both won, both lost)
and the problems found reading, which validation rejects with their reason.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from pipeline.formats.go_files import GoTournament, read_egd, read_opengotha
from pipeline.formats.trf import Problem
from pipeline.ingest import tournament_format
from pipeline.ingest_trf import records, registry_matches, stage_rows
from pipeline.warehouse import staged

DEFAULT_CLASS = "B"  # "other tournament": what a file that says nothing of its class is taken for


@dataclass(frozen=True)
class GoTournamentIngested:
    path: str
    source: str  # "opengotha" or "egd"
    event_id: str | None
    file_id: int  # the games part
    players: int
    in_registry: int
    registered: int
    games: int
    not_counted: int
    problems: tuple[Problem, ...]


def registry_ids(con: duckdb.DuckDBPyConnection, t: GoTournament) -> pd.Series:
    """The registry's player_id of each player key (NA: not found): by EGD pin (the
    registry's `egd_pin` column), else by name when exactly one player has it."""
    return registry_matches(con, t.players.rename(columns={"egd_pin": "id"}), "egd_pin")


def _new_players(con: duckdb.DuckDBPyConnection, t: GoTournament, ids: pd.Series, staging: str) -> pd.DataFrame:
    """Players to register: their EGD pin as id when free, else the next free ids
    (free of the registry and of players other files of this run are registering)."""
    taken = {r[0] for r in con.execute(f"""select player_id from players union
                                           select try_cast(player_id as bigint) from {staged(con, staging, 'players')}
                                           where try_cast(player_id as bigint) is not null""").fetchall()}
    new = t.players[ids.reindex(t.players["key"]).isna().to_numpy()].copy()
    pin_free = new["egd_pin"].notna() & ~new["egd_pin"].isin(taken)
    start = max(taken | set(new["egd_pin"].dropna().astype(int)), default=0) + 1
    new["player_id"] = new["egd_pin"].where(pin_free)
    new.loc[~pin_free.to_numpy(), "player_id"] = range(start, start + int((~pin_free).sum()))
    return new


def ingest_go_tournament(con: duckdb.DuckDBPyConnection, path: Path, run_id: int, submission_id: int,
                         staging: str = "main", register_new: bool = False,
                         again: dict[str, int] | None = None) -> GoTournamentIngested:
    """Stage one Go tournament file as a submission's parts (its event, its games, its
    new players); `again`: only the rows still rejected of the parts staged before."""
    path = Path(path)
    t = read_opengotha(path) if tournament_format(path) == "opengotha" else read_egd(path)
    event = t.event
    again = again or {}
    ids = registry_ids(con, t)
    registered = 0
    if register_new:
        new = _new_players(con, t, ids, staging)
        if len(new):
            stage_rows(con, staging, "players", path, run_id, submission_id, pd.DataFrame({
                "row_number": range(1, len(new) + 1), "player_id": new["player_id"].astype(int).astype(str),
                "name": new["name"], "grade": new["grade"], "club": new["club"],
                "extra": [json.dumps({k: v for k, v in {"egd_pin": pin, "country": country}.items()
                                      if v is not None and not pd.isna(v)}, default=int, sort_keys=True)
                          for pin, country in zip(new["egd_pin"], new["country"])]}))
            ids = ids.fillna(pd.Series(new["player_id"].astype("Int64").to_numpy(), index=new["key"].to_numpy()))
            registered = len(new)
    stage_rows(con, staging, "events", path, run_id, submission_id, pd.DataFrame([{
        "row_number": 1, "event_id": event["event_id"], "name": event["name"],
        "start_date": event["start_date"].isoformat() if event["start_date"] else None,
        "end_date": event["end_date"].isoformat() if event["end_date"] else None,
        "class": event["class"] or DEFAULT_CLASS, "board_size": str(event["board_size"])}]), again.get("events"))
    games, problems = _staged_games(t, ids)
    file_id = stage_rows(con, staging, "go_games", path, run_id, submission_id, games, again.get("go_games"))
    return GoTournamentIngested(str(path), t.source, event["event_id"], file_id, len(t.players),
                                int(ids.notna().sum()) - registered, registered, len(t.games),
                                int((~t.games["counted"]).sum()), problems)


def _staged_games(t: GoTournament, ids: pd.Series) -> tuple[pd.DataFrame, tuple[Problem, ...]]:
    g = t.games
    black, white = g["black"].map(ids), g["white"].map(ids)
    names = t.players.set_index("key")["name"]
    black_text, white_text = (
        (side + ": " + key.map(names).map(repr) + " is not in the player registry "
         "(--register-new adds the file's new players)").where(mapped.isna(), "")
        for side, key, mapped in (("black", g["black"], black), ("white", g["white"], white)))
    joined = black_text + np.where((black_text != "") & (white_text != ""), "; ", "") + white_text
    unknown = joined.where(joined != "")
    why_not = pd.Series("not counted: " + g["forfeit"].map({True: "a game by default", False: "both won or both lost"}),
                        index=g.index).where(~g["counted"])
    games = pd.DataFrame({
        "event_id": t.event["event_id"],
        "date": g["date"].map(lambda d: d.isoformat() if d else None),
        "black_id": black.astype("string"), "white_id": white.astype("string"),
        "winner": g["winner"], "handicap": g["handicap"].astype(str), "weight": None,
        "round": g["round"].astype(str),
        "problem": why_not.fillna(unknown),
    })
    missing = sorted({name for key, m in ((g["black"], black), (g["white"], white)) for name in key[m.isna()]})
    reported = [*t.problems, *(Problem(0, f"{names[k]!r} is not in the player registry") for k in missing)]
    return records(games, t.problems), tuple(reported)
