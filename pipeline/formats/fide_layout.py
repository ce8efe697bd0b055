"""FIDE's TXT list layout: its columns, their widths and the title columns, which the
writers (pipeline/formats/list_files.py) print and validation checks a registry against
(pipeline/validate/schemas.py), so that a registry it accepts is written in every layout.
Loads no pandas: validating a registry without titles has no other use for it."""
from __future__ import annotations

from functools import reduce

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats.arrow_values import arrow_scalar
from pipeline.formats.cells import text_cells, wider_cells
from pipeline.formats.utf8 import utf8_cells

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
# The registry's fields the writers print in a column of their width (the others, a
# club, are only refused for a control character); validation refuses the same values
# with `wider_than_lists` (pipeline/validate/schemas.py), so that a registry it accepts
# is written in every layout.
REGISTRY_WIDTHS = {"player_id": FIDE_WIDEST["player_id"], "name": FIDE_WIDEST["name"],
                   "federation": FIDE_WIDEST["federation"]}
TITLE_WIDTHS = {column: FIDE_WIDEST[column] for column in ("Tit", "WTit", "OTit")}


def wider_than_lists(field: str, values: pa.Array) -> pa.BooleanArray:
    """Whether each value of a registry field is too long for the FIDE TXT list: a
    name, federation or id longer than its column; a title field whose titles, each
    put in its column as `fide_list_text` puts them, overflow one of them."""
    if field == "title":
        columns = title_columns(text_cells(values))
        return reduce(pc.or_, (wider_cells(columns[c], width) for c, width in TITLE_WIDTHS.items()))
    return wider_cells(values, REGISTRY_WIDTHS[field])


# What Python's str.isspace() takes for blank (tests/test_list_formats.py checks it).
WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
              "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def title_columns(titles: pa.Array) -> dict[str, pa.Array]:
    """Tit, WTit and OTit from one title field, which may hold several titles
    ("IM WGM", "GM,IA"): each title to its column, several in one joined by ","
    (in pandas, over the few players who have a title)."""
    text = text_cells(titles)
    held = np.flatnonzero(utf8_cells(text)[2])  # the cells of more than 0 bytes
    if not len(held):  # most registries: made without pandas, which a validation has no other use for
        return {name: pa.repeat(arrow_scalar(""), len(text)) for name in ("Tit", "WTit", "OTit")}
    # why: pandas only for a registry with titles (tests/test_command_imports.py), on the main thread; the
    # writers' module (list_files) loads pandas at its top, so their threads find it loaded.
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


