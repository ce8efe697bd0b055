"""Exports of a published list (pipeline/formats/list_files.py)."""
from __future__ import annotations

import re

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.formats.arrow_values import arrow_scalar
from pipeline.formats.cells import (
    CONTROL,
    CONTROL_RE2,
    cell_text,
    spreadsheet_safe,
    text_cells,
)
from pipeline.formats.list_files import (
    WHITESPACE,
    LayoutError,
    fide_list_text,
    published_rating,
    swiss_manager_csv,
)
from pipeline.formats.utf8 import first_bytes, lines_text, may_hold_control, utf8_cells
from tests.conftest import write_rows

LIST = pa.table({
    "player_id": [1503014, 42, 7],
    "name": ["Carlsen, Magnus", "=1+2, Eve", 'Doe, "Jo" Ann'],
    "federation": ["NOR", None, "BEL"],
    "sex": ["M", "w", None],
    "title": ["GM", None, "FM"],
    "rating": [2830, 1540, 1500],
    "games": [9, 12, 0],
    "estimated": [False, True, True],
})


def test_r12_estimates_end_in_9():
    # Ruling R12: an estimate is printed ending in 9: rounded to the ten (R3), then
    # one off, so an estimate of 1500 is 1499 (the rules' example), 1540 is 1539,
    # 1543 is 1540 then 1539, and 1545 rounds up to 1550, printed 1549.
    got = published_rating(pd.Series([2830, 1540, 1500, 1543, 1545, 1000]),
                           pd.Series([False, True, True, True, True, None]))
    assert got.tolist() == [2830, 1539, 1499, 1539, 1549, 1000]  # an unknown flag is not an estimate


def test_fide_list_text():
    text = fide_list_text(LIST, "2027-01")
    # FIDE's single-list header (e.g. the SEP26 file); the rating column is
    # headed by the list's month, JAN27 for list 2027-01.
    assert text == (
        "ID Number      Name                                                         "
        "Fed Sex Tit  WTit OTit           FOA JAN27 Gms K  B-day Flag\n"
        "1503014        Carlsen, Magnus                                              "
        "NOR M   GM                           2830  9\n"
        "42             =1+2, Eve                                                        "
        "F                                1539  12           w\n"
        "7              Doe, \"Jo\" Ann                                                "
        "BEL     FM                           1499  0\n"
    )
    header, carlsen, eve, doe = text.splitlines()
    # The columns where FIDE's file has them (0-based: ID 0, Name 15, Fed 76,
    # Sex 80, Tit 84, rating 113, Gms 119, B-day 126, Flag 132).
    for label, at in (("Name", 15), ("Fed", 76), ("Sex", 80), ("Tit", 84), ("JAN27", 113), ("Gms", 119),
                      ("B-day", 126), ("Flag", 132)):
        assert header[at:at + len(label)] == label
    assert (carlsen[0:7], carlsen[15:30], carlsen[76:79], carlsen[80], carlsen[84:86]) == (
        "1503014", "Carlsen, Magnus", "NOR", "M", "GM")
    assert (carlsen[113:117], carlsen[119]) == ("2830", "9")
    # Eve: w (as TRF writes women) becomes F, and FIDE's flag column says w.
    assert (eve[80], eve[113:117], eve[119:121], eve[132]) == ("F", "1539", "12", "w")
    assert doe[113:117] == "1499" and doe[76:79] == "BEL" and len(doe) == 120  # trailing blanks cut
    assert eve[126:130] == "    "  # B-day never published


def test_fide_list_text_defaults_and_long_names():
    frame = LIST.to_pandas()
    assert fide_list_text(frame, "2027-01") == fide_list_text(LIST, "2027-01")  # pandas or arrow: same bytes
    assert fide_list_text(LIST) == fide_list_text(LIST) and "FOA Rtng  Gms" in fide_list_text(LIST)
    # A name gets at most 60 characters, so a space still separates it from Fed at 76:
    # 60 fit, 40 fit with 20 blanks after them, 61 are refused (never cut: a cut name is another name).
    for width in (60, 40):
        line = fide_list_text(frame.assign(name=["X" * width, "Y", "Z"])).splitlines()[1]
        assert line[15:15 + width] == "X" * width and line[15 + width:76] == " " * (61 - width)
        assert line[76:79] == "NOR"
    with pytest.raises(LayoutError, match=r"player 1503014: name 'X{61}' is longer than its column \(60 characters\)"):
        fide_list_text(frame.assign(name=["X" * 61, "Y", "Z"]))


@pytest.mark.parametrize("field, value, message", [
    ("name", "Doe\nJo", r"player 42: name 'Doe\\nJo' has a control character, which would break the line"),
    ("name", "Doe\tJo", r"player 42: name 'Doe\\tJo' has a control character"),
    ("name", "\x1b[31mDoe", r"player 42: name '\\x1b\[31mDoe' has a control character"),
    ("federation", "BELG", r"player 42: federation 'BELG' is longer than its column \(3 characters\)"),
    ("player_id", 123456789012345, r"player 123456789012345: player_id '123456789012345' is longer than its "
                                   r"column \(14 characters\)"),
    ("title", "GM IA FA NA IO FST", r"player 42: OTit 'IA,FA,NA,IO,FST' is longer than its column"),
])
def test_fide_list_text_refuses_what_would_break_a_line(field, value, message):
    # Player 42 is the second row; for the id case the bad id is its own.
    frame = LIST.to_pandas().astype({"player_id": object})
    frame.loc[1, field] = value
    with pytest.raises(LayoutError, match=message):
        fide_list_text(frame)


def test_fide_list_text_takes_ids_as_long_as_the_column_allows():
    # ID Number is columns 1-15: 14 digits and the blank before Name.
    line = fide_list_text(LIST.to_pandas().assign(player_id=[12345678901234, 42, 7])).splitlines()[1]
    assert line[:15] == "12345678901234 " and line[15:30] == "Carlsen, Magnus"


def test_each_title_in_its_own_column_and_the_federation_filled():
    frame = LIST.to_pandas().assign(title=["GM", "WGM", "IM WGM"], federation=["NOR", None, None])
    header, carlsen, eve, doe = fide_list_text(frame, federation="BEL").splitlines()
    # Columns (0-based): Tit 84-88, WTit 89-93, OTit 94-108; Fed 76-78.
    assert (header[84:87], header[89:93], header[94:98]) == ("Tit", "WTit", "OTit")
    assert (carlsen[84:89], carlsen[89:94]) == ("GM   ", "     ")
    assert (eve[84:89], eve[89:94]) == ("     ", "WGM  ")  # a women's title goes to WTit, not Tit
    assert (doe[84:89], doe[89:94]) == ("IM   ", "WGM  ")  # both of an IM who is a WGM
    assert (carlsen[76:79], eve[76:79], doe[76:79]) == ("NOR", "BEL", "BEL")  # blank Fed: the federation given
    arbiter = fide_list_text(frame.assign(title=["IA", None, None])).splitlines()[1]
    assert (arbiter[84:89], arbiter[94:97]) == ("     ", "IA ")  # an arbiter's title goes to OTit


def test_swiss_manager_csv():
    text = swiss_manager_csv(LIST)
    assert text == (
        '"ID_No";"Name";"Sex";"Fed";"Clubnumber";"ClubName";"Birthday";"Rtg_Nat";"Fide_No";"Rtg_Int";"Title"\r\n'
        '"1503014";"Carlsen, Magnus";"M";"NOR";"";"";"";"2830";"";"";"GM"\r\n'
        # =1+2 would run as a formula: neutralised with an apostrophe; 1540 estimated: 1539.
        '"42";"\'=1+2, Eve";"F";"";"";"";"";"1539";"";"";""\r\n'
        # Quotes inside a field are doubled.
        '"7";"Doe, ""Jo"" Ann";"";"BEL";"";"";"";"1499";"";"";"FM"\r\n'
    )
    assert swiss_manager_csv(LIST) == text  # deterministic


def test_swiss_manager_csv_optional_columns():
    frame = LIST.to_pandas().assign(club_number=["101", None, "-5"], club=["Tromso", "@home", None],
                                    fide_id=[1503014, None, None], fide_rating=[2830, None, None])
    rows = swiss_manager_csv(frame).split("\r\n")
    assert rows[1] == '"1503014";"Carlsen, Magnus";"M";"NOR";"101";"Tromso";"";"2830";"1503014";"2830";"GM"'
    # @home and -5 start like formulas; a missing FIDE id stays empty (not "nan").
    assert rows[2] == '"42";"\'=1+2, Eve";"F";"";"";"\'@home";"";"1539";"";"";""'
    assert rows[3] == '"7";"Doe, ""Jo"" Ann";"";"BEL";"\'-5";"";"";"1499";"";"";"FM"'


def test_swiss_manager_csv_refuses_control_characters():
    # Quoted, a line break would be valid CSV, but Swiss-Manager reads a player a line.
    frame = LIST.to_pandas().assign(club=["Tromso", "Gent\r\n\"7\";\"Forged\"", None])
    with pytest.raises(LayoutError, match=r"player 42: club .* has a control character"):
        swiss_manager_csv(frame)
    assert swiss_manager_csv(LIST.to_pandas().assign(federation=[None, None, "BEL"]), federation="BEL") \
        .split("\r\n")[1] == '"1503014";"Carlsen, Magnus";"M";"BEL";"";"";"";"2830";"";"";"GM"'


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(max_size=6), st.sampled_from(["=1+2", "+32", "-", "@x", "\tq", "\rq",
                                                                           "é=", "'=", "", " =1"])),
                max_size=40),
       st.integers(1, 7))
def test_a_cell_is_made_safe_when_it_starts_like_a_formula(cells, block):
    # The cells' first bytes, read from the Arrow buffers of a column in chunks of any
    # size, against the rule as a regular expression: =, +, -, @, tab or CR first.
    column = pa.chunked_array([pa.array(cells[i:i + block], pa.string()) for i in range(0, len(cells), block)],
                              pa.string())
    expected = [None if c is None else "'" + c if re.match(r"[=+\-@\t\r]", c) else c for c in cells]
    assert spreadsheet_safe(column).to_pylist() == expected


def _every_character() -> list[str]:
    """Every code point UTF-8 can hold (surrogates cannot be encoded)."""
    return [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


def test_the_arrow_control_pattern_refuses_the_characters_the_python_one_does():
    # refuse_breaking runs CONTROL_RE2 through Arrow's RE2; the TRF writer and the
    # schemas use CONTROL through Python's re: the two must refuse the same
    # characters, all 1,112,064 of them checked (65 controls plus U+2028 and U+2029).
    chars = _every_character()
    arrow = pc.match_substring_regex(pa.array(chars), CONTROL_RE2).to_numpy(zero_copy_only=False)
    python = [re.search(CONTROL, c) is not None for c in chars]
    assert arrow.tolist() == python
    assert sum(python) == 32 + 33 + 2  # U+0000-U+001F, U+007F-U+009F, the two separators


def test_lines_lose_the_blanks_str_rstrip_would_take():
    # The TXT lines were written by pandas' str.rstrip; Arrow's trim is given the
    # same characters, which must be Python's whitespace exactly.
    assert set(WHITESPACE) == {c for c in _every_character() if c.isspace()}
    # A player whose row ends with the name (no federation, title, rating or games
    # printed) and whose name ends with a no-break space loses it, as before.
    one = pa.table({"player_id": [5], "name": ["Doe\u00a0"], "federation": [None], "sex": [None],
                    "title": [None], "rating": [None], "games": [None], "estimated": [False]},
                   schema=pa.schema([("player_id", pa.int64()), ("name", pa.string()), ("federation", pa.string()),
                                     ("sex", pa.string()), ("title", pa.string()), ("rating", pa.int64()),
                                     ("games", pa.int64()), ("estimated", pa.bool_())]))
    assert fide_list_text(one).splitlines()[1] == "5".ljust(15) + "Doe"


@pytest.mark.parametrize("values, expected", [
    # whole numbers without a decimal point, a missing one blank
    (pd.Series([1503014, None], dtype="Int64"), ["1503014", ""]),
    (pd.Series([2830.0, float("nan")]), ["2830", ""]),
    (pa.array([7, None]), ["7", ""]),
    (pa.chunked_array([[1.0], [None]]), ["1", ""]),
    (pa.nulls(2), ["", ""]),
    # text as it is, a missing one blank; objects of mixed types as str() writes them
    (pd.Series(["Doe", None], dtype=object), ["Doe", ""]),
    (pd.Series(["Doe", 12, None], dtype=object), ["Doe", "12", ""]),
    (pd.Series([True, False]), ["True", "False"]),
    (pa.array([True, None]), ["True", ""]),
])
def test_text_cells_are_what_cell_text_writes(values, expected):
    assert text_cells(values).to_pylist() == expected
    if isinstance(values, pd.Series):
        assert cell_text(values).tolist() == expected


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.booleans(), st.integers(-2**63, 2**63 - 1), st.text(max_size=12)))
def test_a_scalar_made_from_its_bytes_is_the_one_pyarrow_makes(value):
    # arrow_scalar builds a value's Arrow scalar from its bytes (pyarrow's own conversion
    # loads pandas): the same type and value, True never the integer 1.
    made, expected = arrow_scalar(value), pa.scalar(value)
    assert made.type == expected.type and made.as_py() == value and type(made.as_py()) is type(value)
    assert made.equals(expected)


def test_a_fraction_is_not_printed_as_a_whole_number():
    with pytest.raises((pa.ArrowInvalid, TypeError)):
        text_cells(pa.array([1.5]))


def test_the_byte_prefilter_lets_every_control_character_through_to_the_pattern():
    # refuse_breaking skips the regular expression for a column none of whose bytes
    # can start a control character: each control character, alone or inside a
    # slice of a longer column, must make the column a suspect; plain text must not.
    controls = [c for c in _every_character() if re.search(CONTROL, c)]
    assert all(may_hold_control(pa.array(["Doe", f"Jo{c}"])) for c in controls)
    assert all(may_hold_control(pa.array(["x", f"a{c}b", "y"]).slice(1, 1)) for c in controls)
    assert not may_hold_control(pa.array(["Doe, Jo", "Müller", "Łódź", "O'Neil", None]))
    # the bytes of the rows outside a slice are not read: the slice alone is clean
    assert not may_hold_control(pa.array(["a\nb", "Doe"]).slice(1, 1))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(max_size=4)), max_size=40), st.integers(0, 40), st.integers(0, 40))
def test_cells_read_from_the_buffers_are_arrows_own(values, start, length):
    # The cells' presence is read from the validity bitmap (Arrow's to_numpy would load
    # pandas): on any slice of a column with nulls anywhere, it must be Arrow's is_valid,
    # and each cell's first byte the first byte of its UTF-8 text (0 when empty or null).
    text = pa.array(values, type=pa.string()).slice(start, length)
    _, _, _, present = utf8_cells(text)
    assert present.tolist() == text.is_valid().to_pylist()
    assert first_bytes(text).tolist() == [v.encode()[0] if v else 0 for v in text.to_pylist()]


def test_lines_text_is_each_line_and_its_end():
    assert lines_text(pa.array(["a", "é", ""]), "\r\n") == "a\r\né\r\n\r\n"
    assert lines_text(pa.array(["skip", "b", "c"]).slice(1, 2), "\n") == "b\nc\n"
    assert lines_text(pa.array([], type=pa.string()), "\n") == ""


def test_a_name_the_txt_layout_cannot_hold_stops_publication_with_one_message(cli, tmp_path):
    # A 70-character name: the FIDE TXT list's name column holds 60. Validation refuses
    # such a name now (tests/test_publishable_inputs.py), so it can only be in a registry
    # taken in before: written here into the warehouse. Publication stops with one
    # message naming the list, the format, the player and what to do, and no traceback;
    # published without the format, the lists appear.
    players = write_rows(tmp_path / "p.csv", ["player_id", "name", "birth_year", "club"],
                         [[1, "Short", 1980, "A"], [2, "Bert", 1975, "A"]])
    ratings = write_rows(tmp_path / "r.csv", ["player_id", "rating"], [[1, 1800], [2, 1700]])
    games = write_rows(tmp_path / "g.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 2, "1-0"], ["2026-09-06", 2, 1, "1-0"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("ingest", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w)
    cli("validate", "--warehouse", w)
    con = duckdb.connect(str(w))
    con.execute("update player_versions set name = ? where player_id = 1", ["X" * 70])
    con.close()
    cli("rate", "--warehouse", w)
    refused = cli("publish", "--warehouse", w, "--out", out, "--format", "csv,txt", ok=False)
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert ("Error: list 2027-01, --format txt: player 1: name 'XXXXXXXXXX" in refused.output
            and "is longer than its column (60 characters): not written. Publish without --format txt"
            in refused.output)
    assert not (out / "lists" / "2027-01.txt").exists()
    # The report pages are written after every list's files: the list refused has no page either.
    assert not (out / "2027-01" / "index.html").exists()
    cli("publish", "--warehouse", w, "--out", out, "--format", "csv")
    assert pd.read_csv(out / "lists" / "2027-01.csv")["name"].tolist() == ["X" * 70, "Bert"]
    assert (out / "2027-01" / "index.html").exists()
