"""The one place a file's bytes become text (issue 51), above every reader: the CSV tables
(pipeline/formats/csv_text.py, then DuckDB), the tournament reports (TRF and SWAR,
OpenGotha, EGD, FFG, AGA, pairgoth) and the first bytes each file is recognised by.

A file is read in the encoding the officer names, `--encoding NAME` (every file of the
command) or `--encoding FILE=NAME` (that file), any text codec Python knows; else in the
one its bytes say: a UTF-16 or UTF-32 byte-order mark ("Unicode" in Notepad), an XML
declaration's, or UTF-8, Latin-1 or CP1252 as csv_text.decide_encoding decides on the
whole file. A file that does not decode in the encoding named is refused, naming the line
(its lines are still read, and rejected with the reason: nothing is lost); every decoding
is checked for the letters a wrong code page gives (pipeline/formats/misread.py), and a
warning names the encoding that reads them as letters.
"""
from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.formats.csv_text import decide_encoding
from pipeline.formats.misread import misread_lines, misread_warning
from pipeline.formats.sniff import LINE_BREAK
from pipeline.formats.text_codecs import ascii_safe, bom_codec, codec, shown, undecodable_refusal

XML_DECLARATION = re.compile(rb"\s*<\?xml[^>]*\bencoding\s*=\s*[\"']([A-Za-z0-9._:-]+)[\"']")


def xml_declared(head: bytes) -> str | None:
    """The encoding an XML declaration names, when Python knows it."""
    found = XML_DECLARATION.match(head.removeprefix(codecs.BOM_UTF8))
    try:
        return codec(found[1].decode("ascii")) if found else None
    except ValueError:
        return None


@dataclass(frozen=True)
class FileText:
    """A file's text, as its reader takes it."""

    text: str  # its byte-order mark removed
    encoding: str  # the codec it was read with
    note: str  # what was decided, for the ingest report
    refusal: str | None = None  # why the file is not text in one encoding: its rows are rejected with it
    warning: str | None = None  # letters a wrong code page gives (misread.py)
    said: bool = False  # not UTF-8 or ASCII: the report says the encoding

    @property
    def notes(self) -> tuple[str, ...]:
        return (self.note,) if self.said else ()


def decoded(data: bytes, given: str | None = None, single_byte: str = "latin-1", xml: bool = False) -> FileText:
    """A file's bytes as text: in `given` (--encoding), else as a byte-order mark says, else
    (`xml`) as the XML declaration says, else as decide_encoding decides on the whole file,
    its Latin-1 read as `single_byte` (OpenGotha's text exports are ISO-8859-15). A file
    refused is read all the same, its undecodable bytes as U+FFFD, so that its lines are
    numbered and rejected, never lost."""
    if given is not None:
        name = codec(given)
        return _named(data, name, f"encoding: {shown(name)}, as given with --encoding", True)
    if (marked := bom_codec(data[:4])) is not None:
        return _named(data, marked, f"encoding: {shown(marked)} (its byte-order mark)", False)
    if xml and (declared := xml_declared(data[:300])) not in (None, "utf-8"):
        return _named(data, declared, f"encoding: {shown(declared)}, as its XML declaration says", False)
    decided = decide_encoding(data)
    if decided.encoding is None:
        return FileText(data.decode(single_byte).removeprefix("\ufeff"), single_byte, decided.note, decided.refusal)
    name = single_byte if decided.encoding == "latin-1" else decided.encoding
    note = decided.note.replace("Latin-1", shown(name), 1) if name != decided.encoding else decided.note
    text = data.decode(name).removeprefix("\ufeff")
    return FileText(text, name, note, None, _warning(text, name, False), name != "utf-8")


def _named(data: bytes, name: str, note: str, given: bool) -> FileText:
    try:
        text = data.decode(name).removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        line = len(LINE_BREAK.split(data[:err.start].decode(name, errors="replace")))
        return FileText(data.decode(name, errors="replace").removeprefix("\ufeff"), name, note,
                        undecodable_refusal(name, line, data[err.start], given), None, True)
    return FileText(text, name, note, None, _warning(text, name, given), True)


def _warning(text: str, name: str, given: bool) -> str | None:
    found = misread_lines(LINE_BREAK.split(text)) if not text.isascii() else None
    return misread_warning(found, name, given) if found else None


def file_text(path: str | Path, given: str | None = None, single_byte: str = "latin-1", xml: bool = False
              ) -> FileText:
    return decoded(Path(path).read_bytes(), given, single_byte, xml)


def file_head(path: str | Path, given: str | None = None, size: int = 8192) -> bytes:
    """A file's first bytes as the recognisers read them (pipeline/formats/sniff.py): as they
    are, or as UTF-8 when its encoding, given or marked, is one whose ASCII bytes are not
    ASCII (UTF-16, UTF-32), so that a TRF saved as "Unicode" is recognised as a TRF."""
    with open(path, "rb") as fh:
        head = fh.read(size)
    name = codec(given) if given is not None else bom_codec(head)
    if name is None or ascii_safe(name):
        return head
    return head.decode(name, errors="ignore").removeprefix("\ufeff").encode("utf-8")
