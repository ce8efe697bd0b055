"""Write the whole Belgian history (data/belgium) in the pipeline's input format.

players: membership number, a name made from it, birth year, sex and region kept as extras;
ratings: the federation's first published list (January 1989), rounded to tens (R3), as the
list in force before the first window, with each player's rated games to date (FIDE's K reads
them; the performance Elo ignores the column); games: all 1,059,890 games; federation: every
list the federation published (player_id, list_id as YYYY-MM, rating, window_end), a source of
ratings for `ratings compare` and `ratings evaluate`.

    python bench/belgium_inputs.py data/belgium OUTDIR

The federation's list YYYYMM was computed from a checklist that holds games of its own month
(and later: a list was sometimes computed weeks after its nominal month), so dated from the
first of its month it would score games it already holds. `window_end` is the day its
checklist closed, the list in force from the day after (its publication): the last game the
checklist holds (games.parquet's `list_period`; games dated after the checklist file was
written were dropped upstream, data/belgium/README.md), and at least a day after the window
of the list before, since the federation published its lists one after the other. That second
rule moves one list: seven games of the January 1992 checklist are dated 1992-11-08, so July
1992's window ends on 1992-11-09, not at its own last game (1992-07-16); otherwise July 1992's
list, which holds January 1992's results, would score those seven games (and on the same day
as January's, which of the two was in force would be left to the order of a sort). The July 2003 list's
checklist is missing from the source (the file of that name is a draft of January 2004's), so
no game here belongs to it: its window ends on the last day before its month, the list in
force from the first of its month as every list was dated before (no game it holds is here,
so none can be scored by it)."""
from __future__ import annotations

import sys
from pathlib import Path

import duckdb


def list_windows(src: Path) -> str:
    """SQL: (list_period, window_end) of each of the federation's lists, the day its
    checklist closed (the module's docstring says how)."""
    return f"""
        with lists as (select distinct list_period from '{src}/official_ratings.parquet'),
        closed as (select list_period, max(date) as last_game from '{src}/games.parquet' group by all),
        numbered as (
            select list_period, row_number() over (order by list_period)::integer as n,
                   coalesce(last_game, strptime(list_period || '01', '%Y%m%d')::date - 1) as last_day
            from lists left join closed using (list_period)
        ),
        -- max(its last day, the window before + 1): n + the running max of last_day - n
        windows as (
            select list_period, max(last_day - n) over (order by list_period rows unbounded preceding) + n as window_end
            from numbered
        )
        select * from windows"""


def write_belgium_inputs(src: Path, out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    files = {kind: out / f"{kind}.parquet" for kind in ("players", "ratings", "games", "federation")}
    con.execute(f"""copy (select player_id, 'Player ' || player_id as name, birth_year, null::varchar as club,
                         sex, federation_region from '{src}/players.parquet' order by player_id)
                    to '{files["players"]}' (format parquet)""")
    con.execute(f"""copy (select player_id, (floor(round(rating, 3) / 10 + 0.5) * 10)::integer as rating,
                                games_total
                         from '{src}/official_ratings.parquet' where list_period = '198901' order by player_id)
                    to '{files["ratings"]}' (format parquet)""")
    con.execute(f"""copy (select game_id, date, white_id, black_id, result, event
                         from '{src}/games.parquet' order by game_id)
                    to '{files["games"]}' (format parquet)""")
    con.execute(f"""copy (select o.player_id, substr(o.list_period, 1, 4) || '-' || substr(o.list_period, 5, 2) as list_id,
                                o.rating, w.window_end
                         from '{src}/official_ratings.parquet' o join ({list_windows(src)}) w using (list_period)
                         order by o.list_period, o.player_id)
                    to '{files["federation"]}' (format parquet)""")
    return files


if __name__ == "__main__":
    for kind, path in write_belgium_inputs(Path(sys.argv[1]), Path(sys.argv[2])).items():
        print(kind, path)
