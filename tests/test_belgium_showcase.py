"""The Belgian showcase is fair: `ratings evaluate` scores no game by a list that already
holds it. Five years of the real history (data/belgium, 2008-2012), rated by the
performance Elo, FIDE and Glicko-2, scored beside the federation's own lists as
bench/belgium_inputs.py writes them (each with the day its checklist closed,
`window_end`), as a user runs it; every game's forecast read back from `--out`'s
forecasts.parquet and checked against the list that made it."""
from __future__ import annotations

import datetime as dt
import subprocess
import sys

import duckdb
import pytest

from tests.conftest import PROJECT_DIR
from tests.workflows.helpers import evaluated, ratings

BELGIUM = PROJECT_DIR / "data" / "belgium"
SOURCES = ("performance", "fide", "glicko2", "federation")
# Our series start from the federation's list of January 2008, which closed on 2008-01-07
# (its checklist's last game: bench/belgium_inputs.py); the first game rated is of the
# day after, so that their initial list holds none of the games scored either.
INITIAL_LIST, INITIAL_CLOSED = "200801", dt.date(2008, 1, 7)
FIRST_DAY, LAST_DAY = INITIAL_CLOSED + dt.timedelta(days=1), dt.date(2012, 12, 31)


@pytest.fixture(scope="module")
def showcase(tmp_path_factory):
    """Five years rated under three rule sets and scored with the federation's lists."""
    folder = tmp_path_factory.mktemp("showcase")
    subprocess.run([sys.executable, PROJECT_DIR / "bench" / "belgium_inputs.py", BELGIUM, folder / "belgium"],
                   check=True, capture_output=True)
    con = duckdb.connect()
    con.execute(f"""copy (select * from '{folder}/belgium/games.parquet'
                          where date between '{FIRST_DAY}' and '{LAST_DAY}' order by game_id)
                    to '{folder}/games.parquet' (format parquet)""")
    con.execute(f"""copy (select player_id, (floor(round(rating, 3) / 10 + 0.5) * 10)::integer as rating, games_total
                          from '{BELGIUM}/official_ratings.parquet' where list_period = '{INITIAL_LIST}'
                          order by player_id)
                    to '{folder}/ratings.parquet' (format parquet)""")
    ratings("run", "--players", "belgium/players.parquet", "--ratings", "ratings.parquet", "--games", "games.parquet",
            "--warehouse", "be.duckdb", "--out", "be", "--no-reports", cwd=folder)
    for system in ("fide", "glicko2"):
        ratings("run", "--system", system, "--warehouse", "be.duckdb", "--out", "be", "--no-reports", cwd=folder)
    said = ratings("evaluate", "--system", "performance", "--system", "fide", "--system", "glicko2",
                   "--ratings", "belgium/federation.parquet", "--warehouse", "be.duckdb", "--out", "be-eval",
                   cwd=folder)
    return folder, said.stdout


def test_every_source_is_scored_on_the_same_games(showcase):
    folder, printed = showcase
    counts = dict(duckdb.sql(f"select source, count(*) from '{folder}/be-eval/forecasts.parquet' group by all").fetchall())
    assert set(counts) == set(SOURCES)
    assert len(set(counts.values())) == 1 and counts["federation"] > 100_000
    table = evaluated(printed)
    assert {source: int(words[1].replace(",", "")) for source, words in table.items()} == counts
    assert " ".join(table["federation"][6:]) == "the yardstick (no forecast of its own)"


def test_no_game_is_scored_by_a_list_that_holds_it(showcase):
    """The federation's list holds the games of its own checklist and, through the ratings
    it starts from, those of every earlier checklist; it is in force from the day after
    its checklist closed. So a game is scored fairly by a federation list only if that
    list's window_end is before the game's date AND the list precedes the game's own
    checklist (list_id < the game's list_period). Our series: the scoring list's window
    ended before the game's date; the initial list (`(initial)`, the federation's list of
    January 2008) closed on 2008-01-07, before the first game."""
    folder, _ = showcase
    con = duckdb.connect()
    con.execute(f"create view forecasts as select * from '{folder}/be-eval/forecasts.parquet'")
    con.execute(f"create view games as select game_id, date, list_period from '{BELGIUM}/games.parquet'")
    con.execute(f"""create view federation as select distinct list_id, window_end
                    from '{folder}/belgium/federation.parquet'""")
    con.execute(f"attach '{folder}/be.duckdb' as be (read_only)")
    unfair_federation = con.sql("""
        select count(*), count(*) filter (where l.list_id is null) from forecasts f join games g on g.game_id::varchar = f.game_id
        left join federation l on l.list_id = f.list_id
        where f.source = 'federation'
          and (l.list_id is null or l.window_end >= g.date
               or replace(l.list_id, '-', '') >= g.list_period)""").fetchall()
    assert unfair_federation == [(0, 0)]
    ours = con.sql("""
        select f.source, count(*) as games,
               count(*) filter (where coalesce(l.window_end, case when f.list_id = '(initial)'
                                                                  then $initial_closed end) >= g.date
                                   or (l.list_id is null and f.list_id <> '(initial)')) as unfair
        from forecasts f join games g on g.game_id::varchar = f.game_id
        left join be.lists l on l.series = f.source and l.list_id = f.list_id
        where f.source <> 'federation' group by all order by all""", params={"initial_closed": INITIAL_CLOSED}).fetchall()
    assert [(source, unfair) for source, _, unfair in ours] == [("fide", 0), ("glicko2", 0), ("performance", 0)]


def test_a_game_is_scored_by_the_list_published_before_it(showcase):
    """A game of 2008-07-13, reported in the checklist of July 2008 (which closed on
    2008-07-15): the federation's list in force is January 2008's (closed 2008-01-07),
    not July 2008's, which holds it; dated from the first of its month, as before, July
    2008's list would have scored it."""
    folder, _ = showcase
    scored = duckdb.sql(f"""
        select distinct f.list_id from '{folder}/be-eval/forecasts.parquet' f
        join '{BELGIUM}/games.parquet' g on g.game_id::varchar = f.game_id
        where f.source = 'federation' and g.date = '2008-07-13' and g.list_period = '200807'""").fetchall()
    assert scored == [("2008-01",)]
