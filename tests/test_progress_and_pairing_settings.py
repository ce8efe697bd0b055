"""The rating officer's checklist (issue 39): progress bars on a terminal and never in
captured output (pipeline/progress.py), and the pairing files' two settings in
ratings.toml: federation (the Fed of players the registry gives none) and
publish_birth_year (the birth year in FIDE's B-day and Swiss-Manager's Birthday, off
by default: private, and never in any other public file)."""
from __future__ import annotations

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from pipeline.progress import Quiet, progress, shows
from tests.conftest import copy_built, write_rows, write_small_federation

RATINGS = str(Path(sys.executable).parent / "ratings")
# What a tqdm bar leaves in a stream: the carriage return it redraws with, its blocks, its rate.
BAR_MARKS = ("\r", "█", "it/s", "list/s", "file/s", "card/s", "group/s", "step/s", "%|")


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as tqdm and the helper ask."""

    def isatty(self) -> bool:
        super().isatty()  # closed: raises, as a real stream's does
        return True


# --- the helper ------------------------------------------------------------------------

def test_the_helper_draws_on_a_terminal_and_writes_nothing_elsewhere():
    terminal, log = Terminal(), io.StringIO()
    assert list(progress(range(3), "validate", unit="file", file=terminal)) == [0, 1, 2]
    assert list(progress(range(3), "validate", unit="file", file=log)) == [0, 1, 2]  # the same items, no bar
    # Drawn at the start, then cleared when done (leave=False): the command's lines stay.
    drawn = terminal.getvalue()
    assert drawn.startswith("\rvalidate:   0%") and "0/3" in drawn and drawn.endswith(" " * 20 + "\r")
    assert log.getvalue() == ""
    assert isinstance(progress(range(3), "validate", file=log), Quiet)


def test_the_helper_decides_from_the_stream_unless_told():
    assert shows(Terminal()) and not shows(io.StringIO())
    assert not shows(Terminal(), show=False) and shows(io.StringIO(), show=True)
    closed = Terminal()
    closed.close()
    assert not shows(closed)  # a closed stream's isatty() raises: no bar, no failure
    # Updated by hand (the rating loop, publication): counted to its total on a terminal.
    terminal = Terminal()
    with progress(step="publish performance", total=2, unit="list", file=terminal) as bar:
        bar.update()
        bar.update()
    assert "publish performance:   0%" in terminal.getvalue() and "0/2" in terminal.getvalue()
    quiet = progress(step="publish performance", total=2, file=io.StringIO())
    with quiet as bar:  # the stand-in takes every call a step makes
        bar.update()
        bar.set_postfix_str("lists")
    assert list(quiet) == []


# --- the commands, on a terminal and not --------------------------------------------------

def _commands(files: dict[str, Path], folder: Path) -> list[list[str]]:
    """Every command with a bar, on the small federation: run, site, explain --all, a
    scenario, compare, evaluate."""
    w = str(folder / "w.duckdb")
    rules = folder / "quota.toml"
    rules.write_text("senior_quota = 12\n")
    return [["run", "--players", str(files["players"]), "--ratings", str(files["ratings"]), "--games",
             str(files["games"]), "--warehouse", w, "--out", str(folder / "out"), "--format", "csv,txt"],
            ["site", "--out", str(folder / "site"), "--lang", "en", "--warehouse", w],
            ["explain", "--all", "--list", "2027-01", "--out", str(folder / "cards"), "--warehouse", w],
            ["scenario", "quota", "--rules", str(rules), "--warehouse", w],
            ["compare", "performance", "quota", "--out", str(folder / "compare"), "--warehouse", w],
            ["evaluate", "--warehouse", w]]


def _on_a_terminal(args: list[str], cwd: Path) -> str:
    """`ratings ARGS` with standard error on a pseudo-terminal (100 columns), as a
    user's shell gives it: what the terminal received."""
    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    received = bytearray()

    def read() -> None:
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal closed with the process
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        done = subprocess.run([RATINGS, *args], stdout=subprocess.DEVNULL, stderr=secondary, cwd=cwd, timeout=300)
    finally:
        os.close(secondary)
        reader.join(timeout=10)
        os.close(main)
    assert done.returncode == 0, (args, received.decode(errors="replace"))
    return received.decode(errors="replace")


@pytest.mark.slow
def test_a_terminal_gets_each_steps_bar_and_captured_output_none(tmp_path):
    shown = tmp_path / "terminal"
    shown.mkdir()
    files = write_small_federation(shown)
    drawn = [_on_a_terminal(args, shown) for args in _commands(files, shown)]
    for name, text in zip(("validate", "site", "cards of 2027-01", "rate quota", "compare", "evaluate"), drawn):
        assert name in text and "\r" in text, (name, text)
    assert "rate performance" in drawn[0] and "publish performance" in drawn[0]
    # The same commands with their output captured (a pipe, as cron or a CI job has it):
    # every line the commands print, no bar.
    captured = tmp_path / "captured"
    captured.mkdir()
    files = write_small_federation(captured)
    for args in _commands(files, captured):
        done = subprocess.run([RATINGS, *args], capture_output=True, text=True, cwd=captured, timeout=300)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip(), args  # the command did say what it did
        for mark in BAR_MARKS:
            assert mark not in done.stdout + done.stderr, (args, mark)


def test_the_in_process_cli_captures_no_bar(cli, tmp_path):
    files = write_small_federation(tmp_path)
    for args in _commands(files, tmp_path):
        said = cli(*args).output
        assert said.strip()
        for mark in BAR_MARKS:
            assert mark not in said, (args, mark)


# --- the pairing files' settings ------------------------------------------------------------

@pytest.fixture
def published(published_once, tmp_path):
    """A copy of the small federation the session rated and published (tests/conftest.py)."""
    return copy_built(published_once, tmp_path)


def _pairing_files(cli, w: Path, out: Path) -> tuple[dict[int, str], dict[str, list[str]]]:
    """Publish the CSV and pairing files of `w` into `out`: list 2027-01's TXT lines by
    player id, and its Swiss-Manager rows (the header included) split into their fields."""
    cli("publish", "--warehouse", w, "--out", out, "--format", "csv,txt,swiss-manager", "--no-reports")
    lines = (out / "lists" / "2027-01.txt").read_text(encoding="utf-8").splitlines()
    rows = (out / "lists" / "2027-01-swiss-manager.csv").read_bytes().decode("utf-8").split("\r\n")
    fields = [[f.strip('"') for f in row.split(";")] for row in rows if row]
    return {int(line[:15]): line for line in lines[1:]}, {f[0]: f for f in fields}


def _list(out: Path) -> pd.DataFrame:
    return pd.read_csv(out / "lists" / "2027-01.csv").set_index("player_id")


def test_without_settings_no_federation_and_no_birth_year(cli, published, tmp_path, monkeypatch):
    w, out = published
    monkeypatch.chdir(tmp_path)  # no ratings.toml here
    txt, sm = _pairing_files(cli, w, tmp_path / "plain")
    anna = txt[1]  # Anna Rated, born 1980: the registry gives no federation
    assert anna[76:79] == "   " and anna[126:130].strip() == ""
    assert sm["ID_No"][3] == "Fed" and sm["ID_No"][6] == "Birthday"
    assert sm["1"][3] == "" and sm["1"][6] == ""


def test_the_settings_fill_fed_and_print_the_birth_year(cli, published, tmp_path, monkeypatch):
    w, out = published
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").write_text('federation = "BEL"\npublish_birth_year = true\n')
    txt, sm = _pairing_files(cli, w, tmp_path / "pairing")
    rating, games = _list(out).loc[1, ["rating", "games"]]
    anna = txt[1]
    # FIDE's columns, 1-based: ID 1-15, Name 16-76, Fed 77-79, the rating 114-117, Gms 120-122,
    # B-day 127-130; Sex, titles, FOA and K blank between them (the small federation has none).
    assert anna[:15] == "1".ljust(15) and anna[15:76] == "Anna Rated".ljust(61)
    assert anna[76:80] == "BEL " and anna[80:113] == " " * 33
    assert anna[113:119] == str(rating).ljust(6) and anna[119:123] == str(games).ljust(4)
    assert anna[123:126] == "   " and anna[126:130] == "1980" and len(anna) == 130  # no flag: the line ends
    assert txt[2][126:130] == "1975" and txt[3][126:130] == "1990"
    # Swiss-Manager: the year alone in Birthday (the registry knows no day), Fed from the setting.
    assert sm["1"] == ["1", "Anna Rated", "", "BEL", "", "Club A", "1980", str(rating), "", "", ""]
    # The public list is the same with the settings as without, byte for byte.
    assert (tmp_path / "pairing" / "lists" / "2027-01.csv").read_bytes() == (out / "lists" / "2027-01.csv").read_bytes()


def test_swiss_manager_birthday_is_the_year_alone_or_blank():
    from pipeline.formats.list_files import swiss_manager_csv

    frame = pd.DataFrame({"player_id": [1, 2], "name": ["Ann", "Bob"], "federation": [None, "NOR"],
                          "sex": ["F", "M"], "title": [None, None], "rating": [1800, 1700], "games": [3, 4],
                          "estimated": [False, False], "birth_year": [1980.0, None]})
    header, ann, bob = swiss_manager_csv(frame, federation="BEL").split("\r\n")[:3]
    assert header.split(";")[6] == '"Birthday"'
    # No day or month is made up; a player without a year has an empty field, not "nan" or "0".
    assert ann == '"1";"Ann";"F";"BEL";"";"";"1980";"1800";"";"";""'
    assert bob == '"2";"Bob";"M";"NOR";"";"";"";"1700";"";"";""'


def test_a_registry_federation_wins_over_the_setting(cli, tmp_path, monkeypatch):
    players = write_rows(tmp_path / "p.csv", ["player_id", "name", "birth_year", "club", "federation"],
                         [[1, "Nor Guest", 1970, "A", "NOR"], [2, "Home Player", 1971, "A", ""]])
    ratings = write_rows(tmp_path / "r.csv", ["player_id", "rating"], [[1, 1800], [2, 1700]])
    games = write_rows(tmp_path / "g.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 2, "1-0"], ["2026-09-06", 2, 1, "1-0"]])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").write_text('federation = "BEL"\n')
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", tmp_path / "w.duckdb",
        "--out", tmp_path / "out", "--format", "csv,txt,swiss-manager", "--no-reports")
    lines = (tmp_path / "out" / "lists" / "2027-01.txt").read_text().splitlines()[1:]
    assert {int(line[:15]): (line[76:79], line[126:130].strip()) for line in lines} == {1: ("NOR", ""),
                                                                                        2: ("BEL", "")}


def test_only_the_pairing_files_carry_the_birth_year(cli, tmp_path, monkeypatch):
    # Birth years no number of this federation can equal: ratings of 1000-1200 keep every
    # rating, performance and card figure far below them, and the dates are in 2026.
    years = {1: 1951, 2: 1967, 3: 1973, 4: 1989}
    players = write_rows(tmp_path / "p.csv", ["player_id", "name", "birth_year", "club"],
                         [[p, f"Player {p}", y, "Club"] for p, y in years.items()])
    ratings = write_rows(tmp_path / "r.csv", ["player_id", "rating"], [[1, 1200], [2, 1100], [3, 1000], [4, 1000]])
    games = write_rows(tmp_path / "g.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-09-05", 1, 2, "1-0"], ["2026-09-06", 3, 4, "1/2-1/2"], ["2026-09-12", 2, 3, "0-1"],
        ["2026-09-13", 4, 1, "0-1"]])
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").write_text("publish_birth_year = true\n")
    w, out, site = tmp_path / "w.duckdb", tmp_path / "out", tmp_path / "site"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w, "--out", out,
        "--format", "csv,parquet,txt,swiss-manager", "--csv-dialect", "excel")  # the HTML reports too
    cli("site", "--out", site, "--lang", "en", "--warehouse", w)
    pairing = [p for p in out.rglob("*") if p.name.endswith((".txt", "-swiss-manager.csv"))]
    assert pairing and all(str(years[1]) in p.read_text() for p in pairing)  # the setting took effect
    others = [p for folder in (out, site) for p in folder.rglob("*") if p.is_file() and p not in pairing]
    assert any(p.suffix == ".parquet" for p in others) and any(p.suffix == ".html" for p in others)
    for path in others:
        if path.suffix == ".parquet":
            frame = pq.read_table(path).to_pandas()
            assert "birth_year" not in frame.columns, path
            text = frame.to_csv()
        else:
            text = path.read_bytes().decode("utf-8", errors="replace")
        for year in years.values():
            assert str(year) not in text, (path, year)


@pytest.mark.parametrize("settings, refused", [
    ('publish_birth_year = "true"\n', "publish_birth_year must be true or false, without quotes, not 'true'"),
    ("publish_birth_year = 1\n", "publish_birth_year must be true or false"),
    ('federation = "Belgium"\n', "federation must be a federation's three capital letters"),
    ('federation = "bel"\n', "federation must be a federation's three capital letters"),
])
def test_a_setting_the_pairing_files_cannot_take_is_refused(cli, published, tmp_path, monkeypatch, settings,
                                                            refused):
    w, _ = published
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").write_text(settings)
    said = cli("publish", "--warehouse", w, "--out", tmp_path / "pairing", "--format", "txt", ok=False)
    assert said.exit_code == 1 and refused in said.output and "Traceback" not in said.output
    assert not (tmp_path / "pairing" / "lists" / "2027-01.txt").exists()
    # Only the pairing files read them: the CSV lists publish as before.
    cli("publish", "--warehouse", w, "--out", tmp_path / "csv", "--no-reports")
    assert (tmp_path / "csv" / "lists" / "2027-01.csv").exists()


def test_run_refuses_the_settings_before_taking_anything_in(cli, tmp_path, monkeypatch):
    files = write_small_federation(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").write_text('publish_birth_year = "yes"\n')
    w = tmp_path / "w.duckdb"
    said = cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
               "--warehouse", w, "--out", tmp_path / "out", "--format", "csv,txt", ok=False)
    assert said.exit_code == 1 and "publish_birth_year must be true or false" in said.output
    import duckdb

    con = duckdb.connect(str(w), read_only=True)
    try:
        assert con.execute("select count(*) from submissions").fetchone()[0] == 0
    finally:
        con.close()


def test_a_changed_setting_never_rewrites_a_published_revision(cli, published, tmp_path, monkeypatch):
    w, _ = published
    monkeypatch.chdir(tmp_path)
    pairing = tmp_path / "pairing"
    _pairing_files(cli, w, pairing)
    before = (pairing / "lists" / "2027-01-r1.txt").read_bytes()
    (tmp_path / "ratings.toml").write_text("publish_birth_year = true\n")
    said = cli("publish", "--warehouse", w, "--out", pairing, "--format", "csv,txt,swiss-manager", "--no-reports",
               ok=False)
    # The record of the folder's publication holds the settings: the lists are built again,
    # and the revision already published is refused, the message naming the settings.
    assert said.exit_code == 1 and "publish_birth_year changed since" in said.output
    assert (pairing / "lists" / "2027-01-r1.txt").read_bytes() == before
    txt, sm = _pairing_files(cli, w, tmp_path / "with-years")
    assert txt[1][126:130] == "1980" and sm["1"][6] == "1980"
