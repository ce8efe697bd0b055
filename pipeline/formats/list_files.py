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
quoting) rather than pandas' string methods, which call Python once a cell
(bench/list_formats.py times them). pandas, which the printed ratings and the
titles still use, is loaded at the top: publication loads this module on its
main thread before its writers' threads start (a thread never imports).
"""
from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats.cells import LayoutError, refuse_breaking, spreadsheet_safe, text_cells
from pipeline.formats.fide_layout import FIDE_COLUMNS, FIDE_WIDEST, WHITESPACE, title_columns
from pipeline.formats.utf8 import lines_text

__all__ = ["LayoutError", "fide_list_text", "published_rating", "swiss_manager_csv"]

# pyarrow meets pandas through a shim that loads its own modules on first use: made
# ready here, on the thread that imports the writers, never first in a writer's thread.
pa.lib._pandas_api.compat  # noqa: B018
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
SWISS_MANAGER_HEADER = ("ID_No", "Name", "Sex", "Fed", "Clubnumber", "ClubName", "Birthday", "Rtg_Nat",
                        "Fide_No", "Rtg_Int", "Title")


def published_rating(rating: pd.Series, estimated: pd.Series) -> pd.Series:
    """The rating as printed: an estimate, rounded to the ten like every published
    rating (R3), ends in 9 by taking one off (1500 is printed 1499, as in the rules'
    example; 1543 → 1540 → 1539)."""
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
    columns = {"player_id": ids, "name": text_cells(t["name"]), "federation": fed, **title_columns(t["title"]),
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


def _table(table: pa.Table | pd.DataFrame) -> dict[str, pa.Array]:
    """The list's columns as Arrow arrays, numbers kept numbers (a DataFrame column of
    mixed objects becomes text, as `text_cells` writes it)."""
    if isinstance(table, pd.DataFrame):
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
