"""Tools on the warehouse: `ratings audit` (its checks), `query` (read-only SQL a user
writes), `simulate` (a synthetic federation to try it on)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline.commands.common import opened, refuse_overwriting
from pipeline.commands.options import warehouse_option
from pipeline.listing import listing_format


@click.command()
@warehouse_option
def audit(warehouse: Path, wait: float) -> None:
    """Run the warehouse audits (sql/audits/): each must find no offending row.

    Example: ratings audit --warehouse w.duckdb
    """
    from pipeline.audit import audit_failures

    from pipeline.validate.rejects import excluded_count

    with opened(warehouse, wait, read_only=True) as con:
        failures = audit_failures(con)
        kept_out = excluded_count(con)
    for name, rows in failures.items():
        click.echo(f"  {'ok' if not rows else 'FAILED':<6} {name}" + (f": {len(rows)} rows" if rows else ""))
        for described in rows[:10]:
            click.echo(f"           {described}")
    for series, n in kept_out:  # each rated by another series: stored, not lost (excluded_games_held)
        click.echo(f"  note   the {series} lists do not rate {n} stored game{'s' if n > 1 else ''}, filed before "
                   "their history: `ratings rejects --excluded` lists them")
    if any(failures.values()):
        raise click.ClickException("some audits failed")


@click.command()
@click.option("--players", type=click.IntRange(min=10), required=True, help="Players in the federation.")
@click.option("--lists", type=click.IntRange(min=1), default=6, show_default=True, help="Lists (windows) to play.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="A whole number from 0: same seed, same bytes.")
@click.option("--first-list", default="2020-01", show_default=True,
              help="The first list's id: YYYY-01, YYYY-05 or YYYY-09 (a nominal list).")
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet"]), default="csv", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True, help="Folder to write to.")
def simulate(players: int, lists: int, seed: int, first_list: str, fmt: str, out: Path) -> None:
    """Write a synthetic federation (players, initial ratings, games) in the input format.

    About 2.1 games per player per list: --players 80000 --lists 6 gives about a million games.

    Example: ratings simulate --players 80000 --lists 6 --seed 1 --out sim/
    """
    from pipeline.console import ConsoleReporter
    from pipeline.flow import timed
    from pipeline.simulate import FirstListError
    from pipeline.simulate import simulate as write_federation

    try:
        with timed(ConsoleReporter(), "Simulate"):
            files = write_federation(players, lists, seed, out, first_list=first_list, fmt=fmt)
    except FirstListError as err:  # nothing was written: refused before the folder is made
        raise click.BadParameter(str(err), param_hint="'--first-list'") from err
    for kind, path in files.items():
        click.echo(f"  {kind:<8} {path}")


@click.command()
@click.argument("sql")
@warehouse_option
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the result to this .csv or .parquet file instead of printing it.")
@listing_format
def query(sql: str, warehouse: Path, wait: float, out_file: Path | None, fmt: str) -> None:
    """Run a read-only SQL query on the warehouse and print the result.

    The warehouse is opened read-only with file access switched off: a query can
    neither change the warehouse nor read or write other files.

    Example: ratings query "select list_id, players_rated, rounds_used from lists join performance_lists using (series, list_id)"
    """
    import duckdb

    with opened(warehouse, wait, read_only=True) as con:
        if out_file is not None:
            from pipeline.outputs import check_query_file
            refuse_overwriting(con, out_file, warehouse)
            check_query_file(con, out_file)
        try:
            result = con.sql(sql)
            if result is None:
                raise click.ClickException("query refused: not a query that returns rows")
            if out_file is None:
                from pipeline.listing import print_relation
                print_relation(result, fmt)
                return
            table = result.to_arrow_table()
        except duckdb.Error as err:
            raise click.ClickException(f"query refused: {str(err).splitlines()[0]}") from err
    from pipeline.writers import write_csv, write_parquet
    (write_parquet if out_file.suffix.lower() == ".parquet" else write_csv)(table, out_file)
    click.echo(f"{table.num_rows} row{'' if table.num_rows == 1 else 's'} written to {out_file}")


COMMANDS = (audit, query, simulate)
