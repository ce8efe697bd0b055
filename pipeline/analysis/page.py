"""The comparison written out: each table as CSV and Parquet, and one offline HTML
page with its charts (drift over time, rating against rating, predictive accuracy
per list), like the list reports."""
from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from pipeline.analysis.compare import Comparison
from pipeline.analysis.files import write_tables
from pipeline.publish import write_bytes
from pipeline.publish.charts import TEMPLATES, plt, svg_of

COLOURS = ("#4c72b0", "#dd8452")


def write_comparison(c: Comparison, out: Path) -> Path:
    """Each table as CSV and Parquet in OUT, and OUT/index.html; returns the page."""
    write_tables(c.tables(), out)
    write_bytes(comparison_page(c).encode("utf-8"), out / "index.html")
    return out / "index.html"


def _rows(table: pa.Table) -> list[dict]:
    return table.to_pylist()


def _drift_chart(c: Comparison) -> str:
    fig, ax = plt.subplots(figsize=(7, 3))
    drift = c.drift.to_pandas()
    for colour, source in zip(COLOURS, (c.a.name, c.b.name)):
        mine = drift[drift["source"] == source]
        ax.plot(mine["list_date"], mine["mean"], color=colour, label=f"{source}: mean of all rated")
    cohorts = c.cohorts.to_pandas()
    for decade, rows in cohorts.groupby("decade"):
        for colour, column, source in zip(COLOURS, ("mean_a", "mean_b"), (c.a.name, c.b.name)):
            ax.plot(rows["list_date"], rows[column], color=colour, linestyle="--", linewidth=1,
                    label=f"{source}: a fixed cohort a decade" if decade == cohorts["decade"].min() else None)
    ax.set_ylabel("rating")
    ax.legend(fontsize=7, frameon=False)
    return svg_of(fig)


def _scatter_chart(c: Comparison, pairs) -> str:
    fig, ax = plt.subplots(figsize=(4, 4))
    if len(pairs):
        ax.scatter(pairs["a"], pairs["b"], s=4, alpha=0.4, color=COLOURS[0])
        low, high = min(pairs["a"].min(), pairs["b"].min()), max(pairs["a"].max(), pairs["b"].max())
        ax.plot([low, high], [low, high], color="#999", linewidth=1)
    ax.set_xlabel(c.a.name)
    ax.set_ylabel(c.b.name)
    return svg_of(fig)


def _accuracy_chart(c: Comparison) -> str:
    fig, ax = plt.subplots(figsize=(7, 3))
    lists = c.lists.to_pandas()
    for colour, column, source in zip(COLOURS, ("log_loss_a", "log_loss_b"), (c.a.name, c.b.name)):
        ax.plot(lists["list_date"], lists[column], color=colour, marker=".", label=source)
    ax.axhline(0.6931, color="#999", linewidth=1, linestyle=":")
    ax.set_ylabel("mean log-loss (lower is better)")
    ax.legend(fontsize=7, frameon=False)
    return svg_of(fig)


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
        calibration=_rows(c.accuracy.calibration), decades=decades,
        drift_chart=_drift_chart(c), accuracy_chart=_accuracy_chart(c),
        scatter_chart=_scatter_chart(c, c.latest_pairs.to_pandas()) if latest else "")
