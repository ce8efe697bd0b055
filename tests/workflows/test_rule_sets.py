"""Each rule set as its page shows it (docs/fide.md, docs/glicko2.md, docs/go.md,
docs/rule-sets.md): FIDE's and Glicko-2's lists from the season's files, alone and beside
the national lists in one warehouse (each the same bytes as in a warehouse of its own: one
rule set never changes another's), FIDE's events file, card and TXT list; parameters from
a file; the Belgian Go rules from a club's files then a tournament file, a correction, and
the French rules of 1984 from a real .tou; a Go rule set refused beside chess."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.workflows.helpers import audit_ok, digests, in_manual, query, said, shell
from tests.workflows.inputs import GO_FIXTURES, read_csv, write_csv

FIDE = "ratings run --system fide --players p.csv --ratings r.csv --games g.csv --warehouse fide.duckdb --out fide/"
GLICKO2 = ("ratings run --system glicko2 --players players.csv --ratings ratings.csv --games games.csv \\\n"
           "    --warehouse w.duckdb --out lists/")
GO = ("ratings run --system go-belgium --players players.csv --events events.csv --games games.csv \\\n"
      "    [--ratings start.csv] --warehouse go.duckdb --out go/")
GO_TOURNAMENT = "ratings run --system go-belgium --games tournament.xml --register-new --warehouse go.duckdb --out go/"
QUOTA = "# a lower senior quota, as proposed\nsenior_quota = 12\ncompatibility_gap = 400\n"


@pytest.fixture
def chess(season, tmp_path) -> Path:
    """The season's files under the names the pages give them."""
    for source, names in (("registry.csv", ("p.csv", "players.csv")), ("ratings.csv", ("r.csv", "ratings.csv")),
                          ("league-v2.csv", ("g.csv", "games.csv"))):
        for name in names:
            shutil.copyfile(season.folder / source, tmp_path / name)
    return tmp_path


def test_the_commands_are_the_manuals():
    assert in_manual("docs/fide.md", FIDE) and in_manual("docs/glicko2.md", GLICKO2) and in_manual("docs/go.md", GO)
    assert in_manual("docs/go.md", GO_TOURNAMENT) and in_manual("docs/rule-sets.md", QUOTA)


def test_fide_and_glicko2_alone_and_beside_the_national_lists(chess):
    fide = shell(FIDE, chess)
    assert "Rate" in fide.stdout
    monthly = sorted(p.name for p in (chess / "fide" / "lists").glob("????-??.csv"))
    assert monthly and all(name[:7] >= "2026-10" for name in monthly)  # one list a month, from the games' months
    shell(GLICKO2.replace("w.duckdb", "g2.duckdb").replace("lists/", "glicko2-alone/"), chess)
    # One warehouse: the national lists, then FIDE's and Glicko-2's beside them (docs/glicko2.md:
    # "adds it: its lists are published in lists/glicko2/").
    shell("ratings run --players players.csv --ratings ratings.csv --games games.csv --warehouse w.duckdb "
          "--out lists/", chess)
    shell("ratings run --system fide --warehouse w.duckdb --out lists/", chess)
    shell("ratings run --system glicko2 --warehouse w.duckdb --out lists/", chess)
    assert {p.name for p in (chess / "lists").iterdir()} >= {"lists", "state", "fide", "glicko2"}
    shell("ratings run --players players.csv --ratings ratings.csv --games games.csv --warehouse alone.duckdb "
          "--out alone/", chess)
    for mine, alone in (("lists/lists", "alone/lists"), ("lists/fide/lists", "fide/lists"),
                        ("lists/glicko2/lists", "glicko2-alone/lists")):
        assert digests(chess / mine) == digests(chess / alone), mine
    for warehouse in ("fide.duckdb", "g2.duckdb", "w.duckdb"):
        audit_ok(chess, "--warehouse", warehouse)


def test_fide_events_file_card_and_txt_list(chess):
    """docs/fide.md: an events file names each event (its games rated whole on the list after
    its last day, X1); the card says each event's K and why; the TXT list carries K."""
    header, rows = read_csv(chess / "g.csv")
    event, date = header.index("event"), header.index("date")
    days: dict[str, list[str]] = {}
    for row in rows:
        days.setdefault(row[event], []).append(row[date])
    slug = {name: re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") for name in days}  # an id names files
    write_csv(chess / "events.csv", ["event_id", "name", "start_date", "end_date"],
              [[slug[name], name, min(d), max(d)] for name, d in sorted(days.items())])
    write_csv(chess / "games.csv", header, [[slug[v] if i == event else v for i, v in enumerate(row)] for row in rows])
    shell("ratings run --system fide --events events.csv --games games.csv --players p.csv --ratings r.csv "
          "--warehouse fide.duckdb --out fide/ --format csv,parquet,txt", chess)
    player = rows[0][header.index("white_id")]
    lists = [list_id for (list_id,) in query(chess / "fide.duckdb", "select list_id from calculations where "
                                                                     "series = 'fide' and player_id = ? and games_played > 0 "
                                                                     "order by list_id", [int(player)])]
    assert lists, player
    card = shell(f"ratings explain {player} --list {lists[0]} --system fide --warehouse fide.duckdb", chess)
    assert "FIDE rules" in card.stdout and "K = " in card.stdout
    named = [line for line in card.stdout.splitlines() if line.startswith("Event: ")]
    assert named and all(line[len("Event: "):].split(" (")[0] in days for line in named)  # the events file's names
    txt = (chess / "fide" / "lists" / f"{lists[-1]}.txt").read_text().splitlines()
    assert " K " in txt[0] and "Gms" in txt[0]
    audit_ok(chess, "--warehouse", "fide.duckdb")


def test_parameters_from_a_file(season, tmp_path):
    folder = tmp_path / "season"
    shutil.copytree(season.folder, folder)
    (folder / "quota.toml").write_text(QUOTA)
    shell("ratings run --rules quota.toml", folder)
    reason, = query(folder / "data" / "warehouse.duckdb",
                    "select reason from list_revisions where list_id = '2027-01' order by revision desc limit 1")
    assert reason == ("the rule set's parameters changed (--rules)",)
    (folder / "typo.toml").write_text("senior_qouta = 12\n")
    refused = shell("ratings run --rules typo.toml", folder, expect=1)
    assert "senior_qouta: not a parameter of the performance rules" in said(refused)
    audit_ok(folder)


def test_the_belgian_go_rules_from_a_clubs_files_then_a_tournament_file(tmp_path):
    write_csv(tmp_path / "players.csv", ["player_id", "name", "grade"], [[1, "Anna", "20k"], [2, "Bram", "20k"],
                                                                         [3, "Cleo", "NC"]])
    write_csv(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"],
              [["club-1", "Club night 1", "2024-05-10", "2024-05-10", "C", 19],
               ["club-2", "Club night 2", "2024-05-17", "2024-05-17", "C", 19],
               ["open-1", "Spring open", "2024-06-01", "2024-06-02", "B", 19]])
    write_csv(tmp_path / "games.csv", ["event_id", "date", "black_id", "white_id", "winner", "handicap"],
              [["club-1", "2024-05-10", 1, 2, "B", 0], ["club-2", "2024-05-17", 2, 1, "W", 1],
               ["open-1", "2024-06-01", 3, 2, "B", 0], ["open-1", "2024-06-02", 1, 3, "B", 0]])
    shell(GO.replace(" [--ratings start.csv]", ""), tmp_path)
    assert sorted(p.name for p in (tmp_path / "go" / "state").iterdir()) == \
        ["club-1.parquet", "club-2.parquet", "open-1.parquet"]
    shutil.copyfile(GO_FIXTURES / "pairgoth_bosp2024_excerpt.xml", tmp_path / "tournament.xml")
    taken = shell(GO_TOURNAMENT, tmp_path)
    assert "11 players (0 in the registry, 11 new), 9 games" in taken.stdout
    assert "every game dated 2024-07-06" in taken.stdout  # what the reader assumed, said
    assert (tmp_path / "go" / "state" / "bosp2024.parquet").is_file()
    assert {"current.csv", "current.parquet"} <= {p.name for p in (tmp_path / "go" / "lists").iterdir()}
    card = shell("ratings explain 1 --list open-1 --warehouse go.duckdb", tmp_path)
    assert card.stdout.startswith("Anna (1), event open-1: Spring open") and "ruling G1" in card.stdout
    shell("ratings correct 1 --list open-1 --rating -1800 --reason \"club's appeal\" --warehouse go.duckdb", tmp_path)
    rerated = shell("ratings run --warehouse go.duckdb --out go/", tmp_path)
    assert [line.split()[0] for line in rerated.stdout.splitlines() if line.startswith("  open-1 ")
            or line.startswith("  bosp2024 ")] == ["open-1", "bosp2024"]  # that event and every later one
    rule, = query(tmp_path / "go.duckdb", "select rule from go_history where player_id = 1 and event_id = 'open-1'")
    assert rule == ("correction by the rating commission: club's appeal",)
    audit_ok(tmp_path, "--warehouse", "go.duckdb")


def test_the_french_rules_of_1984_from_a_real_tou_file_and_go_refused_beside_chess(tmp_path):
    shutil.copyfile(GO_FIXTURES / "opengotha_juvisy_2019.tou", tmp_path / "juvisy.tou")
    done = shell("ratings run --system go-ffg1984 --games juvisy.tou --register-new --warehouse ffg.duckdb --out ffg/",
                 tmp_path)
    assert "juvisy.tou  read 36 = accepted 36 + rejected 0" in done.stdout
    assert [p.suffix for p in (tmp_path / "ffg" / "state").iterdir()] == [".parquet"]
    audit_ok(tmp_path, "--warehouse", "ffg.duckdb")
    shell("ratings run --sample --warehouse chess.duckdb --out chess/ --no-reports", tmp_path)
    refused = shell("ratings run --system go-belgium --warehouse chess.duckdb --out go/", tmp_path, expect=1)
    assert ("this warehouse holds chess (performance); the go-belgium rules rate go games: give them a warehouse "
            "of their own") in said(refused)
