"""A pairgoth tournament (.tour, JSON), read into a GoTournament.

pairgoth (the FFG's pairing server, github.com/ffrgo/pairgoth) saves a
tournament as one JSON object (model/Tournament.kt toFullJson): `type`
(INDIVIDUAL; PAIRGO, RENGO and TEAM tournaments pair teams and are not
read), `name`, `shortName`, `startDate`/`endDate` (yyyy-mm-dd),
`gobanSize`, `players` (each `id`, `name`, `firstname`, `rating`, `rank`,
`country`, `club`, and the ids of the databases it was found in, `egf`,
`ffg`, `aga`, as text), and `games`: one array a round, each game `{id, t
(table), w, b (player ids), h (handicap), r}`. `rank` counts kyu below
zero and dan from zero (−1 is 1k, 0 is 1d, 2 is 3d: util/RankRating.kt
displayRank). Results `r`: `w` White won, `b` Black won, `=` jigo, `#`
both won, `0` both lost, `X` cancelled, `?` unknown. Player 0 is the bye.

Games with `?` or `X` are not recorded; `#` and `0` are recorded, not
counted; a game with the bye is no game. Every game is dated on the start
date (the format has no round dates).
"""
from __future__ import annotations

import datetime as dt
import json
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
    clean_name,
    no_game_problems,
    refused_dates,
    without_byte_order_mark,
)

__all__ = ["pairgoth_from_json", "read_pairgoth"]

RESULTS = {"w": ("W", True), "b": ("B", True), "=": ("jigo", True), "#": (None, False), "0": (None, False)}
NOT_RECORDED = {"?": "no result ('?')", "X": "cancelled ('X')"}
BYE = 0
PAIRGOTH_GAMES = 'its "games" hold one array a round of games {"w", "b", "h", "r"} between two players'


def read_pairgoth(path: str | Path) -> GoTournament:
    path = Path(path)
    return pairgoth_from_json(path.read_bytes(), path.stem)


def pairgoth_from_json(data: bytes | str, file_name: str = "") -> GoTournament:
    """A pairgoth .tour file; file_name is the fallback event id. Problems name the
    line of the element they concern (the line of its opening brace)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    text = without_byte_order_mark(text)
    problems: list[Problem] = []
    try:
        tour = json.loads(text)
    except json.JSONDecodeError as error:
        problems.append(Problem(error.lineno, f"not well-formed JSON: {error.msg}"))
        tour = {}
    if not isinstance(tour, dict):
        problems.append(Problem(1, "not a pairgoth tournament: the file is not one JSON object"))
        tour = {}
    lines = _object_lines(text)
    event = _event(tour, file_name, problems)
    kind = str(tour.get("type", "INDIVIDUAL")).upper()
    if kind != "INDIVIDUAL":
        problems.append(Problem(1, f"a {kind} tournament (teams paired against teams): its games are not read; "
                                   "export the individual games as an EGD results file"))
        players_json, rounds = [], []
    else:
        players_json, rounds = tour.get("players") or [], tour.get("games") or []
        for key, value in (("players", players_json), ("games", rounds)):
            if not isinstance(value, list):
                problems.append(Problem(1, f'"{key}" is not a list: not read'))
        players_json = players_json if isinstance(players_json, list) else []
        rounds = rounds if isinstance(rounds, list) else []
    # The players and then the games are the file's last objects (pairgoth writes the
    # settings, whose objects nest, before them): their lines are the last braces.
    game_count = sum(len(r) for r in rounds if isinstance(r, list))
    tail = lines[len(lines) - len(players_json) - game_count:] if len(lines) >= len(players_json) + game_count \
        else []
    players = _players(players_json, tail[:len(players_json)], problems)
    rows = _games(rounds, {row["key"] for row in players}, tail[len(players_json):], event["start_date"], problems)
    games = _games_frame(rows)
    player_rows = _players_frame(players)
    problems.extend(no_game_problems(player_rows, games, problems, PAIRGOTH_GAMES))
    said = _dated_at_start(games, event, "a pairgoth file has no round dates", "startDate")
    # json keeps no positions: the line is the first that names the end date
    line = next((n for n, text_line in enumerate(text.splitlines(), 1) if '"endDate"' in text_line), 1)
    return GoTournament("pairgoth", event, player_rows, games, _by_line(problems), tuple(said),
                        refused_dates(event, f"startDate {event['start_date']}, endDate {event['end_date']}", line))


def _object_lines(text: str) -> list[int]:
    """The line of each `{` in the file, in order: json keeps no positions, and the
    players and games are the file's objects in that order."""
    lines, line, in_string, escaped = [], 1, False, False
    for char in text:
        if char == "\n":
            line += 1
        if in_string:
            escaped = not escaped and char == "\\"
            if char == '"' and not escaped:
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char == "{":
            lines.append(line)
    return lines


def _event(tour: dict, file_name: str, problems: list[Problem]) -> dict:
    def date(key: str) -> dt.date | None:
        value = tour.get(key)
        try:
            return dt.date.fromisoformat(value) if isinstance(value, str) and value.strip() else None
        except ValueError:
            problems.append(Problem(1, f"unreadable {key} {value!r}"))
            return None

    board = tour.get("gobanSize", DEFAULT_BOARD)
    if board not in (9, 13, 19):
        problems.append(Problem(1, f"unreadable gobanSize {board!r}: 19 assumed"))
        board = DEFAULT_BOARD
    name = tour.get("name") if isinstance(tour.get("name"), str) else None
    short = tour.get("shortName") if isinstance(tour.get("shortName"), str) else None
    return {"event_id": _safe_id(short) or _safe_id(name) or _safe_id(file_name) or "event", "name": name,
            "start_date": date("startDate"), "end_date": date("endDate"), "class": None, "board_size": board}


def _line_of(lines: list[int], index: int) -> int:
    return lines[index] if 0 <= index < len(lines) else 0


def _players(players_json: list, lines: list[int], problems: list[Problem]) -> list[dict]:
    rows, seen = [], {}
    for n, player in enumerate(players_json):
        line = _line_of(lines, n)
        if not isinstance(player, dict) or not isinstance(player.get("id"), int):
            problems.append(Problem(line, "a player without a numeric id: not read"))
            continue
        key = str(player["id"])
        if key in seen:
            problems.append(Problem(line, f"player id {key} already used on line {seen[key]}: not read"))
            continue
        seen[key] = line
        name = clean_name(f"{player.get('name') or ''} {player.get('firstname') or ''}")
        if name is None:
            problems.append(Problem(line, f"player {key} has no name: the player can be matched by EGD pin only, "
                                          "and is never registered"))
        rank = player.get("rank")
        grade = _grade(rank)
        if grade is None:
            problems.append(Problem(line, f"player {key}: unreadable rank {rank!r}"))
        rating = player.get("rating")
        rows.append({"key": key, "name": name, "line": line, "grade": grade,
                     "rating": float(rating) if isinstance(rating, (int, float)) else float("nan"),
                     "egd_pin": _pin(player.get("egf"), line, problems),
                     "club": str(player.get("club") or "").strip() or None,
                     "country": str(player.get("country") or "").strip() or None,
                     "ffg_licence": _text_id(player.get("ffg")), "aga_id": _text_id(player.get("aga"))})
    return rows


def _grade(rank) -> str | None:
    """pairgoth's rank: −30 … −1 are 30k … 1k, 0 … 8 are 1d … 9d."""
    if not isinstance(rank, int) or isinstance(rank, bool):
        return None
    if -30 <= rank <= -1:
        return f"{-rank}k"
    if 0 <= rank <= 8:
        return f"{rank + 1}d"
    return None


def _pin(value, line: int, problems: list[Problem]) -> int | None:
    # pairgoth keeps the text as found: some pins end with a line break.
    text = str(value).strip() if value is not None else ""
    if not text:
        return None
    if not text.isdigit():
        problems.append(Problem(line, f"unreadable egf pin {text!r}"))
        return None
    return int(text) or None


def _text_id(value) -> str | None:
    text = str(value).strip() if value is not None else ""
    return text or None


def _games(rounds: list, known: set[str], lines: list[int], start: dt.date | None,
           problems: list[Problem]) -> list[dict]:
    rows, at = [], 0
    for rnd, games in enumerate(rounds, 1):
        if not isinstance(games, list):
            problems.append(Problem(1, f"round {rnd}: {json.dumps(games)[:20]} is not a list of games: not read"))
            continue
        for game in games:
            line, at = _line_of(lines, at), at + 1
            row = _game(game, rnd, known, line, start, problems)
            if row is not None:
                rows.append(row)
    return rows


def _game(game, rnd: int, known: set[str], line: int, start: dt.date | None, problems: list[Problem]) -> dict | None:
    where = f"round {rnd}: "
    if not isinstance(game, dict) or not isinstance(game.get("w"), int) or not isinstance(game.get("b"), int):
        problems.append(Problem(line, where + "a game without numeric w and b: not read"))
        return None
    white, black = game["w"], game["b"]
    if BYE in (white, black):
        return None  # the bye: no game
    missing = [f"{side} {pid}" for side, pid in (("white", white), ("black", black)) if str(pid) not in known]
    if missing:
        problems.append(Problem(line, where + f"{' and '.join(missing)} not among the players"))
        return None
    if white == black:
        problems.append(Problem(line, where + f"player {white} plays itself"))
        return None
    result = str(game.get("r", "?"))
    if result in NOT_RECORDED:
        problems.append(Problem(line, where + f"{NOT_RECORDED[result]}: not recorded"))
        return None
    if result not in RESULTS:
        problems.append(Problem(line, where + f"unknown result {result!r}"))
        return None
    handicap = game.get("h", 0)
    if not isinstance(handicap, int) or isinstance(handicap, bool) or not 0 <= handicap <= 9:
        problems.append(Problem(line, where + f"unreadable handicap {handicap!r}"))
        return None
    winner, counted = RESULTS[result]
    return {"round": rnd, "date": start, "black": str(black), "white": str(white), "winner": winner,
            "handicap": handicap, "forfeit": False, "counted": counted}
