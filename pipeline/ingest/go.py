"""Ingest a Go tournament file (OpenGotha XML, EGD results, FFG .tou, AGA results,
pairgoth .tour): its event, its games
and its bad lines into the staging tables, its players matched to the registry.

As for chess tournament files (pipeline/ingest_trf.py), a row is a record: the
games (a game won by default as B+F or W+F: stored, never rated, as a chess
forfeit), then the games no rule rates and no fix can change (both won, both
lost, a jigo by default) and the problems found reading, which validation
rejects with their reason.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from pipeline.formats.go_files import GoTournament
from pipeline.formats.go_reports import go_file_text, go_tournament_of
from pipeline.formats.trf import Problem
from pipeline.ingest.trf import conflicts, records, registry_matches, stage_rows
from pipeline.input_layout import EVENT_ID
from pipeline.warehouse import staged

DEFAULT_CLASS = "B"  # "other tournament": what a file that says nothing of its class is taken for
# Ids for new players without a free EGD pin. EGD pins are 8-digit numbers (10000000-
# 99999999: 1xxxxxxx and 2xxxxxxx issued so far; the fixtures' stand-ins are 9000000n),
# so a 9-digit id can never be a pin someone else gets; 900000000 up also stays clear of
# national ids (5-6 digits in Belgium) and leaves 10^8 ids, within the 15 digits of an id.
NEW_PLAYER_IDS = range(900_000_000, 1_000_000_000)


@dataclass(frozen=True)
class GoTournamentIngested:
    path: str
    source: str  # "opengotha", "egd", "ffg", "aga" or "pairgoth"
    event_id: str | None
    file_id: int  # the games part
    players: int
    in_registry: int
    registered: int
    games: int
    not_counted: int
    problems: tuple[Problem, ...]
    assumptions: tuple[str, ...] = ()  # what the reader assumed (dates, colours, class), for the report
    warnings: tuple[str, ...] = ()  # what may be wrong though read (letters a wrong code page gives)
    won_by_default: int = 0  # of the games not counted: stored as B+F, W+F, never rated (said once a file)


def registry_identities(con: duckdb.DuckDBPyConnection, t: GoTournament) -> pd.DataFrame:
    """By player key: player_id (NA: not found), matched_by ("id" or "name") and
    `conflict`, the problem of a player whose EGD pin is not the one the registry
    has for their name (never matched, never registered).
    By EGD pin (the registry's `egd_pin` column), else by name when exactly one
    registered player has it and the registry has no other pin for them."""
    found = registry_matches(con, t.players.rename(columns={"egd_pin": "id"}), "egd_pin")
    found["conflict"] = conflicts(found, t.players.set_index("key")["egd_pin"], "EGD pin")
    return found


def registry_ids(con: duckdb.DuckDBPyConnection, t: GoTournament) -> pd.Series:
    """The registry's player_id of each player key (NA: not found), as `registry_identities` finds them."""
    return registry_identities(con, t)["player_id"]


def event_row_problems(event: dict) -> list[str]:
    """Why the staged row of a file's event would be rejected by validation
    (pipeline/validate/schemas.py, EventsInput), with the class a file leaves out taken as
    DEFAULT_CLASS like the staged row; none: the event goes in. A file whose event
    is rejected has every game rejected with it (unknown event), so it registers nobody."""
    start, end = event.get("start_date"), event.get("end_date")
    checks = [
        (not re.fullmatch(EVENT_ID, event.get("event_id") or ""),
         f"event id {event.get('event_id')!r} is not an event id (letters, digits, _ . -; at most 64)"),
        (not event.get("name"), "the event has no name"),
        (start is None, "the event has no start date"),
        (end is None, "the event has no end date"),
        (start is not None and end is not None and end < start, f"the event ends ({end}) before it starts ({start})"),
        ((event.get("class") or DEFAULT_CLASS) not in ("A", "B", "C", "D"),
         f"class {event.get('class')!r} is not A, B, C or D"),
        (str(event.get("board_size")) not in ("9", "13", "19"),
         f"board size {event.get('board_size')} is not 9, 13 or 19"),
    ]
    return [message for failed, message in checks if failed]


def belgian_class(t: GoTournament) -> tuple[str, str]:
    """Ruling G8: the Belgian class of a file's event, and what the report says of it.
    An EGD file's CL tag names the EGD's classes: A, B or C (a tournament the EGD
    rates) is the Belgian class A, D is B; a file without a class is B (other tournament)."""
    own = t.event["class"]
    if own is None:
        return DEFAULT_CLASS, f"no class in the file: class {DEFAULT_CLASS} (other tournament) assumed"
    if t.source == "egd":
        mapped = "A" if own in ("A", "B", "C") else DEFAULT_CLASS
        what = "a tournament the EGD rates" if mapped == "A" else "not rated by the EGD"
        return mapped, f"EGD class {own} ({what}): Belgian class {mapped} (ruling G8; an events file can say otherwise)"
    return own, f"class {own} from the file"


def event_assumptions(t: GoTournament) -> list[str]:
    """What the report should say was assumed: the reader's assumptions, and the
    class the file's event is staged with (G8)."""
    return [*t.assumptions, belgian_class(t)[1]]


def _new_players(con: duckdb.DuckDBPyConnection, t: GoTournament, ids: pd.Series, staging: str,
                 identities: pd.DataFrame | None = None) -> pd.DataFrame:
    """Players to register, with a name and not contradicting the registry: their
    EGD pin as id when free, else the next ids of NEW_PLAYER_IDS free of the registry
    and of players other files of this run are registering."""
    taken = {r[0] for r in con.execute(f"""select player_id from players union
                                           select try_cast(player_id as bigint) from {staged(con, staging, 'players')}
                                           where try_cast(player_id as bigint) is not null""").fetchall()}
    conflict = identities["conflict"].reindex(t.players["key"]).notna().to_numpy() if identities is not None \
        else np.zeros(len(t.players), dtype=bool)
    new = t.players[ids.reindex(t.players["key"]).isna().to_numpy() & t.players["name"].notna().to_numpy()
                    & ~conflict].copy()
    pin_free = new["egd_pin"].notna() & ~new["egd_pin"].isin(taken) & ~new["egd_pin"].duplicated(keep=False)
    # Past every id of the range in use, the pins given out here included (a bogus pin may lie in it).
    used = taken | set(new.loc[pin_free.to_numpy(), "egd_pin"].astype(int))
    start = max((i for i in used if i in NEW_PLAYER_IDS), default=NEW_PLAYER_IDS.start - 1) + 1
    new["player_id"] = new["egd_pin"].where(pin_free)
    new.loc[~pin_free.to_numpy(), "player_id"] = NEW_PLAYER_IDS[start - NEW_PLAYER_IDS.start:][:int((~pin_free).sum())]
    return new


def unknown_player_reasons(t: GoTournament, register_new: bool = False,
                           identities: pd.DataFrame | None = None) -> pd.Series:
    """Why each player key would not be found: an EGD pin the registry gives another
    player, a blank name, a pin or a name no registered player has (--register-new,
    advised only when it was not given, adds them)."""
    p = t.players.set_index("key")
    who = p["name"].map(repr, na_action="ignore").fillna("a player without a name").astype("string") \
        + " is not in the player registry: "
    searched = ("no registered player has EGD pin " + p["egd_pin"].astype("string")).fillna("no EGD pin in the file")
    absent = who + searched + " and no single registered player has this name" \
        + ("" if register_new else " (--register-new adds the file's new players)")
    nameless = who + searched + "; without a name it is never registered"
    conflict = identities["conflict"].reindex(p.index) if identities is not None else pd.Series(None, index=p.index)
    reasons = np.select([conflict.notna().to_numpy(), p["name"].isna().to_numpy()],
                        [conflict.astype(object).to_numpy(), nameless.astype(object).to_numpy()],
                        absent.astype(object).to_numpy())
    return pd.Series(reasons, index=p.index, dtype=object)


def ingest_go_tournament(con: duckdb.DuckDBPyConnection, path: Path, run_id: int, submission_id: int,
                         staging: str = "main", register_new: bool = False,
                         again: dict[str, int] | None = None, encoding: str | None = None) -> GoTournamentIngested:
    """Stage one Go tournament file as a submission's parts (its event, its games, its
    new players); `again`: only the rows still rejected of the parts staged before;
    `encoding`: the one named with --encoding."""
    path = Path(path)
    fmt, text = go_file_text(path, encoding)
    t = go_tournament_of(fmt, text, path.stem)
    described = described_event(con, t.event["event_id"])
    if t.fatal and described and text.refusal is None:  # ruling D3: the events file gives the real dates
        t = dated_by_events_file(con, t)
    event = t.event
    again = again or {}
    identities = registry_identities(con, t)
    ids = identities["player_id"]
    registered = 0
    if register_new and not event_row_problems(event) and not t.fatal:  # a rejected event registers nobody
        new = _new_players(con, t, ids, staging, identities)
        if len(new):
            stage_rows(con, staging, "players", path, run_id, submission_id, pd.DataFrame({
                "row_number": range(1, len(new) + 1), "player_id": new["player_id"].astype(int).astype(str),
                "name": new["name"], "grade": new["grade"], "club": new["club"],
                "extra": [json.dumps({k: v for k, v in {"egd_pin": pin, "country": country, "ffg_licence": licence,
                                                        "aga_id": aga}.items()
                                      if v is not None and not pd.isna(v)}, default=int, sort_keys=True)
                          for pin, country, licence, aga in zip(new["egd_pin"], new["country"], new["ffg_licence"],
                                                                new["aga_id"])]}))
            ids = ids.fillna(pd.Series(new["player_id"].astype("Int64").to_numpy(), index=new["key"].to_numpy()))
            registered = len(new)
    if described is None and not t.fatal:  # a file refused whole (D3) stages no event: its dates are wrong
        stage_rows(con, staging, "events", path, run_id, submission_id, pd.DataFrame([{
            "row_number": 1, "event_id": event["event_id"], "name": event["name"],
            "start_date": event["start_date"].isoformat() if event["start_date"] else None,
            "end_date": event["end_date"].isoformat() if event["end_date"] else None,
            "class": belgian_class(t)[0], "board_size": str(event["board_size"])}]), again.get("events"))
    games, problems = _staged_games(t, ids, register_new, identities)
    file_id = stage_rows(con, staging, "go_games", path, run_id, submission_id, games, again.get("go_games"))
    assumptions = [*t.assumptions, described] if described else event_assumptions(t)
    return GoTournamentIngested(str(path), t.source, event["event_id"], file_id, len(t.players),
                                int(ids.notna().sum()) - registered, registered, len(t.games),
                                int((~t.games["counted"]).sum()), problems, tuple(assumptions),
                                (text.warning,) if text.warning else (),
                                int((t.games["forfeit"] & t.games["winner"].isin(["B", "W"])).sum()))


def dated_by_events_file(con: duckdb.DuckDBPyConnection, t: GoTournament) -> GoTournament:
    """A file whose own dates ruling D3 refuses, its event described by an events file:
    its games (the Go formats have no round dates: each dated on the file's start) dated
    on the events file's start instead, and said."""
    start, end = con.execute("select start_date, end_date from events where event_id = ?",
                             [t.event["event_id"]]).fetchall()[0]
    dated = f"every game dated {t.event['start_date']}"
    said = [a for a in t.assumptions if dated not in a]
    said.append(f"the file's own dates ({t.event['start_date']} … {t.event['end_date']}) are not used (ruling D3): "
                f"the events file's are ({start} … {end}), and every game is dated {start}, its start")
    return replace(t, event={**t.event, "start_date": start, "end_date": end},
                   games=t.games.assign(date=start), assumptions=tuple(said), fatal=None)


def described_event(con: duckdb.DuckDBPyConnection, event_id: str) -> str | None:
    """What the report says when an events file already describes the file's event
    (it decides the class and the days, G8); None when none does."""
    found = con.execute("""select e.class, e.board_size, s.name from events e
                           join source_files f using (file_id) join submissions s using (submission_id)
                           where e.event_id = ? and s.format = 'events'""", [event_id]).fetchall()
    if not found:
        return None
    klass, board, name = found[0]
    return (f"event {event_id} is described by the events file {name}: its class {klass} and "
            f"{board}×{board} board are used, not the file's (ruling G8)")


def _staged_games(t: GoTournament, ids: pd.Series, register_new: bool = False,
                  identities: pd.DataFrame | None = None) -> tuple[pd.DataFrame, tuple[Problem, ...]]:
    """The games as staged rows, then one row per problem found reading; a game
    with a player not in the registry carries why (`unknown_player_reasons`),
    and the player is reported once, on their line."""
    g = t.games
    black, white = g["black"].map(ids), g["white"].map(ids)
    reasons = unknown_player_reasons(t, register_new, identities)
    lines = t.players.set_index("key")["line"]
    black_text, white_text = (
        ("line " + key.map(lines).astype("string") + ": " + side + ": " + key.map(reasons).astype("string"))
        .where(mapped.isna().to_numpy(), "")
        for side, key, mapped in (("black", g["black"], black), ("white", g["white"], white)))
    joined = black_text + np.where((black_text != "") & (white_text != ""), "; ", "") + white_text
    unknown = joined.where(joined != "")
    won_by_default = g["forfeit"] & g["winner"].isin(["B", "W"])  # stored as B+F, W+F: never rated
    why_not = pd.Series("not counted: " + g["forfeit"].map({True: "a game by default", False: "both won or both lost"}),
                        index=g.index).where(~g["counted"] & ~won_by_default)
    problem = why_not.fillna(unknown).astype(object)
    winner = g["winner"].mask(won_by_default, g["winner"].fillna("") + "+F")
    if t.fatal:  # refused whole (ruling D3): every game with the reason
        problem = pd.Series(t.fatal, index=g.index, dtype=object)
    dates = pd.to_datetime(g["date"], errors="coerce").dt.strftime("%Y-%m-%d").astype(object)
    games = pd.DataFrame({
        "event_id": t.event["event_id"],
        "date": dates.where(dates.notna(), None),
        "black_id": black.astype("string"), "white_id": white.astype("string"),
        "winner": winner, "handicap": g["handicap"].astype(str), "weight": None,
        "round": g["round"].astype(str),
        "problem": problem.where(problem.notna(), None),
    })
    missing = pd.unique(pd.concat([g["black"][black.isna().to_numpy()], g["white"][white.isna().to_numpy()]]))
    reported = [*t.problems, *(Problem(int(lines[k]), reasons[k]) for k in sorted(missing, key=lambda k: lines[k]))]
    if t.fatal:  # said once, first: no player is looked for in a file refused whole
        reported = [Problem(0, t.fatal), *t.problems]
    return records(games, t.problems), tuple(sorted(reported, key=lambda p: p.line))
