"""What a file is, from its first bytes: the signatures of the tournament reports
(FIDE TRF and SWAR, OpenGotha, EGD, FFG, AGA, pairgoth) without their readers, which
load pandas: taking in a table (`ratings ingest`) needs only these; and the formats
met in the field that are not read (Swiss Perfect, SWAR's and PairTwo's saves, MacMahon's
XML, PGN), named when refused."""
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
    (three characters and a space), in any order (TRF-16 fixes none: a team
    tie-break file starts with 062, 072, ... and 310 team lines), and one record
    of the head is a 012 tag, a player or a SWAR header line."""
    records = [line for line in LINE_BREAK.split(text_of(head))[:200]
               if line.strip() and not line.startswith("###") and not is_ruler(line)]
    return bool(records) and all(is_trf_record(line) for line in records[:5]) \
        and any(line[:3] in ("012", PLAYER) or line[:2] == "00" for line in records if is_trf_record(line))


# The field legend Swiss-Manager and the Irish rating system write above the player lines:
# each field's columns filled with its letter (DDD the code, SSSS the rank, ...).
LEGEND = re.compile(r"DDD SSSS sTTT N+ RRRR FFF I+ BBBB/BB/BB PPPP RRRR")


def is_ruler(line: str) -> bool:
    """A column ruler some writers put above the records: no record, and no data.
    Digits counting the columns one by one, from 1 (Swiss-Manager's `1234567890…`)
    or from 0 (the Irish rating system's `0123456789…`); or the tens, one number
    every ten columns, whole (Swiss-Manager's `         1 …         9        10`)
    or by their last digit (`… 9         0         1`)."""
    stripped = line.rstrip()
    if re.fullmatch(r"[0-9]{10,}", stripped):
        first = int(stripped[0])
        return first in (0, 1) and stripped == ("0123456789" * (len(stripped) // 10 + 2))[first:first + len(stripped)]
    if not re.fullmatch(r"[ 0-9]+", stripped):
        return False
    numbers = list(re.finditer(r"[0-9]+", stripped))
    if len(numbers) < 2 or numbers[0].end() > 11:
        return False
    first = int(numbers[0].group())
    return all(m.end() == numbers[0].end() + 10 * k and int(m.group()) % 10 == (first + k) % 10
               for k, m in enumerate(numbers))


def is_legend(line: str) -> bool:
    """The field legend above the player lines (`DDD SSSS sTTT NNN… RRRR FFF …`): no record."""
    return bool(LEGEND.match(line))


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
    while True:  # comments and a document type (older OpenGotha saves: <!DOCTYPE Tournament SYSTEM ...>)
        if text.startswith("<!--") and "-->" in text:
            text = text[text.index("-->") + 3:].lstrip()
        elif text.startswith("<!DOCTYPE") and ">" in text:
            text = re.sub(r"^<!DOCTYPE[^\[>]*(?:\[[^\]]*\])?\s*>", "", text).lstrip()
        else:
            break
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


# FFG, AGA, pairgoth (pipeline/formats/ffg_tou.py, aga.py, pairgoth.py)
FFG_HEADER = re.compile(r"\s*;\s*(name|date|vill|comm|prog|size|time|ta|komi)\s*=", re.IGNORECASE)
# A round of an FFG line: opponent, result, then colour and handicap, glued on as OpenGotha
# writes them ("15+w4") or after a / as pairgoth does ("15+/w4", the EGD format's way).
FFG_RESULT = re.compile(r"(?P<opp>[0-9]+)(?P<res>[-+=?])/?(?P<colour>[wWbB?])?(?P<hd>[0-9])?(?P<bang>!)?")
# Only the glued form tells an FFG line from an EGD one without the header.
FFG_GLUED = re.compile(r"[0-9]+[-+=?][wWbB][0-9]?")
PAIRGOTH_TYPES = ("INDIVIDUAL", "PAIRGO", "RENGO2", "RENGO3", "TEAM2", "TEAM3", "TEAM4", "TEAM5")


def _head_lines(head: bytes, count: int = 60) -> list[str]:
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff")
    return [line for line in LINE_BREAK.split(text)[:count] if line.strip()]


def looks_like_ffg(head: bytes) -> bool:
    """Whether the start of a file is the French federation's results table (.tou):
    two of its `;name=`, `;date=`, ... header lines, or a player line whose rounds
    carry their colour glued on ("15+w4") after a grade."""
    lines = _head_lines(head)
    if sum(1 for line in lines if FFG_HEADER.match(line)) >= 2:
        return True
    return any(_looks_like_ffg_player(line) for line in lines if not line.lstrip().startswith(";"))


def _looks_like_ffg_player(line: str) -> bool:
    tokens = line.split()
    glued = [t for t in tokens if FFG_GLUED.fullmatch(t) and not t.startswith("0")]
    return len(glued) >= 2 and any(grade_text(t) for t in tokens)


def looks_like_aga(head: bytes) -> bool:
    """Whether the start of a file is an AGA results report: a TOURNEY line (the
    first that is not a # comment), then a PLAYERS or GAMES section."""
    lines = [line for line in _head_lines(head, 400) if not line.lstrip().startswith("#")]
    return bool(lines) and bool(re.match(r"\s*TOURNEY\b", lines[0], re.IGNORECASE)) \
        and any(re.match(r"\s*(PLAYERS|GAMES)\b", line, re.IGNORECASE) for line in lines[1:])


def looks_like_pairgoth(head: bytes) -> bool:
    """Whether the start of a file is a pairgoth tournament (.tour): a JSON object
    whose "type" is one of pairgoth's tournament types, with its pairing or goban size."""
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff \t\r\n")
    if not text.startswith("{"):
        return False
    kind = re.search(r'"type"\s*:\s*"([A-Z0-9]+)"', text)
    return bool(kind and kind[1] in PAIRGOTH_TYPES and re.search(r'"(pairing|gobanSize|rounds)"\s*:', text))


def go_report_format(head: bytes) -> str | None:
    """"pairgoth", "ffg" or "aga" for the Go formats tables.tournament_format does not
    know; asked first, as an FFG line without colours could pass for an EGD one."""
    for name, looks_like in (("pairgoth", looks_like_pairgoth), ("ffg", looks_like_ffg), ("aga", looks_like_aga)):
        if looks_like(head):
            return name
    return None


# Formats met in the field that are not read: named, so that none is staged as something else.
# Sections of Swiss Perfect's .ini beside [Tournament Info], in whatever order it writes them.
SWISS_PERFECT_SECTIONS = {"[Pairing]", "[List Of Participants]", "[Desktop]", "[View Results]", "[View Standings]",
                          "[View Cross Table]", "[TextDump]"}
TRF_ADVICE = "export it from Swiss Perfect as a FIDE rating report (the TRF layout) and give that file"
# SWAR's save (.swar; libpairtwo's Swar4 and Swar5 readers, github.com/JeroenED/libpairtwo): length-prefixed
# strings, the first the release ("v4.12", "v5.24"), then a GUID, a MAC address and the section "[Tournoi]".
SWAR_RELEASE = re.compile(rb"v[0-9]{1,2}\.[0-9A-Za-z.]{1,8}")
# PairTwo's save (.sws; libpairtwo's Pairtwo6 reader): the release in 4 characters ("6.00", "5.47"),
# then its settings as 4-byte little-endian integers.
PAIRTWO_RELEASE = re.compile(rb"[1-9]\.[0-9]{2}")
# MacMahon's tournament file (pairgoth's MacMahon39 import, ported from OpenGothaCustom): XML whose
# <Tournament> carries a typeversion, inside a <TournamentData> root.
MACMAHON = re.compile(r"<Tournament\s[^>]*\btypeversion\s*=\s*[\"']([^\"']*)[\"']")
# A PGN game's tag pairs ("Seven Tag Roster": [Event "..."], [White "..."], ...).
PGN_TAG = re.compile(r"\[\s*([A-Za-z0-9_]+)\s+\"[^\"]*\"\s*\]")
PGN_ROSTER = {"Event", "Site", "Date", "Round", "White", "Black", "Result"}


def not_read(head: bytes, file_name: str = "") -> str | None:
    """Why a file is refused when it is a known format this pipeline does not read, or None."""
    suffix = file_name.lower().rsplit(".", 1)[-1] if "." in file_name else ""
    if head[:1] in (b"\x03", b"\x83") and len(head) >= 32:
        fields = _dbase_fields(head)
        if {"SURNAME", "START_NO"} <= fields or {"ROUND", "WHITE", "BLACK", "W_SCORE"} <= fields:
            which = "players file (.trn" if "SURNAME" in fields else "results file (.sco"
            return f"a Swiss Perfect {which}, a dBase table): not read; {TRF_ADVICE}"
    if (release := _swar_release(head)) is not None:
        return (f"a SWAR tournament file (SWAR's own binary save, release {release}): not read; "
                "export it from SWAR as a national report (TRF layout) and give that file")
    if suffix == "swar":
        return ("named like a SWAR tournament file (.swar, SWAR's own binary save): not read; "
                "export it from SWAR as a national report (TRF layout) and give that file")
    if suffix == "sws" or (PAIRTWO_RELEASE.fullmatch(head[:4]) and b"\x00" in head[4:64]):
        release = f", release {head[:4].decode()}" if PAIRTWO_RELEASE.fullmatch(head[:4]) else ""
        return (f"{'a' if release else 'named like a'} PairTwo tournament file (.sws, PairTwo's own binary save"
                f"{release}): not read; export the tournament from the pairing program as a FIDE rating report "
                "(the TRF layout) and give that file")
    if looks_like_pairgoth(head) and (kind := re.search(r'"type"\s*:\s*"([A-Z0-9]+)"', head.decode(
            "utf-8", errors="ignore"))[1]) != "INDIVIDUAL":
        return (f"a pairgoth {kind} tournament (teams paired against teams): not read; export its individual "
                "games from pairgoth as an EGD results file (.h9) and give that file")
    if (version := _macmahon_version(head)) is not None:
        return (f"a MacMahon tournament file (XML, MacMahon {version}'s layout): not read; export the tournament "
                "as an EGD results table (.h9), or OpenGotha XML (pairgoth imports MacMahon's file and exports "
                "both), and give that file")
    lines = _head_lines(head)
    if lines and _looks_like_pgn(lines):
        return ("a PGN file (games written move by move): not read; ratings are computed from a tournament's "
                "results: give its report from the pairing program (FIDE TRF), or a games table (date, white_id, "
                "black_id, result)")
    if lines and _looks_like_swiss_perfect_export(lines):
        return f"looks like a Swiss Perfect export (its cross table, tab-separated): not read; {TRF_ADVICE}"
    sections = {line.strip() for line in _head_lines(head, 400) if line.strip().startswith("[")}
    if "[Tournament Info]" in sections and sections & SWISS_PERFECT_SECTIONS:
        return f"a Swiss Perfect settings file (.ini): not read; {TRF_ADVICE}"
    return None


def _swar_release(head: bytes) -> str | None:
    """The release SWAR wrote at the start of its save, when the head is one."""
    size = int.from_bytes(head[:4], "little")
    release = head[4:4 + size]
    if not 3 <= size <= 12 or not SWAR_RELEASE.fullmatch(release) or b"[tournoi]" not in head.lower():
        return None
    return release.decode("ascii")


def _macmahon_version(head: bytes) -> str | None:
    """The typeversion of a MacMahon file's <Tournament>, when the head is one (an OpenGotha
    file's root is <Tournament> itself, without one)."""
    text = head.decode("utf-8", errors="ignore")
    if looks_like_opengotha(head) or not text.lstrip("\ufeff \t\r\n").startswith("<"):
        return None
    found = MACMAHON.search(text)
    return (found[1] or "?") if found else None


def _looks_like_pgn(lines: list[str]) -> bool:
    """PGN: the first line a tag pair, and two tags of the Seven Tag Roster among the first lines."""
    if not PGN_TAG.fullmatch(lines[0].strip().lstrip("\ufeff")):
        return False
    tags = {m[1] for line in lines[:20] if (m := PGN_TAG.fullmatch(line.strip().lstrip("\ufeff")))}
    return len(tags & PGN_ROSTER) >= 2


def _dbase_fields(head: bytes) -> set[str]:
    """The field names of a dBase header (32-byte descriptors after the first 32 bytes, up to 0x0D)."""
    names = set()
    for at in range(32, len(head) - 31, 32):
        if head[at] == 0x0D:
            break
        names.add(head[at:at + 11].split(b"\0")[0].decode("ascii", errors="replace").strip())
    return names


def _looks_like_swiss_perfect_export(lines: list[str]) -> bool:
    """Swiss Perfect's exported cross table: a tab-separated header `No  Name  ...`
    with round numbers, and rows whose rounds read `27:W`, ` 0:-`, `  : `."""
    header = [cell.strip() for cell in lines[0].split("\t")]
    if len(header) < 3 or header[0].lower() != "no" or header[1].lower() != "name":
        return False
    cells = [cell for line in lines[1:6] for cell in line.split("\t")[2:]]
    return any(re.fullmatch(r"\s*[0-9]*:[WLDwld=+\- ]\s*", cell) for cell in cells)
