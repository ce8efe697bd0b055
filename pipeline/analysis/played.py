"""The games a comparison scores, in one shape whatever the game: the temp view
`scored_input (game_key, game_id, date, white_id, black_id, white_score)` that
sql/analysis/scored_games.sql, forecasts.sql and a file of forecasts read.

A warehouse holds one game (pipeline/rate/series.py, record_game): chess's games table,
or Go's go_games. A Go game's White scores 1 − Black's result (a jigo ½, as a chess
draw); a game won by default (B+F, W+F) has no score, as a chess forfeit: counted by
the rules, never rated, never scored. Go games carry no game_id of the user's: their
game_key, as text, names them (as a chess game whose file gave none).
"""
from __future__ import annotations

import duckdb

from pipeline.rate.series import warehouse_game

CHESS, GO = "chess", "go"
# Each game's table, where a rule set's own forecast reads its `forecast_game_columns` (as `g`)
GAME_TABLES = {CHESS: "games", GO: "go_games"}
# The Go rule sets' BY_DEFAULT (pipeline/systems/go), written out: importing it loads pandas,
# which the chess list reports never need (tests/test_evaluate_go.py holds the two equal).
BY_DEFAULT = ("B+F", "W+F")
PLAYED = {
    CHESS: "select game_key, game_id, date, white_id, black_id, white_score from games",
    GO: f"""select game_key, null::varchar as game_id, date, white_id, black_id,
                   case when winner in {BY_DEFAULT!r} then null else 1 - black_result end as white_score
            from go_games""",
}


def game_scored(con: duckdb.DuckDBPyConnection, games: set[str]) -> str:
    """The game whose games are scored: the sources' series' (`games`, the games of their
    rule sets), else the warehouse's (a file scored alone), else chess (a warehouse with no
    game recorded holds no game to score either way)."""
    if len(games) > 1:  # a warehouse holds one game's series (record_game): never met
        raise ValueError(f"sources of several games ({', '.join(sorted(games))}): a warehouse holds one")
    return next(iter(games), None) or warehouse_game(con) or CHESS


def load_played(con: duckdb.DuckDBPyConnection, game: str) -> None:
    """(Re)make the view scored_input: the warehouse's games of `game`, in one shape."""
    con.execute(f"create or replace temp view scored_input as {PLAYED[game]}")
