"""The HTML report of each list: summary, charts, gains and losses, new players,
the estimation's convergence, the rejects. One self-contained page per list
(the charts are inline SVG: it works offline), written with Jinja2 and matplotlib."""
from __future__ import annotations

from pathlib import Path

import duckdb

from pipeline.publish import FILE_NAME, replace_atomically
from pipeline.publish.charts import TEMPLATES, plt, svg_of

HISTORY_LISTS = 12  # the top players' chart covers this list and the 11 before it


def _histogram(ratings: list[int]) -> str:
    fig, ax = plt.subplots(figsize=(6, 2.6))
    ax.hist(ratings, bins=range(800, 3000, 50), color="#4c72b0")
    ax.set_xlabel("published rating")
    ax.set_ylabel("players")
    return svg_of(fig)


def _convergence(rounds: list[tuple[int, int]]) -> str:
    fig, ax = plt.subplots(figsize=(6, 2.6))
    if rounds:
        ax.plot([r for r, _ in rounds], [m for _, m in rounds], marker="o", color="#dd8452")
    ax.set_xlabel("round (1: without the compatibility range)")
    ax.set_ylabel("players still moving")
    ax.set_xlim(0.5, 25.5)
    return svg_of(fig)


def _history(lines: dict[str, list[tuple[str, int]]]) -> str:
    fig, ax = plt.subplots(figsize=(6, 2.8))
    for name, points in lines.items():
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=name)
    ax.set_ylabel("rating")
    ax.tick_params(axis="x", labelrotation=45)
    if lines:
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return svg_of(fig)


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list) -> list[dict]:
    result = con.execute(sql, params)
    names = [d[0] for d in result.description]
    return [dict(zip(names, r)) for r in result.fetchall()]


def list_accuracy(con: duckdb.DuckDBPyConnection, series) -> dict[str, dict]:
    """How each list of a chess series predicted the games played while it was in
    force (pipeline/analysis/evaluate.py): list_id -> games, log_loss, brier."""
    from pipeline.analysis.evaluate import NoCommonGames, evaluate
    from pipeline.analysis.sources import Source

    if series.rule_set.game != "chess":
        return {}
    try:
        scores = evaluate(con, [Source(series.name, series=series.name)]).accuracy
    except NoCommonGames:
        return {}
    return {r["list_id"]: r for r in scores.to_pylist() if r["list_id"] is not None}


def list_report(con: duckdb.DuckDBPyConnection, series, list_id: str, accuracy: dict | None = None) -> str:
    """The report page of one list of a series (with its predictive figures, if any)."""
    s = series.name
    summary = _rows(con, "select * from list_summary where series = ? and list_id = ?", [s, list_id])[0]
    history = "select * from rating_history where series = ? and list_id = ?"
    top = [r[0] for r in con.execute("select player_id from rating_history where series = ? and list_id = ? "
                                     "order by rating desc, player_id limit 8", [s, list_id]).fetchall()]
    lines: dict[str, list[tuple[str, int]]] = {}
    for name, list_, rating in con.execute(
            """select h.name || ' (' || h.player_id || ')', h.list_id, h.rating from rating_history h
               where h.series = ? and h.player_id in (select unnest(?::bigint[])) and h.list_id in (
                   select list_id from lists where series = ? and position <=
                       (select position from lists where series = ? and list_id = ?)
                   order by position desc limit ?)
               order by h.player_id, h.list_id""", [s, top, s, s, list_id, HISTORY_LISTS]).fetchall():
        lines.setdefault(name, []).append((list_, rating))
    page = TEMPLATES.get_template("list_report.html.j2").render(
        s=summary,
        accuracy=accuracy,
        estimation=series.rule_set.estimates_players,
        histogram=_histogram([r[0] for r in con.execute("select rating from rating_history where series = ? "
                                                        "and list_id = ?", [s, list_id]).fetchall()]),
        convergence=_convergence(con.execute("select round, players_moving from estimation_rounds "
                                             "where series = ? and list_id = ? order by round", [s, list_id]).fetchall()
                                 if series.rule_set.estimates_players else []),
        history=_history(lines),
        gains=_rows(con, f"{history} and change > 0 order by change desc, player_id limit 10", [s, list_id]),
        losses=_rows(con, f"{history} and change < 0 order by change, player_id limit 10", [s, list_id]),
        new_players=_rows(con, f"{history} and status = 'new' order by rating desc, player_id limit 20",
                          [s, list_id]),
        rejects=_rows(con, """
            select regexp_extract(f.path, '[^/]+$') as file, f.rows_read, f.rows_accepted,
                   (select count(*) from rejects r where r.file_id = f.file_id and r.status = 'open') as rows_rejected,
                   (select mode(regexp_replace(split_part(r.reason, ';', 1), ' \\(got .*\\)$', ''))
                    from rejects r where r.file_id = f.file_id and r.status = 'open') as top_reason
            from source_files f
            where f.taken_in_run <= coalesce((select run_id from lists where series = ? and list_id = ?), 0)
            order by f.file_id""", [s, list_id]),
    )
    return page


def write_reports(con: duckdb.DuckDBPyConnection, out: Path, series) -> list[Path]:
    """<series folder>/<list_id>/index.html for each list of the series whose report is
    missing or older than its revision (the page records the revision it shows)."""
    written = []
    if not series.rule_set.list_files:  # rule sets without list files have no list pages
        return written
    folder = Path(series.folder(Path(out)))
    accuracy = list_accuracy(con, series)
    for list_id, revision in con.execute("select list_id, revision from lists where series = ? "
                                         "order by position", [series.name]).fetchall():
        if not FILE_NAME.fullmatch(list_id):
            continue
        path = folder / list_id / "index.html"
        # The predictive figures grow with the games played under the list: a page is
        # rewritten when they change, as when its revision does.
        scored = accuracy.get(list_id, {}).get("games", 0)
        marker = f"<!-- revision {revision}, {scored} games scored -->"
        if path.exists() and path.read_text().endswith(marker + "\n"):
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        page = list_report(con, series, list_id, accuracy.get(list_id)) + marker + "\n"
        replace_atomically(path, lambda tmp: tmp.write_text(page))
        written.append(path)
    return written
