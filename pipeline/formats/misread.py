"""The letters a wrong code page gives (issue 51): text written in one Windows code page
and read in another keeps its ASCII and turns each accented letter into another
character. Swiss-Manager, Vega and SWAR write the arbiter's code page: a Polish name in
CP1250 read as CP1252 is `W¹sowicz, £ukasz` (ą is byte B9, ¹ in CP1252; Ł is A3, £), a
Greek one in CP1253 `ÄÉÁÓÕ` (every Greek letter an accented Latin one), and UTF-8 read
as CP1252 `LiÃ¨ge`.

`MARK` finds such letters in a text, `misread_warning` says where and which encoding
would read them as letters (each candidate's decoding of the same bytes, judged by the
same marks and by its share of vowels), so that the officer can name it with
`--encoding`. Never a decision: the file is read as decided, and the warning says why it
may be wrong.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pipeline.formats.text_codecs import shown

LETTER = r"[^\W\d_]"
LATIN1_LETTERS = "À-ÖØ-öø-ÿ"  # without × and ÷

SYMBOLS = "£¥¦ª¯²³¹º¼½¾¿¨¸¢"  # Latin-1's symbols that are letters in CP1250, CP1251 or CP1253
CP1252_SPECIALS = ("\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e"
                   "\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122")  # CP1252's characters of 80-9F
GREEK_CYRILLIC = "\u0370-\u03ff\u0400-\u04ff"

# What each kind of mark is, as a regular expression over the text read: the character it is
# about, then which kind, told by lookbehinds. A pattern that starts with one character class
# is searched at that class's speed (the re module skips to its characters); alternatives
# starting each with its own are tried at every character of the text.
MARK = re.compile(f"[{SYMBOLS}ŒœŸ{LATIN1_LETTERS}{GREEK_CYRILLIC}](?:" + "|".join([
    # A symbol inside a word: CP1250's ą ł ż ľ Ą Ż Ş ş (B9 B3 BF BE A5 AF AA BA) read as CP1252
    # are ¹ ³ ¿ ¾ ¥ ¯ ª º; CP1251's and CP1253's letters of A0-BF are such symbols too.
    f"(?<={LETTER}[{SYMBOLS}])(?={LETTER})",
    # One starting a word: Ł Ą Ż Ľ Ş (A3 A5 AF BC AA) read as CP1252, before a lower-case letter.
    f"(?<=[£¥¯¼ª])(?<!{LETTER}.)(?=[a-zà-ÿ])",
    # CP1250's ś Ś (9C 8C) are CP1252's œ Œ: before a consonant no French word puts after them
    # (Œil, Œdème, Œnologie, Œsophage, Œcuménique; cœur, fœtus, Phœbé, cœlacanthe); ź (9F) is Ÿ,
    # a capital amid lower-case letters.
    "(?<=Œ)(?=[klmprwz³¹])", "(?<=œ)(?=[ckmpwrz³¹])", f"(?<={LETTER}œ)(?=n)", "(?<=[a-zà-ÿ]Ÿ)(?=[a-zà-ÿ])",
    # Three of Latin-1's accented letters in a row: Greek, Cyrillic (CP1253, CP1251) read as
    # CP1252 (Polish writes three in a row, Żół, but with letters of Latin Extended-A).
    f"(?<=[{LATIN1_LETTERS}])[{LATIN1_LETTERS}][{LATIN1_LETTERS}]",
    # UTF-8 read as a single-byte code page: a lead byte's letter (Ã, Ä, Å, Â ...) then a
    # continuation byte's character (80-BF: ¨ © ® ³ or one of CP1252's ‚ ƒ „ … Œ ™ ...).
    f"(?<=[Â-ß])[\u00a0-\u00bf{CP1252_SPECIALS}]",
    # A Cyrillic or Greek letter beside a Latin one in a word (Łukasz read as CP1251: Јukasz).
    f"(?<=[{GREEK_CYRILLIC}])(?:(?<=[a-zA-Z].)|(?=[a-zA-Z]))",
]) + ")")
WORD = re.compile(r"[^\s,;|\"]+")  # a word of a name, a CSV field or a TRF column

# The encodings tried on a text that holds marks, in the order a tie is settled.
CANDIDATES = ("utf-8", "cp1250", "cp1253", "cp1251", "cp1257", "cp1254", "cp1252")
NAMES = {"utf-8": "UTF-8", "cp1250": "CP1250 (Central European)",
         "cp1251": "CP1251 (Cyrillic)", "cp1253": "CP1253 (Greek)", "cp1257": "CP1257 (Baltic)",
         "cp1254": "CP1254 (Turkish)", "cp1252": "CP1252 (Western European)"}
# Vowels by their base letter (accents removed), in the three alphabets the code pages write.
VOWELS = frozenset("aeiouyαεηιουωаеёиоуыэюяіїє")
SAID = 3  # words shown from the first line that holds marks


@dataclass(frozen=True)
class Misread:
    """The lines of a text whose letters look misread: the first, its marked words, and how many."""

    first_line: int
    words: tuple[str, ...]
    lines: int


def misread_lines(lines: list[str], first: int = 1) -> Misread | None:
    """The lines (numbered from `first`) whose text holds marks, None when none does."""
    marked = [(first + k, line) for k, line in enumerate(lines) if MARK.search(line)]
    if not marked:
        return None
    number, line = marked[0]
    return Misread(number, marked_words(line), len(marked))


def merged(before: Misread | None, found: Misread | None) -> Misread | None:
    """The misread lines of a text read in parts, `before` those of the parts before `found`'s."""
    if before is None or found is None:
        return before or found
    return Misread(before.first_line, before.words, before.lines + found.lines)


def marked_words(line: str) -> tuple[str, ...]:
    """The words of a line that hold a mark, in order, each once."""
    spans = [m.span() for m in MARK.finditer(line)]
    words = [w.group() for w in WORD.finditer(line) if any(w.start() < end and start < w.end() for start, end in spans)]
    return tuple(dict.fromkeys(words))[:SAID]


def likely_encoding(words: tuple[str, ...], read_as: str) -> tuple[str, tuple[str, ...]] | None:
    """The encoding that reads the bytes of `words` (as `read_as` gave them) without a mark,
    and the words so read; None when none does (`best_reading`)."""
    single = read_as if read_as != "utf-8" else "cp1252"  # UTF-8 text that was misread before it was saved
    try:
        return best_reading([w.encode(single) for w in words], single)
    except UnicodeEncodeError:
        return None


def best_reading(raw: list[bytes], read_as: str | None = None) -> tuple[str, tuple[str, ...]] | None:
    """Of CANDIDATES (but `read_as`), the encoding that reads every one of `raw` as letters
    with no mark, and what it reads; UTF-8 first, then the one whose letters hold the
    largest share of vowels, less their share of accented Latin letters: CP1253's Greek read
    as Cyrillic is mostly consonants, and so is Cyrillic read as Greek; read as CP1257, both
    are accented Latin letters. None when none does, or every one reads consonants alone
    (one byte is no evidence)."""
    fits = []
    for k, name in enumerate(CANDIDATES):
        if name == read_as:
            continue
        try:
            read = tuple(b.decode(name) for b in raw)
        except UnicodeDecodeError:
            continue
        text = " ".join(read)
        if vowel_share(text) and not any(MARK.search(w) for w in read):
            fits.append((name == "utf-8", vowel_share(text) - accented_share(text), -k, name, read))
    return max(fits)[3:] if fits else None


def vowel_share(text: str) -> float:
    letters = [unicodedata.normalize("NFD", c)[0].lower() for c in text if c.isalpha()]
    return sum(c in VOWELS for c in letters) / len(letters) if letters else 0.0


def accented_share(text: str) -> float:
    """The share of letters that are Latin and not ASCII: a few in a name (Wąsowicz), every
    one in Greek read as CP1257 (ÄÉĮÓ), whose vowel share is all but whole."""
    letters = [c for c in text if c.isalpha()]
    accented = sum(not c.isascii() and unicodedata.name(c, "").startswith("LATIN") for c in letters)
    return accented / len(letters) if letters else 0.0


def misread_warning(found: Misread, read_as: str, given: bool = False) -> str:
    """What the report says of a text read as `read_as` whose letters look misread (`given`:
    the encoding was named with --encoding)."""
    words = ", ".join(repr(w) for w in found.words)
    more = found.lines - 1
    where = f"line {found.first_line}" + (f" (and {more} more line{'s' if more > 1 else ''})" if more else "")
    how = f"read as {shown(read_as)}, " + ("as given with --encoding" if given else "as decided from its bytes")
    guess = likely_encoding(found.words, read_as)
    if guess is None:
        return (f"{where}: {words} hold letters a wrong code page gives ({how}): if the file's names are not "
                "written so, give the encoding it was written in with --encoding NAME")
    name, read = guess
    again = ", ".join(repr(w) for w in read)
    if read_as == "utf-8" and name == "utf-8":
        return (f"{where}: {words} look like UTF-8 text read as CP1252 before the file was written ({again}): "
                "the file holds these letters so; correct them where the file was made")
    return (f"{where}: {words} hold letters a wrong code page gives ({how}); read as {NAMES[name]} they are "
            f"{again}: if so, give --encoding {name}")
