"""The parses that type the staged texts in DuckDB (pipeline/validate/schemas.py: ID,
DATE, NUMBER, whole) against the pandas readers the checks were written for: the same
verdict on any cell, and the same value."""
from __future__ import annotations

import math

import duckdb
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.validate.schemas import DATE, ID, NUMBER, whole

CON = duckdb.connect()


def parsed(parse: str, cells: list[str | None]) -> list:
    """Each cell through the parse, in DuckDB, in order."""
    rel = CON.sql(f"select {parse.format(c='cell')} as v from unnest(?::varchar[]) with ordinality as t(cell, i) "
                  "order by i", params=[cells])
    return [v for (v,) in rel.fetchall()]


# Cells near dates: digits and dashes in any order, real and impossible days, leap years.
DATE_LIKE = st.one_of(
    st.text(alphabet="0123456789-", min_size=0, max_size=11),
    st.builds(lambda y, m, d: f"{y:04d}-{m:02d}-{d:02d}", st.integers(0, 9999), st.integers(0, 13),
              st.integers(0, 32)),
    st.sampled_from(["2000-02-29", "1900-02-29", "2024-02-29", "2023-02-29", "2023-04-31", " 2023-01-01",
                     "2023-01-01 ", "２０２３-01-01", "2023/01/01", "２-01-01", "é023-01-1", "2023-01-0\n",
                     "2023-01101", "2023101-01", "2023-0-101", "2023-1-01", "+2023-01-01"]),
    st.text(max_size=10),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(DATE_LIKE, min_size=1, max_size=30))
def test_a_date_is_what_pandas_strict_parser_reads(cells):
    # pandas' parser also reads other scripts' digits ("２０２３") and year 0000 (which
    # DuckDB would read as 1 BC): the parse takes ASCII digits only, in exactly
    # YYYY-MM-DD, on a day of the calendar from year 1.
    s = pd.Series(cells, dtype="str")
    strict = pd.to_datetime(s, format="%Y-%m-%d", errors="coerce")
    shaped = s.str.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}").fillna(False) & ~s.str.startswith("0000").fillna(False)
    expected = [d.date() if ok and not pd.isna(d) else None for d, ok in zip(strict, shaped)]
    assert parsed(DATE, cells) == expected


def test_impossible_days_are_no_dates():
    # 1900 is not a leap year (divisible by 100, not 400), 2000 is; April has 30 days.
    cells = ["1900-02-29", "2000-02-29", "2023-04-31", "2023-04-30", "2023-00-10", "2023-12-00", "２０２３-01-01",
             "2023-1-05", "2023-01-05T00:00", "0000-01-01", "0001-01-01"]
    assert [d is not None for d in parsed(DATE, cells)] == [False, True, False, True, False, False, False,
                                                             False, False, False, True]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="0123456789.-e+x_", max_size=8), st.none(),
                          st.sampled_from(["inf", "nan", "Infinity", "1e400", "0x10", "1_000", "١٢"])),
                min_size=1, max_size=30))
def test_numbers_are_what_pandas_reads(cells):
    # pandas also reads 'inf' and 'nan', which no range admits: the parse refuses them,
    # so the cell is rejected for the same reason (the range's, which is the parse's).
    expected = [None if v is None or math.isnan(v) or math.isinf(v) else v
                for v in pd.to_numeric(pd.Series(cells, dtype="str"), errors="coerce").astype("float64")
                .map(lambda x: None if pd.isna(x) else float(x))]
    got = [None if v is None or math.isinf(v) else v for v in parsed(NUMBER, cells)]
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="0123456789", max_size=17), st.text(max_size=16), st.none(),
                          st.sampled_from(["٣", "０１", "1\n", " 12", "12 ", "+12", "-1", "1_2", "0x1F",
                                           "1" * 15, "1" * 16])),
                min_size=1, max_size=30))
def test_an_id_is_what_the_regular_expression_reads(cells):
    # ASCII digits only, 1 to 15 of them, nothing around them; `007` is player 7.
    s = pd.Series(cells, dtype="str")
    ok = s.str.fullmatch(r"[0-9]{1,15}").fillna(False).astype(bool)
    assert parsed(ID, cells) == [int(c) if k else None for c, k in zip(cells, ok)]


def test_a_whole_number_is_its_pattern_only():
    # archive_games: 1 to 7 and nothing else ('07', '8', '1.0', '+1' are refused)
    assert parsed(whole("[1-7]"), ["1", "7", "0", "8", "07", "1.0", "+1", None]) == [1, 7, None, None, None, None,
                                                                                       None, None]
    # a birth year: four digits; the range is the model's check
    assert parsed(whole("[0-9]{4}"), ["1985", "0985", "985", "19850"]) == [1985, 985, None, None]
