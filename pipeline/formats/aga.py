"""The American Go Association's results report, read into a GoTournament.

The AGA rates from a text report ("Qualifications for Rated Games",
usgo.org; OpenGotha writes it, ExternalDocument.generateAGAResultsFile,
in ISO-8859-15). A `TOURNEY <name, place, dates>` line, then `key=value`
lines (`start=`, `finish=`, `rules=`, `location=`; OpenGotha writes
`location='...'` and indents the dates with a tab), then `PLAYERS` and one
line a player, `<AGA id> <Surname, Firstname> <rank>` (blanks or tabs;
rank `4k`, `30K`, `2d`, `7p`), then one or more `GAMES` sections (OpenGotha
writes `GAMES <round>`, one a round; the AGA's example one `GAMES`), one
line a game, `<white id> <black id> <winner w|b> <handicap> <komi>`, and
`END`. Dates are m/d/yyyy (the AGA's example) or yyyy-mm-dd (OpenGotha).
`#` starts a comment line; anything after `#` or `//` on a line is a
comment.

A game's round is its `GAMES` section's number (given, else counted);
every game is dated on start=. Handicap 0 with komi 0 is the one-stone
game (no komi: OpenGotha writes its handicap-1 games so), read as
handicap 1. A result other than w or b (OpenGotha writes `?` for jigo,
both won, both lost and unknown) is not recorded. Players without an AGA
id get a stand-in from OpenGotha (99999 downwards): the id is the file's
key for the games, and kept as `aga_id` only when it is not one of those.
"""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from pipeline.formats.go_files import (
    DEFAULT_BOARD,
    GoTournament,
    Problem,
    _by_line,
    _dated_at_start,
    _games_frame,
    _players_frame,
    _safe_id,
    _text_of,
    clean_name,
    no_game_problems,
    refused_dates,
    without_byte_order_mark,
)
from pipeline.formats.sniff import LINE_BREAK, grade_text

__all__ = ["aga_from_text", "read_aga"]

# OpenGotha gives players without an AGA id the free ids from 99999 down (one a player).
STAND_IN_IDS = range(99000, 100000)
AGA_GAMES = "its games are the lines of its GAMES sections, <white id> <black id> <winner> <handicap> <komi>"


def read_aga(path: str | Path) -> GoTournament:
    path = Path(path)
    return aga_from_text(_text_of(path.read_bytes()), path.stem)


def aga_from_text(text: str, file_name: str = "") -> GoTournament:
    """An AGA results report; file_name is the fallback event id."""
    problems: list[Problem] = []
    section, rnd, rounds_seen = "head", 0, 0
    head: dict[str, tuple[str, int]] = {}
    title, tourney_line = None, 0
    player_rows: list[dict] = []
    game_lines: list[tuple[int, int, list[str]]] = []
    for number, raw in enumerate(LINE_BREAK.split(without_byte_order_mark(text)), 1):
        line = re.split(r"#|//", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        word = line.split()[0].upper()
        if word == "TOURNEY" and section == "head" and not tourney_line:
            title, tourney_line = line[len("TOURNEY"):].strip() or None, number
        elif word == "PLAYERS":
            section = "players"
        elif word == "GAMES":
            section, rounds_seen = "games", rounds_seen + 1
            given = line.split()[1] if len(line.split()) > 1 else ""
            rnd = int(given) if given.isdigit() and int(given) > 0 else rounds_seen
        elif word == "END":
            section = "end"
        elif section == "head" and "=" in line:
            key, _, value = line.partition("=")
            head.setdefault(key.strip().lower(), (value.strip().strip("'\""), number))
        elif section == "players":
            row = _player(line, number, problems)
            if row is not None:
                player_rows.append(row)
        elif section == "games":
            game_lines.append((number, rnd, line.split()))
        elif section == "end":
            problems.append(Problem(number, "a line after END: not read"))
        else:
            problems.append(Problem(number, f"not a line of the AGA format before PLAYERS: {line[:40]!r}"))
    players = _unique(player_rows, problems)
    event = _event(title, tourney_line, head, file_name, problems)
    rows, no_komi = _games(game_lines, {row["key"] for row in players}, event["start_date"], problems)
    games = _games_frame(rows)
    player_rows = _players_frame(players)
    problems.extend(no_game_problems(player_rows, games, problems, AGA_GAMES))
    said = _dated_at_start(games, event, "the AGA format has no round dates", "start=")
    if no_komi:
        said.append(f"{no_komi} game{'s' if no_komi > 1 else ''} with handicap 0 and komi 0 read as handicap 1 "
                    "(no komi: the one-stone game)")
    start, finish = head.get("start", ("", 0)), head.get("finish", ("", 0))
    return GoTournament("aga", event, player_rows, games, _by_line(problems), tuple(said),
                        refused_dates(event, f"start={start[0]}, finish={finish[0]}", finish[1] or start[1]))


def _player(line: str, number: int, problems: list[Problem]) -> dict | None:
    tokens = line.split()
    if len(tokens) < 3 or not tokens[0].isdigit():
        problems.append(Problem(number, "a player line is <AGA id> <name> <rank>: line not read"))
        return None
    grade = grade_text(tokens[-1])
    if grade is None:
        problems.append(Problem(number, f"unreadable rank {tokens[-1]!r}"))
    surname, _, first = " ".join(tokens[1:-1]).partition(",")
    name = clean_name(f"{surname} {first}")
    aga_id = int(tokens[0])
    return {"key": str(aga_id), "name": name, "line": number, "grade": grade, "rating": float("nan"),
            "egd_pin": None, "club": None, "country": None,
            "aga_id": None if aga_id in STAND_IN_IDS or aga_id == 0 else str(aga_id)}


def _unique(rows: list[dict], problems: list[Problem]) -> list[dict]:
    seen: dict[str, int] = {}
    kept = []
    for row in rows:
        if row["key"] in seen:
            problems.append(Problem(row["line"], f"AGA id {row['key']} already used on line {seen[row['key']]}: "
                                                 "not read"))
            continue
        seen[row["key"]] = row["line"]
        kept.append(row)
    return kept


def _date(text: str) -> dt.date:
    if m := re.fullmatch(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})", text):
        return dt.date(int(m[3]), int(m[1]), int(m[2]))
    if m := re.fullmatch(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", text):
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    raise ValueError(text)


def _event(title: str | None, tourney_line: int, head: dict[str, tuple[str, int]], file_name: str,
           problems: list[Problem]) -> dict:
    if title is None:
        problems.append(Problem(tourney_line, "the TOURNEY line names no event" if tourney_line else
                                "no TOURNEY line: the event has no name"))
    dates = {}
    for key in ("start", "finish"):
        if key not in head:
            problems.append(Problem(0, f"no {key}= line: the event has no {key} date"))
            continue
        text, line = head[key]
        try:
            dates[key] = _date(text)
        except ValueError:
            problems.append(Problem(line, f"unreadable date {key}={text} (m/d/yyyy or yyyy-mm-dd)"))
    # The TOURNEY line often holds the place and dates after the name: the id is the part before them.
    short = title.split(",")[0] if title else None
    return {"event_id": _safe_id(short) or _safe_id(file_name) or "event", "name": title,
            "start_date": dates.get("start"), "end_date": dates.get("finish", dates.get("start")),
            "class": None, "board_size": DEFAULT_BOARD}


def _games(lines: list[tuple[int, int, list[str]]], known: set[str], start: dt.date | None,
           problems: list[Problem]) -> tuple[list[dict], int]:
    rows, no_komi = [], 0
    for number, rnd, tokens in lines:
        where = f"round {rnd}: "
        if len(tokens) < 4 or not all(t.isdigit() for t in tokens[:2]):
            problems.append(Problem(number, where + "a game line is <white id> <black id> <winner> <handicap> "
                                                    "<komi>: line not read"))
            continue
        white, black, result, handicap = str(int(tokens[0])), str(int(tokens[1])), tokens[2].lower(), tokens[3]
        missing = [f"{side} {key}" for side, key in (("white", white), ("black", black)) if key not in known]
        if missing:
            problems.append(Problem(number, where + f"{' and '.join(missing)} not among the players"))
            continue
        if white == black:
            problems.append(Problem(number, where + f"{white} plays itself"))
            continue
        if result not in ("w", "b"):
            problems.append(Problem(number, where + f"no result ({tokens[2]!r}): not recorded"))
            continue
        if not re.fullmatch(r"[0-9]", handicap):
            problems.append(Problem(number, where + f"unreadable handicap {handicap!r}"))
            continue
        stones = int(handicap)
        komi = tokens[4] if len(tokens) > 4 else ""
        if stones == 0 and re.fullmatch(r"0+(\.0+)?", komi):
            stones, no_komi = 1, no_komi + 1
        rows.append({"round": rnd, "date": start, "black": black, "white": white, "winner": result.upper(),
                     "handicap": stones, "forfeit": False, "counted": True})
    return rows, no_komi
