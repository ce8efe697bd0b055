"""A published list in the formats pairing programs import.

Both take one list as a pyarrow Table or a pandas DataFrame with columns
player_id, name, federation, sex, title (text, may be null), rating, games
(whole numbers) and estimated (the rating is an unrated player's estimate),
and keep the rows in the order given. Same input, same bytes.

- `fide_list_text`: the fixed-width TXT of FIDE's downloadable single rating
  lists (ID Number 1-15, Name 16-76, Fed 77-79, Sex 81, Tit 85-88, WTit
  90-93, OTit 95-108, the rating at 114, Gms at 120, K at 124, B-day at 127,
  Flag at 133: w a woman, i inactive). K, B-day and the inactive flag come from
  the optional columns k, birth_year and inactive (the FIDE rule set gives them;
  a list without them keeps the columns blank, so readers that cut FIDE's
  columns by position still find every field where FIDE puts it). A title
  goes to its own column: women's titles (WGM WIM WFM WCM) to WTit, the
  player titles (GM IM FM CM) to Tit, the others (arbiters', trainers',
  organisers') to OTit.
- `swiss_manager_csv`: Swiss-Manager's player import CSV.

Safe by construction: a value that would break the layout (a control
character such as a line break, tab or escape; a value longer than its
column, one blank kept before the next) raises `LayoutError` naming the
player and the field; no line is ever cut short or forged.
"""
from __future__ import annotations

import functools
from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.formats.cells import LayoutError, cell_text, refuse_breaking, spreadsheet_safe

__all__ = ["LayoutError", "fide_list_text", "published_rating", "swiss_manager_csv"]

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
    t = _frame(table)
    header = "".join(label.ljust(width) for (label, _), width in zip(_fide_labels(list_id), _widths()))
    fed = t["federation"].where(t["federation"].notna(), federation) if federation else t["federation"]
    columns = {"player_id": t["player_id"], "name": t["name"], "federation": fed,
               **_title_columns(t["title"]), "rating": published_rating(t["rating"], t["estimated"]),
               "games": t["games"]}
    refuse_breaking(t["player_id"], columns, FIDE_WIDEST)
    widths = dict(zip([name for name, _ in FIDE_COLUMNS], _widths()))
    k, born = _whole(_optional(t, "k")), _whole(_optional(t, "birth_year"))
    refuse_breaking(t["player_id"], {"k": k, "birth_year": born}, FIDE_WIDEST)
    # FIDE's flag: w for a woman, i for an inactive player (B02 7.2.2), wi for both.
    inactive = _optional(t, "inactive").astype("boolean").fillna(False).to_numpy(dtype=bool)
    flag = pd.Series(np.char.add(np.where(_sex(t["sex"]) == "F", "w", ""), np.where(inactive, "i", "")),
                     index=t.index)
    cells = [_cell(columns["player_id"], widths["ID Number"]), _cell(columns["name"], widths["Name"]),
             _cell(fed, widths["Fed"]), _cell(_sex(t["sex"]), widths["Sex"]), _cell(columns["Tit"], widths["Tit"]),
             _cell(columns["WTit"], widths["WTit"]), _cell(columns["OTit"], widths["OTit"]),
             _blank(t, widths["FOA"]), _cell(columns["rating"], widths["Rtng"]),
             _cell(columns["games"], widths["Gms"]), _cell(k, widths["K"]), _cell(born, widths["B-day"]),
             _cell(flag, 4)]
    lines = _joined(cells, "").str.rstrip() if len(t) else pd.Series([], dtype=str)
    return "\n".join([header.rstrip(), *lines]) + "\n"


def swiss_manager_csv(table: pa.Table | pd.DataFrame, federation: str | None = None) -> str:
    """Swiss-Manager's import CSV: semicolons, every field quoted, the national
    rating as Rtg_Nat; Fide_No, Rtg_Int, Clubnumber and ClubName from the
    optional columns fide_id, fide_rating, club_number and club; `federation`
    fills Fed where the row has none. Its importer reads a player a line, so a
    control character in any field raises `LayoutError`."""
    t = _frame(table)
    fed = t["federation"].where(t["federation"].notna(), federation) if federation else t["federation"]
    refuse_breaking(t["player_id"], {"name": t["name"], "federation": fed, "title": t["title"],
                                      "club": _optional(t, "club"), "club_number": _optional(t, "club_number")}, {})
    columns = {
        "ID_No": cell_text(t["player_id"]),
        "Name": _safe(t["name"]),
        "Sex": _safe(_sex(t["sex"])),
        "Fed": _safe(fed),
        "Clubnumber": _safe(_optional(t, "club_number")),
        "ClubName": _safe(_optional(t, "club")),
        "Birthday": _blank(t, 0),  # never published
        "Rtg_Nat": cell_text(published_rating(t["rating"], t["estimated"])),
        "Fide_No": cell_text(_optional(t, "fide_id")),
        "Rtg_Int": cell_text(_optional(t, "fide_rating")),
        "Title": _safe(t["title"]),
    }
    quoted = ['"' + v.str.replace('"', '""', regex=False) + '"' for v in columns.values()]
    rows = _joined(quoted, ";") if len(t) else pd.Series([], dtype=str)
    return "\r\n".join([";".join(f'"{h}"' for h in SWISS_MANAGER_HEADER), *rows]) + "\r\n"


def _title_columns(titles: pd.Series) -> dict[str, pd.Series]:
    """Tit, WTit and OTit from one title field, which may hold several titles
    ("IM WGM", "GM,IA"): each title to its column, several in one joined by ","."""
    tokens = cell_text(titles).str.upper().str.split(r"[\s,;/]+", regex=True).explode()
    tokens = tokens[tokens != ""]
    column = np.select([tokens.isin(WOMEN_TITLES), tokens.isin(PLAYER_TITLES)], ["WTit", "Tit"], "OTit")
    # An unknown title stays where the single title field used to go: Tit.
    column = np.where((column == "OTit") & ~tokens.isin(OTHER_TITLES), "Tit", column)
    joined = tokens.groupby([tokens.index, column]).agg(",".join)
    return {name: joined.xs(name, level=1).reindex(titles.index) if name in column else
            pd.Series(None, index=titles.index, dtype=object) for name in ("Tit", "WTit", "OTit")}


def _joined(columns: list[pd.Series], separator: str) -> pd.Series:
    """Row-wise join of text columns, as whole-column concatenations."""
    return functools.reduce(lambda a, b: a + separator + b, columns)


def _frame(table: pa.Table | pd.DataFrame) -> pd.DataFrame:
    t = table.to_pandas() if isinstance(table, pa.Table) else table.copy()
    return t.reset_index(drop=True)


def _fide_labels(list_id: str | None) -> tuple[tuple[str, int], ...]:
    if list_id is None:
        return FIDE_COLUMNS
    year, month = list_id.split("-")
    label = f"{MONTHS[int(month) - 1]}{year[2:]}"
    return tuple((label if name == "Rtng" else name, at) for name, at in FIDE_COLUMNS)


def _widths() -> list[int]:
    starts = [at for _, at in FIDE_COLUMNS]
    return [b - a for a, b in pairwise(starts)] + [0]


def _cell(values: pd.Series, width: int) -> pd.Series:
    """Values left-aligned in a column they fit (`_refuse_breaking` saw to that)."""
    return cell_text(values).str.ljust(width)


def _blank(t: pd.DataFrame, width: int) -> pd.Series:
    return pd.Series(" " * width, index=t.index, dtype=str)


def _whole(values: pd.Series) -> pd.Series:
    """Whole numbers as text (a missing one: blank)."""
    return pd.to_numeric(values, errors="coerce").round().astype("Int64")


def _optional(t: pd.DataFrame, name: str) -> pd.Series:
    return t[name] if name in t else pd.Series([None] * len(t), index=t.index, dtype=object)


def _sex(values: pd.Series) -> pd.Series:
    """M or F whatever the input's spelling (TRF writes w for women)."""
    upper = cell_text(values).str.upper()
    return upper.map({"M": "M", "F": "F", "W": "F"}).fillna("")


def _safe(values: pd.Series) -> pd.Series:
    """Text a spreadsheet would run as a formula gets a leading apostrophe."""
    text = cell_text(values)
    safe = spreadsheet_safe(pa.chunked_array([pa.array(text.tolist(), type=pa.string())]))
    return pd.Series(safe.to_pylist(), index=values.index, dtype=str)
