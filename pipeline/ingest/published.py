"""A rating list given as an input by mistake: what `ratings publish` writes (the lists,
their diffs, a Go series' current list, the states, the pairing programs' TXT and
Swiss-Manager files) and FIDE's own lists, told by their columns or their first line,
and refused whole, named as what they are.

A published list has no birth year, sex or region: taken as a registry update, each
player it lists would lose them (issue 50: 14,127 of 28,112 on the Belgian season, and
every list revised, juniors made seniors). Given as --ratings, a list or a state whose
columns carry player_id and rating is initial ratings, as the officer said.
"""
from __future__ import annotations

import re
from pathlib import Path

from pipeline.formats.sniff import LINE_BREAK, text_of

# Each layout by the columns that tell it (matched without case): sets no input kind holds.
LISTS = "a published rating list"
STATE = "a rating state or initial ratings file"
LAYOUTS = (
    (LISTS, {"list_id", "player_id", "rating", "previous_rating", "change", "status"}),  # sql/50, ratings export history
    ("a published list of rating changes (OUT/diffs)", {"list_id", "revision", "player_id", "old_rating",
                                                         "new_rating"}),  # sql/52
    ("a published current list (OUT/lists/current)", {"player_id", "rating", "grade", "events", "last_event"}),
    ("a rating list in Swiss-Manager's layout", {"id_no", "name", "rtg_nat"}),  # formats/list_files.py
)
# A state file's columns (RuleSet.published_state of each rule set): player_id, rating and these.
STATE_COLUMNS = {"player_id", "rating", "archive_performance", "archive_games", "games_total", "peak_rating", "k",
                 "inactive", "grade", "games", "events", "deviation"}
# What each kind is called when a file is refused as not being one.
NOT_A = {"players": "a registry", "ratings": "an initial ratings file", "calendar": "a calendar",
         "games": "a games file", "go_games": "a games file", "events": "an events file",
         None: "a registry, initial ratings or games file"}

# FIDE's TXT list, as FIDE writes it and `ratings publish --format txt` does: "ID Number  Name  Fed Sex Tit ...".
FIDE_TXT = re.compile(r"\s*ID Number\s+Name\s+Fed\s+Sex\s+Tit\b", re.IGNORECASE)
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
TXT_MONTH = re.compile(r"\b(" + "|".join(MONTHS) + r")([0-9]{2})\b", re.IGNORECASE)
LIST_IN_NAME = re.compile(r"(?<![0-9])((?:19|20)[0-9]{2})-?(0[1-9]|1[0-2])(?![0-9])")


def layout_of(names: list[str], kind: str | None) -> str | None:
    """What published layout a table's columns are (None: none), as refused when given
    as `kind`: a list, current list or state given as initial ratings is taken."""
    have = {n.strip().lower().lstrip("\ufeff") for n in names}
    for what, needed in LAYOUTS:
        if needed <= have and not (kind == "ratings" and {"player_id", "rating"} <= have):
            return what
    if kind not in ("ratings", None) and {"player_id", "rating"} <= have <= STATE_COLUMNS:
        return STATE
    return None


def text_layout(head: bytes) -> tuple[str, str | None] | None:
    """A rating list that is no table, from a file's first bytes: FIDE's TXT layout (the
    list's month, as its rating column is headed: JAN19 → 2019-01) or FIDE's XML list."""
    text = text_of(head)
    first = next((line for line in LINE_BREAK.split(text)[:5] if line.strip()), "")
    if FIDE_TXT.match(first):
        month = TXT_MONTH.search(first)
        list_id = f"20{month[2]}-{MONTHS.index(month[1].upper()) + 1:02d}" if month else None
        return "a rating list in FIDE's TXT layout", list_id
    if re.search(r"<playerslist[\s>]", text[:2000]):
        return "FIDE's rating list in XML", None
    return None


def list_of_name(path: Path) -> str | None:
    """The list a published file's name says (2019-01.csv, 2019-01-r2.parquet, ...)."""
    found = LIST_IN_NAME.search(Path(path).name)
    return f"{found[1]}-{found[2]}" if found else None


def refusal(path: Path, what: str, list_id: str | None, kind: str | None, names: list[str] = ()) -> str:
    """The one message refusing a published list given as `kind` (a table given without
    one is read as a registry when it has names; None: a file that is no table)."""
    have = {n.strip().lower().lstrip("\ufeff") for n in names}
    said = f"{path}: this is {what}" + (f" (list {list_id}?)" if list_id else "") + f", not {NOT_A[kind]}: " \
           "nothing of it is taken in"
    if kind == "players" and "name" in have:
        said += ("; taken as a registry update it would blank the birth year, sex, region and every other column "
                 "a published list leaves out, for each player it lists")
    if kind in ("players", None):
        said += ". The registry is the federation's member file (player_id, name, birth_year, ...)"
    if {"player_id", "rating"} <= have:
        return said + "; to start from its ratings, give it as --ratings"
    return said + "; initial ratings are a published list's .csv or .parquet (OUT/lists/), given as --ratings"
