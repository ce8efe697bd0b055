"""Ingest a tournament report file (FIDE TRF, or the Belgian SWAR variant): its
games and its bad lines into the games staging table, its byes into `byes`,
its players matched to the registry.

A TRF row is a record: each game (its game_id names the round and the two
starting ranks), then each problem found while reading (a bad line, a player not
in the registry), which validation rejects with the line number in its reason.
So, as for any file, rows read = rows accepted + rows rejected.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pandas as pd

from pipeline.formats.trf import Problem, Tournament, read_trf
from pipeline.ingest import record_part
from pipeline.warehouse import scalar, staged

FORFEIT_RESULTS = ("+/-", "-/+", "-/-")


@dataclass(frozen=True)
class TournamentIngested:
    path: str
    flavour: str  # "trf" or "swar"
    event: str | None
    file_id: int  # the games part
    players: int
    in_registry: int
    registered: int  # new players staged (--register-new)
    games: int
    forfeits: int
    byes: int
    problems: tuple[Problem, ...]  # bad lines and players not in the registry, in line order


def registry_matches(con: duckdb.DuckDBPyConnection, people: pd.DataFrame, id_column: str,
                     id_is_player_id: bool = False) -> pd.Series:
    """The registry's player_id of each row of `people` (key, name, id), NA when not
    found: the id as player_id itself (`id_is_player_id`), else the id in the registry's
    column `id_column` (kept with its extra columns), else the name when exactly one
    registered player has it."""
    con.register("file_players", people[["key", "name", "id"]])
    found = con.execute(f"""
        with by_id as (
            select try_cast(extra->>'{id_column}' as bigint) as id, min(player_id) as player_id
            from players where try_cast(extra->>'{id_column}' as bigint) is not null group by all
        ),
        by_name as (
            select lower(trim(name)) as key, min(player_id) as player_id from players
            group by key having count(*) = 1
        )
        select f.key, case when $direct then p.player_id else coalesce(i.player_id, n.player_id) end
        from file_players f
        left join players p on p.player_id = f.id
        left join by_id i on i.id = f.id
        left join by_name n on n.key = lower(trim(f.name))""", {"direct": id_is_player_id}).fetchall()
    con.unregister("file_players")
    return pd.Series(dict(found), dtype="Int64")


def registry_ids(con: duckdb.DuckDBPyConnection, t: Tournament) -> pd.Series:
    """The player_id of each starting rank (NA: not found). SWAR files carry the
    national id, which is the player_id; FIDE files carry the FIDE id (the registry's
    `fide_id` column), else the name is matched."""
    people = t.players.rename(columns={"rank": "key"})
    return registry_matches(con, people, "fide_id", id_is_player_id=t.flavour == "swar").sort_index()


def _new_players(t: Tournament, ids: pd.Series, taken: set[int]) -> pd.DataFrame:
    """Players to register: not found, with an id of their own in the file that no
    registered player has (the national id of a SWAR file, else the FIDE id)."""
    p = t.players.set_index("rank")
    new = p[ids.reindex(p.index).isna() & p["id"].notna() & ~p["id"].isin(taken)]
    return new.reset_index()


def _staged_new_players(new: pd.DataFrame, flavour: str) -> pd.DataFrame:
    extra = [json.dumps({k: v for k, v in {"fide_id": None if flavour == "swar" else int(r.id), "sex": r.sex,
                                             "federation": r.federation, "title": r.title}.items()
                         if v is not None and v == v}, sort_keys=True) for r in new.itertuples()]
    return pd.DataFrame({
        "row_number": range(1, len(new) + 1), "player_id": new["id"].astype(str), "name": new["name"],
        "birth_year": new["birth_year"].astype("string"), "club": None, "estimated_rating": None, "extra": extra,
    })


def _staged_games(t: Tournament, ids: pd.Series) -> tuple[pd.DataFrame, list[Problem]]:
    """The games as staged rows, then one row per bad line; a game with a player
    not in the registry carries that problem (and is rejected with it)."""
    g = t.games
    names = t.players.set_index("rank")["name"]
    white, black = g["white_rank"].map(ids), g["black_rank"].map(ids)
    missing = pd.concat([
        pd.DataFrame({"game": g.index[m.isna()], "line": lines[m.isna()], "side": side, "rank": ranks[m.isna()]})
        for side, m, ranks, lines in (("white", white, g["white_rank"], g["white_line"]),
                                      ("black", black, g["black_rank"], g["black_line"]))])
    missing["message"] = (missing["side"] + ": " + missing["rank"].map(names).map(repr) + " (starting rank "
                          + missing["rank"].astype(str) + ") is not in the player registry "
                          "(--register-new adds the file's new players)")
    once = missing.drop_duplicates("line")  # one problem per player, at their line
    unknown = [Problem(int(r.line), r.message.split(": ", 1)[1]) for r in once.itertuples()]
    problem = ("line " + missing["line"].astype(str) + ": " + missing["message"]).groupby(missing["game"]).agg("; ".join)
    games = pd.DataFrame({
        "date": g["date"].map(lambda d: d.isoformat() if d else None),
        "white_id": white.astype("string"), "black_id": black.astype("string"), "result": g["result"],
        "game_id": "round " + g["round"].astype(str) + ", ranks " + g["white_rank"].astype(str) + "-"
                   + g["black_rank"].astype(str),
        "event": g["event"], "round": g["round"].astype(str), "problem": problem.reindex(g.index),
    })
    return records(games, t.problems), sorted([*t.problems, *unknown], key=lambda p: p.line)


def ingest_tournament(con: duckdb.DuckDBPyConnection, path: Path, run_id: int, submission_id: int,
                      staging: str = "main", register_new: bool = False,
                      again: dict[str, int] | None = None) -> TournamentIngested:
    """Stage one tournament file as a submission's parts. `again` (kind → file_id of
    the parts staged before from the same content): only the rows still rejected are
    staged again, so that a completed registry or --register-new lets them in."""
    path = Path(path)
    t = read_trf(path)
    event = t.tags.get("012")
    ids = registry_ids(con, t)
    registered = 0
    if register_new:
        taken = {r[0] for r in con.execute("select player_id from players").fetchall()}
        new = _new_players(t, ids, taken)
        if len(new):
            stage_rows(con, staging, "players", path, run_id, submission_id, _staged_new_players(new, t.flavour))
            ids = ids.fillna(new.set_index("rank")["id"].astype("Int64").reindex(ids.index))
            registered = len(new)
    games, problems = _staged_games(t, ids)
    part = (again or {}).get("games")
    file_id = stage_rows(con, staging, "games", path, run_id, submission_id, games, part)
    b = t.byes
    if part is None:  # byes are kept once, with the first staging
        con.register("file_byes", pd.DataFrame({
            "file_id": file_id, "player_id": b["rank"].map(ids).astype("Int64"), "event": event,
            "round": b["round"].astype("int64"), "date": b["date"],
            "code": b["code"], "line": b["line"].astype("int64")}))
        con.execute("insert into byes by name select * from file_byes")
        con.unregister("file_byes")
    return TournamentIngested(str(path), t.flavour, event, file_id, len(t.players),
                              int(ids.notna().sum()) - registered, registered, len(t.games),
                              int(t.games["result"].isin(FORFEIT_RESULTS).sum()), len(b), tuple(problems))


def records(games: pd.DataFrame, problems: tuple[Problem, ...]) -> pd.DataFrame:
    """A tournament file's rows: its games, then one row per problem found reading it
    (rejected with it, its line first), numbered from 1."""
    bad = pd.DataFrame({"problem": [f"line {p.line}: {p.message}" for p in problems]})
    rows = pd.concat([games, bad], ignore_index=True)
    rows.insert(0, "row_number", range(1, len(rows) + 1))
    return rows


def stage_rows(con: duckdb.DuckDBPyConnection, staging: str, kind: str, path: Path, run_id: int,
               submission_id: int, rows: pd.DataFrame, part: int | None = None) -> int:
    """Rows into staged_<kind> as text, recorded in source_files like any input file's;
    with `part` (a part staged before from the same content), only its rows still rejected."""
    if part is not None:
        open_rows = {r for (r,) in con.execute("select row_number from rejects where file_id = ? and status = 'open'",
                                               [part]).fetchall()}
        rows = rows[rows["row_number"].isin(open_rows)]
    file_id = part if part is not None else scalar(con, "select nextval('file_ids')")
    con.register("file_rows", rows)
    con.execute(f"insert into {staged(con, staging, kind)} by name select {file_id} as file_id, * from file_rows")
    con.unregister("file_rows")
    if part is not None:
        con.execute("update source_files set status = 'staged', staged_in = ? where file_id = ?", [staging, part])
    else:
        record_part(con, file_id, run_id, kind, path, len(rows), submission_id, staging)
    return file_id
