"""The text of a CSV input, judged before DuckDB reads it: one encoding for the
whole file, one delimiter, and a count of its records that does not come from
DuckDB's sniffer (which may take `#` lines for comments, or skip lines, unsaid).

Pure functions over bytes, or over a file read in blocks (inputs reach 275 MB:
the file is read twice, once for the encoding and once for the records, and no
more than a block and one record are held). Line numbers are 1-based physical
lines (a line ends at LF, CR LF or CR); the header is line 1.

The rules:

- **Encoding**, decided on the whole file: UTF-8 when every line decodes (a
  UTF-8 byte-order mark is removed); else, when no line holds a valid UTF-8
  multi-byte character, Latin-1, or CP1252 when bytes 0x80-0x9F appear (they
  are Windows' € ‚ „ … œ ’ there, control codes in Latin-1); else the file
  mixes the two and is refused, with the first line of each kind. Never read
  as one when it is the other (`LiÃ¨ge`). A byte CP1252 leaves undefined refuses
  the file wherever it is, naming the code page that reads its line as letters.
  The encoding a UTF-16 or UTF-32 byte-order mark says, or the officer names
  (`--encoding`, pipeline/formats/encodings.py), is taken instead, and the whole
  file must decode in it. Either way the lines whose letters look misread (a
  code page read as another: `W¹sowicz`, pipeline/formats/misread.py) are found,
  for a warning.
- **Records**, counted with Python's csv module (quote `"`, doubled inside a
  field; a quoted field may hold delimiters and line breaks): every row after
  the header is a record, except blank lines (nothing between two line
  breaks), which are counted and said. A line starting with `#` is a record
  like any other (validation rejects it as a bad row), never a comment: a
  comment dropped would be a row read and never accounted for.
- **Too long**: a record of one line holding a field beyond the csv module's
  limit (131,072 characters), or longer than DuckDB reads (2,000,000 bytes), is
  counted and set aside with its line (`oversized`): ingest rejects that row and
  takes in the others. The header, or such a record over several lines (a quote
  left open), refuses the file, naming the line.
- **Line endings**: each line break counts alike (LF, CR LF, CR); a file mixing
  them (lines edited in another program) is read, from a copy where each is LF
  (DuckDB's reader takes one kind a file), and said with the first line of each.
- **Delimiter**: the header's (the most frequent of `,` `;` tab `|` outside
  quotes). A record that does not split into the header's fields with it but
  does with another, or has none of it but another, uses another delimiter:
  the first such line is named, and the file should be refused.
"""
from __future__ import annotations

import codecs
import csv
import io
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from pipeline.formats.misread import MARK, NAMES, Misread, best_reading, merged, misread_lines, misread_warning
from pipeline.formats.sniff import LINE_BREAK
from pipeline.formats.text_codecs import ascii_safe, bom_codec, shown, undecodable_refusal

BLOCK = 1 << 20  # bytes read at a time
BOM = codecs.BOM_UTF8
DELIMITERS = (",", ";", "\t", "|")  # in this order when the header has as many of two
DELIMITER_NAMES = {",": "','", ";": "';'", "\t": "a tab", "|": "'|'"}
# Bytes CP1252 leaves undefined: neither Latin-1 text (control codes) nor CP1252.
UNDEFINED = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")
C1 = range(0x80, 0xA0)
WORDS = re.compile(rb"[^\s,;|\"]+")


@dataclass(frozen=True)
class EncodingDecision:
    encoding: str | None  # the codec for the whole file ("utf-8", "latin-1", "cp1252", or one named); None: refused
    note: str  # what was decided and why, for the ingest report
    refusal: str | None = None  # why the file cannot be read as text in one encoding
    bom: bool = False  # a UTF-8 byte-order mark starts the file (the codec "utf-8-sig" removes it)
    misread: Misread | None = None  # the lines whose letters look misread in this encoding
    given: bool = False  # named with --encoding, not decided

    @property
    def warning(self) -> str | None:
        return misread_warning(self.misread, self.encoding, self.given) if self.misread and self.encoding else None


@dataclass(frozen=True)
class CsvRecords:
    delimiter: str | None  # the header's; None: the header has one column
    records: int  # rows after the header, blank lines not counted
    lines: int  # physical lines, the header's included
    blank_lines: tuple[int, ...]  # their line numbers (not records)
    hash_lines: tuple[int, ...]  # records whose line starts with '#' (records, not comments)
    multiline: tuple[int, int] | None  # (first, last) line of the first record spanning several lines
    mixed_delimiter: str | None  # the first line using another delimiter than the header's, as a message
    # Records too long to read, each one line: (record number, line, why), rejected with
    # that reason by ingest rather than refusing the file.
    oversized: tuple[tuple[int, int, str], ...] = ()
    # Each kind of line break the file uses ("CR LF", "LF", "CR") with its first line, in line order.
    endings: tuple[tuple[str, int], ...] = ()

    @property
    def mixed_endings(self) -> bool:
        return len(self.endings) > 1

    def notes(self) -> list[str]:
        """What a report should say about the file's lines besides the count."""
        said = []
        if self.blank_lines:
            said.append(f"{_count(len(self.blank_lines), 'blank line')} (first: line {self.blank_lines[0]}) "
                        "not counted as records")
        if self.hash_lines:
            said.append(f"{_count(len(self.hash_lines), 'line')} starting with '#' (first: line "
                        f"{self.hash_lines[0]}) read as records, not comments")
        if self.multiline:
            first, last = self.multiline
            said.append(f"line {first}: a quoted field runs to line {last} (one record over {last - first + 1} lines)")
        if self.oversized:
            said.append(f"{_count(len(self.oversized), 'record')} too long to read (first: line "
                        f"{self.oversized[0][1]}), rejected")
        if self.mixed_endings:
            kinds = " and ".join(f"{kind} (first: line {line})" for kind, line in self.endings)
            said.append(f"line endings mixed: {kinds}; each read as a line break")
        return said


@dataclass(frozen=True)
class CsvText:
    encoding: str | None  # as EncodingDecision; None when refused
    delimiter: str | None
    records: int | None  # None when refused
    notes: tuple[str, ...]  # the encoding used and what the lines hold, for the report
    refusal: str | None  # why the file should not be read; None: read it
    oversized: tuple[tuple[int, int, str], ...] = ()  # as CsvRecords': records to reject, not to read
    multiline: bool = False  # a record spans several lines (a quoted line break)
    mixed_endings: bool = False  # lines end in more than one way: read from a copy whose lines end LF
    warning: str | None = None  # letters a wrong code page gives (EncodingDecision.warning)


# ---------------------------------------------------------------------------
# Encoding


def decide_encoding(data: bytes | Iterable[bytes]) -> EncodingDecision:
    """The one encoding of a file, from all of its bytes (or its blocks, in order)."""
    blocks = [data] if isinstance(data, bytes | bytearray) else data
    line = 0
    first_utf8: tuple[int, str] | None = None  # line and its first non-ASCII character
    first_other: tuple[int, int] | None = None  # line and its first byte that is not UTF-8
    first_c1: tuple[int, int] | None = None  # line and byte 0x80-0x9F in a line that is not UTF-8
    undefined: tuple[int, int, bytes] | None = None  # line, byte and text of the first byte CP1252 leaves undefined
    misread: Misread | None = None  # lines whose letters look misread (those not UTF-8 as CP1252 reads them)
    first_bom = False
    for chunk in _line_chunks(blocks):
        if first_utf8 and first_other:
            break  # both kinds seen: refused whatever follows
        if line == 0 and chunk.startswith(BOM):  # UTF-8's own mark: evidence for UTF-8 like a character
            chunk, first_bom, first_utf8 = chunk[len(BOM):], True, (1, "\ufeff")
        lines = chunk.splitlines()
        if chunk.isascii():
            line += len(lines)  # most blocks: nothing new to learn, said at C speed
            continue
        if first_utf8 not in (None, (1, "\ufeff")) and (text := _utf8(chunk)) is not None:
            misread = merged(misread, _misread(text, line))
            line += len(lines)
            continue
        first, kinds = line, set()  # the chunk's first line, and whether its lines are UTF-8 or not
        for text in lines:
            line += 1
            if text.isascii():
                continue
            try:
                decoded = text.decode("utf-8")
            except UnicodeDecodeError as err:
                kinds.add("other")
                first_other = first_other or (line, text[err.start])
                if first_c1 is None and (c1 := next((b for b in text if b in C1), None)) is not None:
                    first_c1 = (line, c1)
                if undefined is None and (byte := UNDEFINED.search(text)):
                    undefined = (line, byte[0][0], text)
                continue
            kinds.add("utf-8")
            if first_utf8 is None or first_utf8[1] == "\ufeff":  # a character says more than the mark
                first_utf8 = (line, next(c for c in decoded if not c.isascii()))
        if len(kinds) == 1:  # a chunk of both kinds refuses the file: nothing to warn of
            text = chunk.decode("utf-8") if kinds == {"utf-8"} else chunk.decode("cp1252", errors="replace")
            misread = merged(misread, _misread(text, first))
    return _decision(first_utf8, first_other, first_c1, undefined, first_bom, misread)


def _misread(text: str, before: int) -> Misread | None:
    """The lines of a chunk's text whose letters look misread, `before` lines before it: one
    search of the whole text, the lines numbered only when it finds one."""
    return misread_lines(LINE_BREAK.split(text), before + 1) if MARK.search(text) else None


def _utf8(chunk: bytes) -> str | None:
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError:
        return None


def file_encoding(path: str | Path, given: str | None = None) -> EncodingDecision:
    """The encoding of a file: `given` (a codec Python knows), or the one its UTF-16 or UTF-32
    byte-order mark says, the whole file decoded in it; else as `decide_encoding` decides."""
    with open(path, "rb") as fh:
        name = given or bom_codec(fh.read(4))
        fh.seek(0)
        if name is not None:
            return named_encoding(_blocks(fh), name, given is not None)
        return decide_encoding(_blocks(fh))


def named_encoding(blocks: Iterable[bytes], name: str, given: bool) -> EncodingDecision:
    """The file's blocks decoded in `name`, as given with --encoding or marked: refused at
    the first byte that is no character there, naming its line."""
    decoder = codecs.getincrementaldecoder(name)()
    line, rest, misread = 0, "", None  # the lines read whole, the text of the line begun
    for block in itertools.chain(blocks, [b""]):  # the empty block last: the decoder's end
        try:
            text = rest + decoder.decode(block, final=not block)
        except UnicodeDecodeError as err:
            at = line + len(LINE_BREAK.split(rest + err.object[:err.start].decode(name, errors="replace")))
            return EncodingDecision(None, f"encoding: {shown(name)}", refusal=undecodable_refusal(
                name, at, err.object[err.start], given))
        if block and text.endswith("\r"):  # the first half of a CR LF, maybe: kept for the next block
            text, carry = text[:-1], "\r"
        else:
            carry = ""
        lines = LINE_BREAK.split(text)
        rest = lines.pop() + carry if block else ""
        if MARK.search(text):
            misread = merged(misread, misread_lines(lines, line + 1))
        line += len(lines)
    how = "as given with --encoding" if given else "its byte-order mark"
    return EncodingDecision(name, f"encoding: {shown(name)} ({how})", misread=misread, given=given)


def _decision(first_utf8: tuple[int, str] | None, first_other: tuple[int, int] | None,
              first_c1: tuple[int, int] | None, undefined: tuple[int, int, bytes] | None, bom: bool,
              misread: Misread | None) -> EncodingDecision:
    if first_other is None:
        if first_utf8 is None:
            return EncodingDecision("utf-8", "encoding: ASCII only, read as UTF-8")
        return EncodingDecision("utf-8", "encoding: UTF-8 (every line decodes)"
                                + (", its byte-order mark removed" if bom else ""), bom=bom, misread=misread)
    other_line, other_byte = first_other
    if first_utf8 is not None:
        utf8_line, char = first_utf8
        what = "starts with a UTF-8 byte-order mark" if char == "\ufeff" else \
            f"is UTF-8 ({char!r} written as {len(char.encode())} bytes)"
        return EncodingDecision(None, "encoding: refused", refusal=(
            f"mixes encodings: line {utf8_line} {what}, line {other_line} is not UTF-8 "
            f"(byte 0x{other_byte:02X}, {bytes([other_byte]).decode('cp1252', 'replace')!r} in Latin-1/CP1252?): "
            "save the file in one encoding"))
    if undefined is not None:
        return EncodingDecision(None, "encoding: refused", refusal=_undefined_refusal(*undefined))
    if first_c1 is None:
        return EncodingDecision("latin-1", f"encoding: Latin-1 (line {other_line} is not UTF-8: byte "
                                           f"0x{other_byte:02X}, and no line holds a UTF-8 character)",
                                misread=misread)
    c1_line, c1 = first_c1
    return EncodingDecision("cp1252", f"encoding: CP1252 (Windows), not Latin-1: line {c1_line} holds byte "
                                      f"0x{c1:02X}, {bytes([c1]).decode('cp1252')!r} in CP1252 and a control "
                                      "code in Latin-1", misread=misread)


def _undefined_refusal(line: int, byte: int, text: bytes) -> str:
    """A byte that is text neither in Latin-1 nor in CP1252, and the code page that reads
    its line's words as letters, when one does (Czech ť is 9D in CP1250)."""
    said = (f"line {line} holds byte 0x{byte:02X}, a control code in Latin-1 and no character in CP1252: "
            "not text in either")
    words = [w for w in WORDS.findall(text) if not w.isascii()][:3]
    guess = best_reading(words, "cp1252") if words else None
    if guess is None:
        return said + "; save the file as UTF-8"
    name, read = guess
    return (said + f"; read as {NAMES[name]} its words are {', '.join(map(repr, read))}: if so, give --encoding "
            f"{name}, or save the file as UTF-8")


def _blocks(fh: BinaryIO) -> Iterator[bytes]:
    return iter(lambda: fh.read(BLOCK), b"")


def _line_chunks(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """The bytes again, cut only after a line break, so that no line (and no
    multi-byte character) is split between two chunks."""
    rest = b""
    for block in blocks:
        data = rest + block
        # A CR at the very end may be the first half of CR LF: kept for the next block.
        cut = max(data.rfind(b"\n"), data.rfind(b"\r", 0, len(data) - 1)) + 1
        if cut:
            yield data[:cut]
        rest = data[cut:]
    if rest:
        yield rest


def lf_blocks(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """The blocks (ASCII-compatible bytes) with every line break, CR LF or CR, written LF:
    one line break for each, so that the lines keep their numbers. A CR at the end of a
    block waits for the next, whose first byte may make it a CR LF."""
    pending = b""
    for block in blocks:
        data = pending + block
        pending = b"\r" if data.endswith(b"\r") else b""
        yield data[:len(data) - len(pending)].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if pending:
        yield b"\n"


def utf8_blocks(blocks: Iterable[bytes], encoding: str) -> Iterator[bytes]:
    """The blocks re-encoded as UTF-8 (without a byte-order mark), for a reader
    that knows no CP1252 nor any code page (DuckDB's CSV reader takes utf-8 and latin-1 only)."""
    decoder = codecs.getincrementaldecoder("utf-8-sig" if encoding == "utf-8" else encoding)()
    first = True
    for block in blocks:
        text = decoder.decode(block)
        if first and text:  # a mark the codec keeps (utf-16-le named with one): no character of the header
            text, first = text.removeprefix("\ufeff"), False
        yield text.encode("utf-8")
    yield decoder.decode(b"", final=True).encode("utf-8")


# ---------------------------------------------------------------------------
# Records and delimiter


def count_records(stream: BinaryIO, encoding: str) -> CsvRecords:
    """The records of a CSV file open for reading in binary, decoded with `encoding`
    (as `decide_encoding` chose it), counted as the module's rules say: by arrays
    when no byte of the file needs the csv module, else by the csv module."""
    start = stream.tell()
    plain = _plain_records(_blocks(stream), encoding) if ascii_safe(encoding) else None
    if plain is not None:
        return plain
    stream.seek(start)
    return _csv_records(stream, encoding)


def _plain_records(blocks: Iterable[bytes], encoding: str) -> CsvRecords | None:
    """The same counts as `_csv_records`, at array speed, for a file with no NUL, no
    lone CR, no line longer than a csv field may be, and quotes only around whole
    fields of one line (most inputs: "Open, Brussels"): there a record is one line,
    and its fields are its delimiters outside quotes plus one. None as soon as a
    chunk breaks one of those: the csv module decides the file. Python's csv calls
    Python once a line; this reads a chunk's lines as arrays (bench/README.md)."""
    line = 0  # physical lines before the chunk
    delimiter: str | None = None
    header_fields = records = 0
    header_seen = False
    blank: list[int] = []
    hashes: list[int] = []
    mixed: str | None = None
    endings: dict[str, int] = {}
    limit = csv.field_size_limit()
    for k, chunk in enumerate(_line_chunks(blocks)):
        if k == 0 and encoding == "utf-8" and chunk.startswith(BOM):
            chunk = chunk[len(BOM):]
        if b"\x00" in chunk or (b"\r" in chunk and chunk.count(b"\r") != chunk.count(b"\r\n")):
            return None
        data = np.frombuffer(chunk, np.uint8)
        ends = np.flatnonzero(data == 10)
        if chunk and chunk[-1:] != b"\n":  # the file's last line, without its line break
            ends = np.append(ends, len(chunk))
        starts = np.concatenate(([0], ends[:-1] + 1))
        content = ends - starts - (data[np.maximum(ends - 1, 0)] == 13) * (ends > starts)  # CR LF: the CR is no content
        if (content > limit).any():
            return None
        numbers = line + 1 + np.arange(len(ends))
        # The lines that end here in CR LF, and in LF (no lone CR: refused above; the last may end in none).
        broken = ends < len(data)
        crlf = broken & (data[np.maximum(ends - 1, 0)] == 13) & (ends > starts)
        for kind, these in (("CR LF", crlf), ("LF", broken & ~crlf)):
            if kind not in endings and these.any():
                endings[kind] = int(numbers[np.argmax(these)])
        filled = content > 0
        blank.extend(numbers[~filled].tolist())
        rows = np.flatnonzero(filled)
        header = None
        if not header_seen and len(rows):
            header, rows = rows[0], rows[1:]
            delimiter = _header_delimiter(chunk[starts[header]:ends[header]].decode(encoding))
            header_seen = True
        separator = ord(delimiter or ",")  # the csv module's, whatever the header
        quotes = np.flatnonzero(data == QUOTE)
        if len(quotes) and not _whole_fields_quoted(data, quotes, starts, ends, separator):
            return None
        at = np.flatnonzero(data == separator) if delimiter else np.empty(0, dtype=np.int64)
        if len(quotes):
            at = at[np.searchsorted(quotes, at) % 2 == 0]  # the delimiters outside quotes
        # A line's fields: its delimiters plus one. No delimiter sits on a line break, so
        # the delimiters before a line's start are those before the previous line's end.
        before_end = np.searchsorted(at, ends)
        line_fields = np.diff(before_end, prepend=0) + 1
        if header is not None:
            header_fields = int(line_fields[header])
        records += len(rows)
        hashes.extend(numbers[rows[data[starts[rows]] == ord("#")]].tolist())
        if mixed is None and delimiter:
            fields = line_fields[rows]
            for i in np.flatnonzero(fields != header_fields):
                r = rows[i]
                raw = chunk[starts[r]:ends[r] + 1].decode(encoding)
                mixed = _other_delimiter(raw, int(numbers[r]), delimiter, int(fields[i]), header_fields)
                if mixed is not None:
                    break
        line += len(ends)
    return CsvRecords(delimiter, records, line, tuple(blank), tuple(hashes), None, mixed, (), _in_order(endings))


def _in_order(endings: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(endings.items(), key=lambda kind_line: kind_line[1]))


def _ending(line: str) -> str | None:
    """How a line read with newline='' ends."""
    return "CR LF" if line.endswith("\r\n") else "LF" if line.endswith("\n") else "CR" if line.endswith("\r") else None


QUOTE = ord('"')


def _whole_fields_quoted(data: np.ndarray, quotes: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                         separator: int) -> bool:
    """Whether every quote of a chunk belongs to a quoted field as the csv module reads
    it, on one line: an even number a line, taken in pairs, each pair opening at a
    field's start (the line's start, after a delimiter) and closing before a delimiter
    or the line's end, or doubled (a quote in the field: the next pair opens right
    after). Then a byte is inside a quoted field when an odd number of quotes precede it."""
    line = np.searchsorted(ends, quotes)
    if (np.bincount(line, minlength=len(ends)) % 2).any():
        return False
    opens, closes = quotes[0::2], quotes[1::2]
    doubled = opens[1:] == closes[:-1] + 1
    after = data[np.minimum(closes + 1, len(data) - 1)]
    open_ok = (opens == starts[line[0::2]]) | (data[np.maximum(opens - 1, 0)] == separator) \
        | np.concatenate(([False], doubled))
    close_ok = (closes + 1 == len(data)) | (after == separator) | (after == 10) | (after == 13) \
        | np.concatenate((doubled, [False]))
    return bool(open_ok.all() and close_ok.all())


def _csv_records(stream: BinaryIO, encoding: str) -> CsvRecords:
    """The records counted by Python's csv module (quoted fields, line breaks in them)."""
    text = io.TextIOWrapper(stream, encoding="utf-8-sig" if encoding == "utf-8" else encoding, newline="")
    peeked: list[str] = []
    for line in text:
        peeked.append(line)
        if line.strip("\r\n"):
            break
    delimiter = _header_delimiter(peeked[-1] if peeked else "")
    consumed: list[str] = []

    def lines() -> Iterator[str]:
        for line in _chained(peeked, text):
            consumed.append(line)
            yield line

    source = lines()

    def reader_from_here():
        return csv.reader(source, delimiter=delimiter or ",", quotechar='"', doublequote=True, strict=False)

    reader, before = reader_from_here(), 0  # `before`: the lines read by the readers before this one
    header_fields = None
    records = 0
    blank: list[int] = []
    hashes: list[int] = []
    oversized: list[tuple[int, int, str]] = []
    endings: dict[str, int] = {}
    multiline = mixed = None
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            if "field larger than field limit" not in str(err):
                raise
            first, last = before + reader.line_num - len(consumed) + 1, before + reader.line_num
            if last > first or header_fields is None:  # a quote left open, or the header: no record to skip
                raise FieldTooLong(first, last, csv.field_size_limit()) from err
            # The reader gave up inside this line, which it has read whole: the next
            # reader starts at the next line, and the record is set aside, counted.
            records += 1
            oversized.append((records, first, f"line {first} holds a field longer than "
                                              f"{csv.field_size_limit():,} characters: not read"))
            consumed[:] = []
            reader, before = reader_from_here(), last
            continue
        first, last = before + reader.line_num - len(consumed) + 1, before + reader.line_num
        if len(endings) < 3:  # every kind seen: nothing more to learn
            for k, text_line in enumerate(consumed):
                if (kind := _ending(text_line)) is not None and kind not in endings:
                    endings[kind] = first + k
        raw, consumed[:] = "".join(consumed), []
        if not row:
            blank.append(first)
            continue
        size = len(raw.encode("utf-8")) if len(raw) > MAX_RECORD_BYTES // 4 else 0
        if size > MAX_RECORD_BYTES:
            if last > first or header_fields is None:
                raise RecordTooLong(first, last, size)
            records += 1
            oversized.append((records, first, f"line {first} is a record of {size:,} bytes, beyond the "
                                              f"{MAX_RECORD_BYTES:,} a record may hold: not read"))
            continue
        if header_fields is None:
            header_fields = len(row)
            continue
        records += 1
        if raw.startswith("#"):
            hashes.append(first)
        if multiline is None and last > first:
            multiline = (first, last)
        if mixed is None and delimiter and len(row) != header_fields:
            mixed = _other_delimiter(raw, first, delimiter, len(row), header_fields)
    text.detach()
    return CsvRecords(delimiter, records, before + reader.line_num, tuple(blank), tuple(hashes), multiline, mixed,
                      tuple(oversized), _in_order(endings))


class FieldTooLong(csv.Error):
    """A field beyond the csv module's limit, in a record that cannot be skipped (the
    header, or a record over several lines: a quote left open)."""

    def __init__(self, line: int, last: int, limit: int):
        where = f"line {line}" + (f" (a quoted field running on to line {last})" if last > line else "")
        super().__init__(f"{where}: a field longer than {limit:,} characters, beyond what a CSV input "
                         "may hold (no rating input's cell is that long: a quote left open, or another file?); "
                         "nothing of the file is taken in")


# DuckDB's CSV reader (its max_line_size, in UTF-8 bytes) refuses a longer record, and
# its message numbers the line from the buffer it reads, not from the file.
MAX_RECORD_BYTES = 2_000_000


class RecordTooLong(csv.Error):
    """A record longer than DuckDB reads, that cannot be skipped, starting at `line`."""

    def __init__(self, line: int, last: int, size: int):
        where = f"line {line}" + (f" (to line {last})" if last > line else "")
        super().__init__(f"{where}: a record of {size:,} bytes, beyond the {MAX_RECORD_BYTES:,} a CSV input's "
                         "record may hold; nothing of the file is taken in")


def _chained(peeked: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from peeked
    yield from rest


def _header_delimiter(header: str) -> str | None:
    """The candidate that appears most often outside quotes; None when none does."""
    outside = "".join(part for k, part in enumerate(header.split('"')) if k % 2 == 0)
    counts = {d: outside.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])  # the first of the most frequent
    return best if counts[best] else None


def _other_delimiter(raw: str, line: int, delimiter: str, fields: int, header_fields: int) -> str | None:
    """The message for a record that uses another delimiter than the header's, or
    None when it is only short or long (validation's to reject)."""
    for other in DELIMITERS:
        if other == delimiter:
            continue
        split = len(next(csv.reader(io.StringIO(raw, newline=""), delimiter=other, strict=False), []))
        if split == header_fields or (fields == 1 and split > 1):
            return (f"line {line} uses {DELIMITER_NAMES[other]} where the header uses "
                    f"{DELIMITER_NAMES[delimiter]}: one delimiter per file")
    return None


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------
# Both, for ingest


def csv_text(path: str | Path, encoding: str | None = None) -> CsvText:
    """What ingest needs to know of a CSV file before DuckDB reads it: its encoding (`encoding`,
    a codec named with --encoding, or decided), delimiter and number of records, what to say,
    and whether to refuse it."""
    decided = file_encoding(path, encoding)
    if decided.encoding is None:
        return CsvText(None, None, None, (decided.note,), decided.refusal)
    try:
        with open(path, "rb") as fh:
            counted = count_records(fh, decided.encoding)
    except (FieldTooLong, RecordTooLong) as err:
        return CsvText(decided.encoding, None, None, (decided.note,), str(err))
    except csv.Error as err:
        return CsvText(decided.encoding, None, None, (decided.note,), f"not a CSV table: {err}")
    return CsvText(decided.encoding, counted.delimiter, counted.records, (decided.note, *counted.notes()),
                   counted.mixed_delimiter, counted.oversized, counted.multiline is not None, counted.mixed_endings,
                   decided.warning)
