"""bench/belgium_inputs.py on the repository's Belgian history (data/belgium), as a user
runs it: the federation's lists dated from their publication, the day after their
checklist closed (`window_end`), so that none is in force before a game it holds."""
from __future__ import annotations

import datetime as dt
import subprocess
import sys

import duckdb
import pytest

from tests.conftest import PROJECT_DIR

BELGIUM = PROJECT_DIR / "data" / "belgium"


@pytest.fixture(scope="module")
def federation(tmp_path_factory):
    out = tmp_path_factory.mktemp("belgium")
    subprocess.run([sys.executable, PROJECT_DIR / "bench" / "belgium_inputs.py", BELGIUM, out],
                   check=True, capture_output=True, cwd=out)
    con = duckdb.connect()
    con.execute(f"create table federation as select * from '{out / 'federation.parquet'}'")
    con.execute(f"create table games as select * from '{BELGIUM / 'games.parquet'}'")
    return con


def test_every_published_list_with_the_day_its_checklist_closed(federation):
    assert federation.sql("select column_name, column_type from (describe federation)").fetchall() == [
        ("player_id", "BIGINT"), ("list_id", "VARCHAR"), ("rating", "INTEGER"), ("window_end", "DATE")]
    # data/belgium/README.md: 85 lists, 891,452 ratings, every one kept
    assert federation.sql("select count(distinct list_id), count(*), count(window_end) from federation").fetchall() == [
        (85, 891_452, 891_452)]
    ends = dict(federation.sql("select distinct list_id, window_end from federation").fetchall())
    assert ends["2022-04"] == dt.date(2022, 3, 30)   # the history's last game (README), in the last checklist
    assert ends["2019-01"] == dt.date(2018, 12, 28)  # a checklist closed before its month
    assert ends["2004-07"] == dt.date(2004, 12, 30)  # one computed months after: 77 games of 2004-12-30
    assert ends["1992-01"] == dt.date(1992, 11, 8)   # seven games dated 1992-11-08 in January 1992's checklist
    assert ends["1992-07"] == dt.date(1992, 11, 9)   # its own last game is 1992-07-16; published after January's
    assert ends["2003-07"] == dt.date(2003, 6, 30)   # no checklist of its own: the day before its month
    # published one after the other: each list's window ends after the one before
    in_order = [ends[list_id] for list_id in sorted(ends)]
    assert all(a < b for a, b in zip(in_order, in_order[1:]))


def test_no_list_is_in_force_on_the_day_of_a_game_it_holds(federation):
    """A list holds the games of its own checklist and, through the ratings it starts from,
    those of every earlier one: no list from a game's own checklist on may be in force on
    the game's day, i.e. its window_end is on or after the game's date."""
    leaks = federation.sql("""
        with lists as (select distinct list_id, window_end from federation)
        select count(*) from games g join lists l
          on l.list_id >= substr(g.list_period, 1, 4) || '-' || substr(g.list_period, 5, 2)
         and l.window_end < g.date""").fetchall()[0][0]
    assert leaks == 0
    # the month's first day, as the lists were dated before, left 63,411 games scored by their own list
    by_month = federation.sql("""
        with lists as (select distinct list_id, strptime(list_id || '-01', '%Y-%m-%d')::date as list_date from federation)
        select count(*) from games g asof join lists l on g.date >= l.list_date
        where l.list_id = substr(g.list_period, 1, 4) || '-' || substr(g.list_period, 5, 2)""").fetchall()[0][0]
    assert by_month == 63_411
