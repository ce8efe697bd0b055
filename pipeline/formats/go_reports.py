"""A Go tournament report of any format read here (OpenGotha, EGD, FFG, AGA, pairgoth),
recognised by its first bytes and decoded once (pipeline/formats/encodings.py): the one
place that knows every Go reader, above them all."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pipeline.formats.aga import aga_from_text
from pipeline.formats.encodings import FileText, file_head, file_text
from pipeline.formats.ffg_tou import ffg_from_text
from pipeline.formats.go_files import GoTournament, egd_from_text, opengotha_from_xml
from pipeline.formats.pairgoth import pairgoth_from_json
from pipeline.formats.sniff import go_report_format, looks_like_opengotha

FROM_TEXT = {"ffg": ffg_from_text, "aga": aga_from_text, "pairgoth": pairgoth_from_json,
             "opengotha": opengotha_from_xml, "egd": egd_from_text}
# OpenGotha writes its text exports (EGD, FFG, AGA) in ISO-8859-15: their 8-bit text is read so.
SINGLE_BYTE = {"egd": "iso8859-15", "ffg": "iso8859-15", "aga": "iso8859-15"}


def go_file_text(path: str | Path, encoding: str | None = None) -> tuple[str, FileText]:
    """A Go report's format (EGD when its first bytes name none) and its text, in `encoding`
    (--encoding) or the one decided (an OpenGotha file's XML declaration says its own)."""
    head = file_head(path, encoding)
    fmt = go_report_format(head) or ("opengotha" if looks_like_opengotha(head) else "egd")
    return fmt, file_text(path, encoding, SINGLE_BYTE.get(fmt, "latin-1"), xml=fmt == "opengotha")


def go_tournament_of(fmt: str, text: FileText, name: str) -> GoTournament:
    """The tournament of a Go report's text; an encoding not UTF-8 is said, and a file that is
    not text in one encoding is refused (`fatal`), its games rejected with the reason."""
    t = FROM_TEXT[fmt](text.text, name)
    return replace(t, assumptions=text.notes + t.assumptions, fatal=text.refusal or t.fatal)


def read_go_file(path: str | Path, encoding: str | None = None) -> GoTournament:
    """The tournament of a Go report, read by the reader its first bytes name (EGD when none)."""
    fmt, text = go_file_text(path, encoding)
    return go_tournament_of(fmt, text, Path(path).stem)
