"""The text encodings Python knows, as the readers need them (issue 51): the names the
officer gives (`--encoding`) checked, the encoding a byte-order mark says, whether a text's
ASCII bytes are ASCII characters (so that the readers of bytes may find its line breaks and
delimiters), and the refusal of a file that does not decode. Without the readers, which
load numpy: every command's options parse `--encoding` with it."""
from __future__ import annotations

import codecs
import functools
from dataclasses import dataclass
from pathlib import Path

# Byte-order marks that say the encoding by themselves, longest first (UTF-32's starts like UTF-16's).
BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
STANDARD_ENCODINGS = "https://docs.python.org/3/library/codecs.html#standard-encodings"


def codec(name: str) -> str:
    """The codec Python knows by `name` (`windows-1250` is cp1250), as codecs names it;
    ValueError when it knows none, or one that is no text encoding (rot13, base64)."""
    try:
        found = codecs.lookup(name.strip())
        "".encode(found.name)
    except LookupError as err:
        raise ValueError(f"{name!r}: not a text encoding Python knows; give one such as cp1250, cp1253, utf-16 "
                         f"or latin-1 ({STANDARD_ENCODINGS})") from err
    return found.name


def shown(name: str) -> str:
    """An encoding as the report writes it: CP1250, UTF-16, Latin-1."""
    return {"iso8859-1": "Latin-1", "latin-1": "Latin-1", "iso8859-15": "ISO-8859-15"}.get(name, name.upper())


@functools.lru_cache(maxsize=64)
def ascii_safe(name: str) -> bool:
    """Whether every byte below 0x80 of a text in this encoding is that ASCII character and
    nothing else: UTF-8 and the single-byte code pages, not UTF-16 nor Shift-JIS (whose
    second bytes may be `|`)."""
    if codecs.lookup(name).name == "utf-8":
        return True
    every = bytes(range(256)).decode(name, errors="replace")
    return len(every) == 256 and every[:128] == "".join(map(chr, range(128)))


def bom_codec(head: bytes) -> str | None:
    """"utf-16" or "utf-32" when the bytes start with that byte-order mark (the codec reads it)."""
    return next((name for bom, name in BOMS if head.startswith(bom)), None)


def undecodable_refusal(name: str, line: int, byte: int, given: bool) -> str:
    """Why a file is refused when it does not decode in the encoding named or marked."""
    how = f"given with --encoding {name}" if given else "its byte-order mark says"
    return (f"line {line} holds byte 0x{byte:02X}, no character in {shown(name)} ({how}): the file is not "
            f"{shown(name)} text; give the encoding it was written in with --encoding NAME")


@dataclass(frozen=True)
class Encodings:
    """The encodings named on the command line: `default` for every file, `by_file` one file's each."""

    default: str | None = None
    by_file: tuple[tuple[Path, str], ...] = ()

    def of(self, path: str | Path) -> str | None:
        """The encoding named for `path`; None: decided from its bytes."""
        own = Path(path).resolve()
        return next((name for file, name in self.by_file if file == own), self.default)

    def not_given(self, paths: list[Path]) -> list[Path]:
        """The files `--encoding FILE=NAME` names that are not among `paths`."""
        given = {Path(p).resolve() for p in paths}
        return [file for file, _ in self.by_file if file not in given]


def encodings_given(values: tuple[str, ...]) -> Encodings:
    """The `--encoding` values: NAME (every file), FILE=NAME (that file: a codec's name has no
    `=`). ValueError for a codec Python does not know, or two for every file."""
    default, by_file = None, []
    for value in values:
        file, eq, name = value.rpartition("=")
        if not eq:
            if default is not None:
                raise ValueError(f"{default} and {value}: one encoding for every file; name a file's own with "
                                 "--encoding FILE=NAME")
            default = codec(value)
        elif not file:
            raise ValueError(f"{value!r}: give --encoding NAME (every file), or --encoding FILE=NAME")
        else:
            by_file.append((Path(file).resolve(), codec(name)))
    return Encodings(default, tuple(by_file))
