"""What a file is, from its first bytes: the signatures of the tournament reports
(FIDE TRF and SWAR, OpenGotha, EGD) without their readers, which load pandas:
taking in a table (`ratings ingest`) needs only these."""
from __future__ import annotations

import re

LINE_BREAK = re.compile(r"\r\n|\r|\n")

# TRF
PLAYER = "001"
RECORD = re.compile(r"[0-9A-Z]{3}")  # the code that starts every TRF line

# EGD and OpenGotha
GRADE = re.compile(r"([0-9]{1,2})\s*(k|kyu|d|dan|p|pro)", re.IGNORECASE)
KYU_RANGE = range(1, 31)  # OpenGotha's grades: 30k to 9d, and 1p to 9p
DAN_RANGE = range(1, 10)
EGD_HEADER = re.compile(r"\s*;\s*([A-Z]{2})\[(.*)\]")
EGD_RESULT = re.compile(r"(?P<opp>[0-9]+)(?P<res>[-+=?])(?:(?P<sep>[/!])(?P<colour>[wWbB?])?(?P<hd>[0-9])?)?"
                        r"(?P<bang>!)?")


def text_of(data: bytes, fallback: str = "latin-1") -> str:
    """UTF-8 when it decodes, else the fallback (older Windows programs write Latin-1)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode(fallback)
    return text.removeprefix("\ufeff")


def is_trf_record(line: str) -> bool:
    return bool(RECORD.fullmatch(line[:3])) and line[3:4] in ("", " ")


def looks_like_trf(head: bytes) -> bool:
    """Whether the start of a file is a TRF: its first records carry TRF codes
    (three characters and a space) and one of them is a 012 tag or a player."""
    records = [line for line in LINE_BREAK.split(text_of(head))[:50]
               if line.strip() and not line.startswith("###")][:5]
    return bool(records) and all(is_trf_record(line) for line in records) \
        and any(line[:3] in ("012", PLAYER) or line[:2] == "00" for line in records)


def grade_text(grade: str | None) -> str | None:
    """A grade as "5k" or "2d"; None when it is not one.

    Accepts "5K", "5k", "5 kyu", "2D", "2 dan". A professional grade counts
    as the amateur dan OpenGotha ranks it at when pairing (Player.
    convertKDPToInt): 1p-3p 7d, 4p-6p 8d, 7p-9p 9d; the pro grade itself is
    not kept. A bare number is None: OpenGotha would read it as kyu, but a
    missing letter is as likely a typo as a kyu.
    """
    match = GRADE.fullmatch(str(grade).strip()) if grade is not None else None
    if not match:
        return None
    number, kind = int(match[1]), match[2][0].lower()
    if kind == "k":
        return f"{number}k" if number in KYU_RANGE else None
    if number not in DAN_RANGE:
        return None
    return f"{number}d" if kind == "d" else f"{7 + (number - 1) // 3}d"


def looks_like_opengotha(head: bytes) -> bool:
    """Whether the start of a file is an XML document whose root is <Tournament>."""
    # A multi-byte character cut at the end of the head must not matter.
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff \t\r\n")
    text = re.sub(r"^<\?xml[^>]*\?>\s*", "", text)
    while text.startswith("<!--") and "-->" in text:
        text = text[text.index("-->") + 3:].lstrip()
    return bool(re.match(r"<Tournament[\s/>]", text))


def looks_like_egd(head: bytes) -> bool:
    """Whether the start of a file is an EGD results table: an EGD header tag
    in a comment, or a player line with a grade and two results."""
    lines = [line for line in LINE_BREAK.split(head.decode("utf-8", errors="ignore").lstrip("\ufeff"))[:60]
             if line.strip()]
    if not lines or lines[0].lstrip().startswith("<"):
        return False
    if any(EGD_HEADER.match(line) and EGD_HEADER.match(line)[1] in ("CL", "EV", "PC", "DT", "HA", "KM", "TM")
           for line in lines):
        return True
    return any(_looks_like_player_line(line) for line in lines)


def _looks_like_player_line(line: str) -> bool:
    tokens = line.split(";")[0].split()
    results = [t for t in tokens if (m := EGD_RESULT.fullmatch(t)) and int(m["opp"]) > 0]
    return len(results) >= 2 and any(grade_text(t) for t in tokens)
