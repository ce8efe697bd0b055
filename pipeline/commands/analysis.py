"""Analysis: `ratings compare` and `evaluate` set ratings (the warehouse's series, the
scenarios of series.py, files) against each other and against the games
(pipeline/analysis/)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline import config
from pipeline.analysis.compare import compare as compared
from pipeline.analysis.evaluate import evaluate as scores
from pipeline.analysis.files import write_parquet, write_tables
from pipeline.analysis.page import write_comparison
from pipeline.analysis.sources import Source, scale_value
from pipeline.commands.common import opened
from pipeline.commands.options import warehouse_option
from pipeline.console import ConsoleReporter
from pipeline.flow import timed
from pipeline.listing import (
    StderrTimings,
    analysis_format_options,
    analysis_sources,
    columns_option,
    print_table,
)
from pipeline.outputs import claim_folder
from pipeline.rate.series import chosen, series_in


def _scale(ctx, param, value: str) -> float | str:
    try:
        return scale_value(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from err


def scale_options(f):
    """--scale and --offset, the scale the files of ratings are read on: one definition for
    `compare` and `evaluate` (a file's own after its name, FILE:scale=S,offset=O, overrides them)."""
    f = click.option("--offset", type=float, default=0.0, metavar="O",
                     help="The Elo rating of the files of ratings' 0 (default 0; e.g. 1500 for ratings centred on "
                          "0).")(f)
    return click.option("--scale", default="400", callback=_scale, metavar="S|fit",
                        help="The files of ratings' scale: a rating r is read as OFFSET + r × 400 / S (default 400, "
                             "the Elo scale; 2.302585, ln 10, for natural units), or fit: S fitted on the games "
                             "scored, printed.")(f)


def refuse_unread_scale(scale: float | str, offset: float, files: bool) -> None:
    """--scale or --offset given with no file of ratings to read on them: refused, not ignored."""
    if (scale, offset) != (400.0, 0.0) and not files:
        raise click.UsageError("--scale and --offset read the files of ratings, and no file of ratings is given")


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the tables (CSV, Parquet) and the page (default: OUT/compare-A-B under reports/).")
@columns_option
@scale_options
@analysis_format_options(("lists", "differences", "drift", "cohorts", "accuracy", "calibration"))
@warehouse_option
def compare(a: str, b: str, out: Path | None, columns: tuple, scale: float | str, offset: float, fmt: str | None,
            table: str | None, warehouse: Path, wait: float) -> None:
    """Compare two sources of ratings list by list and over the whole history: A and B
    are each a series of the warehouse (a rule set's official lists, a scenario) or a
    CSV/Parquet file of published ratings (player_id, list_id as YYYY-MM, YYYYMM or
    YYYY-MM-DD, rating, and a date or window_end column if the file dates its lists so;
    --columns maps a file's own names; FILE:scale=S,offset=O reads it on its own scale).

    Writes lists, differences, drift, cohorts, accuracy and calibration (CSV and
    Parquet) and index.html, a page with the charts, to --out; prints a summary, or
    with --format one of the tables (--table). --scale and --offset read every file of
    ratings on its own scale, as evaluate does.

    Example: ratings compare performance quota12 --out reports/compare-quota12
    """
    fmt = fmt or ("table" if table else None)
    with opened(warehouse, wait, read_only=True) as con, \
            timed(ConsoleReporter() if fmt is None else StderrTimings(), "Compare"):
        sources = analysis_sources(con, (a, b), columns, scale, offset)
        refuse_unread_scale(scale, offset, any(s.path is not None for s in sources))
        c = compared(con, *sources)
        folder = out or config.setting("out") / f"compare-{c.a.name}-{c.b.name}"
        claim_folder(folder, "compare")
        page = write_comparison(c, folder)
        if fmt is None:
            click.echo(_comparison_summary(c))
        else:
            print_table(c.tables()[table or "lists"], fmt)
        click.echo(f"  tables and page written to {folder}: open {page}", err=fmt is not None)


def _comparison_summary(c) -> str:
    lists = c.lists.to_pylist()
    lines = [f"  {len(lists)} lists of {c.a.name} compared with {c.b.name}'s"]
    if lists:
        last = lists[-1]
        lines.append(f"  latest list {last['list_id']} ({last['b_list_id']}): {last['players']} players on both; "
                     f"mean {last['mean_a']:.0f} / {last['mean_b']:.0f}, median {last['median_a']:.0f} / "
                     f"{last['median_b']:.0f}, Spearman {last['spearman'] or 0:.3f}, "
                     f"{100 * last['share_50_or_more']:.1f} % differ by 50 or more")
    lines.append(_accuracy_text(c.accuracy))
    lines.extend(f"  {note}" for note in c.accuracy.notes)
    return "\n".join(lines)


# What each source's own forecast is (the accuracy table's `forecast`: pipeline/analysis/forecasts.py)
FORECAST_WORDS = {"own": "its own", "yardstick": "the yardstick (no forecast of its own)",
                  "file": "the file's (a file of forecasts: no ratings, its yardstick is its forecast)"}


def _accuracy_text(accuracy) -> str:
    """Each source over the whole history: its own forecast's log-loss and Brier beside the
    common logistic yardstick's; a source with no forecast of its own says so."""
    rows = [r for r in accuracy.accuracy.to_pylist() if r["list_id"] is None]
    width = max([6, *(len(r["source"]) for r in rows)])
    lines = [f"  {'source':<{width}} {'games':>9}  {'log-loss':>8} {'Brier':>7}   "
             f"{'yardstick log-loss':>18} {'Brier':>7}  forecast"]
    for r in rows:
        lines.append(f"  {r['source']:<{width}} {r['games']:>9,}  {r['own_log_loss']:>8.4f} {r['own_brier']:>7.4f}   "
                     f"{r['log_loss']:>18.4f} {r['brier']:>7.4f}  " + FORECAST_WORDS[r["forecast"]])
    return "\n".join(lines)


@click.command()
@click.option("--system", "series", multiple=True, metavar="SERIES",
              help="A series of the warehouse to score (a rule set's or a scenario's name); repeatable.")
@click.option("--scenario", "scenarios", multiple=True, metavar="NAME", help="A scenario to score; repeatable.")
@click.option("--ratings", "files", multiple=True, metavar="FILE[:scale=S,offset=O]",
              help="A file of published ratings (player_id, list_id, rating; a date or window_end column may date "
                   "its lists) to score; repeatable. A scale of its own after its name, e.g. "
                   "whr.csv:scale=fit,offset=1500.")
@click.option("--forecasts", "forecast_files", multiple=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A file of forecasts (game_id, probability: White's expected score) to score as it is; "
                   "repeatable.")
@scale_options
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), default=None, metavar="YYYY-MM-DD",
              help="Score only the games played on or after this day (a study's test games: the day after its "
                   "--train-until list's window).")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), default=None, metavar="YYYY-MM-DD",
              help="Score only the games played on or before this day.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write accuracy and calibration (CSV, Parquet) and forecasts.parquet (each game as "
                   "each source forecast it) to this folder.")
@columns_option
@analysis_format_options(("accuracy", "calibration"))
@warehouse_option
def evaluate(series: tuple[str, ...], scenarios: tuple[str, ...], files: tuple[str, ...],
             forecast_files: tuple[Path, ...], scale: float | str, offset: float, since, until, out: Path | None,
             columns: tuple, fmt: str | None, table: str | None, warehouse: Path, wait: float) -> None:
    """Score ratings on the games they were in force for: each game by the list in
    force on its day, with the source's own forecast (a rule set's expected score, from
    both players' state on the list) and with the common logistic yardstick
    1 / (1 + 10^(-D/400)); the mean log-loss and Brier score per list and over the
    whole history, and a calibration table, on the games every source rates both
    players of (default, with no source named: every series of the warehouse). A
    source with no forecast of its own (a file of ratings) is scored by the yardstick,
    and the output says so. Prints each source's figures over the whole history, or
    with --format the accuracy (per list, and the whole history with an empty
    list_id) or the calibration table (--table).

    A file of ratings may date its lists by day (list_id YYYY-MM-DD, a date column: the
    first day in force, or a window_end column: in force from the day after); a list
    dated by its month alone that would score games of its own month is refused (its
    window may hold them). A file of forecasts is scored as it is, on the games it
    covers.

    On a warehouse of Go, the Go games are scored (a game won by default never, a
    jigo as a draw), each by the list of the last event ended before its day; the
    yardstick reads Go points on a scale fitted to the games, and says it.

    Example: ratings evaluate --system performance --system fide --ratings federation.csv
    """
    fmt = fmt or ("table" if table else None)
    with opened(warehouse, wait, read_only=True) as con, \
            timed(ConsoleReporter() if fmt is None else StderrTimings(), "Evaluate"):
        refuse_unread_scale(scale, offset, bool(files))
        names = [chosen(con, s).name for s in (*series, *scenarios)] + list(files)
        if not names and not forecast_files:
            names = [s.name for s in series_in(con)]
            if not names:
                raise click.ClickException("this warehouse holds no series to score: rate its games first "
                                           "(ratings run), or give --ratings or --forecasts")
        if since and until and until < since:
            raise click.UsageError(f"--until {until.date()} is before --since {since.date()}: no game to score")
        sources = analysis_sources(con, list(dict.fromkeys(names)), columns, scale, offset) + \
            [Source(path.stem, path=path, forecasts=True) for path in dict.fromkeys(forecast_files)]
        accuracy = scores(con, sources, since.date() if since else None, until.date() if until else None,
                          per_game=out is not None)
        if out is not None:
            claim_folder(out, "evaluate")
            write_tables({"accuracy": accuracy.accuracy, "calibration": accuracy.calibration}, out)
            write_parquet({"forecasts": accuracy.forecasts}, out)
        if fmt is None:
            click.echo(_accuracy_text(accuracy))
        else:
            print_table(accuracy.accuracy if (table or "accuracy") == "accuracy" else accuracy.calibration, fmt)
        for note in accuracy.notes:
            click.echo(f"  {note}", err=fmt is not None)
        if out is not None:
            click.echo(f"  accuracy, calibration and forecasts written to {out}", err=fmt is not None)


COMMANDS = (compare, evaluate)
