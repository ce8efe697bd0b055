"""`ratings query`: read-only SQL a user writes, printed or written to a file. A module of
its own: it starts with DuckDB alone (the other tools load Arrow and the stages)."""
from __future__ import annotations

from pathlib import Path

import click
import duckdb

from pipeline.commands.common import opened, refuse_overwriting
from pipeline.commands.options import warehouse_option
from pipeline.listing import listing_format, print_relation
from pipeline.outputs import check_query_file


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
    with opened(warehouse, wait, read_only=True) as con:
        if out_file is not None:
            refuse_overwriting(con, out_file, warehouse)
            check_query_file(con, out_file)
        try:
            result = con.sql(sql)
            if result is None:
                raise click.ClickException("query refused: not a query that returns rows")
            if out_file is None:
                print_relation(result, fmt)
                return
            table = result.to_arrow_table()
        except duckdb.Error as err:
            raise click.ClickException(f"query refused: {str(err).splitlines()[0]}") from err
    # why: the writers load Arrow and numpy, which a query printed (most of them) never needs
    from pipeline.writers import write_csv, write_parquet

    (write_parquet if out_file.suffix.lower() == ".parquet" else write_csv)(table, out_file)
    click.echo(f"{table.num_rows} row{'' if table.num_rows == 1 else 's'} written to {out_file}")


COMMANDS = (query,)
