"""A published list in the formats pairing programs import.

Both take one list as a pyarrow Table or a pandas DataFrame with columns
player_id, name, federation, sex, title (text, may be null), rating, games
(whole numbers) and estimated (the rating is an unrated player's estimate),
and keep the rows in the order given. Same input, same bytes.

- `fide_list_text`: the fixed-width TXT of FIDE's downloadable single rating
  lists (ID Number 1-15, Name 16-76, Fed 77-79, Sex 81, Tit 85-88, WTit
  90-93, OTit 95-108, the rating at 114, Gms at 120, K at 124, B-day at 127,
  Flag at 133: w a woman, i inactive). K, B-day and the inactive flag come from
  the optional columns k, birth_year and inactive (the FIDE rule set gives K and
  the flag; pipeline/publish/ gives the birth year only when ratings.toml says
  publish_birth_year = true; a list without them keeps the columns blank, so
  readers that cut FIDE's columns by position still find every field where FIDE
  puts it). A title
  goes to its own column: women's titles (WGM WIM WFM WCM) to WTit, the
  player titles (GM IM FM CM) to Tit, the others (arbiters', trainers',
  organisers') to OTit.
- `swiss_manager_csv`: Swiss-Manager's player import CSV; Birthday from the
  optional column birth_year, the year alone (what the registry knows, as
  FIDE's lists give it: no day or month is made up), else blank.

Safe by construction: a value that would break the layout (a control
character such as a line break, tab or escape; a value longer than its
column, one blank kept before the next) raises `LayoutError` naming the
player and the field; no line is ever cut short or forged.

Written with Arrow's string kernels over whole columns (padding, joining,
quoting): a FIDE list of 12,500 players in about 20 ms a format, where pandas'
string methods, which call Python once a cell, took 0.16-0.2 s.
"""
from __future__ import annotations

import sys
from functools import reduce
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats.arrow_values import arrow_scalar
from pipeline.formats.cells import (
    LayoutError,
    refuse_breaking,
    spreadsheet_safe,
    text_cells,
    wider_cells,
)
from pipeline.formats.utf8 import lines_text, utf8_cells

if TYPE_CHECKING:  # validating a registry reads its widths here without pandas
    import pandas as pd

__all__ = ["LayoutError", "fide_list_text", "published_rating", "swiss_manager_csv", "wider_than_lists"]

# FIDE's header: each column's label at the column where its values start.
FIDE_COLUMNS = (("ID Number", 0), ("Name", 15), ("Fed", 76), ("Sex", 80), ("Tit", 84), ("WTit", 89),
                ("OTit", 94), ("FOA", 109), ("Rtng", 113), ("Gms", 119), ("K", 123), ("B-day", 126),
                ("Flag", 132))
# The widest value of each column: its width less the blank before the next column.
FIDE_WIDEST = {"player_id": 14, "name": 60, "federation": 3, "Tit": 4, "WTit": 4, "OTit": 14, "rating": 5,
               "games": 3, "k": 2, "birth_year": 4}
WOMEN_TITLES = ("WGM", "WIM", "WFM", "WCM")
PLAYER_TITLES = ("GM", "IM", "FM", "CM")
# FIDE's other titles: arbiters (IA FA NA), organisers (IO), trainers (FST FT FI DI NI), ...
OTHER_TITLES = ("IA", "FA", "NA", "IO", "FST", "FT", "FI", "DI", "NI", "IT", "ST")
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
SWISS_MANAGER_HEADER = ("ID_No", "Name", "Sex", "Fed", "Clubnumber", "ClubName", "Birthday", "Rtg_Nat",
                        "Fide_No", "Rtg_Int", "Title")


def published_rating(rating: pd.Series, estimated: pd.Series) -> pd.Series:
    """The rating as printed: an estimate, rounded to the ten like every published
    rating (R3), ends in 9 by taking one off (1500 is printed 1499, as in the rules'
    example; 1543 → 1540 → 1539)."""
    import pandas as pd

    rating = pd.to_numeric(rating, errors="coerce")
    marked = estimated.astype("boolean").fillna(False).to_numpy(dtype=bool)
    # ruling R12: in the published text list an estimated rating ends in 9.
    tens = np.floor(np.round(rating, 3) / 10 + 0.5) * 10
    return rating.where(~marked, tens - 1).round().astype("Int64")


def fide_list_text(table: pa.Table | pd.DataFrame, list_id: str | None = None,
                   federation: str | None = None) -> str:
    """The list in FIDE's TXT layout; the rating column is headed like FIDE's
    (JAN27 for list 2027-01) when `list_id` is given, else Rtng. `federation`
    fills the Fed column of players whose row has none."""
    t = _table(table)
    header = "".join(label.ljust(width) for (label, _), width in zip(_fide_labels(list_id), _widths()))
    ids = text_cells(t["player_id"])
    fed = _filled(t["federation"], federation)
    columns = {"player_id": ids, "name": text_cells(t["name"]), "federation": fed, **_title_columns(t["title"]),
               "rating": _published(t), "games": text_cells(t["games"])}
    refuse_breaking(ids, columns, FIDE_WIDEST)
    widths = dict(zip([name for name, _ in FIDE_COLUMNS], _widths()))
    k, born = _whole(_optional(t, "k")), _whole(_optional(t, "birth_year"))
    refuse_breaking(ids, {"k": k, "birth_year": born}, FIDE_WIDEST)
    # FIDE's flag: w for a woman, i for an inactive player (B02 7.2.2), wi for both.
    sex = _sex(t["sex"])
    inactive = _flags(_optional(t, "inactive"))
    woman = pc.equal(sex, "F").to_numpy(zero_copy_only=False)
    flag = pa.array(np.select([woman & inactive, woman, inactive], ["wi", "w", "i"], ""), type=pa.string())
    cells = [(ids, widths["ID Number"]), (columns["name"], widths["Name"]), (fed, widths["Fed"]),
             (sex, widths["Sex"]), (columns["Tit"], widths["Tit"]), (columns["WTit"], widths["WTit"]),
             (columns["OTit"], widths["OTit"]), (_blank(t), widths["FOA"]), (columns["rating"], widths["Rtng"]),
             (columns["games"], widths["Gms"]), (k, widths["K"]), (born, widths["B-day"]), (flag, 4)]
    lines = pc.binary_join_element_wise(*(pc.utf8_rpad(cell, width) for cell, width in cells), "")
    # str.rstrip's whitespace, not only the padding: the lines are those pandas wrote.
    lines = pc.utf8_rtrim(lines, characters=WHITESPACE)
    return header.rstrip() + "\n" + lines_text(lines, "\n")


def swiss_manager_csv(table: pa.Table | pd.DataFrame, federation: str | None = None) -> str:
    """Swiss-Manager's import CSV: semicolons, every field quoted, the national
    rating as Rtg_Nat; Fide_No, Rtg_Int, Clubnumber, ClubName and Birthday from the
    optional columns fide_id, fide_rating, club_number, club and birth_year; `federation`
    fills Fed where the row has none. Its importer reads a player a line, so a
    control character in any field raises `LayoutError`."""
    t = _table(table)
    ids = text_cells(t["player_id"])
    fed = _filled(t["federation"], federation)
    name, title = text_cells(t["name"]), text_cells(t["title"])
    club, club_number = text_cells(_optional(t, "club")), text_cells(_optional(t, "club_number"))
    refuse_breaking(ids, {"name": name, "federation": fed, "title": title, "club": club,
                          "club_number": club_number}, {})
    born = _whole(_optional(t, "birth_year"))
    columns = {
        "ID_No": ids,
        "Name": _safe(name),
        "Sex": _safe(_sex(t["sex"])),
        "Fed": _safe(fed),
        "Clubnumber": _safe(club_number),
        "ClubName": _safe(club),
        "Birthday": born,
        "Rtg_Nat": _published(t),
        "Fide_No": text_cells(_optional(t, "fide_id")),
        "Rtg_Int": text_cells(_optional(t, "fide_rating")),
        "Title": _safe(title),
    }
    quoted = [pc.binary_join_element_wise('"', pc.replace_substring(v, '"', '""'), '"', "")
              for v in columns.values()]
    rows = pc.binary_join_element_wise(*quoted, ";")
    return ";".join(f'"{h}"' for h in SWISS_MANAGER_HEADER) + "\r\n" + lines_text(rows, "\r\n")


# The registry's fields the writers print in a column of their width (the others, a
# club, are only refused for a control character); validation refuses the same values
# with `wider_than_lists` (pipeline/validate/schemas.py), so that a registry it accepts
# is written in every layout.
REGISTRY_WIDTHS = {"player_id": FIDE_WIDEST["player_id"], "name": FIDE_WIDEST["name"],
                   "federation": FIDE_WIDEST["federation"]}
TITLE_WIDTHS = {column: FIDE_WIDEST[column] for column in ("Tit", "WTit", "OTit")}


def wider_than_lists(field: str, values: pd.Series | pa.Array) -> pa.BooleanArray:
    """Whether each value of a registry field is too long for the FIDE TXT list: a
    name, federation or id longer than its column; a title field whose titles, each
    put in its column as `fide_list_text` puts them, overflow one of them."""
    if field == "title":
        columns = _title_columns(text_cells(values))
        return reduce(pc.or_, (wider_cells(columns[c], width) for c, width in TITLE_WIDTHS.items()))
    return wider_cells(values, REGISTRY_WIDTHS[field])


# What Python's str.isspace() takes for blank (tests/test_list_formats.py checks it).
WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
              "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def _title_columns(titles: pa.Array) -> dict[str, pa.Array]:
    """Tit, WTit and OTit from one title field, which may hold several titles
    ("IM WGM", "GM,IA"): each title to its column, several in one joined by ","
    (in pandas, over the few players who have a title)."""
    text = text_cells(titles)
    held = np.flatnonzero(utf8_cells(text)[2])  # the cells of more than 0 bytes
    if not len(held):  # most registries: made without pandas, which a validation has no other use for
        return {name: pa.repeat(arrow_scalar(""), len(text)) for name in ("Tit", "WTit", "OTit")}
    import pandas as pd

    out = {name: np.full(len(text), "", dtype=object) for name in ("Tit", "WTit", "OTit")}
    tokens = pd.Series(text.take(held).to_pylist(), index=held, dtype=str)  # as cell_text gave them
    tokens = tokens.str.upper().str.split(r"[\s,;/]+", regex=True).explode()
    tokens = tokens[tokens != ""]
    column = np.select([tokens.isin(WOMEN_TITLES), tokens.isin(PLAYER_TITLES)], ["WTit", "Tit"], "OTit")
    # An unknown title stays where the single title field used to go: Tit.
    column = np.where((column == "OTit") & ~tokens.isin(OTHER_TITLES), "Tit", column)
    joined = tokens.groupby([tokens.index, column]).agg(",".join)
    for name in set(column):
        of_column = joined.xs(name, level=1)
        out[name][of_column.index.to_numpy()] = of_column.to_numpy()
    return {name: pa.array(values, type=pa.string()) for name, values in out.items()}


def _table(table: pa.Table | pd.DataFrame) -> dict[str, pa.Array]:
    """The list's columns as Arrow arrays, numbers kept numbers (a DataFrame column of
    mixed objects becomes text, as `text_cells` writes it)."""
    pd = sys.modules.get("pandas")  # a DataFrame exists only once pandas is loaded
    if pd is not None and isinstance(table, pd.DataFrame):
        table = table.reset_index(drop=True)
        return {name: _arrow(table[name]) for name in table.columns}
    return {name: table.column(name).combine_chunks() for name in table.column_names}


def _arrow(values: pd.Series) -> pa.Array:
    try:
        return pa.array(values, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed objects: as str() writes them
        return text_cells(values)


def _fide_labels(list_id: str | None) -> tuple[tuple[str, int], ...]:
    if list_id is None:
        return FIDE_COLUMNS
    year, month = list_id.split("-")
    label = f"{MONTHS[int(month) - 1]}{year[2:]}"
    return tuple((label if name == "Rtng" else name, at) for name, at in FIDE_COLUMNS)


def _widths() -> list[int]:
    starts = [at for _, at in FIDE_COLUMNS]
    return [b - a for a, b in pairwise(starts)] + [0]


def _rows(t: dict[str, pa.Array]) -> int:
    return len(t["player_id"])


def _blank(t: dict[str, pa.Array]) -> pa.Array:
    return pa.repeat(pa.scalar("", pa.string()), _rows(t))


def _filled(values: pa.Array, federation: str | None) -> pa.Array:
    """The federation column, `federation` where the row has none."""
    if federation:
        values = pc.fill_null(pc.cast(values, pa.string()), federation)
    return text_cells(values)


def _published(t: dict[str, pa.Array]) -> pa.Array:
    return text_cells(published_rating(t["rating"].to_pandas(), t["estimated"].to_pandas()))


def _whole(values: pa.Array) -> pa.Array:
    """Whole numbers as text (a missing one: blank)."""
    import pandas as pd

    return text_cells(pd.to_numeric(values.to_pandas(), errors="coerce").round().astype("Int64"))


def _flags(values: pa.Array) -> np.ndarray:
    return values.to_pandas().astype("boolean").fillna(False).to_numpy(dtype=bool)


def _optional(t: dict[str, pa.Array], name: str) -> pa.Array:
    return t[name] if name in t else pa.nulls(_rows(t))


def _sex(values: pa.Array) -> pa.Array:
    """M or F whatever the input's spelling (TRF writes w for women)."""
    upper = pc.utf8_upper(text_cells(values))
    return pc.if_else(pc.equal(upper, "M"), "M", pc.if_else(pc.is_in(upper, pa.array(["F", "W"])), "F", ""))


def _safe(values: pa.Array) -> pa.Array:
    """Text a spreadsheet would run as a formula gets a leading apostrophe."""
    return spreadsheet_safe(pa.chunked_array([values], type=pa.string())).combine_chunks()
