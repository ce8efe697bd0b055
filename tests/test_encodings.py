"""A file's encoding (issue 51, pipeline/formats/encodings.py): `--encoding NAME` or
`--encoding FILE=NAME` on `ingest` and `run`, for every reader (CSV tables through
csv_text and DuckDB, TRF and SWAR, OpenGotha, EGD, FFG, AGA, pairgoth); a UTF-16 file read
by its byte-order mark; and a warning naming the likely code page when a decoding yields
the letters a wrong one gives (pipeline/formats/misread.py).

Real files (tests/fixtures/trf/README.md): the Belgian interclub report in SWAR's layout
with Polish names written in CP1250, the lichess export with Greek names in CP1253, and the
interclub report saved as UTF-16 ("Unicode" in Notepad). Their counts are checked by a
reader of the TRF layout written here, not the project's.
"""
from __future__ import annotations

import csv
from pathlib import Path

import duckdb
import pytest

from pipeline.formats.csv_text import csv_text, decide_encoding, named_encoding
from pipeline.formats.encodings import decoded, file_head
from pipeline.formats.go_reports import read_go_file
from pipeline.formats.misread import MARK, likely_encoding, misread_lines
from pipeline.formats.text_codecs import encodings_given
from pipeline.formats.trf import read_trf
from tests.workflows.helpers import ratings, said

TRF = Path(__file__).parent / "fixtures" / "trf"
GO = Path(__file__).parent / "fixtures" / "go"
CP1250 = TRF / "belgian_interclubs_2023_r1_cp1250.txt"
CP1253 = TRF / "lichess_swiss_2020_06_cp1253.trf"
UTF16 = TRF / "belgian_interclubs_2023_r1_utf16.txt"
LATIN1 = TRF / "belgian_interclubs_2023_r1_excerpt.txt"  # the file UTF16 was saved from

# The names as written into the fixtures (README: starting ranks 1, 2, ... in this order).
POLISH = ["Wąsowicz, Łukasz", "Dąbrowska, Małgorzata", "Woźniak, Żaneta", "Wiśniewski, Paweł",
          "Szczęsny, Grzegorz", "Zieliński, Jędrzej", "Król, Bożena", "Kościelny, Ścibor",
          "Łęcka, Agnieszka", "Gąsior, Michał", "Ślusarczyk, Józef", "Żółkiewska, Halina"]
GREEK = ["Παπαδόπουλος, Γιώργος", "Οικονόμου, Ελένη", "Νικολάου, Δημήτρης", "Ιωάννου, Μαρία",
         "Γεωργίου, Κωνσταντίνος", "Αθανασίου, Σοφία", "Βασιλείου, Νίκος", "Χριστοδούλου, Άννα",
         "Δημητρίου, Παναγιώτης", "Κωνσταντίνου, Ευαγγελία", "Αλεξίου, Σπύρος", "ΜΑΚΡΗΣ ΔΙΑΣ",
         "Σταυρόπουλος, Θανάσης"]


def trf_counts(path: Path, encoding: str) -> tuple[list[str], int]:
    """An independent reader of the TRF layout: the names of the 001 lines (columns 15-47)
    and the games (a round block from column 92, ten columns each: an opponent's rank, then
    a colour and a result; a game is two blocks naming each other, a bye names rank 0)."""
    names, blocks = [], 0
    for line in path.read_bytes().decode(encoding).removeprefix("\ufeff").splitlines():
        if not line.startswith("001"):
            continue
        names.append(line[14:47].strip())
        for at in range(91, len(line), 10):
            opponent = line[at:at + 4].strip()
            blocks += opponent.isdigit() and int(opponent) > 0 and line[at + 7:at + 8] in "10=+-"
    return names, blocks // 2


def players(warehouse: Path) -> list[str]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return [name for (name,) in con.execute("select name from players order by player_id").fetchall()]


# ---------------------------------------------------------------------------
# The acceptance: a CP1250 TRF, as a user runs it


def test_a_cp1250_trf_with_encoding_keeps_the_names_as_written(tmp_path):
    names, games = trf_counts(CP1250, "cp1250")
    assert names == POLISH and games == 6  # 12 players, 6 boards
    done = ratings("run", "--games", CP1250, "--encoding", "cp1250", "--register-new", "--ratings-from-files",
                   "--warehouse", "w.duckdb", "--out", "out", cwd=tmp_path)
    assert "encoding: CP1250, as given with --encoding" in done.stdout
    assert "Warning" not in said(done)
    assert players(tmp_path / "w.duckdb") == POLISH
    with open(tmp_path / "out" / "lists" / "2024-01.csv", encoding="utf-8", newline="") as fh:
        published = {row["name"] for row in csv.DictReader(fh)}
    # Every player but the second, whose printed rating is 0 (unrated: no initial rating, no
    # rated game), is on the list, as written.
    assert published == set(POLISH) - {"Dąbrowska, Małgorzata"}


def test_a_cp1250_trf_without_encoding_is_warned_of_naming_cp1250(tmp_path):
    done = ratings("ingest", CP1250, "--register-new", "--warehouse", "w.duckdb", cwd=tmp_path)
    # Read as CP1252 (bytes 0x8C-0x9F are its letters), the names come out as CP1252 reads them,
    # and the report says which code page reads them as letters, and with which option.
    warning = [line for line in done.stderr.splitlines() if "Warning" in line]
    assert warning == [
        f"    Warning: {CP1250.name}, line 15 (and 9 more lines): 'W¹sowicz', '£ukasz' hold letters a wrong code "
        "page gives (read as CP1252, as decided from its bytes); read as CP1250 (Central European) they are "
        "'Wąsowicz', 'Łukasz': if so, give --encoding cp1250"]
    # Lines 15-26 are the 12 players: 10 of them hold such letters; Szczęsny, Grzegorz and Zieliński,
    # Jędrzej read as CP1252 give letters (Szczêsny, Zieliñski, Jêdrzej), as a Czech name does.
    unmarked = [n for n in POLISH if not MARK.search(n.encode("cp1250").decode("cp1252"))]
    assert unmarked == ["Szczęsny, Grzegorz", "Zieliński, Jędrzej"]


def test_a_cp1253_trf_with_and_without_encoding(tmp_path):
    names, games = trf_counts(CP1253, "cp1253")
    assert names == GREEK and games == 56  # the lichess export's 56 games (test_field_files)
    t = read_trf(CP1253, encoding="cp1253")
    assert t.players["name"].tolist() == GREEK and len(t.games) == 56
    assert t.assumptions[0] == "encoding: CP1253, as given with --encoding"
    done = ratings("ingest", CP1253, "--warehouse", "w.duckdb", cwd=tmp_path)
    # No byte 0x80-0x9F: Latin-1, whose accented capitals and small letters are every Greek one.
    assert ("Warning: lichess_swiss_2020_06_cp1253.trf, line 16 (and 12 more lines): 'Ðáðáäüðïõëïò', "
            "'Ãéþñãïò' hold letters a wrong code page gives (read as Latin-1, as decided from its bytes); read as "
            "CP1253 (Greek) they are 'Παπαδόπουλος', 'Γιώργος': if so, give --encoding cp1253") in done.stderr


def test_a_utf16_trf_is_read_by_its_byte_order_mark(tmp_path):
    assert UTF16.read_bytes()[:2] == b"\xff\xfe"
    names, games = trf_counts(UTF16, "utf-16")
    assert (names, games) == trf_counts(LATIN1, "latin-1") and games == 6
    t, before = read_trf(UTF16), read_trf(LATIN1)
    assert t.flavour == "swar" and t.tags == before.tags and t.players.equals(before.players)
    assert t.games.equals(before.games) and t.fatal is None
    assert "encoding: UTF-16 (its byte-order mark)" in t.assumptions
    done = ratings("ingest", UTF16, "--warehouse", "w.duckdb", cwd=tmp_path)
    assert "6 games" in done.stdout and "not a tournament report file" not in said(done)
    # Named like a TRF and given as games, it was refused: its bytes carry NULs.
    trf = tmp_path / "open.trf"
    trf.write_bytes(UTF16.read_bytes())
    ratings("ingest", "--games", trf, "--warehouse", "w2.duckdb", cwd=tmp_path)


# ---------------------------------------------------------------------------
# --encoding on every reader


def test_a_cp1250_registry_is_read_through_duckdb(cli, tmp_path):
    registry = tmp_path / "players.csv"
    registry.write_bytes(("player_id,name,birth_year\n" + "".join(
        f'{k},"{name}",1990\n' for k, name in enumerate(POLISH, 1))).encode("cp1250"))
    w = tmp_path / "w.duckdb"
    cli("ingest", "--players", registry, "--encoding", "cp1250", "--warehouse", w)
    cli("validate", "--warehouse", w)
    assert players(w) == POLISH
    # Named per file: the same, and another file of the command read as its bytes say.
    other = tmp_path / "other.csv"
    other.write_text("player_id,name\n99,Liège\n", encoding="utf-8")
    w2 = tmp_path / "w2.duckdb"
    cli("ingest", "--players", registry, "--players", other, "--encoding", f"{registry}=cp1250", "--warehouse", w2)
    cli("validate", "--warehouse", w2)
    assert players(w2) == [*POLISH, "Liège"]


def test_a_utf16_registry_is_read_by_its_mark(cli, tmp_path):
    registry = tmp_path / "players.csv"
    text = "player_id;name;birth_year\r\n" + "".join(f"{k};{name};1990\r\n" for k, name in enumerate(GREEK, 1))
    registry.write_bytes(text.encode("utf-16"))
    assert csv_text(registry).records == 13
    w = tmp_path / "w.duckdb"
    result = cli("ingest", "--players", registry, "--warehouse", w)
    assert "encoding: UTF-16 (its byte-order mark)" in result.output
    cli("validate", "--warehouse", w)
    assert players(w) == GREEK


def test_a_file_that_does_not_decode_in_the_encoding_named_is_refused_naming_its_line(cli, tmp_path):
    registry = tmp_path / "players.csv"
    registry.write_bytes("player_id,name\n1,Ann\n2,Wąsowicz\n".encode("cp1250"))  # ą is B9, no UTF-8 lead byte
    result = cli("ingest", "--players", registry, "--encoding", "utf-8", "--warehouse", tmp_path / "w.duckdb",
                 ok=False)
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        f"Error: {registry}: line 3 holds byte 0xB9, no character in UTF-8 (given with --encoding utf-8): the file is "
        "not UTF-8 text; give the encoding it was written in with --encoding NAME")
    # A TRF: its games are read all the same, and rejected with the reason (nothing lost).
    t = read_trf(CP1253, encoding="utf-8")
    assert t.fatal.startswith("line 16 holds byte 0xD0, no character in UTF-8") and len(t.games) == 56


@pytest.mark.parametrize("name, fmt, written, column", [
    # The first player's name (a club in OpenGotha, whose games name players by their name)
    # written in CP1250 in the same width, the rest of the file's bytes as they are.
    ("opengotha_juvisy_2019.h9", "egd", ("Player 1", "Wąsowicz"), "name"),
    ("opengotha_juvisy_2019.tou", "ffg", ("Player 1", "Wąsowicz"), "name"),
    ("aga_rated_games_example.txt", "aga", ("Player, 1", "Wąsowi, 1"), "name"),
    ("opengotha_simpleswiss_excerpt.xml", "opengotha", ('club="84Av"', 'club="Łódź"'), "club"),
    ("pairgoth_bosp2024_excerpt.tour", "pairgoth", ('"name" : "Player"', '"name" : "Wąsowi"'), "name"),
])
def test_every_go_reader_reads_the_encoding_named(tmp_path, name, fmt, written, column):
    old, new = written
    source = (GO / name).read_bytes().decode("utf-8")
    path = tmp_path / name
    path.write_bytes(source.replace(old, new, 1).encode("cp1250"))
    given, before = read_go_file(path, "cp1250"), read_go_file(GO / name)
    assert given.source == fmt and given.fatal is None
    assert "encoding: CP1250, as given with --encoding" in given.assumptions
    assert len(given.games) == len(before.games) and len(given.players) == len(before.players)
    value = new.split('"')[-2] if '"' in new else new.split(",")[0] if fmt == "aga" else new
    assert value in given.players[column].astype(str).str.cat(sep="|"), given.players[column].tolist()
    # Without it: read as its bytes say (Latin-1 or ISO-8859-15 for OpenGotha's text exports), and
    # the misread letters said, with the code page that reads them (Łódź is one word: £ódŸ).
    decided = read_go_file(path)
    assert "encoding: CP1250" not in " ".join(decided.assumptions) and decided.fatal is None


def test_encoding_names_are_checked_before_anything_is_done(cli, tmp_path):
    w = tmp_path / "w.duckdb"
    result = cli("ingest", CP1250, "--encoding", "klingon", "--warehouse", w, ok=False)
    assert result.exit_code == 2 and "'klingon': not a text encoding Python knows" in result.output
    result = cli("ingest", CP1250, "--encoding", "rot13", "--warehouse", w, ok=False)
    assert result.exit_code == 2 and "'rot13': not a text encoding Python knows" in result.output
    result = cli("ingest", CP1250, "--encoding", "cp1250", "--encoding", "cp1253", "--warehouse", w, ok=False)
    assert result.exit_code == 2 and "cp1250 and cp1253: one encoding for every file" in result.output
    result = cli("ingest", CP1250, "--encoding", f"{CP1253}=cp1253", "--warehouse", w, ok=False)
    assert result.exit_code == 2 and f"{CP1253} is not one of the files given" in result.output
    assert not w.exists()
    assert encodings_given(("windows-1250",)).default == "cp1250"


# ---------------------------------------------------------------------------
# The marks, and the decision on the whole file


@pytest.mark.parametrize("written, code_page, read_as, likely", [
    # CP1250's ą ł Ł ż ś ź (B9 B3 A3 BF 9C 9F) are CP1252's ¹ ³ £ ¿ œ Ÿ.
    ("Wąsowicz, Łukasz", "cp1250", "cp1252", "cp1250"),
    ("Świątek, Iga", "cp1250", "cp1252", "cp1250"),
    ("Woźniak, Jan", "cp1250", "cp1252", "cp1250"),
    ("Żółkiewska", "cp1250", "cp1252", "cp1250"),
    # Greek and Cyrillic: every letter an accented Latin one; read as each other, mostly consonants.
    ("ΜΑΚΡΗΣ ΔΙΑΣ", "cp1253", "cp1252", "cp1253"),
    ("Παπαδόπουλος, Γιώργος", "cp1253", "latin-1", "cp1253"),
    ("Иванов, Сергей", "cp1251", "cp1252", "cp1251"),
    # UTF-8 read as CP1252: Ã and Ä before a continuation byte's character.
    ("Liège", "utf-8", "cp1252", "utf-8"),
    ("Müller, Jürgen", "utf-8", "latin-1", "utf-8"),
])
def test_the_letters_a_wrong_code_page_gives_name_the_right_one(written, code_page, read_as, likely):
    misread = written.encode(code_page).decode(read_as)
    found = misread_lines(["1,Ann", misread])
    assert found.first_line == 2 and found.lines == 1
    assert likely_encoding(found.words, read_as)[0] == likely
    assert not MARK.search(written)  # read right, no mark


@pytest.mark.parametrize("text", [
    "Müller, Jürgen", "Hélène Leclercq", "Łódź", "Żółkiewska", "Þórðarson", "Mañón", "Col·legi", "D´Hondt",
    "Œuvre", "Œnologie", "Œcuménique", "cœur", "cœlacanthe", "fœtus", "£50 prize", "m² 12", "¿Qué?",
    "Ærøskøbing", "N° 5", "São João",
])
def test_text_read_right_holds_no_mark(text):
    assert not MARK.search(text)


def test_a_byte_cp1252_leaves_undefined_refuses_the_file_wherever_it_is(cli, tmp_path):
    # Before, only the first byte 0x80-0x9F was looked at: a € (0x80) before a ť (0x9D in
    # CP1250) chose CP1252, and decoding failed with a traceback's message.
    data = "player_id,name,note\n1,Ann,5 €\n2,Šťastný,\n".encode("cp1250")
    decided = decide_encoding(data)
    assert decided.encoding is None
    assert decided.refusal == ("line 3 holds byte 0x9D, a control code in Latin-1 and no character in CP1252: "
                               "not text in either; read as CP1250 (Central European) its words are 'Šťastný': "
                               "if so, give --encoding cp1250, or save the file as UTF-8")
    path = tmp_path / "players.csv"
    path.write_bytes(data)
    result = cli("ingest", "--players", path, "--warehouse", tmp_path / "w.duckdb", ok=False)
    assert result.exit_code == 1 and "unexpected" not in result.output
    assert result.output.strip().splitlines()[-1] == f"Error: {path}: {decided.refusal}"
    cli("ingest", "--players", path, "--encoding", "cp1250", "--warehouse", tmp_path / "w.duckdb")


def test_a_misread_csv_is_warned_of_with_its_line(tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes(("player_id,name\n" + "".join(f'{k},"{n}"\n' for k, n in enumerate(POLISH, 1)))
                     .encode("cp1250"))
    text = csv_text(path)
    assert text.encoding == "cp1252" and text.records == 12
    assert text.warning.startswith("line 2 (and 9 more lines): 'W¹sowicz', '£ukasz' hold letters")
    given = csv_text(path, "cp1250")
    assert given.encoding == "cp1250" and given.warning is None and given.notes[0] == (
        "encoding: CP1250 (as given with --encoding)")
    # Blocks cut anywhere decode alike: a name, a CR LF cut between two reads.
    whole = path.read_bytes()
    for size in (1, 2, 3, 7):
        cut = named_encoding([whole[i:i + size] for i in range(0, len(whole), size)], "cp1252", True)
        assert cut.misread == named_encoding([whole], "cp1252", True).misread


def test_the_recognisers_read_a_utf16_head_as_text():
    assert file_head(UTF16)[:14] == b"00A ### Interc"
    assert file_head(LATIN1) == LATIN1.read_bytes()[:8192]
    assert decoded(UTF16.read_bytes()).text == LATIN1.read_bytes().decode("latin-1")
    assert "Envoi des rondes 1 à 1".encode("utf-8") in file_head(UTF16)  # its 00C line, as UTF-8
