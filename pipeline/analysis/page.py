"""The comparison written out: each table as CSV and Parquet, and one offline HTML
page with its charts (drift over time, rating against rating, predictive accuracy
per list), like the list reports."""
from __future__ import annotations

import math
from pathlib import Path

import pyarrow as pa

from pipeline.analysis.compare import Comparison
from pipeline.analysis.files import write_tables
from pipeline.pages import TEMPLATES
from pipeline.pages.svg import line_chart, scatter
from pipeline.writers import write_bytes

COLOURS = ("#4c72b0", "#dd8452")


def write_comparison(c: Comparison, out: Path) -> Path:
    """Each table as CSV and Parquet in OUT, and OUT/index.html; returns the page."""
    write_tables(c.tables(), out)
    write_bytes(comparison_page(c).encode("utf-8"), out / "index.html")
    return out / "index.html"


def _rows(table: pa.Table) -> list[dict]:
    return table.to_pylist()


def _year(day) -> float:
    """A date as a year with its fraction: the x of the charts over time."""
    return day.year + (day.timetuple().tm_yday - 1) / 366


def _years(days) -> dict[float, str]:
    """Labels under the time axis: about six years, evenly spaced."""
    years = sorted({d.year for d in days})
    step = max(1, len(years) // 6)
    return {float(y): str(y) for y in years[::step]}


def _drift_chart(c: Comparison) -> str:
    lines, styles, colours = {}, {}, {}
    for colour, source in zip(COLOURS, (c.a.name, c.b.name)):
        rows = [r for r in _rows(c.drift) if r["source"] == source]
        lines[f"{source}: mean"] = [(_year(r["list_date"]), r["mean"]) for r in rows]
        colours[f"{source}: mean"] = colour
    cohorts = _rows(c.cohorts)
    for decade in sorted({r["decade"] for r in cohorts}):
        rows = [r for r in cohorts if r["decade"] == decade]
        for colour, column, source in zip(COLOURS, ("mean_a", "mean_b"), (c.a.name, c.b.name)):
            name = f"{source}: cohort {decade}s"
            lines[name] = [(_year(r["list_date"]), r[column]) for r in rows]
            styles[name], colours[name] = "dashed", colour
    return line_chart(lines, _years([r["list_date"] for r in _rows(c.drift)]), "rating", styles=styles,
                      colours=colours)


def _scatter_chart(c: Comparison) -> str:
    return scatter([(r["a"], r["b"]) for r in _rows(c.latest_pairs)], c.a.name, c.b.name)


def _accuracy_chart(c: Comparison) -> str:
    lists = _rows(c.lists)
    lines = {source: [(_year(r["list_date"]), r[column] if r[column] is not None else math.nan) for r in lists]
             for column, source in (("log_loss_a", c.a.name), ("log_loss_b", c.b.name))}
    if lists:  # a coin: E = 1/2 on every game
        lines["a coin (ln 2)"] = [(_year(lists[0]["list_date"]), math.log(2)),
                                  (_year(lists[-1]["list_date"]), math.log(2))]
    return line_chart(lines, _years([r["list_date"] for r in lists]), "mean log-loss (lower is better)",
                      styles={"a coin (ln 2)": "dotted"}, colours={"a coin (ln 2)": "#999999"})


def comparison_page(c: Comparison) -> str:
    lists = _rows(c.lists)
    latest = lists[-1]["list_id"] if lists else None
    differences = [r for r in _rows(c.differences) if r["list_id"] == latest]
    whole = [r for r in _rows(c.accuracy.accuracy) if r["list_id"] is None]
    cohorts = c.cohorts.to_pandas()
    decades = [{"decade": int(d), "players": int(rows["players"].iloc[0]), "lists": len(rows),
                "a_first": rows["mean_a"].iloc[0], "a_last": rows["mean_a"].iloc[-1],
                "b_first": rows["mean_b"].iloc[0], "b_last": rows["mean_b"].iloc[-1]}
               for d, rows in cohorts.groupby("decade")]
    return TEMPLATES.get_template("compare.html.j2").render(
        a=c.a.name, b=c.b.name, lists=lists, latest=latest, differences=differences, accuracy=whole,
        notes=c.accuracy.notes,
        # The page's table and chart are the yardstick's, as its accuracy figures (a source's
        # own forecast's bins are in calibration.csv)
        calibration=[r for r in _rows(c.accuracy.calibration) if r["forecast"] == "yardstick"], decades=decades,
        drift_chart=_drift_chart(c), accuracy_chart=_accuracy_chart(c),
        scatter_chart=_scatter_chart(c) if latest else "")
