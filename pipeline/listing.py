"""What the listing commands print (`submissions`, `rejects`, `revisions`, `corrections`,
`scenarios`, `evaluate`, `compare`, `query`): rows with named columns, as an aligned
table, CSV or JSON, the same columns in each.

JSON is one array of objects, one a row, keyed by the column names, with typed values
(numbers as numbers, dates and times as ISO strings, null for a missing value), so
that a script reads a listing without parsing the table a person reads.
"""
from __future__ import annotations

import csv
import datetime as dt
import decimal
import io
import json
import math
import re
from collections.abc import Sequence

import click

FORMATS = ("table", "csv", "json")


def listing_format(f):
    """--format table|csv|json (default: table)."""
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                        help="How to print the listing: an aligned table, CSV, or JSON (an array of objects, "
                             "one a row; the same columns in each).")(f)


def json_value(v):
    """A value as JSON holds it: a number, a string, null, an array or an object."""
    if v is None or isinstance(v, bool | int | str):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else None  # JSON has no NaN nor infinity
    if isinstance(v, decimal.Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, dt.date | dt.time):  # datetime is a date
        return v.isoformat()
    if isinstance(v, dict):
        return {str(k): json_value(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [json_value(x) for x in v]
    return str(v)


def _cell(v) -> str:
    """A value as the table and the CSV show it (a missing one: nothing)."""
    if v is None:
        return ""
    if isinstance(v, dt.datetime | dt.date | dt.time):
        return v.isoformat(sep=" ") if isinstance(v, dt.datetime) else v.isoformat()
    return str(v)


# pipeline.formats.cells.CONTROL, without the Arrow that module loads: a line break or tab
# in a cell (a file named with one, a query's value) would shift the table's rows and columns.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def rows_text(names: Sequence[str], rows: Sequence[Sequence], fmt: str, empty: str | None = None) -> str:
    """The rows as text in `fmt`; a table of no row is `empty`, or its header and "(no rows)"
    (CSV keeps its header, JSON is [])."""
    if fmt == "json":
        objects = [json.dumps({n: json_value(v) for n, v in zip(names, r)}, ensure_ascii=False) for r in rows]
        return "[\n" + ",\n".join(objects) + "\n]\n" if objects else "[]\n"  # a row a line: greppable too
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(names)
        writer.writerows([_cell(v) for v in r] for r in rows)
        return buffer.getvalue()
    if not rows and empty is not None:
        return empty + "\n"
    cells = [[CONTROL.sub("\ufffd", _cell(v)) for v in r] for r in rows]
    widths = [max([len(n), *(len(c[i]) for c in cells)]) for i, n in enumerate(names)]
    numbers = [all(isinstance(r[i], int | float | decimal.Decimal) and not isinstance(r[i], bool) or r[i] is None
                   for r in rows) for i in range(len(names))]

    def line(values):
        return "  ".join(v.rjust(w) if right else v.ljust(w) for v, w, right in zip(values, widths, numbers)).rstrip()
    return "\n".join([line(names), *(line(c) for c in cells)]) + "\n" + ("" if rows else "(no rows)\n")


def print_rows(names: Sequence[str], rows: Sequence[Sequence], fmt: str, empty: str | None = None) -> None:
    click.echo(rows_text(names, rows, fmt, empty), nl=False)


def print_records(names: Sequence[str], records: Sequence[dict], fmt: str, empty: str | None = None) -> None:
    """Records' values under `names`, in that order, in `fmt`."""
    print_rows(names, [[r[n] for n in names] for r in records], fmt, empty)


def print_relation(relation, fmt: str, empty: str | None = None) -> None:
    """A DuckDB relation's rows (a query's result) in `fmt`."""
    print_rows(relation.columns, relation.fetchall(), fmt, empty)


def print_table(table, fmt: str, empty: str | None = None) -> None:
    """An Arrow table's rows in `fmt`."""
    rows = [tuple(r.values()) for r in table.to_pylist()]
    print_rows(table.column_names, rows, fmt, empty)


def _columns(ctx, param, value: str | None):
    # why: the sources' module loads numpy and Arrow; every command module imports this one (ratings submissions)
    from pipeline.analysis.sources import column_map

    try:
        return column_map(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


def columns_option(f):
    """--columns list_id=list_period,...: a file of ratings read by its own column names."""
    return click.option("--columns", callback=_columns, metavar="COLUMN=FILE_COLUMN,...",
                        help="The file of ratings' own names for player_id, list_id, rating, e.g. "
                             "--columns list_id=list_period (the Belgian federation's file as shipped).")(f)


def analysis_format_options(tables: Sequence[str]):
    """--format (default: the summary) and --table: which of the command's tables it prints."""
    def options(f):
        f = click.option("--table", "table", type=click.Choice(tables), default=None,
                         help=f"The table --format prints (default: {tables[0]}).")(f)
        return click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                            help="Print a table (--table) instead of the summary: an aligned table, CSV, or "
                                 "JSON (an array of objects, one a row; the same columns in each).")(f)
    return options


class StderrTimings:
    """The "took" line on stderr, so that what a command prints in CSV or JSON is only that."""

    def stage(self, name: str, seconds: float) -> None:
        click.echo(f"  {name} took {seconds:.2f} s", err=True)


def analysis_sources(con, texts: Sequence[str], columns: tuple[tuple[str, str], ...], scale: float | str = 400.0,
                     offset: float = 0.0) -> list:
    """The sources named (series or files; `columns`, `scale` and `offset` for the files); --columns with no
    file among them is refused rather than ignored."""
    # why: the sources' module loads numpy and Arrow; every command module imports this one (ratings submissions)
    from pipeline.analysis.sources import source_of

    sources = [source_of(con, t, columns, scale, offset) for t in texts]
    if columns and not any(s.path is not None for s in sources):
        raise click.UsageError("--columns maps the columns of a file of ratings, and no file of ratings is given")
    return sources
