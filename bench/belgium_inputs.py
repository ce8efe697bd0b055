"""Write the whole Belgian history (data/belgium) in the pipeline's input format.

players: membership number, a name made from it, birth year, sex and region kept as extras;
ratings: the federation's first published list (January 1989), rounded to tens (R3), as the
list in force before the first window, with each player's rated games to date (FIDE's K reads
them; the performance Elo ignores the column); games: all 1,059,890 games; federation: every
list the federation published (player_id, list_id as YYYY-MM, rating), a source of ratings
for `ratings compare` and `ratings evaluate`.

    python bench/belgium_inputs.py data/belgium OUTDIR
"""
from __future__ import annotations

import sys
from pathlib import Path

import duckdb


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
    con.execute(f"""copy (select player_id, substr(list_period, 1, 4) || '-' || substr(list_period, 5, 2) as list_id,
                                rating
                         from '{src}/official_ratings.parquet' order by list_period, player_id)
                    to '{files["federation"]}' (format parquet)""")
    return files


if __name__ == "__main__":
    for kind, path in write_belgium_inputs(Path(sys.argv[1]), Path(sys.argv[2])).items():
        print(kind, path)
