"""The text of CSV inputs (pipeline/formats/csv_text.py, issue 13): one encoding per
file decided on all of it, records counted independently of DuckDB, one delimiter.
Every file is written here, byte by byte; line numbers are 1-based, header = line 1."""
from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.formats.csv_text import (
    _csv_records,
    _plain_records,
    count_records,
    csv_text,
    decide_encoding,
    lf_blocks,
    utf8_blocks,
)


def counted(data: bytes, encoding: str = "utf-8"):
    return count_records(io.BytesIO(data), encoding)


# ---------------------------------------------------------------------------
# Encoding


def test_ascii_and_utf8_files_are_utf8():
    assert decide_encoding(b"player_id,name\n1,Ann\n").encoding == "utf-8"
    decided = decide_encoding("player_id,name\n1,Liège\n".encode("utf-8"))
    assert (decided.encoding, decided.refusal) == ("utf-8", None)
    assert decided.note == "encoding: UTF-8 (every line decodes)"


def test_a_byte_order_mark_is_utf8_and_removed_from_the_header():
    data = b"\xef\xbb\xbfplayer_id;name\r\n1;Ann\r\n"
    decided = decide_encoding(data)
    assert (decided.encoding, decided.bom) == ("utf-8", True)
    assert decided.note == "encoding: UTF-8 (every line decodes), its byte-order mark removed"
    c = counted(data)
    # The mark is not part of the header: ';' is found, and the one record is counted.
    assert (c.delimiter, c.records, c.lines) == (";", 1, 2)


def test_pure_latin1_is_latin1():
    # "Liège" with è as the single byte 0xE8 (Latin-1), on line 3; no line is UTF-8 with accents.
    data = b"player_id,name\n1,Ann\n2,Li\xe8ge\n"
    decided = decide_encoding(data)
    assert decided.encoding == "latin-1"
    assert decided.note == ("encoding: Latin-1 (line 3 is not UTF-8: byte 0xE8, and no line holds a "
                            "UTF-8 character)")
    assert counted(data, "latin-1").records == 2


def test_cp1252_bytes_make_it_cp1252():
    # 0x80 is € in CP1252 and a control code in Latin-1: the file is Windows', not Latin-1.
    data = b"player_id,name,note\n1,Ann,5 \x80\n2,Li\xe8ge,\n"
    decided = decide_encoding(data)
    assert decided.encoding == "cp1252"
    assert decided.note == ("encoding: CP1252 (Windows), not Latin-1: line 2 holds byte 0x80, '€' in CP1252 "
                            "and a control code in Latin-1")
    assert b"".join(utf8_blocks([data[:25], data[25:]], "cp1252")).decode("utf-8") == \
        "player_id,name,note\n1,Ann,5 €\n2,Liège,\n"


def test_a_byte_neither_latin1_nor_cp1252_text_is_refused():
    decided = decide_encoding(b"a,b\n1,\x81\n")
    assert decided.encoding is None
    assert decided.refusal == ("line 2 holds byte 0x81, a control code in Latin-1 and no character in CP1252: "
                               "not text in either; save the file as UTF-8")


def test_a_file_mixing_utf8_and_latin1_is_refused_with_a_line_of_each():
    # Line 3 has é as UTF-8 (C3 A9), line 5 has è as Latin-1 (E8): read as either, one of them
    # would be stored as mojibake ("LiÃ¨ge" or "Li?ge").
    data = b"player_id,name\n1,Ann\n2,Ren\xc3\xa9\n3,Bob\n4,Li\xe8ge\n"
    decided = decide_encoding(data)
    assert decided.encoding is None
    assert decided.refusal == ("mixes encodings: line 3 is UTF-8 ('é' written as 2 bytes), line 5 is not UTF-8 "
                               "(byte 0xE8, 'è' in Latin-1/CP1252?): save the file in one encoding")
    # A byte-order mark says UTF-8 as surely as a character does.
    assert decide_encoding(b"\xef\xbb\xbfa,b\n1,Li\xe8ge\n").refusal.startswith(
        "mixes encodings: line 1 starts with a UTF-8 byte-order mark, line 2 is not UTF-8")


def test_blocks_cut_inside_a_character_or_a_crlf_decide_the_same():
    # The file read 1, 2, 3 ... bytes at a time: é (2 bytes) and CR LF are cut between blocks.
    data = b"a,b\r\n1,Ren\xc3\xa9\r\n2,x\r\n3,Li\xe8ge\r\n"
    whole = decide_encoding(data)
    for size in range(1, 8):
        blocks = [data[i:i + size] for i in range(0, len(data), size)]
        assert decide_encoding(blocks) == whole
    assert "line 2 is UTF-8" in whole.refusal and "line 4 is not UTF-8" in whole.refusal


# ---------------------------------------------------------------------------
# Records


def test_a_hash_line_is_a_record_not_a_comment():
    c = counted(b"player_id,name\n1,Ann\n# Bob left the club\n2,Cy\n")
    # Three rows after the header, the '#' one among them (validation rejects it: not an id).
    assert (c.records, c.lines, c.hash_lines) == (3, 4, (3,))
    assert c.notes() == ["1 line starting with '#' (first: line 3) read as records, not comments"]


def test_a_quoted_field_may_hold_a_line_break_and_the_delimiter():
    c = counted(b'player_id,name,club\n1,"Doe,\nJo",Gent\n')
    # One record on lines 2-3; the comma inside the quotes is no delimiter: no delimiter problem.
    assert (c.records, c.lines, c.multiline, c.mixed_delimiter) == (1, 3, (2, 3), None)
    assert c.notes() == ["line 2: a quoted field runs to line 3 (one record over 2 lines)"]


def test_crlf_cr_and_lf_lines_count_alike():
    for end in (b"\n", b"\r\n", b"\r"):
        c = counted(end.join([b"a,b", b"1,2", b"3,4"]) + end)
        assert (c.records, c.lines) == (2, 3)


def test_lines_ending_in_two_ways_are_counted_and_named_with_the_first_of_each():
    # Issue 50: a registry saved on Windows (CR LF), two lines added on a Mac (LF): DuckDB
    # refused it "when sniffing". Lines 1-2 end CR LF, line 3 LF, line 4 CR LF.
    data = b"player_id,name\r\n1,Anne\r\n2,Bruno\n3,Cleo\r\n"
    c = counted(data)
    assert (c.records, c.lines, c.endings, c.mixed_endings) == (3, 4, (("CR LF", 1), ("LF", 3)), True)
    assert c.notes() == ["line endings mixed: CR LF (first: line 1) and LF (first: line 3); each read as a line break"]
    # The csv module's count (a quote across lines sends the file there) finds the same.
    quoted = b'player_id,name\n1,"Anne\r\nB"\r\n2,Bruno\r'
    c = counted(quoted)
    assert _plain_records([quoted], "utf-8") is None
    assert (c.records, c.endings) == (2, (("LF", 1), ("CR LF", 2), ("CR", 4)))
    # One kind throughout, or a last line without any, is no mix.
    assert not counted(b"a,b\r\n1,2\r\n3,4").mixed_endings and not counted(b"a,b\n1,2").mixed_endings


def test_lf_blocks_write_every_line_break_lf_even_cut_between_blocks():
    data = b"a,b\r\n1,2\n3,4\r5,6\r\n"
    for size in range(1, 8):
        blocks = [data[i:i + size] for i in range(0, len(data), size)]
        assert b"".join(lf_blocks(blocks)) == b"a,b\n1,2\n3,4\n5,6\n"
    assert b"".join(lf_blocks([b"a\r"])) == b"a\n"


def test_blank_lines_are_not_records_and_are_said():
    c = counted(b"a,b\n1,2\n\n3,4\n\n")
    # Lines 3 and 5 are empty; a line of delimiters only (",") would be a record of blanks.
    assert (c.records, c.blank_lines) == (2, (3, 5))
    assert c.notes() == ["2 blank lines (first: line 3) not counted as records"]
    assert counted(b"a,b\n,\n").records == 1


def test_a_hundred_thousand_rows_are_counted_right():
    # Every 1000th row has a quoted name with a line break: 100 records of 2 lines each.
    rows = [f'{i},"Name {i}\nsecond line",Gent' if i % 1000 == 0 else f"{i},Name {i},Gent" for i in range(100_000)]
    data = ("player_id,name,club\n" + "\n".join(rows) + "\n").encode("utf-8")
    c = counted(data)
    assert (c.records, c.lines) == (100_000, 1 + 100_000 + 100)
    assert c.multiline == (2, 3)  # row 0 is the first with a break: lines 2-3


# ---------------------------------------------------------------------------
# Delimiter


def test_tabs_then_semicolons_name_the_first_line_that_differs():
    header = "player_id\tname\tclub"
    rows = [f"{i}\tName {i}\tGent" for i in range(1, 11)]  # lines 2-11
    data = "\n".join([header, *rows, "11;Name 11;Gent", "12;Name 12;Gent"]).encode("utf-8") + b"\n"
    c = counted(data)
    assert c.delimiter == "\t" and c.records == 12
    assert c.mixed_delimiter == "line 12 uses ';' where the header uses a tab: one delimiter per file"


def test_a_short_row_is_not_a_delimiter_problem():
    # "3,x" has 2 fields of 3 and no other delimiter: a ragged row, validation's to reject.
    assert counted(b"a,b,c\n1,2,3\n3,x\n").mixed_delimiter is None
    # "4;5;6" splits into the header's 3 fields with ';': another delimiter.
    assert counted(b"a,b,c\n1,2,3\n4;5;6\n").mixed_delimiter == \
        "line 3 uses ';' where the header uses ',': one delimiter per file"


def test_a_one_column_file_has_no_delimiter_to_disagree_with():
    c = counted(b"player_id\n1\n2\n")
    assert (c.delimiter, c.records, c.mixed_delimiter) == (None, 2, None)


# ---------------------------------------------------------------------------
# Both, on a file


@pytest.mark.parametrize("data, encoding, records, refusal", [
    (b"a;b\n1;Li\xe8ge\n", "latin-1", 1, None),
    (b"a,b\n1,Ren\xc3\xa9\n2,Li\xe8ge\n", None, None, "mixes encodings: line 2 is UTF-8"),
    (b"a\tb\n1\t2\n3|4\n", "utf-8", 2, "line 3 uses '|' where the header uses a tab: one delimiter per file"),
])
def test_csv_text_of_a_file(tmp_path, data, encoding, records, refusal):
    path = tmp_path / "input.csv"
    path.write_bytes(data)
    got = csv_text(path)
    assert (got.encoding, got.records) == (encoding, records)
    assert (got.refusal or "").startswith(refusal or "") and (got.refusal is None) == (refusal is None)
    assert got.notes[0].startswith("encoding: ")


# ---------------------------------------------------------------------------
# The array count against the csv module's


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([b"a", b"1", b",", b";", b"\t", b"|", b"#", b"\n", b"\r\n", b" ", b"\xc3\xa9"]),
                max_size=60),
       st.integers(min_value=1, max_value=7))
def test_the_array_count_is_the_csv_modules_wherever_it_counts(parts, block):
    # Any file of these bytes (no quote, no lone CR: the files the arrays count), cut in
    # blocks of any size: the same records, lines, blank and '#' lines, delimiter and
    # first line with another delimiter as Python's csv module finds.
    data = b"".join(parts)
    blocks = [data[i:i + block] for i in range(0, len(data), block)]
    assert _plain_records(blocks, "utf-8") == _csv_records(io.BytesIO(data), "utf-8")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([b"a", b"1", b",", b";", b"\t", b"#", b"\n", b"\r\n", b" ", b"\xc3\xa9",
                                 b'"', b'""', b',"', b'",', b'"\n']), max_size=60),
       st.integers(min_value=1, max_value=7))
def test_with_quotes_the_array_count_is_the_csv_modules_or_none(parts, block):
    # Quotes anywhere, well placed or not: where the arrays count (quotes around whole
    # fields of one line), they find what the csv module finds; elsewhere they give up.
    data = b"".join(parts)
    blocks = [data[i:i + block] for i in range(0, len(data), block)]
    counted_by_arrays = _plain_records(blocks, "utf-8")
    assert counted_by_arrays is None or counted_by_arrays == _csv_records(io.BytesIO(data), "utf-8")


def test_quoted_fields_on_one_line_are_counted_by_the_arrays():
    # An event name with the delimiter in it, a doubled quote, an empty quoted field.
    data = b'date,event,round\n2026-01-01,"Big open, Brussels",1\n2026-01-02,"The ""A"" group",""\n'
    assert _plain_records([data], "utf-8") == _csv_records(io.BytesIO(data), "utf-8")
    assert _plain_records([data], "utf-8").records == 2
    # A row using ';' where the header uses ',' is still named (a quoted ',' is no delimiter).
    mixed = b'a,b\n"x,y",2\n1;2\n'
    assert _plain_records([mixed], "utf-8").mixed_delimiter == _csv_records(io.BytesIO(mixed), "utf-8").mixed_delimiter


def test_a_quote_across_lines_or_inside_a_field_or_a_lone_cr_leaves_the_count_to_the_csv_module():
    assert _plain_records([b'a,b\n1,"x\ny"\n'], "utf-8") is None
    assert _plain_records([b'a,b\n1,x"y"\n'], "utf-8") is None
    assert _plain_records([b'a,b\n1,"x"y\n'], "utf-8") is None
    assert _plain_records([b"a,b\r1,2\r"], "utf-8") is None
    # Through count_records, such files are counted all the same.
    assert counted(b'a,b\n1,"x\ny"\n').records == 1
