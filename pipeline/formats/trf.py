"""FIDE Tournament Report Files (TRF): read one into tables, write one from games.

The layout is FIDE's (Handbook C.04 Annex 2: TRF 2006 and TRF-16, unchanged in
TRF-26). Every line starts with a three-character code. `001` lines are the
players, in fixed columns (1-based, inclusive):

    1-3 "001"   5-8 starting rank   10 sex   11-13 title   15-47 name
    49-52 FIDE rating   54-56 federation   58-68 FIDE id   70-79 birth date
    81-84 points   86-89 rank

then one 10-column block per round, round 1 at column 92: 92-95 the
opponent's starting rank ("0000" or blank: none), 97 the colour (w, b, - or
blank; older Belgian writers use the French letters B, blanc, for White and
N, noir, for Black: a file whose blocks have an N and no w is read so), 99
the result. Results: 1 = 0 played; + - forfeit win and loss;
W D L a game of less than one move (not rated); H half-point bye, F full-point
bye, U pairing-allocated bye, Z zero-point bye; a blank result is Z; `*`
(TRF-2026's in-tournament files) a pairing whose game is not played yet: no
game and no bye, counted and said. Letters are case-insensitive. The starting
rank holds 1 to 9999: a file whose ranks overflow the field (a 5-digit rank
right-aligned to column 8 takes column 4) is refused whole, in one message.
The other lines are tags: 012 name, 022 city,
032 federation, 042/052 start and end (YYYY/MM/DD), 062/072 numbers of
players and rated players, 092 type, 102 arbiter, 122 time control, 132 the
round dates (YY/MM/DD in the columns of the round blocks: 92-99 round 1,
102-109 round 2, ...; some writers put one 132 line per round, or dates of
ten characters that fill their columns, 2018/04/07 at 92-101). Lines that are
no record are skipped and said, never rejected: comments (###), the column
rulers writers put above the players (Swiss-Manager's tens and `1234567890…`,
the Irish rating system's `0123456789…`) and their field legend
(`DDD SSSS sTTT …`).

The Belgian SWAR national report has the same layout, with the national id
(matricule) in the FIDE-id field and header lines 00A, 00B, ... before the
012 tag (as in the federation's own report writer and report files,
github.com/FRBE-KBSB-KSB/kbsb). A file is read as "swar" when any line's code
is "00" followed by anything but "1": that takes the 00A.. lines seen there
and a 002.. form alike.

Games come out with the project's result codes, from White's side: 1-0, 0-1,
1/2-1/2, +/- and -/+ (forfeits; W and L count as these, since they are not
rated either) and -/- (both forfeit). A bad line is reported as a `Problem`
and the rest of the file is still read.

Dates: a game takes its round's 132 date; a round without one takes the
date given by the caller (`default_date`, the CLI's --date), else the start
date (042). Each such fallback is said in `Tournament.assumptions`, as is
every other guess the reader makes (French colour letters, 132 dates read
in order because they are not in the round columns, players without an
id). A round dated outside the event's own dates (042..052) is not filed
elsewhere: its games carry a `problem` and are rejected. A file with no
date at all (no 042, no 132 date, no `default_date`) cannot be filed in
any window: `Tournament.fatal` says so, in one message. Nor can one whose
042 and 052 end more than a year after they start, or before they start
(ruling D3, pipeline/formats/event_dates.py): refused whole, unless the
real dates are given, by an events file describing the event (`event_dates`)
or --date (`default_date`: the tags are then set aside).
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.formats.cells import CONTROL, LayoutError, refuse_breaking
from pipeline.formats.encodings import FileText, file_text
from pipeline.formats.event_dates import span_refusal
from pipeline.formats.sniff import LINE_BREAK, PLAYER, is_legend, is_ruler, is_trf_record

FIXED_END = 84  # last column of the points field: a 001 line must reach it
FIRST_ROUND = 92  # column of round 1's opponent
ROUND_WIDTH = 10
COLOURS = ("w", "b")
FRENCH_COLOURS = {"b": "w", "n": "b"}  # blanc, noir (lower-cased like every colour letter)
NO_COLOUR = ("-", " ")
PLAYED = ("1", "0", "=", "W", "D", "L")
FORFEITS = ("+", "-")
BYE_CODES = ("H", "F", "U", "Z")
NOT_PLAYED = "*"  # TRF-2026, in-tournament exchange: paired, the game not played yet
# A pair of results (this line's, then the opponent's) that agree with each other.
AGREEING = ("10", "01", "==", "+-", "-+", "--", "WL", "LW", "DD")
# White's result then Black's, as one of the project's result codes.
RESULT_OF = {"10": "1-0", "01": "0-1", "==": "1/2-1/2", "+-": "+/-", "-+": "-/+", "--": "-/-",
             "WL": "+/-", "LW": "-/+"}
# The project's result codes as the (White, Black) TRF results, for the writer.
CODES_OF = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="), "½-½": ("=", "="),
            "+/-": ("+", "-"), "-/+": ("-", "+"), "-/-": ("-", "-")}
SCORE_OF = {"1": 1.0, "0": 0.0, "=": 0.5, "+": 1.0, "-": 0.0, "H": 0.5, "F": 1.0, "U": 1.0, "Z": 0.0}
MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun",
                                       "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
# A date in any of the forms `date_from` reads, found inside a line (tag 132).
DATE_TEXT = re.compile(r"(?<![0-9])(?:[0-9]{4}[/.-]\s*[0-9]{1,2}[/.-]\s*[0-9]{1,2}"
                       r"|[0-9]{1,2}[/.-]\s*[0-9]{1,2}[/.-]\s*[0-9]{4}|[0-9]{2}[/.-][0-9]{2}[/.-][0-9]{2})(?![0-9])"
                       r"|[A-Za-z]{3}[a-z]*\.? [0-9]{1,2},? [0-9]{4}")

# The widest value the writer puts in each player field (1-based columns: name
# 15-47, title 11-13, federation 54-56, rating 49-52, FIDE id 58-68).
WRITER_WIDEST = {"name": 33, "title": 3, "federation": 3, "rating": 4, "id": 11}

GAME_COLUMNS = ["event", "round", "date", "white_rank", "black_rank", "white_id", "black_id", "result",
                "white_line", "black_line", "problem"]
BYE_COLUMNS = ["rank", "id", "round", "code", "line", "date"]
PLAYER_COLUMNS = ["rank", "name", "sex", "title", "federation", "rating", "id", "birth_year", "points", "line"]


@dataclass(frozen=True)
class Problem:
    line: int  # 1-based line number in the file
    message: str


@dataclass(frozen=True, eq=False)
class Tournament:
    flavour: str  # "trf" or "swar"
    tags: dict[str, str]  # code -> text, e.g. {"012": "Spring Open", "042": "2019/05/01"}
    round_dates: tuple[dt.date | None, ...]  # from tag 132, one per round
    players: pd.DataFrame  # PLAYER_COLUMNS; id is the FIDE id, or the national id for SWAR
    games: pd.DataFrame  # GAME_COLUMNS, each game once
    byes: pd.DataFrame  # BYE_COLUMNS: H F U Z, or + - with no opponent
    problems: tuple[Problem, ...]
    # What the reader took for granted, one sentence each, for the ingest report.
    assumptions: tuple[str, ...] = ()
    # Why the file as a whole cannot be taken in (no date at all, dates refused by ruling D3); None when it can.
    fatal: str | None = None
    dates_refused: bool = False  # fatal: its own dates (042, 052) refused, ruling D3
    # The dates the file gives besides its games' (its start and end, its round dates), as
    # they were used: each (date, what), for validation's plausible dates (ruling D1).
    own_dates: tuple[tuple[dt.date, str], ...] = ()


# ---------------------------------------------------------------------------
# Reading


def read_trf(path: str | Path, default_date: dt.date | None = None,
             event_dates: tuple[dt.date, dt.date] | None = None, encoding: str | None = None) -> Tournament:
    """The tournament of a TRF file, read in `encoding` (--encoding) or in the one decided
    on the whole file (pipeline/formats/encodings.py)."""
    return tournament_of(file_text(path, encoding), default_date, event_dates)


def tournament_of(text: FileText, default_date: dt.date | None = None,
                  event_dates: tuple[dt.date, dt.date] | None = None) -> Tournament:
    """The tournament of a file's text: one that is not text in one encoding (mixing UTF-8
    and Latin-1 lines, not decoding in the encoding named) is refused (`fatal`), never read
    as mojibake; an encoding that is not UTF-8, a guess or given, is said among the assumptions."""
    t = tournament_from_text(text.text, default_date, event_dates)
    return replace(t, assumptions=text.notes + t.assumptions, fatal=text.refusal or t.fatal)


def tournament_from_text(text: str, default_date: dt.date | None = None,
                         event_dates: tuple[dt.date, dt.date] | None = None) -> Tournament:
    """The tournament of a TRF text; `default_date` dates the rounds the file gives no date;
    `event_dates`, an events file's (start, end) for the event, replace 042 and 052 when
    ruling D3 refuses them."""
    lines = LINE_BREAK.split(text)
    problems: list[Problem] = []
    assumptions: list[str] = []
    scanned = _scan(lines, problems, assumptions)
    tags, tag_lines = scanned.tags, scanned.tag_lines
    flavour = "swar" if any(code[:2] == "00" and code != PLAYER for code in tag_lines) else "trf"
    players = _players(scanned.players, problems)
    assumptions.extend(_without_id(players, flavour))
    start = _tag_date(tags, tag_lines, "042", problems)
    end = _tag_date(tags, tag_lines, "052", problems)
    refused = span_refusal(start, end, f"tags 042 {start}, 052 {end}", tag_lines.get("052", 0),
                           "give the real dates with an events file describing the event (its event_id the "
                           "name of tag 012) or, for a one-day event, with --date YYYY-MM-DD")
    if refused and event_dates:
        assumptions.append(f"line {tag_lines['052']}: the event's dates (tags 042 {start}, 052 {end}) are not used "
                           f"(ruling D3): the events file's, {event_dates[0]} … {event_dates[1]}, are")
        start, end = event_dates
        refused = None
    elif refused and default_date:
        assumptions.append(f"line {tag_lines['052']}: the event's dates (tags 042 {start}, 052 {end}) are not used "
                           f"(ruling D3): the date given with --date is, and no tag bounds the rounds")
        start = end = refused = None
    # Refused whole for its wide ranks, a file's round blocks are misread: their problems follow
    # from the overflow, which the one message says.
    block_problems = [] if scanned.wide_ranks else problems
    entries = _entries(scanned.blocks, players, block_problems, assumptions)
    round_dates, dated_on = _round_dates([(n, lines[n - 1]) for n in scanned.round_date_lines], problems,
                                         assumptions, start, end)
    rounds = max(len(round_dates), int(entries["round"].max()) if len(entries) else 0)
    round_dates = round_dates + (None,) * (rounds - len(round_dates))
    dates, fallback_note = _game_dates(round_dates, start, default_date, bool(scanned.round_date_lines))
    assumptions.extend([fallback_note] if fallback_note and rounds else [])
    outside = _outside_rounds(dates, round_dates, start, end, dated_on, problems)
    games = _games(entries, players, block_problems, assumptions, tags.get("012"), dates, outside)
    byes = _byes(entries, players, {k: d for k, d in dates.items() if k not in outside})
    byes = byes.iloc[:0] if scanned.wide_ranks else byes  # misread blocks: none is kept as a bye
    fatal = _wide_ranks_refusal(scanned.wide_ranks, lines) or refused \
        or (None if start or default_date or any(round_dates) else _no_dates(tags, tag_lines))
    own = [(d, what) for d, what in ((start, "start (042)"), (end, "end (052)")) if d] \
        + [(d, f"round {k} (132)") for k, d in enumerate(round_dates, 1) if d]
    return Tournament(flavour, tags, round_dates, players, games, byes,
                      tuple(sorted(problems, key=lambda p: p.line)), tuple(assumptions), fatal, bool(refused),
                      tuple(own))


@dataclass(frozen=True)
class Scanned:
    """What one pass over a file's lines finds, before any field is interpreted."""
    tags: dict[str, str]  # code -> text; a repeated tag's lines joined by line breaks
    tag_lines: dict[str, int]  # code -> the line of its first occurrence
    players: list[dict]  # the 001 lines read
    blocks: list[tuple]  # their round blocks (`_round_blocks`)
    round_date_lines: list[int]  # every 132 line: some writers put one per round
    wide_ranks: list[int]  # 001 lines whose starting rank overflows its 4 columns


def _scan(lines: list[str], problems: list[Problem], assumptions: list[str]) -> Scanned:
    """Tags, players and round blocks; column rulers and the field legend are skipped
    (said once, in `assumptions`), never rejected."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    players: list[dict] = []
    blocks: list[tuple] = []
    rulers: list[int] = []
    legends: list[int] = []
    round_date_lines: list[int] = []
    wide_ranks: list[int] = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("###"):
            continue
        if is_ruler(line):
            rulers.append(number)
        elif is_legend(line):
            legends.append(number)
        elif "\t" in line and line[:3] == PLAYER:
            problems.append(Problem(number, "holds a tab: a TRF line has fixed columns, and a tab shifts every "
                                            "field after it (replace the tabs by spaces)"))
        elif line[:3] == PLAYER and re.fullmatch(r"[0-9]{5}", line[3:8]):
            # Rank 10000 right-aligned to column 8 takes column 4: the field holds 1 to 9999.
            wide_ranks.append(number)
        elif not is_trf_record(line):
            problems.append(Problem(number, f"not a TRF record: {line[:20]!r}"))
        elif line[:3] == PLAYER:
            row = _player_row(line, number, problems)
            if row is not None:
                players.append(row)
                blocks.extend(_round_blocks(line, number, row["rank"]))
        else:
            code, value = line[:3], line[4:].strip()
            # Repeated tags (one 112 line per deputy arbiter) are kept together.
            tags[code] = f"{tags[code]}\n{value}" if code in tags else value
            tag_lines.setdefault(code, number)
            if code == "132":
                round_date_lines.append(number)
    if rulers:
        assumptions.append(f"line{'s' if len(rulers) > 1 else ''} {_spans(rulers)}: a column ruler "
                           "(digits counting the columns), no record: skipped")
    if legends:
        assumptions.append(f"line{'s' if len(legends) > 1 else ''} {_spans(legends)}: the field legend "
                           "(DDD SSSS sTTT …, each field's columns under its letter), no record: skipped")
    return Scanned(tags, tag_lines, players, blocks, round_date_lines, wide_ranks)


def _wide_ranks_refusal(numbers: list[int], lines: list[str]) -> str | None:
    """The one message for a file whose starting ranks overflow their 4 columns; None when none does."""
    if not numbers:
        return None
    first = numbers[0]
    return (f"line {first}: starting rank {lines[first - 1][3:8]} has 5 digits, and the TRF field (columns 5-8) "
            f"holds 1 to 9999: {len(numbers)} player line{'s' if len(numbers) > 1 else ''} "
            f"({_spans(numbers)}) start in column 4, and their opponents' ranks overflow the round blocks' 4 "
            "columns too, so no game of the file can be read: export the event as files of at most 9,999 "
            "players (a TRF per section or group), or its games as a CSV file")


def _cut(line: str, first: int, last: int) -> str:
    """Columns first..last of a line, 1-based and inclusive as in the spec."""
    return line[first - 1:last]


def _player_row(line: str, number: int, problems: list[Problem]) -> dict | None:
    if len(line) < FIXED_END:
        problems.append(Problem(number, f"player line too short ({len(line)} characters): "
                                        f"the fixed fields need {FIXED_END}"))
        return None
    rank = _cut(line, 5, 8).strip()
    if not re.fullmatch(r"[0-9]+", rank) or int(rank) == 0:
        problems.append(Problem(number, f"no starting rank in columns 5-8: {rank!r}"))
        return None

    def whole(first: int, last: int, what: str) -> int | None:
        text = _cut(line, first, last).strip()
        if text and not re.fullmatch(r"[0-9]+", text):
            problems.append(Problem(number, f"unreadable {what} {text!r}"))
            return None
        return int(text) or None if text else None  # 0 is how files say unrated / no id

    points = _cut(line, 81, 84).strip()
    if points and not re.fullmatch(r"[0-9]+(?:[.,][0-9]+)?", points):
        problems.append(Problem(number, f"unreadable points {points!r}"))
        points = ""
    return {"rank": int(rank), "name": _text(line, 15, 47), "sex": _text(line, 10, 10),
            "title": _text(line, 11, 13), "federation": _text(line, 54, 56),
            "rating": whole(49, 52, "rating"), "id": whole(58, 68, "id"),
            "birth_year": _birth_year(_cut(line, 70, 79), number, problems),
            "points": float(points.replace(",", ".")) if points else np.nan, "line": number}


def _text(line: str, first: int, last: int) -> str | None:
    return _cut(line, first, last).strip() or None


def _birth_year(text: str, number: int, problems: list[Problem]) -> int | None:
    """The year of a birth date in any of the orders files use (1969/12/06,
    1969.12.06, 06.12.1969, 1969-12-06, or the year alone); 0000 is unknown."""
    text = text.strip()
    year = re.search(r"(?<![0-9])[0-9]{4}(?![0-9])", text)
    if not re.search(r"[0-9A-Za-z]", text):  # a placeholder ("  .  .", "--"): no birth date given
        return None
    if text and not year:
        problems.append(Problem(number, f"unreadable birth date {text!r}"))
    return int(year.group()) or None if year else None


def _round_blocks(line: str, number: int, rank: int) -> list[tuple]:
    """(rank, round, opponent, colour, result, line) of each round block the line reaches."""
    starts = range(FIRST_ROUND - 1, len(line), ROUND_WIDTH)
    return [(rank, k, b[0:4], b[5], b[7], number)
            for k, b in enumerate((line[s:s + 8].ljust(8) for s in starts), 1)]


def _players(rows: list[dict], problems: list[Problem]) -> pd.DataFrame:
    players = pd.DataFrame(rows, columns=PLAYER_COLUMNS)
    repeated = players["rank"].duplicated()
    first_line = players.drop_duplicates("rank").set_index("rank")["line"]
    problems.extend(Problem(int(p.line), f"starting rank {p.rank} already used on line {first_line[p.rank]}")
                    for p in players[repeated].itertuples())
    players = players[~repeated].reset_index(drop=True)
    return players.astype({"rank": "int64", "name": "str", "sex": "str", "title": "str", "federation": "str",
                           "rating": "Int64", "id": "Int64", "birth_year": "Int64", "points": "float64",
                           "line": "int64"})


def _without_id(players: pd.DataFrame, flavour: str) -> list[str]:
    """The players whose id field is blank (or 0), said once with their lines."""
    lines = players.loc[players["id"].isna(), "line"].tolist()
    if not lines:
        return []
    how = "they cannot be matched to the registry (a SWAR id is the player id)" if flavour == "swar" \
        else "they can only be matched to the registry by name"
    return [f"{len(lines)} player{'s' if len(lines) > 1 else ''} without an id (the id field, columns 58-68, "
            f"is blank) on line{'s' if len(lines) > 1 else ''} {_spans(lines)}: {how}"]


def _spans(numbers: list[int]) -> str:
    """Sorted numbers as runs: [5, 6, 7, 9] is "5-7, 9"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


# ---------------------------------------------------------------------------
# Dates


def date_from(text: str) -> dt.date | None:
    """A date as TRF files write it; None when blank; ValueError when unreadable.

    YYYY/MM/DD is the spec's (042, 052) and YY/MM/DD its round dates (132);
    files also carry YYYY-MM-DD, YY.MM.DD (Belgian reports), DD.MM.YYYY,
    DD/MM/YYYY, "28. 07. 2005" (FIDE's own example) and "May 29, 2020"
    (lichess). Two-digit years are read as year first, as the spec has it.
    """
    text = re.sub(r"(?<=[./-])\s+", "", text.strip())
    if not text:
        return None
    if m := re.fullmatch(r"([0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})", text):
        year, month, day = m.groups()
    elif m := re.fullmatch(r"([0-9]{1,2})[/.-]([0-9]{1,2})[/.-]([0-9]{4})", text):
        day, month, year = m.groups()
    elif m := re.fullmatch(r"([0-9]{2})[/.-]([0-9]{2})[/.-]([0-9]{2})", text):
        year, month, day = m.groups()
        year = str(2000 + int(year) if int(year) < 70 else 1900 + int(year))
    elif (m := re.fullmatch(r"([A-Za-z]{3})[a-z]*\.? ([0-9]{1,2}),? ([0-9]{4})", text)) and m[1].lower() in MONTHS:
        month, day, year = str(MONTHS[m[1].lower()]), m[2], m[3]
    else:
        raise ValueError(f"unreadable date {text!r}")
    return dt.date(int(year), int(month), int(day))  # ValueError for 2024/13/45 too


def _tag_date(tags: dict[str, str], tag_lines: dict[str, int], code: str, problems: list[Problem]) -> dt.date | None:
    try:
        return date_from(tags.get(code, "").split("\n")[0])
    except ValueError:
        problems.append(Problem(tag_lines[code], f"unreadable date {tags[code]!r} in tag {code}"))
        return None


# The orders real writers put a 132 date of two-digit fields in: the spec's YY/MM/DD first,
# then DD/MM/YY (the Belgian federation's interclub FIDE reports), YY/DD/MM (the Irish
# federation's exports) and MM/DD/YY; each as (year, month, day) positions.
SHORT_ORDERS = {"YY/MM/DD": (0, 1, 2), "DD/MM/YY": (2, 1, 0), "YY/DD/MM": (0, 2, 1), "MM/DD/YY": (2, 0, 1)}
SHORT_DATE = re.compile(r"([0-9]{2})[/.-]([0-9]{2})[/.-]([0-9]{2})")


def _short_date(text: str, order: str) -> dt.date | None:
    """A two-digit-field date in one of SHORT_ORDERS; None when it is no date in that order."""
    fields = [int(f) for f in SHORT_DATE.fullmatch(text.strip()).groups()]
    year, month, day = (fields[k] for k in SHORT_ORDERS[order])
    try:
        return dt.date(2000 + year if year < 70 else 1900 + year, month, day)
    except ValueError:
        return None


def _short_order(texts: list[str], start: dt.date | None, end: dt.date | None) -> str:
    """The order of the 132 dates written with two-digit fields: the spec's, unless
    another order reads every date inside the event's dates (042..052) where the spec's
    does not, and the others that do read the same days."""
    return _short_orders(texts, start, end)[0]


def _short_orders(texts: list[str], start: dt.date | None, end: dt.date | None) -> list[str]:
    """The orders `_short_order` may take, the taken one first; more than one when other
    orders fit and read different dates: the file does not say which it is, so a
    guess could file its games on the wrong days."""
    def fits(order: str) -> bool:
        dates = [_short_date(t, order) for t in texts]
        return all(d is not None and (start is None or d >= start) and (end is None or d <= end) for d in dates)

    if not texts or (start is None and end is None):
        return ["YY/MM/DD"]
    if fits("YY/MM/DD"):
        if end is not None or _short_date(texts[0], "YY/MM/DD") == start:
            return ["YY/MM/DD"]
        # Without an end date (052) any date after the start fits: 29/09/24 of a one-day
        # event begun on 2024-09-29 would be filed on 2029-09-24. An order that puts the
        # first round on the start date is the writer's, when it is the only one to.
        fitting = [order for order in SHORT_ORDERS if order != "YY/MM/DD" and fits(order)
                   and _short_date(texts[0], order) == start]
        if len({tuple(_short_date(t, order) for t in texts) for order in fitting}) != 1:
            return ["YY/MM/DD"]
        return fitting[:1]
    fitting = [order for order in SHORT_ORDERS if fits(order)]
    # 05/05/24 reads the same day as DD/MM/YY and MM/DD/YY: orders that agree are no doubt.
    readings: dict[tuple, str] = {}
    for order in fitting:
        readings.setdefault(tuple(_short_date(t, order) for t in texts), order)
    if len(readings) > 1:
        return ["YY/MM/DD", *readings.values()]
    return fitting[:1] or ["YY/MM/DD"]


def _round_dates(dated: list[tuple[int, str]], problems: list[Problem], assumptions: list[str],
                 start: dt.date | None = None, end: dt.date | None = None
                 ) -> tuple[tuple[dt.date | None, ...], dict[int, int]]:
    """The 132 dates, one per round, and the line that dates each round, from every 132
    line (`dated`: line number, text); some writers put one per round. Each date is found
    by its pattern (`_dates_in`); when every one starts at a round column (92, 102, ...)
    that column gives its round, so a blank column is a round without a date. Otherwise
    (a line shifted by a column or more, or written as a plain list) they are the rounds
    in order, and that is said. Dates of two-digit fields are read in the spec's order,
    YY/MM/DD, unless another order real writers use puts every one inside the event's
    dates where the spec's does not: that order is taken, and said once. Two lines that
    date one round differently are a problem: the first date stands."""
    if not dated:
        return (), {}
    numbers = [number for number, _ in dated]
    where = f"line{'s' if len(numbers) > 1 else ''} {_spans(numbers)}"
    found = [(number, at, text) for number, line in dated for at, text in _dates_in(line)]
    in_columns = all(at >= FIRST_ROUND - 1 and (at - FIRST_ROUND + 1) % ROUND_WIDTH == 0 for _, at, _ in found)
    if found and not in_columns:
        assumptions.append(f"{where}: round dates of tag 132 not in the round columns (92, 102, ...): "
                           f"read in order, round 1 first")
    short = [text for _, _, text in found if SHORT_DATE.fullmatch(text.strip())]
    orders = _short_orders(short, start, end)
    order = orders[0]
    if len(orders) > 1:
        readings = "; ".join(f"{o}: {short[0].strip()} = {_short_date(short[0], o)}" for o in orders[1:])
        problems.append(Problem(numbers[0], f"the round dates of tag 132 read inside the event's dates "
                                            f"{start or '…'}..{end or '…'} (tags 042, 052) in more than one order "
                                            f"({readings}): no order is guessed, they are read as the spec's "
                                            f"YY/MM/DD (write them as YYYY/MM/DD)"))
    elif order != "YY/MM/DD":
        span = f"{start or '…'}..{end or '…'}"
        spec = [_short_date(t, "YY/MM/DD") for t in short]
        why = (f"read as the spec's YY/MM/DD the first round falls on {spec[0]}, not on the start date {start} "
               "(tag 042), and the file has no end date (tag 052)"
               if end is None and all(d is not None and d >= start for d in spec) else
               f"read as the spec's YY/MM/DD they fall outside the event's dates {span} (tags 042, 052)")
        assumptions.append(f"{where}: the round dates of tag 132 read as {order} ({short[0].strip()} = "
                           f"{_short_date(short[0], order)}): {why}")
    dates: dict[int, dt.date | None] = {}
    dated_on: dict[int, int] = {}
    for k, (number, at, text) in enumerate(found, 1):
        rnd = (at - FIRST_ROUND + 1) // ROUND_WIDTH + 1 if in_columns else k
        try:
            date = _short_date(text, order) if order != "YY/MM/DD" and SHORT_DATE.fullmatch(text.strip()) \
                else date_from(text)
            if date is None:
                raise ValueError(text)
        except ValueError:
            problems.append(Problem(number, f"round {rnd}: unreadable date {text.strip()!r} in tag 132"))
            date = None
        if date is not None and dates.get(rnd) not in (None, date):
            problems.append(Problem(number, f"round {rnd}: date {date} in tag 132, but line {dated_on[rnd]} dates "
                                            f"the round {dates[rnd]}: the round keeps {dates[rnd]}"))
        elif date is not None or rnd not in dates:
            dates[rnd], dated_on[rnd] = date, number
    rounds = max((k for k, d in dates.items() if d), default=0)
    return tuple(dates.get(k) for k in range(1, rounds + 1)), dated_on


def _dates_in(line: str) -> list[tuple[int, str]]:
    """(0-based column, text) of each date of a 132 line, and of each other text, which is no
    date. Dates that fill their round's ten columns (2018/04/07 at 92-101, the next round's at
    102 with no blank between them) are read column by column; any other line by the dates'
    pattern."""
    filled = [(at, line[at:at + ROUND_WIDTH].rstrip()) for at in range(FIRST_ROUND - 1, len(line), ROUND_WIDTH)
              if line[at:at + ROUND_WIDTH].strip()]
    if filled and not line[4:FIRST_ROUND - 1].strip() and all(DATE_TEXT.fullmatch(text) for _, text in filled):
        return filled
    body = line[4:]
    found = [(m.start() + 4, m.group()) for m in DATE_TEXT.finditer(body)]
    # What is left once the dates are blanked out is text that is no date.
    blanked = DATE_TEXT.sub(lambda m: " " * len(m.group()), body)
    return sorted(found + [(m.start() + 4, m.group()) for m in re.finditer(r"[^\s;,]+", blanked)])


def _game_dates(round_dates: tuple[dt.date | None, ...], start: dt.date | None,
                default_date: dt.date | None, tag_given: bool = False) -> tuple[dict[int, dt.date | None], str | None]:
    """Each round's date, and the sentence saying which rounds took a date the
    file does not give them: the one given with --date, else the start date."""
    fallback = default_date or start
    dates = {k: d or fallback for k, d in enumerate(round_dates, 1)}
    undated = [k for k, d in enumerate(round_dates, 1) if d is None]
    if not undated or fallback is None:
        return dates, None
    source = "the date given with --date" if default_date else "the start date (tag 042)"
    if len(undated) == len(round_dates):
        which = ("no readable round date (tag 132)" if tag_given else "no round dates (tag 132)") + ": every game" \
            if not default_date else "games of rounds without a date"
        return dates, f"{which} dated {fallback}, {source}"
    return dates, f"round{'s' if len(undated) > 1 else ''} {_spans(undated)} without a date in tag 132: " \
                  f"dated {fallback}, {source}"


def _outside_rounds(dates: dict[int, dt.date | None], round_dates: tuple[dt.date | None, ...],
                    start: dt.date | None, end: dt.date | None, dated_on: dict[int, int],
                    problems: list[Problem]) -> dict[int, str]:
    """The rounds dated outside the event's own dates (042..052), each with the
    reason its games are rejected: filed under that date they would land in
    another list's window."""
    span = f"{start or '…'}..{end or '…'}"
    outside: dict[int, str] = {}
    for k, d in dates.items():
        if d and ((start and d < start) or (end and d > end)):
            given = k <= len(round_dates) and round_dates[k - 1] is not None
            outside[k] = f"round {k} is dated {d}{' (tag 132)' if given else ', the date given with --date'}, " \
                         f"outside the event's dates {span} (tags 042, 052): not filed in another window"
            if given:
                problems.append(Problem(dated_on[k], f"round {k}: date {d} is outside the event's dates {span} "
                                                     f"(tags 042, 052): the round's games are rejected"))
    return outside


def _no_dates(tags: dict[str, str], tag_lines: dict[str, int]) -> str:
    """The one message for a file none of whose games can be dated."""
    start = "no start date (tag 042)" if not tags.get("042") else \
        f"an unreadable start date (tag 042, line {tag_lines['042']})"
    rounds = "no round dates (tag 132)" if not tags.get("132") else \
        f"no readable round date (tag 132, line {tag_lines['132']})"
    return (f"{start} and {rounds}: give the event's date with --date YYYY-MM-DD for a one-day event, "
            "or a calendar or events file")


# ---------------------------------------------------------------------------
# Round blocks, games and byes


def _entries(blocks: list[tuple], players: pd.DataFrame, problems: list[Problem],
             assumptions: list[str]) -> pd.DataFrame:
    """One row per player and round, opponent, colour and result read, with
    `usable` false where the block itself is unreadable (reported here)."""
    raw = pd.DataFrame(blocks, columns=["rank", "round", "opp_text", "colour_text", "code_text", "line"])
    raw = raw.merge(players[["rank", "line"]], on=["rank", "line"])  # blocks of kept players only
    filled = (raw["opp_text"] + raw["colour_text"] + raw["code_text"]).str.strip() != ""
    rounds = int(raw.loc[filled, "round"].max()) if filled.any() else 0
    # Every player has every round up to the last one played anywhere: a block
    # the line does not reach is blank, which the spec reads as Z.
    grid = pd.MultiIndex.from_product([players["rank"], range(1, rounds + 1)], names=["rank", "round"])
    e = raw.set_index(["rank", "round"]).reindex(grid).reset_index()
    e[["opp_text", "colour_text", "code_text"]] = e[["opp_text", "colour_text", "code_text"]].fillna(" ")
    e["line"] = e["rank"].map(players.set_index("rank")["line"]).astype("int64")

    opp_text = e["opp_text"].str.strip()
    e["opp"] = pd.to_numeric(opp_text.where(opp_text != "", "0").where(opp_text.str.fullmatch(r"[0-9]*")),
                             errors="coerce")
    e["colour"] = _colours(e["colour_text"].str.lower(), assumptions)
    e["code"] = e["code_text"].str.upper()  # the spec: letter codes are case-insensitive
    # No opponent and a draw's result: the half-point bye some writers put as `0000 - =`.
    half = (e["opp"] == 0) & (e["code"] == "=")
    if half.any():
        e.loc[half, "code"] = "H"
        assumptions.append("round blocks `0000 - =` (no opponent, a draw's result) read as half-point byes (H)")
    bad_opp = e["opp"].isna()
    bad_colour = ~e["colour"].isin(COLOURS + NO_COLOUR)
    bad_code = ~e["code"].isin(PLAYED + FORFEITS + BYE_CODES + (NOT_PLAYED, " "))
    problems.extend(_report(e[bad_opp], "round {round}: unreadable opponent {opp_text!r}"))
    problems.extend(_report(e[bad_colour], "round {round}: unknown colour {colour_text!r}"))
    problems.extend(_report(e[bad_code], "round {round}: unknown result code {code_text!r}"))
    e["usable"] = ~(bad_opp | bad_colour | bad_code)
    e["opp"] = e["opp"].fillna(-1).astype("int64")
    return e


def _colours(letters: pd.Series, assumptions: list[str]) -> pd.Series:
    """The colours as w and b. A file is read with one alphabet: French (B
    blanc, N noir) when some block says N and none says w, as the English b
    would then be White's B; any other file in English."""
    used = set(letters.unique())
    if "n" not in used or "w" in used:
        return letters
    assumptions.append("colours read as French letters B (blanc, white) and N (noir, black): "
                       "the round blocks use N and never w")
    return letters.map(FRENCH_COLOURS).fillna(letters)


def _report(rows: pd.DataFrame, template: str) -> list[Problem]:
    """One problem per row, on the row's line, its message filled from the row."""
    return [Problem(int(row["line"]), template.format(**row)) for row in rows.to_dict("records")]


def _byes(entries: pd.DataFrame, players: pd.DataFrame, dates: dict[int, dt.date | None]) -> pd.DataFrame:
    e = entries[entries["usable"] & (entries["opp"] == 0) & entries["code"].isin(BYE_CODES + FORFEITS + (" ",))]
    byes = pd.DataFrame({"rank": e["rank"], "id": e["rank"].map(players.set_index("rank")["id"]),
                         "round": e["round"], "code": e["code"].replace(" ", "Z"), "line": e["line"],
                         "date": e["round"].map(dates).astype(object)})  # dated like the round's games
    byes["date"] = byes["date"].where(byes["date"].notna(), None)  # a round dated outside the event: undated
    return byes.astype({"id": "Int64"}).sort_values(["line", "round"]).reset_index(drop=True)[BYE_COLUMNS]


def _game_entries(entries: pd.DataFrame, players: pd.DataFrame, problems: list[Problem]) -> pd.DataFrame:
    """The usable blocks that claim a game against an opponent; the others
    that name an opponent, or a result with none, are reported."""
    e = entries[entries["usable"]]
    alone = e["opp"] == 0
    with_opp = ~alone
    itself = with_opp & (e["opp"] == e["rank"])
    unknown = with_opp & ~itself & ~e["opp"].isin(players["rank"])
    bye = with_opp & ~itself & ~unknown & e["code"].isin(BYE_CODES)
    no_result = with_opp & ~itself & ~unknown & (e["code"] == " ")
    problems.extend(_report(e[alone & e["code"].isin(PLAYED)],
                            "round {round}: result {code_text!r} without an opponent"))
    problems.extend(_report(e[itself], "round {round}: paired with itself"))
    problems.extend(_report(e[unknown], "round {round}: opponent {opp} is not a starting rank in the file"))
    problems.extend(_report(e[bye], "round {round}: bye code {code_text!r} with opponent {opp}"))
    problems.extend(_report(e[no_result], "round {round}: paired with {opp} but no result"))
    return e[with_opp & ~(itself | unknown | bye | no_result)]


def _games(entries: pd.DataFrame, players: pd.DataFrame, problems: list[Problem], assumptions: list[str],
           event: str | None, dates: dict[int, dt.date | None], outside: dict[int, str]) -> pd.DataFrame:
    """Each game once: from a pair of blocks, one on each player's line, that
    name each other in the same round and agree on result and colours. A pair
    whose results are both `*` is a game not played yet: no game, said once."""
    claims = _game_entries(entries, players, problems)[["rank", "round", "opp", "colour", "code", "line"]]
    answers = claims.rename(columns={"rank": "opp", "opp": "rank", "colour": "colour_b", "code": "code_b",
                                     "line": "line_b"})
    pairs = claims.merge(answers, on=["rank", "round", "opp"], how="left", indicator=True)
    problems.extend(_unanswered(pairs[pairs["_merge"] == "left_only"], entries))
    pairs = pairs[(pairs["_merge"] == "both") & (pairs["rank"] < pairs["opp"])]  # each game from its lower rank
    pairs = pairs.astype({"line_b": "int64"})

    key = pairs["code"] + pairs["code_b"]
    a_colour = pairs["colour"].where(pairs["colour"].isin(COLOURS))
    b_colour = pairs["colour_b"].where(pairs["colour_b"].isin(COLOURS))
    clash = a_colour.notna() & (a_colour == b_colour)
    not_played = key == NOT_PLAYED * 2
    disagree = ~key.isin(AGREEING) & ~not_played
    draw = key == "DD"
    problems.extend(_report(pairs[disagree], "round {round}: result {code!r} against {opp} does not match "
                                             "{code_b!r} on line {line_b}"))
    problems.extend(_report(pairs[clash], "round {round}: colour {colour!r} against {opp} does not match "
                                          "{colour_b!r} on line {line_b}"))
    problems.extend(_report(pairs[draw], "round {round}: unrated draw 'D' with {opp} has no result code here; "
                                         "not recorded"))
    unpaired = entries["usable"] & (entries["opp"] == 0) & (entries["code"] == NOT_PLAYED)
    assumptions.extend(_not_played(pairs[not_played & ~clash], entries[unpaired]))
    pairs = pairs[~(disagree | clash | draw | not_played)]
    a_colour, b_colour = a_colour[pairs.index], b_colour[pairs.index]
    # With no colour on either line, the lower starting rank is taken as White.
    a_white = np.select([a_colour == "w", a_colour == "b", b_colour == "b", b_colour == "w"],
                        [True, False, True, False], default=True)

    def side(a: str, b: str, white: bool) -> np.ndarray:
        return np.where(a_white == white, pairs[a], pairs[b])

    ids = players.set_index("rank")["id"]
    games = pd.DataFrame({
        "event": event,
        "round": pairs["round"].astype("int64"),
        "date": pairs["round"].map(dates).astype(object),
        "white_rank": side("rank", "opp", True), "black_rank": side("rank", "opp", False),
        "result": pd.Series(side("code", "code_b", True) + side("code", "code_b", False),
                            index=pairs.index).map(RESULT_OF),
        "white_line": side("line", "line_b", True), "black_line": side("line", "line_b", False),
    }, index=pairs.index)
    games["white_id"] = games["white_rank"].map(ids).astype("Int64")
    games["black_id"] = games["black_rank"].map(ids).astype("Int64")
    games["date"] = games["date"].where(games["date"].notna(), None)
    # The game is kept, with the reason it is rejected: a row read, not a row lost.
    games["problem"] = games["round"].map(outside).astype(object)
    games["problem"] = games["problem"].where(games["problem"].notna(), None)
    games = games.astype({"white_rank": "int64", "black_rank": "int64", "white_line": "int64", "black_line": "int64"})
    return games.sort_values(["round", "white_rank"]).reset_index(drop=True)[GAME_COLUMNS]


def _not_played(pairs: pd.DataFrame, unpaired: pd.DataFrame) -> list[str]:
    """The sentence counting the games not played yet (`*` on both lines: TRF-2026's
    in-tournament files) and the blocks `0000 - *`; none is a game, a bye or a reject."""
    parts = []
    if len(pairs):
        rounds, lines = sorted(set(pairs["round"])), sorted(set(pairs["line"]) | set(pairs["line_b"]))
        parts.append(f"{len(pairs)} game{'s' if len(pairs) > 1 else ''} of round{'s' if len(rounds) > 1 else ''} "
                     f"{_spans(rounds)} not played yet (result `*`, TRF-2026) on lines {_spans(lines)}")
    if len(unpaired):
        lines = sorted(set(unpaired["line"]))
        parts.append(f"{len(unpaired)} round block{'s' if len(unpaired) > 1 else ''} `0000 - *` (no opponent, "
                     f"not played yet) on line{'s' if len(lines) > 1 else ''} {_spans(lines)}")
    return ["; ".join(parts) + ": no game, nothing stored or rated"] if parts else []


def _unanswered(claims: pd.DataFrame, entries: pd.DataFrame) -> list[Problem]:
    """A block naming an opponent whose own block that round names someone else."""
    theirs = entries[["rank", "round", "opp", "line"]].rename(
        columns={"rank": "opp", "opp": "their_opp", "line": "their_line"})
    c = claims.merge(theirs, on=["opp", "round"], how="left")
    # Their block names this player but was unusable: reported on their line already.
    c = c[(c["their_opp"] != c["rank"]) & (c["their_opp"] >= 0)].astype({"their_opp": "int64", "their_line": "int64"})
    return (_report(c[c["their_opp"] > 0], "round {round}: paired with {opp}, but line {their_line} pairs "
                                           "{opp} with {their_opp}")
            + _report(c[c["their_opp"] == 0], "round {round}: paired with {opp}, but line {their_line} gives "
                                              "{opp} no opponent"))


# ---------------------------------------------------------------------------
# Writing


def trf_text(name: str, start_date: dt.date, players: pd.DataFrame, games: pd.DataFrame,
             round_dates: Sequence[dt.date | None] | None = None, byes: pd.DataFrame | None = None) -> str:
    """A TRF-16 file of one tournament.

    players: `id` (or `player_id`), and optionally name, sex, title, rating,
    federation, birth_year; their order gives the starting ranks.
    games: white_id, black_id, result (project codes), round, and optionally
    date: round_dates, when not given, are the earliest game date of each round.
    byes: optional id, round, code (H F U Z + -). A round in which a player has
    neither game nor bye is written as a zero-point bye (0000 - Z).
    A value that does not fit its columns, or holds a control character,
    raises LayoutError naming the player and the field: nothing is cut.
    """
    players = players.rename(columns={"player_id": "id"}).reset_index(drop=True)
    if players["id"].duplicated().any():
        raise ValueError("players: an id appears twice")
    if re.search(CONTROL, name):
        raise LayoutError(f"event name {name!r} has a control character, which would break the 012 line")
    refuse_breaking(players["id"], {field: players[field] for field in WRITER_WIDEST if field in players},
                    WRITER_WIDEST)
    rank_of = pd.Series(np.arange(1, len(players) + 1), index=players["id"])
    blocks = _blocks(games, byes, rank_of)
    rounds = max(int(blocks["round"].max()) if len(blocks) else 0, len(round_dates or ()))
    if round_dates is None:
        round_dates = _dates_by_round(games, rounds)
    points = blocks.groupby("rank")["score"].sum().reindex(rank_of.values, fill_value=0.0).to_numpy()
    final = pd.Series(points).rank(method="min", ascending=False).astype("int64").to_numpy()
    lines = [f"012 {name}", f"042 {start_date:%Y/%m/%d}",
             f"052 {max([start_date, *(d for d in round_dates if d)]):%Y/%m/%d}",
             f"062 {len(players)}", f"072 {_rated(players)}"]
    if any(round_dates):
        lines.append(("132".ljust(FIRST_ROUND - 1)
                      + "".join(f"{d:%y/%m/%d}".ljust(ROUND_WIDTH) if d else " " * ROUND_WIDTH
                                for d in round_dates)).rstrip())
    rest = _round_text(blocks, rank_of.values, rounds)
    lines += [(_fixed_part(p, rank, pts, fin) + "  " + rest[rank]).rstrip()
              for p, rank, pts, fin in zip(players.to_dict("records"), rank_of.values, points, final)]
    return "\r\n".join(lines) + "\r\n"  # the spec ends each line with a CR


def _blocks(games: pd.DataFrame, byes: pd.DataFrame | None, rank_of: pd.Series) -> pd.DataFrame:
    """One row per player and round: rank, round, opponent, colour, result, score."""
    unknown = sorted(set(games["result"]) - set(CODES_OF))
    if unknown:
        raise ValueError(f"games: unknown result codes {unknown}")
    white, black = _ranks(games["white_id"], rank_of), _ranks(games["black_id"], rank_of)
    white_code = games["result"].map({r: codes[0] for r, codes in CODES_OF.items()})
    black_code = games["result"].map({r: codes[1] for r, codes in CODES_OF.items()})
    parts = [pd.DataFrame({"rank": white, "round": games["round"], "opp": black, "colour": "w", "code": white_code}),
             pd.DataFrame({"rank": black, "round": games["round"], "opp": white, "colour": "b", "code": black_code})]
    if byes is not None and len(byes):
        if not byes["code"].isin(BYE_CODES + FORFEITS).all():
            raise ValueError(f"byes: codes must be among {BYE_CODES + FORFEITS}")
        parts.append(pd.DataFrame({"rank": _ranks(byes["id"], rank_of), "round": byes["round"], "opp": 0,
                                   "colour": "-", "code": byes["code"]}))
    blocks = pd.concat(parts, ignore_index=True).astype({"rank": "int64", "round": "int64", "opp": "int64"})
    twice = blocks[blocks.duplicated(["rank", "round"])]
    if len(twice):
        row = twice.iloc[0]
        raise ValueError(f"starting rank {row['rank']} has two games or byes in round {row['round']}")
    blocks["score"] = blocks["code"].map(SCORE_OF).astype("float64")
    return blocks


def _ranks(ids: pd.Series, rank_of: pd.Series) -> pd.Series:
    ranks = ids.map(rank_of)
    if ranks.isna().any():
        raise ValueError(f"ids not among the players: {sorted(set(ids[ranks.isna()]))[:5]}")
    return ranks


def _dates_by_round(games: pd.DataFrame, rounds: int) -> list[dt.date | None]:
    if "date" not in games or not len(games):
        return [None] * rounds
    first = pd.to_datetime(games["date"]).groupby(games["round"]).min()
    return [first[k].date() if k in first.index and pd.notna(first[k]) else None for k in range(1, rounds + 1)]


def _rated(players: pd.DataFrame) -> int:
    if "rating" not in players:
        return 0
    return int(pd.to_numeric(players["rating"], errors="coerce").gt(0).sum())


def _fixed_part(p: dict, rank: int, points: float, final: int) -> str:
    """Columns 1-89 of a player line."""
    def text(key: str, width: int) -> str:
        value = p.get(key)
        return "" if value is None or pd.isna(value) else str(value)[:width]  # sex alone is cut: m, w

    def number(key: str) -> str:
        value = p.get(key)
        return "" if value is None or pd.isna(value) or int(value) == 0 else str(int(value))

    sex = {"m": "m", "f": "w", "w": "w"}.get(text("sex", 1).lower(), "")
    birth = f"{number('birth_year')}/00/00" if number("birth_year") else ""  # only the year is known
    return (f"{PLAYER} {rank:>4} {sex:1}{text('title', 3):>3} {text('name', 33):<33} {number('rating'):>4} "
            f"{text('federation', 3):<3} {number('id'):>11} {birth:<10} {points:>4.1f} {final:>4}")


def _round_text(blocks: pd.DataFrame, ranks: np.ndarray, rounds: int) -> dict[int, str]:
    """The round blocks of each starting rank, from column 92 on."""
    grid = pd.MultiIndex.from_product([ranks, range(1, rounds + 1)], names=["rank", "round"])
    opp = blocks["opp"].astype(str).str.rjust(4).where(blocks["opp"] > 0, "0000")
    text = (opp + " " + blocks["colour"].astype(str) + " " + blocks["code"].astype(str)).str.ljust(ROUND_WIDTH)
    cells = pd.Series(text.to_numpy(), index=pd.MultiIndex.from_frame(blocks[["rank", "round"]]))
    cells = cells.reindex(grid, fill_value="0000 - Z".ljust(ROUND_WIDTH))
    joined = cells.groupby(level="rank").agg("".join)
    return {int(r): joined.get(r, "") for r in ranks}
