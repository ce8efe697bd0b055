"""The publication record (published_files, layout 7): a list that kept its revision is
left alone at the next run, and that can only save work, never change a byte: an
edited, truncated or deleted file is published again (or refused, for a revision's
file), and a warehouse of layout 6 is brought up to date with its data."""
from __future__ import annotations

import duckdb
import pytest

import pipeline.publish
from pipeline.warehouse import WAREHOUSE_VERSION
from tests.conftest import copy_built, write_rows


@pytest.fixture
def published(cli, published_once, tmp_path):
    """A copy of the small federation the session rated and published once (tests/conftest.py),
    published again where the copy is: the record is by folder, and the copy's is new
    (its lists are built, found identical and recorded: nothing is written)."""
    w, out = copy_built(published_once, tmp_path)
    assert "no file changed" in cli("publish", "--warehouse", w, "--out", out).output
    return w, out


def files_of(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def built_lists(monkeypatch) -> list[str]:
    """The list ids whose files publication builds in this test, in order."""
    built = []
    original = pipeline.publish.list_and_state_files

    def recording(list_id, formats, rows=None, *args, **kwargs):
        if rows is not None:  # a list's files, not a state's alone
            built.append(list_id)
        return original(list_id, formats, rows, *args, **kwargs)

    monkeypatch.setattr(pipeline.publish, "list_and_state_files", recording)
    return built


def test_a_late_result_rebuilds_only_the_lists_it_revises(cli, published, tmp_path, built_lists):
    w, out = published
    before = files_of(out)
    # 2027-05's window (2027-01 to 2027-04) only: 2027-01 keeps its revision 1.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2027-02-15", 4, 3, "1-0"]])
    result = cli("run", "--games", late, "--warehouse", w, "--out", out).output
    assert built_lists == ["2027-05"]
    # Written: 2027-05-r2.csv and .parquet (new), 2027-05.csv and .parquet (the latest,
    # changed), state/2027-05.parquet and diffs/2027-05-r2.csv. The report pages are not
    # counted as files: 2027-05's shows its new revision, and 2027-01's too is rewritten,
    # its list kept, since the late game was played while 2027-01 was in force (January
    # to April 2027): its page scores 2 games now, not 1 (its rows read for the page alone).
    changed = {name for name, data in files_of(out).items() if before.get(name) != data}
    assert changed == {"lists/2027-05-r2.csv", "lists/2027-05-r2.parquet", "lists/2027-05.csv",
                       "lists/2027-05.parquet", "state/2027-05.parquet", "diffs/2027-05-r2.csv",
                       "2027-05/index.html", "2027-01/index.html"}
    assert "2 games played while this list was in force" in (out / "2027-01" / "index.html").read_text()
    assert "6 files written" in result
    # The same bytes as a full publication of the same warehouse into an empty folder,
    # reports included (their pages read the lists' rows themselves when lists were kept),
    # apart from 2027-05's first revision, which only the old folder has.
    fresh = tmp_path / "fresh"
    cli("publish", "--warehouse", w, "--out", fresh)
    assert built_lists == ["2027-05", "2027-01", "2027-05"]
    kept, full = files_of(out), files_of(fresh)
    assert set(kept) - set(full) == {"lists/2027-05-r1.csv", "lists/2027-05-r1.parquet"}
    assert {name: kept[name] for name in full} == full


def test_a_run_after_a_publication_builds_nothing(cli, published, built_lists):
    w, out = published
    before = {str(p): p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    assert "no file changed" in cli("publish", "--warehouse", w, "--out", out).output
    assert built_lists == []
    assert {str(p): p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before


def test_an_edited_or_deleted_file_is_published_again(cli, published, built_lists):
    w, out = published
    before = files_of(out)
    (out / "state" / "2027-01.parquet").unlink()
    (out / "lists" / "2027-05.csv").write_bytes(before["lists/2027-05.csv"].replace(b"Anna", b"Anne"))
    result = cli("publish", "--warehouse", w, "--out", out).output
    assert sorted(built_lists) == ["2027-01", "2027-05"]
    assert "2 files written" in result  # the two files put back; the others were found as written
    assert files_of(out) == before
    # Same size, other bytes: the hash, not the size, tells.
    (out / "lists" / "2027-01.parquet").write_bytes(bytes(len(before["lists/2027-01.parquet"])))
    cli("publish", "--warehouse", w, "--out", out)
    assert files_of(out) == before


def test_an_edited_revision_file_is_still_refused(cli, published):
    w, out = published
    edited = (out / "lists" / "2027-01-r1.csv").read_bytes().replace(b"Anna", b"Anne")
    (out / "lists" / "2027-01-r1.csv").write_bytes(edited)
    result = cli("publish", "--warehouse", w, "--out", out, ok=False)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "2027-01-r1.csv was published before with other content" in result.output
    assert (out / "lists" / "2027-01-r1.csv").read_bytes() == edited  # never rewritten


def test_another_format_builds_every_list_again(cli, published, built_lists):
    w, out = published
    cli("publish", "--warehouse", w, "--out", out, "--format", "csv,parquet,txt")
    assert sorted(built_lists) == ["2027-01", "2027-05"]
    assert (out / "lists" / "2027-01.txt").is_file() and (out / "lists" / "2027-05-r1.txt").is_file()


# Before layout 14, the national Elo's and FIDE's initial columns were shared columns.
SHARED_INITIAL_COLUMNS = """
    alter table initial_ratings add column archive_performance double;
    alter table initial_ratings add column archive_games integer;
    alter table initial_ratings add column games_total integer;
    alter table initial_ratings add column peak_rating double;
    alter table staged_ratings add column archive_performance varchar;
    alter table staged_ratings add column archive_games varchar;
    alter table staged_ratings add column games_total varchar;
    alter table staged_ratings add column peak_rating varchar;"""


def layout_6(w) -> None:
    """What a warehouse of layout 6 looked like: no published_files (7), no officer's decisions (8), no
    games kept out of a series nor a tournament file's own dates (11), the national Elo's and FIDE's
    initial columns shared (14)."""
    with duckdb.connect(str(w)) as con:
        con.execute(SHARED_INITIAL_COLUMNS)
        for table in ("published_files", "reject_closures", "duplicate_decisions", "excluded_games", "file_dates"):
            con.execute(f"drop table {table}")
        con.execute("delete from warehouse_version where version > 6")
        con.execute("insert into warehouse_version select 6 where not exists (select 1 from warehouse_version)")


def columns_of(w) -> list[tuple]:
    with duckdb.connect(str(w), read_only=True) as con:
        return con.execute("""select table_name, column_name, data_type, is_nullable from duckdb_columns()
                              where schema_name = 'main' order by all""").fetchall()


def test_a_warehouse_of_layout_6_is_migrated_with_its_data(cli, published, published_once, built_lists):
    assert WAREHOUSE_VERSION == 14
    w, out = published
    with duckdb.connect(str(w), read_only=True) as con:
        games, lists = con.execute("select (select count(*) from games), (select count(*) from lists)").fetchall()[0]
    layout_6(w)
    # Read-only, it is refused with what to do (layout 9 moved the rule sets' columns to
    # their own tables, which readers join) and left as it is.
    refused = cli("query", "select list_id from lists order by 1", "--warehouse", w, ok=False)
    assert "(ratings validate) brings it to version 14" in refused.output
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select max(version) from warehouse_version").fetchall() == [(6,)]
    # Writable, it is brought to layout 14: the same tables and columns as the warehouse
    # it was copied from, made at layout 14.
    assert "no file changed" in cli("publish", "--warehouse", w, "--out", out).output
    assert sorted(built_lists) == ["2027-01", "2027-05"]  # no record yet: built, found identical
    assert columns_of(w) == columns_of(published_once / "w.duckdb")
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select version from warehouse_version order by 1").fetchall()[-(WAREHOUSE_VERSION - 5):] == [
            (v,) for v in range(6, WAREHOUSE_VERSION + 1)]
        assert con.execute("select (select count(*) from games), (select count(*) from lists)").fetchall() == [
            (games, lists)]
        # Recorded at that publication: two lists' files (a revision file and the latest
        # file of each format, and the state).
        assert con.execute("select list_id, count(*) from published_files group by 1 order by 1").fetchall() == [
            ("2027-01", 5), ("2027-05", 5)]
    built_lists.clear()
    cli("publish", "--warehouse", w, "--out", out)
    assert built_lists == []


def test_after_a_late_result_each_page_reads_only_the_lists_it_shows(cli, tmp_path, monkeypatch):
    """With more lists than a page shows (HISTORY_LISTS = 12: its list and the 11 before),
    the pages a late result changes read only their lists' rows, and are the bytes a
    full publication, which reads every list, writes."""
    from pipeline.publish import report
    from pipeline.simulate import simulate

    assert report.HISTORY_LISTS == 12
    files = simulate(40, 14, 3, tmp_path / "sim")  # 14 lists, 2020-01 to 2024-05, four months apart
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        "--warehouse", w, "--out", out)
    with duckdb.connect(str(w), read_only=True) as con:
        lists = [i for (i,) in con.execute("select list_id from lists order by position").fetchall()]
        # two players rated on 2024-01, so that the page of that list scores their game
        white, black = [p for (p,) in con.execute("""select player_id from player_state
                                      where list_id = '2024-01' and rating is not null
                                      order by player_id limit 2""").fetchall()]
    assert len(lists) == 14 and lists[0] == "2020-01" and lists[-1] == "2024-05"
    read = []
    original = report.list_rows
    monkeypatch.setattr(report, "list_rows", lambda con, series, ids: read.append(ids) or original(con, series, ids))
    # Played on 2024-02-10: in 2024-05's window (January to April 2024), while 2024-01 was in force.
    late = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result", "event"],
                      [["2024-02-10", white, black, "1-0", "Late open"]])
    cli("run", "--games", late, "--warehouse", w, "--out", out)
    # Two pages due: 2024-05's (2020-09 to 2024-05) and 2024-01's (2020-05 to 2024-01):
    # every list but the first, read once.
    assert read == [lists[1:]]
    fresh = tmp_path / "fresh"
    cli("publish", "--warehouse", w, "--out", fresh)
    assert len(read) == 1  # a full publication reads every list with the lists' files
    pages = {name: data for name, data in files_of(out).items() if name.endswith(".html")}
    assert len(pages) == 14
    assert pages == {name: data for name, data in files_of(fresh).items() if name.endswith(".html")}
