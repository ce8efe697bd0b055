"""Every listing command prints a table, CSV or JSON with the same columns (`--format`);
`compare` and `evaluate` read a file of ratings by its own column names (`--columns`),
the Belgian federation's file as shipped included; the messages of the rating officer's
checklist (issue 39) name what they are about."""
from __future__ import annotations

import csv
import datetime as dt
import io
import json

import duckdb
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from tests.conftest import PROJECT_DIR, cli_runner, copy_built, write_rows, write_small_federation
from tests.test_go_pipeline import go_files  # noqa: F401 (a fixture)
from tests.workflows.inputs import BELGIUM, list_windows

BELGIAN = PROJECT_DIR / "tests" / "fixtures" / "belgium" / "official_ratings.parquet"  # as shipped: list_period
SAMPLE = PROJECT_DIR / "data" / "sample"


@pytest.fixture(scope="module")
def record_once(tmp_path_factory):
    """The small federation rated, then a file with a date that is no day and a
    self-game, a correction to 1850 and the scenario quota12."""
    folder = tmp_path_factory.mktemp("record")
    cli = cli_runner()
    files = write_small_federation(folder)
    w = folder / "w.duckdb"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        "--warehouse", w, "--out", folder / "out", "--no-reports")
    late = write_rows(folder / "late.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-11-31", 1, 2, "1-0"],  # 1 the layout of a date, and no day of the calendar
        ["2026-10-10", 7, "007", "1-0"],  # 2 player 7 against themself
    ])
    cli("run", "--games", late, "--warehouse", w, "--out", folder / "out", "--no-reports", rejected=True)
    cli("correct", 2, "--list", "2027-01", "--rating", 1850, "--reason", "appeal", "--warehouse", w)
    (folder / "quota12.toml").write_text("senior_quota = 12\n")
    cli("scenario", "quota12", "--rules", folder / "quota12.toml", "--warehouse", w)
    return folder


@pytest.fixture
def record(record_once, tmp_path):
    return copy_built(record_once, tmp_path, ["w.duckdb"])[0]


def listed(cli, *args) -> tuple[list[dict], list[dict], list[str]]:
    """The command's rows in JSON and in CSV (each parsed), and its table's header."""
    as_json = cli(*args, "--format", "json").stdout
    rows = json.loads(as_json)
    assert isinstance(rows, list)
    as_csv = list(csv.DictReader(io.StringIO(cli(*args, "--format", "csv").stdout)))
    header = cli(*args, "--format", "table").stdout.splitlines()[0].split()
    return rows, as_csv, header


# Each listing: its arguments, its columns, and a row it must hold (JSON-typed values).
LISTINGS = {
    "submissions": ((), ["id", "name", "format", "by", "at", "status", "read", "stored", "rejected", "fixed",
                         "withdrawn"], {"name": "late.csv", "read": 2, "stored": 0, "rejected": 2}),
    "rejects": ((), ["submission", "file_name", "file", "kind", "row", "reason"],
                {"file_name": "late.csv", "kind": "games", "row": 2,
                 "reason": "a player plays against themself (player 7)"}),
    "revisions": ((), ["list_id", "revision", "computed_at", "run_id", "players_changed", "reason"],
                  {"list_id": "2027-01", "revision": 1, "reason": "first computed"}),
    "corrections": ((), ["id", "series", "player_id", "name", "list_id", "rating", "reason", "by", "entered_at",
                         "status"], {"player_id": 2, "name": "Bert Rated", "rating": 1850, "status": "in force"}),
    "scenarios": ((), ["scenario", "rule_set", "changes", "lists", "made_in_run", "computed_at"],
                  {"scenario": "quota12", "changes": "senior_quota = 12", "lists": 2}),
    "series": ((), ["series", "rule_set", "kind", "lists", "from"],
               {"series": "quota12", "rule_set": "performance", "kind": "scenario", "lists": 2,
                "from": "the pipeline's own"}),
    "query": (("select list_id, players_rated, window_start, null as nothing from lists "
               "where series = 'performance' order by list_id",),
              ["list_id", "players_rated", "window_start", "nothing"],
              {"list_id": "2027-01", "players_rated": 5, "window_start": "2026-09-01", "nothing": None}),
    "evaluate": (("--system", "performance"), ["source", "list_id", "games", "log_loss", "brier", "white_score",
                                               "expected"], {"source": "performance", "list_id": None}),
    "compare": (("performance", "quota12", "--out", "{tmp}/cmp"),
                ["list_id", "b_list_id", "list_date", "players", "mean_a", "mean_b"],
                {"list_id": "2027-01", "b_list_id": "2027-01", "list_date": "2027-01-01", "players": 5}),
}


@pytest.mark.parametrize("command", sorted(LISTINGS))
def test_every_listing_prints_the_same_columns_as_a_table_csv_and_json(cli, record, tmp_path, command):
    args, columns, expected = LISTINGS[command]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    rows, as_csv, header = listed(cli, command, *args, "--warehouse", record)
    keys = list(rows[0])
    assert keys[:len(columns)] == columns  # the listing may carry more columns after these (submissions' note)
    assert all(list(r) == keys for r in rows)
    assert list(as_csv[0]) == keys and header == keys and len(as_csv) == len(rows)
    assert any(all(r.get(k) == v for k, v in expected.items()) for r in rows), rows
    # Typed: numbers are numbers (CSV has their text), a missing value is null (CSV: empty).
    number = next(k for k in keys if isinstance(rows[0][k], int | float) and not isinstance(rows[0][k], bool))
    assert as_csv[0][number] == str(rows[0][number])
    assert all(as_csv[i][k] == "" for i, r in enumerate(rows) for k in keys if r[k] is None)


def test_times_in_json_are_iso_and_the_table_says_nothing_else(cli, record):
    rows = json.loads(cli("revisions", "--warehouse", record, "--format", "json").stdout)
    assert [r["list_id"] for r in rows] == ["2027-01", "2027-05"]
    assert all(dt.datetime.fromisoformat(r["computed_at"]).year >= 2026 for r in rows)
    # CSV and JSON print only the listing: `compare`'s timing and folder line go to stderr.
    printed = cli("compare", "performance", "quota12", "--warehouse", record, "--out", record.parent / "c",
                  "--table", "drift", "--format", "json")
    assert {r["source"] for r in json.loads(printed.stdout)} == {"performance", "quota12"}
    assert "Compare took" in printed.stderr and "tables and page written to" in printed.stderr


def test_an_empty_listing_is_an_empty_array_and_a_header(cli, tmp_path):
    files = write_small_federation(tmp_path)
    w = tmp_path / "w.duckdb"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert json.loads(cli("scenarios", "--warehouse", w, "--format", "json").stdout) == []
    assert cli("scenarios", "--warehouse", w, "--format", "csv").stdout.splitlines() == [
        "scenario,rule_set,changes,lists,made_in_run,computed_at"]
    assert "no scenario" in cli("scenarios", "--warehouse", w).stdout
    assert json.loads(cli("corrections", "--warehouse", w, "--format", "json").stdout) == []
    assert json.loads(cli("rejects", "--warehouse", w, "--format", "json").stdout) == []


def test_the_messages_name_the_file_the_player_the_day_and_the_lists(cli, record, tmp_path):
    rejects = cli("rejects", "--warehouse", record).stdout
    assert "late.csv" in rejects  # the file by its name, not only its submission
    assert "date: not a calendar date (2026-11-31)" in rejects
    assert "a player plays against themself (player 7)" in rejects
    corrections = cli("corrections", "--warehouse", record).stdout
    assert " 1850 " in corrections and "1850.0" not in corrections  # as the performance rules publish it
    said = cli("explain", 1, "--list", "2017-06", "--warehouse", record, ok=False)
    assert said.exit_code == 1 and "Traceback" not in said.output
    assert "no list '2017-06' in performance: its lists are 2027-01 … 2027-05" in said.output
    said = cli("explain", "--all", "--out", tmp_path / "cards", "--list", "2017-06", "--warehouse", record, ok=False)
    assert said.exit_code == 1 and "its lists are 2027-01 … 2027-05" in said.output
    out = tmp_path / "x.csv"
    said = cli("query", "select list_id from lists", "--out", out, "--warehouse", record).stdout
    assert said.strip() == f"4 rows written to {out}"  # two lists of performance, two of quota12
    assert len(list(csv.DictReader(out.open()))) == 4


def test_go_corrections_list_points_as_stored(cli, go_files, tmp_path):  # noqa: F811
    w = tmp_path / "go.duckdb"
    cli("run", "--system", "go-belgium", "--players", go_files["players"], "--events", go_files["events"],
        "--games", go_files["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    cli("correct", 1, "--list", "club-1", "--rating", -1900.5, "--reason", "appeal", "--warehouse", w)
    assert json.loads(cli("corrections", "--warehouse", w, "--format", "json").stdout)[0]["rating"] == -1900.5
    assert " -1900.5 " in cli("corrections", "--warehouse", w).stdout


def test_rejects_refuses_a_format_with_out(cli, record, tmp_path):
    refused = cli("rejects", "--out", tmp_path / "fix.csv", "--format", "json", "--warehouse", record, ok=False)
    assert refused.exit_code == 2 and "--format prints the listing, --out writes the rejects" in refused.output
    assert not (tmp_path / "fix.csv").exists()


# --- the Belgian federation's own file, as shipped ------------------------------------------------

@pytest.fixture(scope="module")
def belgian_once(tmp_path_factory):
    """A warehouse of the embedded sample's 300 most active players (the players of the
    Belgian excerpt) and their games among them: lists 2019-01, 2019-05, 2019-09."""
    folder = tmp_path_factory.mktemp("belgium")
    con = duckdb.connect()
    con.execute(f"create table g as select * from read_csv('{SAMPLE / 'games.csv'}', all_varchar = true)")
    con.execute("""create table top as select p from (select white_id as p from g union all select black_id from g)
                   group by p order by count(*) desc, p::bigint limit 300""")
    for kind, where in (("players", "player_id"), ("ratings", "player_id")):
        con.execute(f"""copy (select * from read_csv('{SAMPLE / f'{kind}.csv'}', all_varchar = true)
                              where {where} in (select p from top)) to '{folder / f'{kind}.csv'}'""")
    con.execute(f"""copy (select * from g where white_id in (select p from top) and black_id in (select p from top))
                    to '{folder / 'games.csv'}'""")
    cli_runner()("run", "--players", folder / "players.csv", "--ratings", folder / "ratings.csv",
                 "--games", folder / "games.csv", "--warehouse", folder / "w.duckdb", "--out", folder / "out",
                 "--no-reports")
    return folder


@pytest.fixture
def belgian(belgian_once, tmp_path):
    return copy_built(belgian_once, tmp_path, ["w.duckdb"])[0]


def test_the_federations_file_is_compared_as_shipped(cli, belgian, tmp_path):
    assert pq.read_schema(BELGIAN).names == ["list_period", "player_id", "rating", "games_total"]
    lists = json.loads(cli("compare", "performance", BELGIAN, "--columns", "list_id=list_period", "--format", "json",
                           "--out", tmp_path / "cmp", "--warehouse", belgian).stdout)
    # Each list of the warehouse beside the federation's list in force on its first day:
    # YYYYMM read as the month it names (201904 is in force on 2019-05-01).
    assert [(r["list_id"], r["b_list_id"]) for r in lists] == [
        ("2019-01", "2019-01"), ("2019-05", "2019-04"), ("2019-09", "2019-07")]
    # The federation's mean on 2019-01 over the players both rate, from the file itself.
    rated = {r["player_id"] for r in json.loads(cli(
        "query", "select player_id from player_state where list_id = '2019-01' and rating is not null",
        "--format", "json", "--warehouse", belgian).stdout)}
    shipped = pq.read_table(BELGIAN).filter(pc.equal(pq.read_table(BELGIAN)["list_period"], "201901"))
    theirs = [r for p, r in zip(shipped["player_id"].to_pylist(), shipped["rating"].to_pylist()) if p in rated]
    first = lists[0]
    assert first["players"] == len(theirs) > 250
    assert first["mean_b"] == pytest.approx(sum(theirs) / len(theirs), abs=1e-9)


def test_the_federations_file_is_scored_once_it_says_its_windows(cli, belgian, tmp_path):
    # As shipped, its lists are dated by their month alone, and their months hold games they
    # would score (the window rule): refused, with the way out.
    refused = cli("evaluate", "--system", "performance", "--ratings", BELGIAN, "--columns", "list_id=list_period",
                  "--warehouse", belgian, ok=False)
    assert refused.exit_code == 1 and "is dated by its month alone" in refused.output
    assert "say when with a window_end column" in refused.output
    duckdb.sql(f"""copy (select o.*, w.window_end from '{BELGIAN}' o join ({list_windows(BELGIUM)}) w using (list_period))
                   to '{tmp_path / "official_ratings.parquet"}' (format parquet)""")
    printed = cli("evaluate", "--system", "performance", "--ratings", tmp_path / "official_ratings.parquet",
                  "--columns", "list_id=list_period", "--format", "csv", "--warehouse", belgian).stdout
    whole = {r["source"]: r for r in csv.DictReader(io.StringIO(printed)) if r["list_id"] == ""}
    assert set(whole) == {"performance", "official_ratings"}
    assert whole["performance"]["games"] == whole["official_ratings"]["games"]  # the same games, scored by both
    assert int(whole["performance"]["games"]) > 2000
    assert 0 < float(whole["official_ratings"]["log_loss"]) < 0.6931  # better than a coin


@pytest.mark.parametrize("columns, status, says", [
    (None, 1, "missing: list_id (the file has list_period, player_id, rating, games_total: map its own names "
              "with --columns"),
    ("list_id=period", 1, "--columns names period, not a column of the file (it has list_period, player_id, "
                          "rating, games_total)"),
    ("list=list_period", 2, "'list' is not a column of a file of ratings: map player_id, list_id, rating"),
    ("list_id", 2, "give COLUMN=FILE_COLUMN"),
])
def test_a_file_of_other_columns_is_refused_with_what_it_has(cli, belgian, columns, status, says):
    args = ("evaluate", "--ratings", BELGIAN, "--warehouse", belgian) + (("--columns", columns) if columns else ())
    refused = cli(*args, ok=False)
    assert refused.exit_code == status and says in refused.output
    assert "Traceback" not in refused.output


def test_columns_without_a_file_are_refused(cli, belgian, tmp_path):
    refused = cli("evaluate", "--system", "performance", "--columns", "list_id=list_period", "--warehouse", belgian,
                  ok=False)
    assert refused.exit_code == 2 and "--columns maps the columns of a file of ratings" in refused.output


def test_a_long_rejects_listing_says_what_the_table_leaves_out_and_json_holds_all(cli, small_federation, tmp_path):
    # 205 games against an unknown player: 205 open rejects. The table stops at 200 and says
    # 5 more; JSON, for a script, holds every one.
    import json

    from tests.conftest import write_rows
    bad = write_rows(tmp_path / "bad.csv", ["date", "white_id", "black_id", "result"],
                     [[f"2026-09-{1 + k % 28:02d}", 1, 99, "1-0" if k % 2 else "0-1"] for k in range(205)])
    w = tmp_path / "w.duckdb"
    cli("run", "--players", small_federation["players"], "--games", bad, "--warehouse", w,
        "--out", tmp_path / "out", "--no-reports", rejected=True)
    table = cli("rejects", "--warehouse", w).output
    assert table.count("is not in the player registry") == 200 and "… 5 more open rejects" in table
    assert len(json.loads(cli("rejects", "--format", "json", "--warehouse", w).output)) == 205
