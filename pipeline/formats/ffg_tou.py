"""The French Go federation's results table (.tou), read into a GoTournament.

The FFG rates ("échelle") from this text table; OpenGotha writes it
(ExternalDocument.generateTouFile, in ISO-8859-15) and so does pairgoth
(StandingsHandler.exportToFFGFormat). Header lines start with `;`:
`;name=` the event's short name, `;date=dd/mm/yyyy` its first day (the only
date the format has), `;vill=` the town, `;comm=` its full name, `;prog=`
the program, `;size=` the board, `;time=`, `;ta=`, `;komi=`; any other `;`
line is a comment (`;Num Nom Prenom  Niv Licence Club`). Each other line
is a player, in fixed columns as both writers lay it out: place in 1-4
(blank for a tie), "SURNAME Firstname" in 6-30 (blanks inside a name as
`_`), grade in 31-33 (`5D`, `18K`), the FFG licence in 35-41 (blank when
the player has none), the club in 43-46 (pairgoth writes a foreign
player's country there instead), then one entry a round,
`<opponent><result><colour><handicap>` ("15+w4", "3-b0"): OpenGotha glues
the colour and handicap on, dropping the EGD format's `/` and with it the
`!` of a game won by default, so such a game cannot be told from a game
played; pairgoth keeps the `/` ("15+/w4"). `0=` is no game
(a bye or an absent round). The opponent is the number of the player's line
among player lines, as in the EGD format. A line whose grade is not in
columns 31-33 is read by its blanks instead: number, name, grade, licence
(digits), club, rounds.

Each game is read once, from the two lines that name each other (the EGD
reader's pairing, pipeline/formats/go_files.py), and dated on `;date=`:
the event is taken to end the day it starts.
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
    _egd_games,
    _Entry,
    _players_frame,
    _safe_id,
    _text_of,
    clean_name,
    no_game_problems,
    without_byte_order_mark,
)
from pipeline.formats.sniff import FFG_HEADER, FFG_RESULT, LINE_BREAK, grade_text

__all__ = ["ffg_from_text", "read_ffg"]

FFG_GAMES = "a player line ends with one entry a round, <opponent><result><colour><handicap> (15+w4; 0= no game)"


def read_ffg(path: str | Path) -> GoTournament:
    path = Path(path)
    return ffg_from_text(_text_of(path.read_bytes()), path.stem)


def ffg_from_text(text: str, file_name: str = "") -> GoTournament:
    """An FFG results table; file_name is the fallback event id."""
    lines = LINE_BREAK.split(without_byte_order_mark(text))
    problems: list[Problem] = []
    headers = {}
    for number, line in enumerate(lines, 1):
        if m := FFG_HEADER.match(line):
            headers.setdefault(m[1].lower(), (line.split("=", 1)[1].strip(), number))
    event = _event(headers, file_name, problems)
    rows, entries, count = [], [], 0
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        count += 1
        row, rounds = _player(line, number, count, problems)
        if row is None:
            continue
        rows.append(row)
        entries.extend(rounds)
    grades = {int(row["key"]): row["grade"] for row in rows}
    games, _ = _egd_games(entries, grades, count, None, event["start_date"], problems)
    players = _players_frame(rows)
    problems.extend(no_game_problems(players, games, problems, FFG_GAMES))
    said = _dated_at_start(games, event, "the FFG format has one date (;date=)", ";date=")
    if event["start_date"] is not None:
        said.append(f"the FFG format has no end date: the event is taken to end the day it starts "
                    f"({event['start_date']}); an events file can say otherwise")
    if len(games):
        said.append("the FFG format has no mark for a game won by default (OpenGotha drops it): "
                    "every result is taken as played")
    return GoTournament("ffg", event, players, games, _by_line(problems), tuple(said))


def _event(headers: dict[str, tuple[str, int]], file_name: str, problems: list[Problem]) -> dict:
    short = headers.get("name", ("", 0))[0] or None
    name = headers.get("comm", ("", 0))[0] or short
    start = None
    if "date" in headers:
        text, line = headers["date"]
        try:
            day, month, year = (int(part) for part in re.fullmatch(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})",
                                                                     text).groups())
            start = dt.date(year, month, day)
        except (AttributeError, ValueError):
            problems.append(Problem(line, f"unreadable date ;date={text} (dd/mm/yyyy)"))
    else:
        problems.append(Problem(0, "no ;date= line: the event has no date"))
    board = DEFAULT_BOARD
    if "size" in headers:
        text, line = headers["size"]
        if text in ("9", "13", "19"):
            board = int(text)
        else:
            problems.append(Problem(line, f"unreadable board size ;size={text}: 19 assumed"))
    return {"event_id": _safe_id(short) or _safe_id(file_name) or "event", "name": name, "start_date": start,
            "end_date": start, "class": None, "board_size": board}


def _player(line: str, number: int, player: int, problems: list[Problem]) -> tuple[dict | None, list[_Entry]]:
    """One player line: the player's row and their rounds; (None, []) when it has no grade (reported)."""
    fields = _fixed_fields(line) or _loose_fields(line)
    if fields is None:
        problems.append(Problem(number, "no grade after the name: line not read"))
        return None, []
    place, name_text, grade_raw, licence, club, rounds_text = fields
    if place and place.isdigit() and int(place) != player:
        problems.append(Problem(number, f"place {place} on player line {player}: opponents count lines, "
                                        f"so this is player {player}"))
    grade = grade_text(grade_raw)
    if grade is None:
        problems.append(Problem(number, f"unreadable grade {grade_raw!r}"))
    name = clean_name(name_text)
    if name is None:
        problems.append(Problem(number, f"no name before the grade {grade_raw!r}: the player is never registered"))
    if licence and not licence.isdigit():
        problems.append(Problem(number, f"unreadable FFG licence {licence!r}"))
    row = {"key": str(player), "name": name, "line": number, "grade": grade, "rating": float("nan"),
           "egd_pin": None, "club": club or None, "country": None,
           "ffg_licence": licence if licence and licence.isdigit() else None}
    entries = []
    for rnd, token in enumerate(rounds_text.split(), 1):
        m = FFG_RESULT.fullmatch(token)
        if m is None:
            problems.append(Problem(number, f"round {rnd}: unreadable entry {token!r}: this round not read"))
            continue
        colour = (m["colour"] or "").lower()
        entries.append(_Entry(player, number, rnd, int(m["opp"]), m["res"], colour if colour in ("w", "b") else None,
                              int(m["hd"]) if m["hd"] else None, bool(m["bang"])))
    return row, entries


def _fixed_fields(line: str) -> tuple[str, str, str, str, str, str] | None:
    """The columns OpenGotha and pairgoth write, when the grade is where they put it."""
    if len(line) < 33 or grade_text(line[30:33]) is None or line[33:34] not in ("", " "):
        return None
    return (line[0:4].strip(), line[5:30], line[30:33].strip(), line[34:41].strip(), line[42:46].strip(),
            line[46:])


def _loose_fields(line: str) -> tuple[str, str, str, str, str, str] | None:
    """The same fields read by blanks: number, name up to the first grade, licence
    (digits), club, then the rounds (every token that reads as one, to the end)."""
    tokens = line.split()
    place = tokens[0] if tokens and tokens[0].isdigit() else ""
    rest = tokens[1:] if place else tokens
    at = next((i for i, t in enumerate(rest) if grade_text(t) is not None), None)
    if at is None:
        return None
    after = rest[at + 1:]
    first_round = next((i for i, t in enumerate(after) if FFG_RESULT.fullmatch(t)), len(after))
    middle = after[:first_round]
    licence = next((t for t in middle if t.isdigit()), "")
    club = next((t for t in middle if t != licence), "")
    return place, " ".join(rest[:at]), rest[at], licence, club, " ".join(after[first_round:])
