"""The site players use, as the README and docs/site.md show it, on a copy of the season
published: `ratings site --out site --pending` with the games received for the next list,
served by `python -m http.server -d site PORT`; the downloads checked by `sha256sum -c`; a
re-run that rewrites nothing, then only what a late result changed. And a list whose window
is still open."""
from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from tests.workflows.helpers import (
    audit_ok,
    copied,
    in_manual,
    query,
    said,
    shell,
    user_env,
)
from tests.workflows.inputs import SEASON_LIST, read_csv, write_csv
from tests.workflows.season import TODAY

SITE = "ratings site --out site --pending        # four languages; the next list's games for players to check"
SERVE = "python -m http.server -d site 8000       # to look at it locally: http://localhost:8000/"
NEXT_LIST = "2027-05"


def run(line: str, folder: Path, expect: int | tuple[int, ...] | None = 0):
    return shell(line, folder, expect=expect, env=user_env(today=TODAY))


def january_game(folder: Path) -> tuple[str, str]:
    """A league game of January 3rd, for the next list (2027-05: the games of 2027-01-01 on)."""
    header, rows = read_csv(folder / "league-v2.csv")
    white, black = rows[50][header.index("white_id")], rows[50][header.index("black_id")]
    write_csv(folder / "january.csv", ["date", "white_id", "black_id", "result", "event", "round"],
              [["2027-01-03", white, black, "1/2-1/2", "Winter open", "1"]])
    return white, black


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetched(url: str, server: subprocess.Popen) -> bytes:
    deadline = time.monotonic() + 60  # the server takes a moment to listen, on a busy machine too
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.read()
        except OSError:
            assert server.poll() is None, f"the server stopped (exit status {server.returncode})"
            assert time.monotonic() < deadline, f"{url}: no answer"
            time.sleep(0.1)


def test_the_commands_are_the_readmes():
    assert in_manual("README.md", f"{SITE}\n{SERVE}")


def test_the_site_with_the_next_lists_games_served_as_the_readme_shows(season, tmp_path):
    folder = copied(season.folder, tmp_path / "season")
    white, black = january_game(folder)
    run("ratings ingest january.csv && ratings validate", folder)  # received, not yet rated
    built = run(SITE, folder)
    assert "pages in 4 languages" in built.stdout
    site = folder / "site"
    for lang in ("en", "fr", "nl", "de"):
        assert (site / lang / "index.html").is_file() and (site / lang / "lists" / f"{SEASON_LIST}.html").is_file()
        assert (site / lang / "pending" / "index.html").is_file() and (site / lang / "pending" / f"{white}.html").is_file()
    pending = (site / "en" / "pending" / f"{black}.html").read_text()
    assert "january.csv" in pending and NEXT_LIST in pending  # the file it came from, the list it waits for
    assert (site / "api" / "v1" / "pending" / f"{white}.json").is_file()
    run("sha256sum -c SHA256SUMS", site / "downloads" / SEASON_LIST)
    port = free_port()
    server = subprocess.Popen(["bash", "-c", SERVE.split("#")[0].replace("8000", str(port))], cwd=folder,
                              env=user_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert b"<html" in fetched(f"http://127.0.0.1:{port}/", server).lower()
        lists = json.loads(fetched(f"http://127.0.0.1:{port}/api/v1/lists.json", server))
        assert SEASON_LIST in json.dumps(lists)
        assert f"{white}".encode() in fetched(f"http://127.0.0.1:{port}/en/pending/{white}.html", server)
    finally:
        server.kill()
        server.wait(timeout=30)
    again = run(SITE, folder)
    assert " 0 files changed," in again.stdout
    audit_ok(folder)


def test_a_late_result_rewrites_only_what_it_changed(season, tmp_path):
    folder = copied(season.folder, tmp_path / "season")
    first = run(SITE, folder)
    total = int(first.stdout.split(" files changed")[0].split()[-1].replace(",", ""))
    header, rows = read_csv(folder / "league-v2.csv")
    white, black = rows[60][header.index("white_id")], rows[60][header.index("black_id")]
    write_csv(folder / "late.csv", ["date", "white_id", "black_id", "result", "event"],
              [["2026-12-20", white, black, "1-0", "Late club game"]])
    run("ratings run --games late.csv", folder)
    again = run(SITE, folder)
    changed = int(again.stdout.split(" files changed")[0].split()[-1].replace(",", ""))
    assert 0 < changed < total / 2, again.stdout
    assert SEASON_LIST in (folder / "site" / "en" / "players" / f"{white}.html").read_text()
    audit_ok(folder)


def test_a_list_whose_window_is_open(season, tmp_path):
    """A run on January 5th with a game of January 3rd: the list of May (2027-05) rates the
    games of January to April. A list is computed once its window has closed (docs/commands.md,
    "When a list is computed"): until then the run says the game waits, and --pending shows it."""
    folder = copied(season.folder, tmp_path / "season")
    white, _ = january_game(folder)
    done = run("ratings run --games january.csv", folder)
    computed = query(folder / "data" / "warehouse.duckdb", "select list_id from lists where list_id = ?", [NEXT_LIST])
    assert computed == [] and not (folder / "reports" / "lists" / f"{NEXT_LIST}.csv").exists(), said(done)
    assert f"Waiting: 1 game waits for list {NEXT_LIST}, computed from {NEXT_LIST}-01" in said(done), said(done)
    run("ratings site --out site --pending", folder)
    assert (folder / "site" / "en" / "pending" / f"{white}.html").is_file()
    audit_ok(folder)
