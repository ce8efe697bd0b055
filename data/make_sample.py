"""Rebuild data/sample/ from the Belgian history in data/belgium.

One season of real games (1 Sep 2018 – 31 Aug 2019: the lists 2019-01, 2019-05
and 2019-09 of the nominal calendar), the federation's published ratings of
July 2018 as the list in force before it, and the registry of every player
involved. The data are anonymised: names are made from the membership number.

    python data/make_sample.py data/belgium
"""
import sys
from pathlib import Path

import duckdb

src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "belgium"
out = Path(__file__).parent / "sample"
out.mkdir(exist_ok=True)
con = duckdb.connect()
con.execute(f"""create table g as select game_id, date, white_id, black_id, result, event
    from '{src}/games.parquet' where date between '2018-09-01' and '2019-08-31'""")
# The federation's own ratings are not multiples of ten; a list in force under
# this system is (R3), so they are rounded the same way.
con.execute(f"""create table r as select player_id, (floor(round(rating, 3) / 10 + 0.5) * 10)::integer as rating
    from '{src}/official_ratings.parquet'
    where list_period = '201807'""")
con.execute(f"""create table p as select player_id, 'Player ' || player_id as name, birth_year,
    null as club, sex, federation_region from '{src}/players.parquet'
    where player_id in (select white_id from g union select black_id from g union select player_id from r)""")
con.execute(f"copy (select * from g order by game_id) to '{out}/games.csv' (header)")
con.execute(f"copy (select * from r where player_id in (select player_id from p) order by player_id) to '{out}/ratings.csv' (header)")
con.execute(f"copy (select * from p order by player_id) to '{out}/players.csv' (header)")
for name in ("games", "ratings", "players"):
    print(name, con.execute(f"select count(*) from '{out}/{name}.csv'").fetchall()[0][0])
