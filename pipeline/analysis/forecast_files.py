"""A file of forecasts (`ratings evaluate --forecasts FILE`): White's expected score of
games, by a system that gives no ratings (a peer's, a statistician's), scored as it is.

Its columns: `game_id`, the game as the user knows it (the games file's game_id, or the
warehouse's game_key where the games file gave none: what `evaluate --out` writes in
forecasts.parquet), and `probability`, White's expected score, from 0 to 1. Every row is
checked: a game the warehouse does not hold, a probability that is not one, a game twice,
each one message naming the file and the row.
"""
from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa

from pipeline.ingest.tables import InputFileError, read_as, readable

FORECAST_COLUMNS = ("game_id", "probability")


def forecast_rows(con: duckdb.DuckDBPyConnection, name: str, path: Path) -> pa.Table:
    """The file's rows as (source, game_key, probability), each checked against the
    warehouse's games (`con`); the file is read by a connection of its own (the warehouse
    may be open read-only, with no file access)."""
    with duckdb.connect() as reader:
        with readable(reader, path) as file:
            if file.oversized:
                raise InputFileError(f"{path}: {file.oversized[0][1]}")
            with read_as(path, "CSV or Parquet file"):
                names = {c.strip().lower(): c for c in reader.sql(file.source).columns if c != "__row"}
            missing = [c for c in FORECAST_COLUMNS if c not in names]
            if missing:
                raise InputFileError(f"{path}: a file of forecasts needs the columns {', '.join(FORECAST_COLUMNS)} "
                                     f"(White's expected score of each game); missing: {', '.join(missing)} "
                                     f"(the file has {', '.join(names.values())})")
            game, probability = (f'"{names[c]}"' for c in FORECAST_COLUMNS)
            rows = reader.sql(f"""select __row, trim({game}) as game_id, {probability} as given,
                                         try_cast({probability} as double) as probability
                                  from ({file.source})""").to_arrow_table()
    if rows.num_rows == 0:
        raise InputFileError(f"{path}: a file of forecasts with no rows (only its header): nothing to score")
    con.register("forecast_file", rows)
    try:
        bad = con.execute("""select __row, given from forecast_file
                             where probability is null or not isfinite(probability)
                                or probability < 0 or probability > 1
                             order by __row limit 1""").fetchall()
        if bad:
            row, value = bad[0]
            raise InputFileError(f"{path}, row {row}: probability {value!r} is not a probability "
                                 "(White's expected score, a number from 0 to 1)")
        twice = con.execute("""select game_id, list(__row order by __row) from forecast_file group by game_id
                               having count(*) > 1 order by min(__row) limit 1""").fetchall()
        if twice:
            game_id, at = twice[0]
            raise InputFileError(f"{path}, rows {', '.join(map(str, at[:5]))}: game {game_id} is forecast "
                                 f"{'twice' if len(at) == 2 else f'{len(at)} times'}: one forecast a game")
        # The game a row names: by the games file's game_id, else by the game_key written out
        # (the warehouse's games, chess's or Go's: scored_input, pipeline/analysis/played.py).
        con.execute("""create or replace temp table forecast_matched as
            with known as (select coalesce(game_id, game_key::varchar) as game_id, game_key from scored_input)
            select f.__row, f.game_id, count(k.game_key) as games, any_value(k.game_key) as game_key,
                   any_value(f.probability) as probability
            from forecast_file f left join known k using (game_id)
            group by f.__row, f.game_id""")
    finally:
        con.unregister("forecast_file")
    try:
        wrong = con.execute("""select __row, game_id, games from forecast_matched where games != 1
                               order by __row limit 1""").fetchall()
        if wrong:
            row, game_id, n = wrong[0]
            raise InputFileError(f"{path}, row {row}: game {game_id} "
                                 + ("is not a game of the warehouse (a game_id of its games files, or a game_key "
                                    "where the games file gave no game_id)" if n == 0 else
                                    f"names {n} games of the warehouse: their games files gave it to each"))
        return con.sql("select ? as source, game_key, probability from forecast_matched order by __row",
                       params=[name]).to_arrow_table()
    finally:
        con.execute("drop table forecast_matched")
