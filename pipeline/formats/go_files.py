"""Go tournament files: OpenGotha XML and the EGD results format, read into tables
(the FFG, AGA and pairgoth formats: ffg_tou.py, aga.py and pairgoth.py beside this one,
into the same GoTournament; pipeline/formats/go_reports.py reads any of them by its content).

OpenGotha XML is what the OpenGotha pairing program saves (pairgoth, its
successor, reads and writes it too). A `<Tournament>` root holds `<Players>`
(one `<Player name= firstName= rank= rating= egfPin= club= country= .../>`
each), `<Games>` (`<Game roundNumber= blackPlayer= whitePlayer= handicap=
result= .../>`), optional `<ByePlayer>` entries and a
`<TournamentParameterSet>` whose `<GeneralParameterSet name= shortName=
beginDate= endDate= size= .../>` describes the event. A game names its
players by OpenGotha's key, name + firstName with the spaces removed, in
upper case (Player.computeKeyString in OpenGotha's source). Results are
RESULT_WHITEWINS, RESULT_BLACKWINS, RESULT_EQUAL (jigo), RESULT_BOTHWIN,
RESULT_BOTHLOSE and RESULT_UNKNOWN, each but the last also with _BYDEF (by
default: not played). Pairgoth writes both-lose as RESULT_BOTHLOOSE. Files
of dataVersion 200 and before stored ratings 2050 lower (OpenGotha adds
2050 when it reads them); a file without dataVersion is read as current,
as OpenGotha 3.52 saves ratings already shifted and without one. OpenGotha
files carry no round dates: every game takes the begin date.

The EGD results format is the text table the European Go Database takes
(OpenGotha's "EGF" export, the .h/.h9 files; described in the EGF ratings
officer's "Tournament table format", gemma.ujf.cas.cz/~cieply/GO/format.html,
and written by OpenGotha's ExternalDocument.generateH9File). Everything
after a `;` is a comment; the header is in comments, `; CL[A]` class,
`; EV[...]` event name, `; PC[country,town]`, `; DT[start,end]`, `; HA[hN]`
handicap rule (handicap = grade difference - N), `; KM[...]` komi,
`; TM[...]` time. Each other line is a player: place (blank for a tie),
name (OpenGotha writes "Surname Firstname", blanks inside a name as _,
read back as spaces),
grade, country, club, any number of placement columns, then one entry per
round, `<opponent><result>[/<colour>[<handicap>]]`: result + (win), - (loss),
= (jigo) or ? (unknown), colour w or b (? unknown). `!` in place of `/`
marks a game given by default, not counted for rating. Opponent 0 is no
game (0+ 0- 0= a bye or an absent round). The opponent is the number of
the player's line, counted from the first (OpenGotha's ScoredPlayer.
halfGamesStrings): that is the place, except that a tie leaves the place
blank. Some exports end a line with `|<EGD pin>`. An entry with neither
colour nor handicap ("35=") leaves them to the grades and the HA rule: the
weaker player takes Black. A round slot of `?` alone is a round without a game
recorded (no game). The fields are split by blanks or tabs; some writers put
score columns after the rounds, before the PIN (MM, Wins, SOS, Place): a line's
rounds are its last run of round entries, and the columns after it are not read
(said once; a line with another number of them than the others is a problem).

Each game is read once (an EGD game from the two lines that name each
other). A player's name is cleaned (`_` a space, blanks trimmed); a blank
one is reported, and the player kept with None for a name (the pin can
still find them). Games with no result (RESULT_UNKNOWN, `?`) are not recorded; both
won, both lost and by-default games are, with `counted` false. A bad
element or line is reported as a `Problem` and the rest of the file is
still read; a file read to no game is a problem too (`no_game_problems`, every
reader). A byte-order mark before the first line is no part of it
(`without_byte_order_mark`, every reader).
"""
from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

import numpy as np
import pandas as pd

from pipeline.formats.event_dates import span_refusal
from pipeline.formats.sniff import (
    EGD_HEADER,
    EGD_RESULT,
    LINE_BREAK,
    grade_text,
    looks_like_egd,
    looks_like_opengotha,
    text_of,
)
from pipeline.formats.trf import Problem  # one Problem type for every tournament format

__all__ = ["GoTournament", "Problem", "clean_name", "egd_from_text", "grade_text", "looks_like_egd",
           "looks_like_opengotha",
           "opengotha_from_xml", "opengotha_key", "read_egd", "read_opengotha"]

# ffg_licence and aga_id: the national federation's id, kept for the registry (FFG, AGA, pairgoth files).
PLAYER_COLUMNS = ["key", "name", "grade", "rating", "egd_pin", "club", "country", "line", "ffg_licence", "aga_id"]
GAME_COLUMNS = ["round", "date", "black", "white", "winner", "handicap", "forfeit", "counted"]
DEFAULT_BOARD = 19

# OpenGotha result code -> (winner, by default).
OPENGOTHA_RESULTS = {
    "RESULT_WHITEWINS": ("W", False), "RESULT_BLACKWINS": ("B", False), "RESULT_EQUAL": ("jigo", False),
    "RESULT_BOTHWIN": (None, False), "RESULT_BOTHLOSE": (None, False), "RESULT_BOTHLOOSE": (None, False),
    "RESULT_WHITEWINS_BYDEF": ("W", True), "RESULT_BLACKWINS_BYDEF": ("B", True),
    "RESULT_EQUAL_BYDEF": ("jigo", True), "RESULT_BOTHWIN_BYDEF": (None, True),
    "RESULT_BOTHLOSE_BYDEF": (None, True), "RESULT_BOTHLOOSE_BYDEF": (None, True),
}
NO_RESULT = "RESULT_UNKNOWN"
OPENGOTHA_GAMES = ("its games are the <Game> elements inside <Games>, each naming a roundNumber, two players "
                   "and a result")
OLD_RATING_SHIFT = 2050  # OpenGotha: `if (importedDataVersion < 201L) rating += 2050`

EGD_CLASSES = ("A", "B", "C", "D")
# This line's result then the opponent's, for a game both lines agree on.
EGD_AGREEING = ("+-", "-+", "==", "++", "--")
# Black's result then White's -> winner; both won or both lost has none.
EGD_WINNER = {"+-": "B", "-+": "W", "==": "jigo", "++": None, "--": None}
NUMBER_LIKE = re.compile(r"[0-9.,?½¼¾-]+")  # a placement column (MMS, SOS, ...), not a club
# A round slot holding `?` alone: no game recorded in that round (the 1979 World Amateur
# Championship's file has 82), not the format's `<opponent>?`, a game of unknown result.
NO_GAME_RECORDED = "?"
# What a game is in this format, for the problem of a file read to no game.
EGD_GAMES = ("a player line ends with one entry a round, <opponent><result>[/<colour><handicap>] (12+/w0; "
             "0= no game), before any score columns and the |PIN")
# A UTF-8 byte-order mark before the first line: as UTF-8 decodes it (U+FEFF), or as the
# single-byte code page a file that is not UTF-8 throughout is read in (Latin-1, CP1252 and
# ISO-8859-15 all read its bytes EF BB BF as "ï»¿": a mark put before OpenGotha's ISO-8859-15).
BYTE_ORDER_MARKS = ("\ufeff", "\u00ef\u00bb\u00bf")


@dataclass(frozen=True, eq=False)
class GoTournament:
    source: str  # "opengotha", "egd", "ffg", "aga" or "pairgoth"
    event: dict  # event_id, name, start_date, end_date, class, board_size
    # PLAYER_COLUMNS; key is file-local (OpenGotha key, EGD line number); name is None when
    # blank (reported); line is the file's line of the player's element or line.
    players: pd.DataFrame
    games: pd.DataFrame  # GAME_COLUMNS, each game once
    problems: tuple[Problem, ...]
    # What the reader took for granted (game dates, colours from grades), for the ingest report.
    assumptions: tuple[str, ...] = ()
    # Why the file as a whole cannot be taken in: its event's own dates end more than a year
    # after they start, or before (ruling D3, refused_dates); None when it can.
    fatal: str | None = None


def refused_dates(event: dict, said: str, line: int) -> str | None:
    """Ruling D3 for a Go file's event (pipeline/formats/event_dates.py): why the file is
    refused whole, naming the line and the dates as the file writes them (`said`)."""
    return span_refusal(event["start_date"], event["end_date"], said, line,
                        f"give the real dates with an events file describing event {event['event_id']}")


# ---------------------------------------------------------------------------
# Grades and other small values


def _grade_step(grade: str) -> int:
    """A grade on one scale, one step per grade: 1k is 0, 1d is 1."""
    number = int(grade[:-1])
    return number if grade.endswith("d") else 1 - number


def _safe_id(text: str | None) -> str | None:
    """Letters, digits and _ - . only: accents dropped, anything else one _."""
    if not text:
        return None
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", ascii_text).strip("_.-")[:64] or None


def clean_name(text: str | None) -> str | None:
    """A name as people write it: `_` (how the EGD format writes a blank inside a
    name, "van_Dijk") is a space, runs of blanks one space; None when nothing is left."""
    return re.sub(r"[\s_]+", " ", text or "").strip() or None


def _iso_date(text: str) -> dt.date:
    """YYYY-MM-DD, as both formats write dates; ValueError otherwise."""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}", text.strip()):
        raise ValueError(text)
    year, month, day = (int(part) for part in text.strip().split("-"))
    return dt.date(year, month, day)


def _text_of(data: bytes) -> str:
    """UTF-8 when it decodes, else ISO-8859-15, which OpenGotha's EGD export writes."""
    return text_of(data, fallback="iso-8859-15")


def without_byte_order_mark(text: str) -> str:
    """The text after any byte-order mark it starts with (BYTE_ORDER_MARKS): a mark is
    no part of the first line, which would otherwise be read as a line of data and shift
    every EGD or FFG player's number by one."""
    while mark := next((m for m in BYTE_ORDER_MARKS if text.startswith(m)), None):
        text = text[len(mark):]
    return text


def no_game_problems(players: pd.DataFrame, games: pd.DataFrame, problems: list[Problem],
                     games_are: str) -> list[Problem]:
    """The problem of a file read to no game, on its first player's line: a file with
    players and no game is said, never reported clean with 0 games (issue 51). A file
    with no player either is said too, unless a problem found already explains it.
    `games_are`: what a game is in the file's format."""
    if len(games) or (not len(players) and problems):
        return []
    if not len(players):
        return [Problem(0, f"no player and no game read: nothing in this file can be rated ({games_are})")]
    count = len(players)
    return [Problem(int(players["line"].min()), f"{count} player{'s' if count > 1 else ''} and no game read: "
                                                 f"nothing in this file can be rated ({games_are})")]


def _players_frame(rows: list[dict]) -> pd.DataFrame:
    players = pd.DataFrame(rows, columns=PLAYER_COLUMNS)
    players = players.astype({"key": "str", "rating": "float64", "egd_pin": "Int64", "line": "int64"})
    for column in ("name", "grade", "club", "country", "ffg_licence", "aga_id"):
        players[column] = _with_none(players[column])
    return players


def _games_frame(rows: list[dict]) -> pd.DataFrame:
    games = pd.DataFrame(rows, columns=GAME_COLUMNS)
    games = games.astype({"round": "int64", "black": "str", "white": "str", "handicap": "int64",
                          "forfeit": "bool", "counted": "bool"})
    for column in ("date", "winner"):
        games[column] = _with_none(games[column])
    return games.sort_values("round", kind="stable").reset_index(drop=True)


def _with_none(values: pd.Series) -> pd.Series:
    """An object column with None where a value is missing: pandas would
    infer a string column with NaN, and a date column with NaT."""
    values = values.astype(object)
    return values.where(values.notna(), None)


def _by_line(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(problems, key=lambda p: p.line))


# ---------------------------------------------------------------------------
# OpenGotha XML


@dataclass(frozen=True)
class _Element:
    tag: str
    attrs: dict[str, str]
    line: int
    parent: str | None


def read_opengotha(path: str | Path) -> GoTournament:
    path = Path(path)
    return opengotha_from_xml(path.read_bytes(), path.stem)


def opengotha_from_xml(data: bytes | str, file_name: str = "") -> GoTournament:
    """An OpenGotha (or pairgoth) tournament file; file_name is the fallback event id."""
    elements, problems = _xml_elements(data)
    root = elements[0] if elements else None
    if root is None or root.tag != "Tournament":
        problems.append(Problem(root.line if root else 0,
                                f"root element is <{root.tag}>, not <Tournament>" if root else "no XML element"))
        event = _opengotha_event(None, file_name, [])  # its own "no GeneralParameterSet" would repeat that
        return GoTournament("opengotha", event, _players_frame([]), _games_frame([]), _by_line(problems))
    old_ratings = _data_version(root, problems) <= 200
    players = _opengotha_players([e for e in elements if e.tag == "Player" and e.parent == "Players"],
                                 old_ratings, problems)
    general = next((e for e in elements if e.tag == "GeneralParameterSet"), None)
    event = _opengotha_event(general, file_name, problems)
    games = _opengotha_games([e for e in elements if e.tag == "Game" and e.parent == "Games"],
                             players["key"].tolist(), event["start_date"], problems)
    problems.extend(no_game_problems(players, games, problems, OPENGOTHA_GAMES))
    refused = refused_dates(event, f"beginDate {event['start_date']}, endDate {event['end_date']}",
                            general.line if general else 0)
    return GoTournament("opengotha", event, players, games, _by_line(problems),
                        tuple(_dated_at_start(games, event, "an OpenGotha file has no round dates", "beginDate")),
                        refused)


def _xml_elements(data: bytes | str) -> tuple[list[_Element], list[Problem]]:
    """Every start tag with its attributes and line, in file order. expat
    rather than ElementTree, which keeps no line numbers."""
    elements: list[_Element] = []
    problems: list[Problem] = []
    open_tags: list[str] = []
    parser = expat.ParserCreate()

    def start(tag: str, attrs: dict[str, str]) -> None:
        elements.append(_Element(tag, attrs, parser.CurrentLineNumber, open_tags[-1] if open_tags else None))
        open_tags.append(tag)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: open_tags.pop()
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        # What came before the error is kept: a file cut short still has its players.
        problems.append(Problem(error.lineno, f"not well-formed XML: {expat.ErrorString(error.code)}"))
    return elements, problems


def _data_version(root: _Element, problems: list[Problem]) -> int:
    """The root's dataVersion; 201 (current) when absent: OpenGotha 3.52
    writes none, and its ratings are already shifted (a 3k at 1820)."""
    text = root.attrs.get("dataVersion", "201").strip()
    if not text.isdigit():
        problems.append(Problem(root.line, f"unreadable dataVersion {text!r}: ratings read as written"))
        return 201
    return int(text)


def opengotha_key(name: str, first_name: str) -> str:
    """OpenGotha's player key: name and first name, no spaces, upper case."""
    return (name + first_name).replace(" ", "").upper()


def _folded(reference: str) -> str:
    """A key without case, spaces or accents: how OpenGotha matches the
    references of older files (Gotha.forceToASCII) and how pairgoth's mixed-
    case ones still find their player."""
    ascii_text = unicodedata.normalize("NFKD", reference).encode("ascii", "ignore").decode()
    return ascii_text.replace(" ", "").upper()


def _opengotha_players(elements: list[_Element], old_ratings: bool, problems: list[Problem]) -> pd.DataFrame:
    rows: list[dict] = []
    first_line: dict[str, int] = {}
    for e in elements:
        name, first = e.attrs.get("name", "").strip(), e.attrs.get("firstName", "").strip()
        if not name and not first:
            problems.append(Problem(e.line, "player without name or firstName: not read"))
            continue
        key = opengotha_key(name, first)
        if key in first_line:
            problems.append(Problem(e.line, f"player key {key} already used on line {first_line[key]}: not read"))
            continue
        first_line[key] = e.line
        full = clean_name(f"{name} {first}")
        if full is None:
            problems.append(Problem(e.line, f"blank name (name {name!r}, firstName {first!r}): the player can "
                                            "be matched by EGD pin only, and is never registered"))
        rows.append({"key": key, "name": full, "line": e.line,
                     "grade": _attr_grade(e, problems), "rating": _attr_rating(e, old_ratings, problems),
                     "egd_pin": _attr_pin(e, problems), "club": e.attrs.get("club", "").strip() or None,
                     "country": e.attrs.get("country", "").strip() or None})
    return _players_frame(rows)


def _attr_grade(e: _Element, problems: list[Problem]) -> str | None:
    # rank is what OpenGotha pairs and exports with; grade is only the EGD list's.
    text = e.attrs.get("rank") or e.attrs.get("grade") or ""
    grade = grade_text(text)
    if grade is None and text.strip():
        problems.append(Problem(e.line, f"unreadable grade {text!r}"))
    return grade


def _attr_rating(e: _Element, old_ratings: bool, problems: list[Problem]) -> float:
    text = e.attrs.get("rating", "").strip()
    if not text:
        return np.nan
    if not re.fullmatch(r"-?[0-9]+(?:\.[0-9]+)?", text):
        problems.append(Problem(e.line, f"unreadable rating {text!r}"))
        return np.nan
    return float(text) + (OLD_RATING_SHIFT if old_ratings else 0)


def _attr_pin(e: _Element, problems: list[Problem]) -> int | None:
    # Some files break the line inside the attribute; XML reads that as a space.
    text = e.attrs.get("egfPin", "").strip()
    if not text.isdigit():
        if text:
            problems.append(Problem(e.line, f"unreadable egfPin {text!r}"))
        return None
    return int(text) or None  # "0" is how some files say none


def _opengotha_event(general: _Element | None, file_name: str, problems: list[Problem]) -> dict:
    attrs = general.attrs if general else {}
    line = general.line if general else 0
    if general is None:
        problems.append(Problem(0, "no GeneralParameterSet: the event has no name or dates"))

    def date(attribute: str) -> dt.date | None:
        text = attrs.get(attribute, "")
        try:
            return _iso_date(text) if text.strip() else None
        except ValueError:
            problems.append(Problem(line, f"unreadable {attribute} {text!r}"))
            return None

    size = attrs.get("size", str(DEFAULT_BOARD)).strip()
    if not size.isdigit():
        problems.append(Problem(line, f"unreadable board size {size!r}: 19 assumed"))
    name = attrs.get("name", "").strip() or None
    return {"event_id": _safe_id(attrs.get("shortName")) or _safe_id(name) or _safe_id(file_name) or "event",
            "name": name, "start_date": date("beginDate"), "end_date": date("endDate"), "class": None,
            "board_size": int(size) if size.isdigit() else DEFAULT_BOARD}


def _opengotha_games(elements: list[_Element], keys: list[str], start: dt.date | None,
                     problems: list[Problem]) -> pd.DataFrame:
    folded = Counter(_folded(k) for k in keys)
    by_folded = {_folded(k): k for k in keys if folded[_folded(k)] == 1}  # an ambiguous fold finds no one
    known = set(keys)
    seated: dict[tuple[int, str], int] = {}  # (round, key) -> line of the game it is in
    rows: list[dict] = []
    for e in elements:
        row = _opengotha_game(e, known, by_folded, start, problems)
        if row is None:
            continue
        busy = [k for k in (row["black"], row["white"]) if (row["round"], k) in seated]
        if busy:
            problems.append(Problem(e.line, f"round {row['round']}: {busy[0]} already plays on line "
                                            f"{seated[row['round'], busy[0]]}: not recorded"))
            continue
        seated[row["round"], row["black"]] = seated[row["round"], row["white"]] = e.line
        rows.append(row)
    return _games_frame(rows)


def _opengotha_game(e: _Element, known: set[str], by_folded: dict[str, str], start: dt.date | None,
                    problems: list[Problem]) -> dict | None:
    """One <Game> as a games row, or None (reported) when it cannot be one."""
    text = e.attrs.get("roundNumber", "").strip()
    if not text.isdigit() or int(text) == 0:
        problems.append(Problem(e.line, f"unreadable roundNumber {text!r}"))
        return None
    rnd = int(text)
    sides = {}
    for side in ("black", "white"):
        reference = e.attrs.get(f"{side}Player", "")
        sides[side] = reference if reference in known else by_folded.get(_folded(reference))
        if sides[side] is None:
            problems.append(Problem(e.line, f"round {rnd}: {side}Player {reference!r} is not among the players"))
    if None in sides.values():
        return None
    if sides["black"] == sides["white"]:
        problems.append(Problem(e.line, f"round {rnd}: {sides['black']} plays itself"))
        return None
    result = e.attrs.get("result", NO_RESULT)  # OpenGotha's default when the attribute is missing
    if result == NO_RESULT:
        problems.append(Problem(e.line, f"round {rnd}: no result ({NO_RESULT}): not recorded"))
        return None
    if result not in OPENGOTHA_RESULTS:
        problems.append(Problem(e.line, f"round {rnd}: unknown result code {result!r}"))
        return None
    handicap = e.attrs.get("handicap", "0").strip()
    if not re.fullmatch(r"[0-9]", handicap):
        problems.append(Problem(e.line, f"round {rnd}: unreadable handicap {handicap!r}"))
        return None
    winner, by_default = OPENGOTHA_RESULTS[result]
    return {"round": rnd, "date": start, "black": sides["black"], "white": sides["white"], "winner": winner,
            "handicap": int(handicap), "forfeit": by_default, "counted": winner is not None and not by_default}


# ---------------------------------------------------------------------------
# EGD results format


@dataclass(frozen=True)
class _Entry:
    """One round of one player line."""
    number: int  # the player's line number among player lines: the key
    line: int  # line in the file
    round: int
    opp: int
    result: str  # + - = ?
    colour: str | None  # w or b
    handicap: int | None
    not_counted: bool  # marked !


def read_egd(path: str | Path) -> GoTournament:
    path = Path(path)
    return egd_from_text(_text_of(path.read_bytes()), path.stem)


def egd_from_text(text: str, file_name: str = "") -> GoTournament:
    """An EGD results table; file_name is the fallback event id."""
    lines = LINE_BREAK.split(without_byte_order_mark(text))
    problems: list[Problem] = []
    headers = _egd_headers(lines)
    event = _egd_event(headers, file_name, problems)
    reduction = _handicap_reduction(headers, problems)
    rows, entries, count, columns_after = _egd_players(lines, problems)
    players = _players_frame([{k: v for k, v in row.items() if k in PLAYER_COLUMNS} for row in rows])
    grades = {int(row["key"]): row["grade"] for row in rows}
    games, by_grades = _egd_games(entries, grades, count, reduction, event["start_date"], problems)
    problems.extend(no_game_problems(players, games, problems, EGD_GAMES))
    said = _dated_at_start(games, event, "the EGD format has no round dates", "DT")
    if by_grades:
        rule = f"the grade difference less {reduction} (HA[h{reduction}])" if reduction is not None else \
            "0 (no readable HA rule)"
        said.append(f"{by_grades} game{'s' if by_grades > 1 else ''} without colours: Black taken by the weaker "
                    f"grade (White by the earlier line when equal), handicap {rule}")
    if unrecorded := sum(1 for e in entries if e.result == NO_GAME_RECORDED and not e.opp):
        said.append(f"{unrecorded} round entr{'ies' if unrecorded > 1 else 'y'} '?' (a round without a game "
                    "recorded): no game")
    if columns_after:
        said.append(f"{_columns(columns_after)} after the rounds on the player lines (scores, place): not read")
    dates, line = headers.get("DT", ("", 0))
    return GoTournament("egd", event, players, games, _by_line(problems), tuple(said),
                        refused_dates(event, f"DT[{dates}]", line))


def _dated_at_start(games: pd.DataFrame, event: dict, why: str, where: str) -> list[str]:
    if not len(games) or event["start_date"] is None:
        return []
    return [f"{why}: every game dated {event['start_date']}, the start date ({where})"]


def _egd_headers(lines: list[str]) -> dict[str, tuple[str, int]]:
    """Header tag -> (value, line), the first of each."""
    headers: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(lines, 1):
        if m := EGD_HEADER.match(line):
            headers.setdefault(m[1], (m[2].strip(), number))
    return headers


def _egd_event(headers: dict[str, tuple[str, int]], file_name: str, problems: list[Problem]) -> dict:
    name = headers.get("EV", ("", 0))[0] or None
    start = end = None
    if "DT" in headers:
        text, line = headers["DT"]
        try:
            dates = [_iso_date(part) for part in text.split(",")]
            if not 1 <= len(dates) <= 2:
                raise ValueError(text)
            start, end = dates[0], dates[-1]
        except ValueError:
            problems.append(Problem(line, f"unreadable dates DT[{text}]"))
    grade_class = None
    if "CL" in headers:
        text, line = headers["CL"]
        if text.upper() in EGD_CLASSES:
            grade_class = text.upper()
        else:
            problems.append(Problem(line, f"unknown class CL[{text}]: A, B, C or D"))
    return {"event_id": _safe_id(name) or _safe_id(file_name) or "event", "name": name, "start_date": start,
            "end_date": end, "class": grade_class, "board_size": DEFAULT_BOARD}


def _handicap_reduction(headers: dict[str, tuple[str, int]], problems: list[Problem]) -> int | None:
    """N of HA[hN]; None without a readable rule (results without colour are then even games)."""
    if "HA" not in headers:
        return None
    text, line = headers["HA"]
    if m := re.fullmatch(r"h([0-9])", text.strip(), re.IGNORECASE):
        return int(m[1])
    problems.append(Problem(line, f"unreadable handicap rule HA[{text}]: games without colour read as even"))
    return None


def _egd_players(lines: list[str], problems: list[Problem]) -> tuple[list[dict], list[_Entry], int, int]:
    """Player rows, their round entries, how many player lines there are, and how many
    columns follow the rounds on the lines (scores some writers put before the PIN)."""
    candidates = []  # (line, player number, tokens, pin text)
    for number, line in enumerate(lines, 1):
        body, _, pin = line.split(";")[0].partition("|")
        if body.strip():
            candidates.append((number, len(candidates) + 1, body.split(), pin.strip()))
        elif pin.strip():
            problems.append(Problem(number, f"an EGD pin ({pin.strip()}) without a player line before it: not read"))
    spans = {number: _result_span(tokens) for number, _, tokens, _ in candidates}
    runs = {number: end - start for number, (start, end) in spans.items()}
    # Every line has one entry a round: the usual count is the number of rounds,
    # and a longer run on one line started in its placement columns.
    rounds = _most_common(runs.values())
    after = {number: len(tokens) - spans[number][1] for number, _, tokens, _ in candidates}
    columns_after = _most_common(after[number] for number in runs if rounds and runs[number] == rounds)
    rows: list[dict] = []
    entries: list[_Entry] = []
    for line, player, tokens, pin in candidates:
        start, end = spans[line]
        run = end - start
        results = tokens[start:end][run - rounds:] if run >= rounds else []
        row = _egd_player(line, player, tokens[:end - min(run, rounds)], pin, problems)
        if row is None:
            continue
        rows.append(row)
        if run < rounds:
            problems.append(Problem(line, f"{run} results where the other lines have {rounds}: results not read"))
            continue
        if after[line] != columns_after:
            problems.append(Problem(line, f"{_columns(after[line])}{_quoted(tokens[end:])} after the rounds where "
                                          f"the other lines have {columns_after or 'none'}: the rounds read are the "
                                          f"{rounds} entries before them"))
        entries.extend(_entry(player, line, k, token) for k, token in enumerate(results, 1))
    return rows, entries, len(candidates), columns_after


def _columns(count: int) -> str:
    return f"{count} column{'s' if count != 1 else ''}" if count else "no column"


def _quoted(tokens: list[str]) -> str:
    return f" ({' '.join(tokens)})" if tokens else ""


def _most_common(counts: Iterable[int]) -> int:
    """The count most lines have (the larger of two as common); 0 for none."""
    found = Counter(counts).most_common()
    return max(found, key=lambda kv: (kv[1], kv[0]))[0] if found else 0


def _is_round_entry(token: str) -> bool:
    return token == NO_GAME_RECORDED or EGD_RESULT.fullmatch(token) is not None


def _result_span(tokens: list[str]) -> tuple[int, int]:
    """Where a line's round entries are, (start, end): its last run of them. Tokens after
    the run are the columns some writers put between the rounds and the PIN (MM, Wins,
    SOS, SOSOS, Place: the 2021 World Amateur Championship's file); a line without any
    round entry has none, (its length, its length)."""
    end = len(tokens)
    while end and not _is_round_entry(tokens[end - 1]):
        end -= 1
    if not end:
        return len(tokens), len(tokens)
    start = end
    while start and _is_round_entry(tokens[start - 1]):
        start -= 1
    return start, end


def _egd_player(line: int, player: int, head: list[str], pin: str, problems: list[Problem]) -> dict | None:
    """The fields before the results: place, name, grade, country, club,
    placement columns. None (reported) when no grade follows the name."""
    place = head[0] if head and head[0].isdigit() else None
    rest = head[1:] if place else head
    at = _grade_at(rest)
    if at is None:
        problems.append(Problem(line, "no grade after the name: line not read"))
        return None
    if place is not None and int(place) != player:
        problems.append(Problem(line, f"place {place} on player line {player}: opponents count lines, "
                                      f"so this is player {player}"))
    grade = grade_text(rest[at])
    if grade is None:
        problems.append(Problem(line, f"unreadable grade {rest[at]!r}"))
    country = rest[at + 1] if at + 1 < len(rest) and rest[at + 1].isalpha() else None
    club_at = at + 2 if country else at + 1
    club = rest[club_at] if club_at < len(rest) and not NUMBER_LIKE.fullmatch(rest[club_at]) else None
    if pin and not pin.isdigit():
        problems.append(Problem(line, f"unreadable EGD pin {pin!r}"))
    name = clean_name(" ".join(rest[:at]))
    if name is None:
        problems.append(Problem(line, f"no name before the grade {rest[at]!r}: the player can be matched by "
                                      "EGD pin only, and is never registered"))
    return {"key": str(player), "name": name, "line": line, "grade": grade, "rating": np.nan,
            "egd_pin": int(pin) if pin.isdigit() and int(pin) else None, "club": club, "country": country}


def _grade_at(fields: list[str]) -> int | None:
    """Where the grade is: the first real grade (first of all when the name
    is missing), else, after at least one name token, the first token that
    starts with a digit and has a letter (a bad grade such as "3x"), else the
    first that starts with a digit. A digit alone can be part of a name
    ("Player 1")."""
    for first, fits in ((0, lambda t: grade_text(t) is not None),
                        (1, lambda t: t[0].isdigit() and any(c.isalpha() for c in t)),
                        (1, lambda t: t[0].isdigit())):
        at = next((i for i, token in enumerate(fields) if i >= first and fits(token)), None)
        if at is not None:
            return at
    return None


def _entry(player: int, line: int, rnd: int, token: str) -> _Entry:
    if token == NO_GAME_RECORDED:
        return _Entry(player, line, rnd, 0, NO_GAME_RECORDED, None, None, False)
    m = EGD_RESULT.fullmatch(token)
    colour = (m["colour"] or "").lower()
    return _Entry(player, line, rnd, int(m["opp"]), m["res"], colour if colour in ("w", "b") else None,
                  int(m["hd"]) if m["hd"] else None, m["sep"] == "!" or bool(m["bang"]))


def _egd_games(entries: list[_Entry], grades: dict[int, str | None], count: int, reduction: int | None,
               start: dt.date | None, problems: list[Problem]) -> tuple[pd.DataFrame, int]:
    """Each game once: from two entries, one on each player's line, that name
    each other in the same round and agree on result, colours and handicap;
    and how many of them took their colours from the grades."""
    by_seat = {(e.number, e.round): e for e in entries}
    rows: list[dict] = []
    for e in sorted(entries, key=lambda e: (e.round, e.number)):
        if e.opp == 0:
            continue  # a bye or an absent round: not a game
        if e.opp == e.number:
            problems.append(Problem(e.line, f"round {e.round}: paired with itself"))
        elif e.opp > count:
            problems.append(Problem(e.line, f"round {e.round}: opponent {e.opp}, but the file has {count} "
                                            f"player lines"))
        elif e.opp not in grades:
            problems.append(Problem(e.line, f"round {e.round}: opponent {e.opp}'s line was not read"))
        elif (theirs := by_seat.get((e.opp, e.round))) is None:
            continue  # their results were not read: reported on their line already
        elif theirs.opp != e.number:
            named = f"opponent {theirs.opp}" if theirs.opp else "no opponent"
            problems.append(Problem(e.line, f"round {e.round}: paired with {e.opp}, but line {theirs.line} "
                                            f"gives {e.opp} {named}"))
        elif e.number < e.opp:  # each game from its lower line
            row = _egd_game(e, theirs, grades, reduction, start, problems)
            if row is not None:
                rows.append(row)
    by_grades = sum(1 for row in rows if not (by_seat[int(row["black"]), row["round"]].colour
                                              or by_seat[int(row["white"]), row["round"]].colour))
    return _games_frame(rows), by_grades


def _egd_game(a: _Entry, b: _Entry, grades: dict[int, str | None], reduction: int | None,
              start: dt.date | None, problems: list[Problem]) -> dict | None:
    """The game of two entries that name each other, or None (reported)."""
    where = f"round {a.round}: "
    if "?" in (a.result, b.result):
        problems.append(Problem(a.line, where + f"no result against {a.opp} ('?'): not recorded"))
        return None
    if a.result + b.result not in EGD_AGREEING:
        problems.append(Problem(a.line, where + f"result {a.result!r} against {a.opp} does not match "
                                                f"{b.result!r} on line {b.line}"))
        return None
    if a.colour and a.colour == b.colour:
        problems.append(Problem(a.line, where + f"colour {a.colour!r} against {a.opp} does not match "
                                                f"{b.colour!r} on line {b.line}"))
        return None
    if a.handicap is not None and b.handicap is not None and a.handicap != b.handicap:
        problems.append(Problem(a.line, where + f"handicap {a.handicap} against {a.opp} does not match "
                                                f"{b.handicap} on line {b.line}"))
        return None
    if a.not_counted != b.not_counted:
        problems.append(Problem(a.line, where + f"'!' (not counted) against {a.opp} on only one of lines "
                                                f"{a.line} and {b.line}"))
        return None
    a_black = a.colour == "b" or b.colour == "w"
    if a.colour or b.colour:
        black, white = (a, b) if a_black else (b, a)
        handicap = _given_handicap(a, b) or 0  # "23+/w" is "23+/w0" (the format's own example)
    else:
        black, white, handicap = _by_grades(a, b, grades, reduction)
    winner = EGD_WINNER[black.result + white.result]
    return {"round": a.round, "date": start, "black": str(black.number), "white": str(white.number),
            "winner": winner, "handicap": handicap, "forfeit": a.not_counted,
            "counted": winner is not None and not a.not_counted}


def _given_handicap(a: _Entry, b: _Entry) -> int | None:
    return a.handicap if a.handicap is not None else b.handicap


def _by_grades(a: _Entry, b: _Entry, grades: dict[int, str | None],
               reduction: int | None) -> tuple[_Entry, _Entry, int]:
    """Black, White and handicap of a game neither line gives a colour for.

    The format leaves colour and handicap out when the handicap follows
    from the grades: the grade difference less the N of HA[hN], at most 9.
    Without a readable rule the game is taken as even. The weaker grade
    takes Black, as in any handicap game; with equal or unknown grades the
    earlier line (the better placed player) is taken as White.
    """
    ga, gb = grades.get(a.number), grades.get(b.number)
    steps = _grade_step(ga) - _grade_step(gb) if ga and gb else 0
    handicap = _given_handicap(a, b)
    if handicap is None:
        handicap = min(9, max(0, abs(steps) - reduction)) if reduction is not None else 0
    return (a, b, handicap) if steps < 0 else (b, a, handicap)
