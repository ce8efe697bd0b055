"""How well did each rule set's ratings predict the games? The Belgian history
(data/belgium) under the performance Elo and the FIDE Elo, beside the
federation's own published ratings.

    python bench/predictive.py data/belgium [--work DIR]

Each system is run from an empty warehouse on the same inputs (bench/belgium_inputs.py),
then every game is scored with the ratings *in force on its day*: for our two systems
the list before the one whose window holds the game, for the federation the latest list
published before the game, i.e. whose checklist closed before its date (federation.parquet's
`window_end`, bench/belgium_inputs.py; of two lists closed the same day, the later). No
list scores a game it holds. The expected score of White is the
logistic 1 / (1 + 10^(−D/400)) for all three (one yardstick, no 400 cap), and the
log-loss of a game is −(s ln E + (1 − s) ln(1 − E)) with s = 1, ½ or 0.
Only games where all three systems rate both players are compared, so every column
scores the same games. Rows: the federation's list periods (the official lists),
then the whole history. A constant E = ½ scores ln 2 = 0.6931.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from belgium_inputs import write_belgium_inputs  # noqa: E402

SYSTEMS = ("performance", "fide")


def computed_warehouse(system: str, inputs: dict[str, Path], work: Path) -> Path:
    """The Belgian history rated under `system` (kept between runs: `ratings run` on
    the same files adds nothing and recomputes nothing)."""
    warehouse = work / f"{system}.duckdb"
    subprocess.run([Path(sys.executable).parent / "ratings", "run", "--system", system,
                    "--players", inputs["players"], "--ratings", inputs["ratings"], "--games", inputs["games"],
                    "--warehouse", warehouse, "--out", work / f"{system}-out", "--no-reports"],
                   check=True, stdout=subprocess.DEVNULL, cwd=HERE.parent)
    return warehouse


def pre_list_ratings(system: str) -> str:
    """SQL: (game_id, white, black) ratings of a game's players from the list before its window."""
    return f"""
        with l as (select list_id, window_start, window_end,
                          lag(list_id) over (order by window_start) as previous from {system}.lists),
        pre as (
            select l.list_id, s.player_id, s.rating from l join {system}.player_state s on s.list_id = l.previous
            where s.rating is not null
            union all
            select l.list_id, r.player_id, r.rating from l join {system}.initial_ratings r on l.previous is null
            where r.rating is not null
        )
        select g.game_id, w.rating as white, b.rating as black
        from {system}.games g
        join l on g.date between l.window_start and l.window_end
        join pre w on w.list_id = l.list_id and w.player_id = g.white_id
        join pre b on b.list_id = l.list_id and b.player_id = g.black_id"""


def log_loss(table: str) -> str:
    return f"""-(s * ln(1 / (1 + pow(10, -({table}.white - {table}.black) / 400)))
               + (1 - s) * ln(1 - 1 / (1 + pow(10, -({table}.white - {table}.black) / 400))))"""


def comparison(src: Path, federation: Path, warehouses: dict[str, Path]) -> list[tuple]:
    con = duckdb.connect()
    for system, path in warehouses.items():
        con.execute(f"attach '{path}' as {system} (read_only)")
    # One side at a time: joined in one query, DuckDB may pair the two sides' ratings
    # by list first (every pair of players of a list) before it meets the games.
    con.execute(f"""create temp table official as
        with published as (select window_end, max(list_id) as in_force
                           from (select distinct list_id, window_end from '{federation}') group by window_end)
        select g.game_id, g.list_period, p.in_force, g.white_id, g.black_id, w.rating as white,
               case g.result when '1-0' then 1.0 when '0-1' then 0.0 else 0.5 end as s
        from '{src}/games.parquet' g asof join published p on g.date > p.window_end
        join '{federation}' w on w.list_id = p.in_force and w.player_id = g.white_id""")
    con.execute(f"""create temp table official_black as
        select o.game_id, b.rating as black from official o
        join '{federation}' b on b.list_id = o.in_force and b.player_id = o.black_id""")
    for system in SYSTEMS:
        # The warehouse's game_id is the source's (bench/belgium_inputs.py keeps it).
        con.execute(f"create temp table pre_{system} as select game_id::bigint as game_id, white, black "
                    f"from ({pre_list_ratings(system)})")
    return con.execute(f"""
        with scored as (
            select o.list_period, {log_loss('o')} as official,
                   {log_loss('p')} as performance, {log_loss('f')} as fide
            from (select * from official join official_black using (game_id)) o
            join pre_performance p using (game_id)
            join pre_fide f using (game_id)
        )
        select list_period, count(*) as games, avg(official), avg(performance), avg(fide) from scored
        group by rollup (list_period) order by list_period nulls last""").fetchall()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, help="the Belgian data folder (data/belgium)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/predictive"), help="inputs and warehouses")
    args = parser.parse_args()
    inputs = write_belgium_inputs(args.src.resolve(), args.work / "inputs")
    warehouses = {system: computed_warehouse(system, inputs, args.work) for system in SYSTEMS}
    rows = comparison(args.src.resolve(), inputs["federation"], warehouses)
    print("Mean log-loss of the expected scores of the ratings in force (logistic; lower is better; ln 2 = 0.6931)")
    print(f"| {'list':<7} | {'games':>9} | {'federation':>10} | {'performance':>11} | {'FIDE':>7} |")
    print(f"|{'-' * 9}|{'-' * 11}:|{'-' * 11}:|{'-' * 12}:|{'-' * 8}:|")
    for period, games, official, performance, fide in rows:
        print(f"| {period or 'all':<7} | {games:>9,} | {official:>10.4f} | {performance:>11.4f} | {fide:>7.4f} |")


if __name__ == "__main__":
    main()
