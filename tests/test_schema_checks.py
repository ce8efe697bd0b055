"""The array checks of the Pandera models (pipeline/validate/schemas.py) against the
pandas functions they replace: the same verdict on any cell."""
from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.validate.schemas import _is_date, _is_id, _numbers

# Cells near dates: digits and dashes in any order, real and impossible days, leap years.
DATE_LIKE = st.one_of(
    st.text(alphabet="0123456789-", min_size=0, max_size=11),
    st.builds(lambda y, m, d: f"{y:04d}-{m:02d}-{d:02d}", st.integers(0, 9999), st.integers(0, 13),
              st.integers(0, 32)),
    st.sampled_from(["2000-02-29", "1900-02-29", "2024-02-29", "2023-02-29", "2023-04-31", " 2023-01-01",
                     "2023-01-01 ", "２０２３-01-01", "2023/01/01", "２-01-01", "é023-01-1", "2023-01-0\n",
                     "2023-01101", "2023101-01", "2023-0-101"]),
    st.text(max_size=10),  # any script: the check reads bytes, and ten bytes may be fewer characters
)


@settings(max_examples=300, deadline=None)
@given(st.lists(DATE_LIKE, min_size=1, max_size=30))
def test_a_date_is_what_pandas_strict_parser_reads(cells):
    # pandas' parser also reads other scripts' digits ("２０２３"), which DuckDB's date cast
    # refuses: the check takes ASCII digits only (before, such a row failed the whole run).
    s = pd.Series(cells, dtype="str")
    expected = s.str.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}").fillna(False) & \
        pd.to_datetime(s, format="%Y-%m-%d", errors="coerce").notna()
    assert _is_date(s).tolist() == expected.tolist()


def test_impossible_days_are_no_dates():
    # 1900 is not a leap year (divisible by 100, not 400), 2000 is; April has 30 days.
    s = pd.Series(["1900-02-29", "2000-02-29", "2023-04-31", "2023-04-30", "2023-00-10", "2023-12-00"], dtype="str")
    assert _is_date(s).tolist() == [False, True, False, True, False, False]
    assert not _is_date(pd.Series(["２０２３-01-01"], dtype="str")).any()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="0123456789.-e+ x", max_size=8), st.none()), min_size=1, max_size=30))
def test_numbers_are_what_pandas_reads(cells):
    s = pd.Series(cells, dtype="str")
    got, expected = _numbers(s), pd.to_numeric(s, errors="coerce").astype("float64")
    assert got.isna().tolist() == expected.isna().tolist()
    assert got[got.notna()].tolist() == expected[expected.notna()].tolist()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(alphabet="0123456789", max_size=17), st.text(max_size=16), st.none(),
                          st.sampled_from(["٣", "０１", "1\n", " 12", "12 ", "1" * 15, "1" * 16])),
                min_size=1, max_size=30))
def test_an_id_is_what_the_regular_expression_reads(cells):
    # Counted on the bytes: ASCII digits only, 1 to 15 of them, nothing around them.
    s = pd.Series(cells, dtype="str")
    assert _is_id(s).tolist() == s.str.fullmatch(r"[0-9]{1,15}").fillna(False).astype(bool).tolist()
