"""A published list in the formats pairing programs import.

Both take one list as a pyarrow Table or a pandas DataFrame with columns
player_id, name, federation, sex, title (text, may be null), rating, games
(whole numbers) and estimated (the rating is an unrated player's estimate),
and keep the rows in the order given. Same input, same bytes.

- `fide_list_text`: the fixed-width TXT of FIDE's downloadable single rating
  lists (ID Number 1-15, Name 16-76, Fed 77-79, Sex 81, Tit 85-88, the rating
  at 114, Gms at 120, B-day at 127, Flag at 133; WTit, OTit, FOA and K are
  kept as blank columns so readers that cut FIDE's columns by position still
  find every field where FIDE puts it).
- `swiss_manager_csv`: Swiss-Manager's player import CSV.
"""
from __future__ import annotations

import functools
from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa

from pipeline.formats.cells import spreadsheet_safe

# FIDE's header: each column's label at the column where its values start.
FIDE_COLUMNS = (("ID Number", 0), ("Name", 15), ("Fed", 76), ("Sex", 80), ("Tit", 84), ("WTit", 89),
                ("OTit", 94), ("FOA", 109), ("Rtng", 113), ("Gms", 119), ("K", 123), ("B-day", 126),
                ("Flag", 132))
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


def fide_list_text(table: pa.Table | pd.DataFrame, list_id: str | None = None) -> str:
    """The list in FIDE's TXT layout; the rating column is headed like FIDE's
    (JAN27 for list 2027-01) when `list_id` is given, else Rtng."""
    t = _frame(table)
    header = "".join(label.ljust(width) for (label, _), width in zip(_fide_labels(list_id), _widths()))
    rating = published_rating(t["rating"], t["estimated"])
    cells = [_cell(t["player_id"], 15), _cell(t["name"], 61, cut=60), _cell(t["federation"], 4, cut=3),
             _cell(_sex(t["sex"]), 4), _cell(t["title"], 5, cut=4), _blank(t, 5 + 15 + 4),
             _cell(rating, 6), _cell(t["games"], 4), _blank(t, 3 + 6),
             _cell(pd.Series(np.where(_sex(t["sex"]) == "F", "w", ""), index=t.index), 4)]
    lines = _joined(cells, "").str.rstrip() if len(t) else pd.Series([], dtype=str)
    return "\n".join([header.rstrip(), *lines]) + "\n"


def swiss_manager_csv(table: pa.Table | pd.DataFrame) -> str:
    """Swiss-Manager's import CSV: semicolons, every field quoted, the national
    rating as Rtg_Nat; Fide_No, Rtg_Int, Clubnumber and ClubName from the
    optional columns fide_id, fide_rating, club_number and club."""
    t = _frame(table)
    columns = {
        "ID_No": _plain(t["player_id"]),
        "Name": _safe(t["name"]),
        "Sex": _safe(_sex(t["sex"])),
        "Fed": _safe(t["federation"]),
        "Clubnumber": _safe(_optional(t, "club_number")),
        "ClubName": _safe(_optional(t, "club")),
        "Birthday": _blank(t, 0),  # never published
        "Rtg_Nat": _plain(published_rating(t["rating"], t["estimated"])),
        "Fide_No": _plain(_optional(t, "fide_id")),
        "Rtg_Int": _plain(_optional(t, "fide_rating")),
        "Title": _safe(t["title"]),
    }
    quoted = ['"' + v.str.replace('"', '""', regex=False) + '"' for v in columns.values()]
    rows = _joined(quoted, ";") if len(t) else pd.Series([], dtype=str)
    return "\r\n".join([";".join(f'"{h}"' for h in SWISS_MANAGER_HEADER), *rows]) + "\r\n"


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


def _plain(values: pd.Series) -> pd.Series:
    """Text of a column, empty where null; whole numbers without a decimal point."""
    if pd.api.types.is_float_dtype(values) or pd.api.types.is_integer_dtype(values):
        values = values.astype("Int64")
    return values.astype(object).where(values.notna(), "").astype(str)


def _cell(values: pd.Series, width: int, cut: int | None = None) -> pd.Series:
    return _plain(values).str.slice(0, cut if cut is not None else width).str.ljust(width)


def _blank(t: pd.DataFrame, width: int) -> pd.Series:
    return pd.Series(" " * width, index=t.index, dtype=str)


def _optional(t: pd.DataFrame, name: str) -> pd.Series:
    return t[name] if name in t else pd.Series([None] * len(t), index=t.index, dtype=object)


def _sex(values: pd.Series) -> pd.Series:
    """M or F whatever the input's spelling (TRF writes w for women)."""
    upper = _plain(values).str.upper()
    return upper.map({"M": "M", "F": "F", "W": "F"}).fillna("")


def _safe(values: pd.Series) -> pd.Series:
    """Text a spreadsheet would run as a formula gets a leading apostrophe."""
    text = _plain(values)
    safe = spreadsheet_safe(pa.chunked_array([pa.array(text.tolist(), type=pa.string())]))
    return pd.Series(safe.to_pylist(), index=values.index, dtype=str)
