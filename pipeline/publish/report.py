"""The HTML report of each list: summary, charts, gains and losses, new players,
the estimation's convergence, the rejects. One self-contained page per list
(the charts are inline SVG: it works offline), written with Jinja2 and matplotlib."""
from __future__ import annotations

import io
from pathlib import Path

import duckdb
import jinja2
import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

from pipeline.publish import FILE_NAME, replace_atomically  # noqa: E402

# text.parse_math off: chart text (player names in the legend) is never read as
# mathtext, so "$\foo$" or "a_b^c" is drawn as written, not parsed (or refused).
matplotlib.rcParams.update({"svg.hashsalt": "ratings", "svg.fonttype": "none", "font.size": 9,
                            "axes.spines.top": False, "axes.spines.right": False, "text.parse_math": False})
HISTORY_LISTS = 12  # the top players' chart covers this list and the 11 before it
TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                               autoescape=True, keep_trailing_newline=True)


def _svg(figure) -> str:
    """The figure as inline SVG, with no date in it (byte-identical reruns)."""
    buffer = io.StringIO()
    figure.tight_layout()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _histogram(ratings: list[int]) -> str:
    fig, ax = plt.subplots(figsize=(6, 2.6))
    ax.hist(ratings, bins=range(800, 3000, 50), color="#4c72b0")
    ax.set_xlabel("published rating")
    ax.set_ylabel("players")
    return _svg(fig)


def _convergence(rounds: list[tuple[int, int]]) -> str:
    fig, ax = plt.subplots(figsize=(6, 2.6))
    if rounds:
        ax.plot([r for r, _ in rounds], [m for _, m in rounds], marker="o", color="#dd8452")
    ax.set_xlabel("round (1: without the compatibility range)")
    ax.set_ylabel("players still moving")
    ax.set_xlim(0.5, 25.5)
    return _svg(fig)


def _history(lines: dict[str, list[tuple[str, int]]]) -> str:
    fig, ax = plt.subplots(figsize=(6, 2.8))
    for name, points in lines.items():
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=name)
    ax.set_ylabel("rating")
    ax.tick_params(axis="x", labelrotation=45)
    if lines:
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _svg(fig)


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list) -> list[dict]:
    result = con.execute(sql, params)
    names = [d[0] for d in result.description]
    return [dict(zip(names, r)) for r in result.fetchall()]


def list_report(con: duckdb.DuckDBPyConnection, series, list_id: str) -> str:
    """The report page of one list of a series."""
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
    for list_id, revision in con.execute("select list_id, revision from lists where series = ? "
                                         "order by position", [series.name]).fetchall():
        if not FILE_NAME.fullmatch(list_id):
            continue
        path = folder / list_id / "index.html"
        marker = f"<!-- revision {revision} -->"
        if path.exists() and path.read_text().endswith(marker + "\n"):
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        page = list_report(con, series, list_id) + marker + "\n"
        replace_atomically(path, lambda tmp: tmp.write_text(page))
        written.append(path)
    return written
