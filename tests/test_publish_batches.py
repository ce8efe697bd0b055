"""Publication reads the lists a batch at a time (pipeline/publish/: BATCH_ROWS rows at
most, a larger list alone), never the whole history at once: Glicko-2's 411 monthly
lists of the Belgian history (4.55 M rows) peaked at 2.1 GB read whole (issue 53, item 7;
bench/glicko2_memory.py); the diffs too. The files are the same bytes whatever the batches, and the
public rows a batch reads (sql/50_published_lists.sql) are the rating_history view's."""
from __future__ import annotations

from pathlib import Path

import pytest

import pipeline.publish as publish
from pipeline.publish import publish_series
from pipeline.rate.series import series_in
from pipeline.warehouse import connect, stage_sql
from tests.conftest import cli_runner, write_small_federation


@pytest.fixture(scope="module")
def rated(tmp_path_factory) -> Path:
    """The small federation rated by the national rules and by Glicko-2 (monthly: lists
    2026-10 to 2027-02, a list without games among them), then a correction (a revision)."""
    folder = tmp_path_factory.mktemp("batches")
    files = write_small_federation(folder)
    cli = cli_runner()
    w = folder / "w.duckdb"
    cli("run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
        "--warehouse", w, "--out", folder / "out", "--no-reports")
    cli("run", "--system", "glicko2", "--warehouse", w, "--out", folder / "out", "--no-reports")
    cli("correct", 6, "--list", "2026-11", "--rating", 1650, "--reason", "a test", "--system", "glicko2",
        "--warehouse", w)
    cli("rate", "--system", "glicko2", "--warehouse", w)
    return w


def published_files(con, series, out: Path, monkeypatch,
                    batch_rows: int) -> tuple[dict[str, bytes], list[int], list[int], object]:
    """Every file the series publishes into `out` with batches of `batch_rows` rows, the
    rows each read of the public lists returned, those each read of the diffs returned,
    and what publication returned."""
    reads, diff_reads = [], []
    whole, staged = publish.public_lists, publish.stage

    def counted(con, rule_set):
        table = whole(con, rule_set)
        reads.append(table.num_rows)
        return table

    def diffs_counted(con, name):
        relation = staged(con, name)
        if name == "52_published_changes":
            diff_reads.append(len(relation.fetchall()))
            relation = staged(con, name)
        return relation

    monkeypatch.setattr(publish, "BATCH_ROWS", batch_rows, raising=False)
    monkeypatch.setattr(publish, "public_lists", counted)
    monkeypatch.setattr(publish, "stage", diffs_counted)
    done = publish_series(con, out, series, ("csv", "parquet", "txt", "swiss-manager"), record=False)
    monkeypatch.undo()
    files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    return files, reads, diff_reads, done


def test_a_publication_reads_no_more_than_a_batch_and_writes_the_same_bytes(rated, tmp_path, monkeypatch):
    con = connect(rated)
    for series in series_in(con, scenarios=False):
        rows = con.execute("select list_id, count(rating) from player_state where series = ? group by list_id "
                           "order by list_id", [series.name]).fetchall()  # the rated: the lists' rows
        largest = max(n for _, n in rows)
        whole, whole_reads, whole_diffs, whole_done = published_files(
            con, series, tmp_path / f"{series.name}-whole", monkeypatch, 10 ** 9)
        batched, reads, diffs, done = published_files(con, series, tmp_path / f"{series.name}-batched", monkeypatch,
                                                      largest)
        assert whole_reads == [sum(n for _, n in rows)]  # one batch: every list at once, as before
        # Batches of at most the largest list's rows: several reads, none of more than a batch
        assert len(reads) > 1 and max(reads) <= largest and sum(reads) == sum(n for _, n in rows), (series.name, reads)
        # the diffs' rows too: read at once, or a batch of lists at a time, the same rows in all
        assert len(whole_diffs) == 1 and sum(diffs) == whole_diffs[0], (diffs, whole_diffs)
        if series.name == "glicko2":  # its four revised lists, with a row at most a batch: one read each
            each, _, single, _ = published_files(con, series, tmp_path / "glicko2-single", monkeypatch, 1)
            assert len([n for n in single if n]) == 4 and sum(single) == whole_diffs[0], single
            assert each == whole
        assert batched.keys() == whole.keys() and len(whole) > len(rows)
        assert [name for name in whole if whole[name] != batched[name]] == []
        if series.name == "glicko2":  # the correction's revisions: their diffs, read a batch of lists at a time too
            assert [name for name in whole if "diffs/" in name], series.name
        # The reports read every list's rows from what publication returned, batched or not
        assert done.lists.equals(whole_done.lists)


def test_a_publication_without_reports_keeps_no_rows(rated, tmp_path):
    con = connect(rated)
    series = next(s for s in series_in(con, scenarios=False) if s.name == "glicko2")
    assert publish_series(con, tmp_path / "out", series, record=False, rows=False).lists is None
    assert publish_series(con, tmp_path / "again", series, record=False).lists.num_rows > 0


def test_the_public_rows_of_some_lists_are_the_rating_history_views(rated):
    """sql/50_published_lists.sql computes the view's rows (sql/views.sql) for the lists
    asked for alone: the same rows, in the list's order, for every list, any of them
    alone, and a run of them (the first list's previous ratings: the initial ratings);
    sql/53_pairing_lists.sql the ratings and games of list_ratings."""
    con = connect(rated)
    for (series,) in con.execute("select distinct series from lists order by series").fetchall():
        con.execute("set variable series = ?", [series])
        ids = [k for (k,) in con.execute("select list_id from lists where series = ? order by position",
                                         [series]).fetchall()]
        for asked in (None, *([k] for k in ids), ids[1:3]):
            con.execute("set variable publish_lists = ?::varchar[]", [asked])
            view = con.execute("""
                select list_id, player_id, name, club, rating, previous_rating, change, games, status
                from rating_history where series = getvariable('series')
                  and (getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id))
                order by list_id, rating desc, player_id""").fetchall()
            assert con.execute(stage_sql("50_published_lists")).fetchall() == view, (series, asked)
            assert view or asked is not None
            # The pairing lists (sql/53_pairing_lists.sql): each rated player's rating and games, list_ratings'
            con.execute("set variable estimates = false")
            rated = con.execute("""
                select list_id, player_id, rating::double, games from list_ratings where series = getvariable('series')
                  and (getvariable('publish_lists') is null or list_contains(getvariable('publish_lists'), list_id))
                order by list_id, player_id""").fetchall()
            assert con.execute(f"""select list_id, player_id, rating, games from ({stage_sql('53_pairing_lists')})
                                   order by list_id, player_id""").fetchall() == rated, (series, asked)
