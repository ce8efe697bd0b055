"""The README's first command on the embedded sample (`ratings run` in an empty folder),
and what the manual shows on it: the analysts' queries (docs/outputs.md), the history
exported, a card and a what-if (docs/commands.md), a file of ratings by its own column
names (`--columns`), the settings of ratings.toml and the environment.

`.ci/run` runs the README's first command against the installed wheel; here the same
command's promises are checked: where each file appears, a re-run that changes nothing, the
same bytes from another folder."""
from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from tests.conftest import PROJECT_DIR
from tests.workflows.helpers import audit_ok, copied, digests, query, said, shell, user_env

LISTS = ("2019-01", "2019-05", "2019-09")


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """The README: `ratings run` in an empty folder, once."""
    folder = tmp_path_factory.mktemp("sample")
    done = shell("ratings run", folder)
    assert "using the embedded sample" in done.stdout
    return folder


def test_the_readmes_run_writes_where_the_readme_says(sample):
    for list_id in LISTS:
        assert (sample / "reports" / "lists" / f"{list_id}.csv").is_file()
        assert (sample / "reports" / "lists" / f"{list_id}-r1.parquet").is_file()
        assert (sample / "reports" / "state" / f"{list_id}.parquet").is_file()
        assert (sample / "reports" / list_id / "index.html").is_file()
    assert (sample / "data" / "warehouse.duckdb").is_file()
    audit_ok(sample)


def test_a_second_run_changes_nothing_and_another_folder_gets_the_same_bytes(sample, tmp_path):
    again = copied(sample, tmp_path / "again")
    before = digests(again / "reports")
    assert "no file changed" in shell("ratings run", again).stdout
    assert digests(again / "reports") == before
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shell("ratings run --sample", elsewhere)
    assert digests(elsewhere / "reports") == before


def test_another_warehouse_that_holds_nothing_is_not_given_the_sample(sample, tmp_path):
    refused = shell("ratings run --warehouse other.duckdb", tmp_path, expect=2)  # a usage error: what to give
    assert "other.duckdb holds nothing yet and no input file was given: give the files" in said(refused)
    assert "--sample" in said(refused)


def test_the_analysts_queries(sample):
    top = shell("ratings query \"select * from top_players where list_id = '2019-09' and junior order by rank "
                "limit 10\"", sample)
    assert len(top.stdout.strip().splitlines()) == 11  # a header and ten players
    card = shell('ratings query "select * from player_card where player_id = 13815"', sample)
    assert len(card.stdout.strip().splitlines()) == 2 and "13815" in card.stdout.splitlines()[1]
    summary = shell('ratings query "select list_id, players_rated, mean_rating, biggest_gain, biggest_gain_player '
                    'from list_summary"', sample)
    assert [line.split()[0] for line in summary.stdout.strip().splitlines()[1:]] == list(LISTS)


def test_the_history_exported_is_every_rated_player_on_every_list(sample, tmp_path):
    folder = copied(sample, tmp_path / "s")
    shell("ratings export history --out history/", folder)
    assert sorted(p.name for p in (folder / "history").iterdir()) == [f"list_id={list_id}" for list_id in LISTS]
    exported = ds.dataset(folder / "history", format="parquet", partitioning="hive").to_table()
    assert exported.num_rows == query(folder / "data" / "warehouse.duckdb", "select count(*) from rating_history")[0][0]


def test_a_card_and_a_what_if(sample):
    card = shell("ratings explain 13815 --list 2019-09", sample)
    assert card.stdout.startswith("Player 13815 (13815), list 2019-09 (games of 2019-05-01 … 2019-08-31)")
    assert "Nj = " in card.stdout and "Published" in card.stdout
    whatif = shell("ratings whatif 13815 --opponent 1850", sample)
    assert whatif.stdout.startswith("Player 13815, one more game against 1850, list 2020-01:")
    assert [line.split(":")[0].strip() for line in whatif.stdout.splitlines()[1:]] == ["win", "draw", "loss"]


def test_a_file_of_ratings_by_its_own_column_names(sample, tmp_path):
    """docs/commands.md: the federation's own file as shipped, read with --columns; the
    path as the manual gives it, the repository's data/belgium/ (a clone's, whole).
    Compared as shipped; scored only with its windows (the window rule), as
    bench/belgium_inputs.py writes them."""
    folder = copied(sample, tmp_path / "work")
    shutil.copytree(PROJECT_DIR / "data" / "belgium", folder / "data" / "belgium")
    compared = shell("ratings compare performance data/belgium/official_ratings.parquet "
                     "--columns list_id=list_period", folder)
    assert "Compare took" in said(compared)
    # the whole file (the fixture's excerpt holds 300 players): its July 2019 list beside ours
    assert "latest list 2019-09 (2019-07): 14560 players on both" in compared.stdout
    # its lists dated by their month alone score games of their months: compared, their scores said unfair
    assert "not a fair score, the window rule: data/belgium/official_ratings.parquet: list " in compared.stdout
    page = (folder / "reports" / "compare-performance-official_ratings" / "index.html").read_text()
    assert "not a fair score, the window rule" in page
    month_dated = shell("ratings evaluate --system performance --ratings data/belgium/official_ratings.parquet "
                        "--columns list_id=list_period", folder, expect=1)
    assert ("official_ratings.parquet: list 2018-10 is dated by its month alone, in force from 2018-10-01, "
            "and would score") in said(month_dated)
    assert "say when with a window_end column" in said(month_dated)
    shell(f"python {PROJECT_DIR / 'bench' / 'belgium_inputs.py'} data/belgium belgium/", folder)
    scored = shell("ratings evaluate --system performance --ratings belgium/federation.parquet", folder)
    assert "federation" in scored.stdout and "the yardstick (no forecast of its own)" in scored.stdout
    refused = shell("ratings evaluate --system performance --ratings data/belgium/official_ratings.parquet",
                    folder, expect=1)
    assert ("official_ratings.parquet: a file of ratings needs the columns player_id, list_id, rating; missing: "
            "list_id (the file has list_period, player_id, rating, games_total: map its own names with --columns, "
            "e.g. --columns list_id=COLUMN)") in said(refused)
    audit_ok(folder)


RATINGS_TOML = '''# ratings.toml
warehouse = "federation.duckdb"
out = "lists"
federation = "BEL"
publish_birth_year = true
'''


def test_the_settings_file_and_the_environment(tmp_path):
    """docs/commands.md's ratings.toml: the warehouse and the output folder it names, the Fed
    and the birth year in the pairing programs' files only; an environment variable wins
    over the file."""
    (tmp_path / "ratings.toml").write_text(RATINGS_TOML)
    shell("ratings run --sample --no-reports", tmp_path)
    assert (tmp_path / "federation.duckdb").is_file() and not (tmp_path / "data").exists()
    shell("ratings publish --format csv,parquet,txt,swiss-manager", tmp_path)
    lists = tmp_path / "lists" / "lists"
    born = {line.split(",")[0]: line.split(",")[2] for line in
            (PROJECT_DIR / "data" / "sample" / "players.csv").read_text().splitlines()[1:]}
    txt = (lists / "2019-09.txt").read_text().splitlines()
    header = txt[0]
    fed, bday = header.index("Fed"), header.index("B-day")
    first = txt[1]
    assert first[fed:fed + 3] == "BEL" and first[bday:bday + 4] == born[first.split()[0]]
    swiss = (lists / "2019-09-swiss-manager.csv").read_text().splitlines()[1].split(";")
    assert swiss[3] == '"BEL"' and swiss[6] == f'"{born[swiss[0].strip(chr(34))]}"'
    table = pq.read_table(lists / "2019-09.parquet")
    assert "birth_year" not in table.column_names
    assert "birth_year" not in (lists / "2019-09.csv").read_text().splitlines()[0]
    env = user_env(RATINGS_WAREHOUSE="elsewhere.duckdb")
    refused = shell("ratings audit", tmp_path, expect=1, env=env)
    assert "elsewhere.duckdb: no warehouse there" in said(refused)
    audit_ok(tmp_path)
