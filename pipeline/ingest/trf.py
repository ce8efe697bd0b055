"""Ingest a tournament report file (FIDE TRF, or the Belgian SWAR variant): its
games and its bad lines into the games staging table, its byes into `byes`,
its players matched to the registry.

A TRF row is a record: each game (its game_id names the round and the two
starting ranks), then each problem found while reading (a bad line, a player not
in the registry), which validation rejects with the line number in its reason.
So, as for any file, rows read = rows accepted + rows rejected.
"""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from pipeline.formats.encodings import file_text
from pipeline.formats.trf import Problem, Tournament, tournament_of
from pipeline.ingest.tables import record_part
from pipeline.warehouse import scalar, sql_text, staged

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
    assumptions: tuple[str, ...] = ()  # what the reader assumed (dates, colour letters, names matched), for the report
    printed_ratings: int = 0  # the file's ratings staged as initial ratings (--ratings-from-files)
    warnings: tuple[str, ...] = ()  # what may be wrong though read (letters a wrong code page gives)


def registry_matches(con: duckdb.DuckDBPyConnection, people: pd.DataFrame, id_column: str,
                     id_is_player_id: bool = False) -> pd.DataFrame:
    """How each row of `people` (key, name, id) is found in the registry, by key:
    `player_id` (NA: not found) and `matched_by` ("id", "name" or None).

    The id wins: as player_id itself (`id_is_player_id`), else in the registry's
    column `id_column` (kept with its extra columns). The name (when exactly one
    registered player has it) finds a player whose id the file leaves blank, or one
    the registry knows no id for; never one the registry knows under another id:
    that row gets `registry_id` and `registry_name`, the contradiction to report."""
    con.register("file_players", people[["key", "name", "id"]])
    found = con.execute(f"""
        with registry as (
            select player_id, name, try_cast(extra->>{sql_text(id_column)} as bigint) as registry_id from players
        ),
        by_id as (
            select registry_id as id, min(player_id) as player_id from registry
            where registry_id is not null group by all
        ),
        by_name as (
            select lower(trim(name)) as key, min(player_id) as player_id, min(registry_id) as registry_id,
                   min(name) as name
            from registry group by key having count(*) = 1
        ),
        matched as (
            select f.key, f.id, n.registry_id, n.name as registry_name,
                   case when $direct then p.player_id else i.player_id end as by_id,
                   case when not $direct and (f.id is null or n.registry_id is null) then n.player_id end as by_name
            from file_players f
            left join players p on p.player_id = f.id
            left join by_id i on i.id = f.id
            left join by_name n on n.key = lower(trim(f.name))
        )
        select key, coalesce(by_id, by_name) as player_id,
               case when by_id is not null then 'id' when by_name is not null then 'name' end as matched_by,
               case when by_id is null and id is not null and not $direct then registry_id end as registry_id,
               case when by_id is null and id is not null and not $direct and registry_id is not null
                    then registry_name end as registry_name
        from matched""", {"direct": id_is_player_id}).fetchall()
    con.unregister("file_players")
    frame = pd.DataFrame(found, columns=["key", "player_id", "matched_by", "registry_id", "registry_name"])
    frame = frame.astype({"player_id": "Int64", "registry_id": "Int64", "matched_by": object, "registry_name": object})
    for column in ("matched_by", "registry_name"):  # None, not the NaN pandas infers for text
        frame[column] = frame[column].where(frame[column].notna(), None)
    return frame.set_index("key").sort_index()


def registry_identities(con: duckdb.DuckDBPyConnection, t: Tournament) -> pd.DataFrame:
    """By starting rank: player_id (NA: not found), matched_by, and `conflict`, the
    problem of a player whose FIDE id is not the one the registry has for their
    name (never matched, never registered). SWAR files carry the
    national id, which is the player_id; FIDE files the FIDE id (the registry's
    `fide_id` column), and the name is matched as `registry_matches` says."""
    people = t.players.rename(columns={"rank": "key"})
    found = registry_matches(con, people, "fide_id", id_is_player_id=t.flavour == "swar")
    found["conflict"] = conflicts(found, t.players.set_index("rank")["id"], "FIDE id")
    return found


def conflicts(found: pd.DataFrame, file_ids: pd.Series, label: str) -> pd.Series:
    """The problem of each row of `registry_matches` whose file id the registry gives
    another id for the same name, with both ids; None for the others."""
    names = found["registry_name"].map(repr, na_action="ignore").astype("string")
    text = (f"{label} " + file_ids.reindex(found.index).astype("string") + " in the file, "
            + found["registry_id"].astype("string") + " in the registry for " + names + ": not matched")
    return text.astype(object).where(found["registry_id"].notna(), None)


def registry_ids(con: duckdb.DuckDBPyConnection, t: Tournament) -> pd.Series:
    """The player_id of each starting rank (NA: not found), as `registry_identities` finds them."""
    return registry_identities(con, t)["player_id"]


def identity_assumptions(t: Tournament, identities: pd.DataFrame) -> list[str]:
    """The players with an id in the file that were found by their name (the registry
    has no id for them), said with their lines, for the ingest report."""
    ids = t.players.set_index("rank")
    by_name = identities.index[(identities["matched_by"] == "name") & ids["id"].reindex(identities.index).notna()]
    if not len(by_name):
        return []
    lines = ", ".join(str(int(ids.loc[r, "line"])) for r in by_name)
    return [f"line{'s' if len(by_name) > 1 else ''} {lines}: matched to the registry by name, "
            f"which has no fide_id for {'them' if len(by_name) > 1 else 'this player'}"]


def _new_players(t: Tournament, ids: pd.Series, taken: set[int], identities: pd.DataFrame | None = None
                 ) -> pd.DataFrame:
    """Players to register: not found, with an id of their own in the file that no
    registered player has (the national id of a SWAR file, else the FIDE id), and
    not one whose FIDE id contradicts the registry's (`identities`' conflict)."""
    p = t.players.set_index("rank")
    conflict = identities["conflict"].reindex(p.index).notna() if identities is not None \
        else pd.Series(False, index=p.index)
    new = p[ids.reindex(p.index).isna() & p["id"].notna() & ~p["id"].isin(taken) & ~conflict
            & ~p["id"].duplicated(keep=False)]
    return new.reset_index()


def _staged_new_players(new: pd.DataFrame, flavour: str) -> pd.DataFrame:
    extra = [json.dumps({k: v for k, v in {"fide_id": None if flavour == "swar" else int(r.id), "sex": r.sex,
                                             "federation": r.federation, "title": r.title}.items()
                         if v is not None and v == v}, sort_keys=True) for r in new.itertuples()]
    return pd.DataFrame({
        "row_number": range(1, len(new) + 1), "player_id": new["id"].astype(str), "name": new["name"],
        "birth_year": new["birth_year"].astype("string"), "club": None, "estimated_rating": None, "extra": extra,
    })


def unknown_player_reasons(t: Tournament, register_new: bool = False,
                           identities: pd.DataFrame | None = None) -> pd.Series:
    """Why each starting rank would not be found, by rank: a FIDE id the registry
    gives another player (`identities`' conflict), an id field left blank, an id no
    registered player has (which --register-new would add, so it is advised only
    when it was not given), or, with --register-new, an id it could not take."""
    p = t.players.set_index("rank")
    swar = t.flavour == "swar"
    who = p["name"].map(repr, na_action="ignore").fillna("(no name)") + " (starting rank " \
        + p.index.astype(str) + ") is not in the player registry"
    blank = who + (": no id in the file (the id field is blank)"
                   + ("" if swar else " and no single registered player has this name"))
    label = "id" if swar else "FIDE id"
    ids = p["id"].astype("string").fillna("")
    absent = who + f": no registered player has {label} " + ids + " (--register-new adds the file's new players)"
    untaken = who + f" and was not registered: its {label} " + ids + \
        " is already another player's player_id, or given to two players of the file"
    conflict = identities["conflict"].reindex(p.index) if identities is not None else pd.Series(None, index=p.index)
    reasons = np.select([conflict.notna().to_numpy(), p["id"].isna().to_numpy(), np.full(len(p), register_new)],
                        [conflict.astype(object).to_numpy(), blank.to_numpy(), untaken.to_numpy()],
                        absent.to_numpy())
    return pd.Series(reasons, index=p.index, dtype=object)


def _staged_games(t: Tournament, ids: pd.Series, register_new: bool = False,
                  identities: pd.DataFrame | None = None) -> tuple[pd.DataFrame, list[Problem]]:
    """The games as staged rows, then one row per bad line. A game carries the
    problems that reject it: its own (a round dated outside the event), a player
    not in the registry (`unknown_player_reasons`), or the file's as a whole
    (`Tournament.fatal`, said once, first, in the problems returned)."""
    g = t.games
    white, black = g["white_rank"].map(ids), g["black_rank"].map(ids)
    reasons = unknown_player_reasons(t, register_new, identities)
    missing = pd.concat([
        pd.DataFrame({"game": g.index[m.isna()], "line": lines[m.isna()], "side": side, "rank": ranks[m.isna()]})
        for side, m, ranks, lines in (("white", white, g["white_rank"], g["white_line"]),
                                      ("black", black, g["black_rank"], g["black_line"]))])
    # object, not the float an empty map gives: a file of tags and no game has no row to name
    missing["message"] = missing["rank"].map(reasons).astype(object)
    once = missing.drop_duplicates("line")  # one problem per player, at their line
    unknown = [Problem(int(r.line), r.message) for r in once.itertuples()]
    player_problems = ("line " + missing["line"].astype(str) + ": " + missing["side"] + ": "
                       + missing["message"]).groupby(missing["game"]).agg("; ".join).reindex(g.index)
    own = g["problem"] if "problem" in g else pd.Series(None, index=g.index, dtype=object)
    both = own.notna() & player_problems.notna()
    problem = own.astype(object).where(own.notna(), player_problems.astype(object))
    problem = problem.where(~both, own.astype(object) + "; " + player_problems.astype(object))
    problem = problem.where(problem.notna(), None)
    if t.fatal:
        problem, unknown = pd.Series(t.fatal, index=g.index, dtype=object), []
    dates = pd.to_datetime(g["date"], errors="coerce").dt.strftime("%Y-%m-%d").astype(object)
    games = pd.DataFrame({
        "date": dates.where(dates.notna(), None),
        "white_id": white.astype("string"), "black_id": black.astype("string"), "result": g["result"],
        "game_id": "round " + g["round"].astype(str) + ", ranks " + g["white_rank"].astype(str) + "-"
                   + g["black_rank"].astype(str),
        "event": g["event"], "round": g["round"].astype(str), "problem": problem,
    })
    reported = sorted([*t.problems, *unknown], key=lambda p: p.line)
    return records(games, t.problems), [Problem(0, t.fatal)] * bool(t.fatal) + reported


def ingest_tournament(con: duckdb.DuckDBPyConnection, path: Path, run_id: int, submission_id: int,
                      staging: str = "main", register_new: bool = False,
                      again: dict[str, int] | None = None, default_date: dt.date | None = None,
                      ratings_from_file: bool = False, encoding: str | None = None) -> TournamentIngested:
    """Stage one tournament file as a submission's parts. `again` (kind → file_id of
    the parts staged before from the same content): only the rows still rejected are
    staged again, so that a completed registry or --register-new lets them in.
    `default_date` (--date) dates the rounds the file gives no date; `ratings_from_file`
    stages the ratings the file prints (columns 49-52) as the initial ratings of its
    players the warehouse has none for, a part of kind `ratings` of this submission. `encoding`:
    the one named with --encoding (pipeline/formats/encodings.py)."""
    path = Path(path)
    text = file_text(path, encoding)
    t = tournament_of(text, default_date)
    event = t.tags.get("012")
    if t.dates_refused and (described := described_dates(con, event)):  # ruling D3: the events file's dates
        t = tournament_of(text, default_date, described)
    identities = registry_identities(con, t)
    ids = identities["player_id"]
    registered = 0
    if register_new and not t.fatal:  # a file refused as a whole registers nobody
        taken = {r[0] for r in con.execute("select player_id from players").fetchall()}
        new = _new_players(t, ids, taken, identities)
        if len(new):
            stage_rows(con, staging, "players", path, run_id, submission_id, _staged_new_players(new, t.flavour))
            ids = ids.fillna(new.set_index("rank")["id"].astype("Int64").reindex(ids.index))
            registered = len(new)
    printed = 0
    if ratings_from_file and not t.fatal and again is None:
        rows = _printed_ratings(con, staging, t, ids)
        if len(rows):
            stage_rows(con, staging, "ratings", path, run_id, submission_id, rows)
            printed = len(rows)
    games, problems = _staged_games(t, ids, register_new, identities)
    part = (again or {}).get("games")
    file_id = stage_rows(con, staging, "games", path, run_id, submission_id, games, part)
    # The file's own dates (ruling D1) as this reading used them: an events file or --date may
    # have replaced refused ones (D3) since the file was first staged.
    con.execute("delete from file_dates where file_id = ?", [file_id])
    if t.own_dates:
        con.executemany("insert into file_dates values (?, ?, ?)", [(file_id, d, what) for d, what in t.own_dates])
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
                              int(t.games["result"].isin(FORFEIT_RESULTS).sum()), len(b), tuple(problems),
                              (*t.assumptions, *identity_assumptions(t, identities)), printed,
                              (text.warning,) if text.warning else ())


def described_dates(con: duckdb.DuckDBPyConnection, event: str | None) -> tuple[dt.date, dt.date] | None:
    """The start and end an events file gives the event named `event` (a TRF's tag 012, as
    FIDE's placement reads it: pipeline/systems/fide/events.sql); None when none does."""
    found = con.execute("select start_date, end_date from events where event_id = ?", [event]).fetchall()
    return found[0] if found else None


def _printed_ratings(con: duckdb.DuckDBPyConnection, staging: str, t: Tournament, ids: pd.Series) -> pd.DataFrame:
    """The file's printed ratings of its players found (or registered) who have no initial
    rating, stored or staged: the rating at the time of the event, the best a federation
    without its own list has. Their games to date are unknown (FIDE's K follows the games
    rated here, X5)."""
    p = t.players.set_index("rank")
    found = pd.DataFrame({"player_id": ids.reindex(p.index), "rating": p["rating"]}).dropna()
    have = {r for (r,) in con.execute(f"""select player_id from initial_ratings union
                                           select try_cast(player_id as bigint) from {staged(con, staging, "ratings")}
                                           """).fetchall()}
    found = found[~found["player_id"].isin(have)].drop_duplicates("player_id")
    return pd.DataFrame({"row_number": range(1, len(found) + 1), "player_id": found["player_id"].astype("int64").astype(str),
                         "rating": found["rating"].astype("int64").astype(str)})


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
