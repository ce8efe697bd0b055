"""The HTML report of each list: summary, drift and predictive figures, charts,
gains and losses, new players, the estimation's convergence, the rejects. One
self-contained page per list (inline SVG charts: it works offline), written with
Jinja2; the tables every page reads are fetched once per publication, not once a page."""
from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import duckdb
import pyarrow as pa

from pipeline.analysis.evaluate import accuracy
from pipeline.analysis.sources import Source
from pipeline.pages import TEMPLATES
from pipeline.pages.svg import bars, line_chart
from pipeline.publish import FILE_NAME, list_rows
from pipeline.warehouse import create_temp_table
from pipeline.writers import replace_atomically

HISTORY_LISTS = 12  # the top players' chart covers this list and the 11 before it
TOP = 8
BIN_START, BIN_STOP, BIN = 800, 3000, 50  # the histogram's bins of published ratings


def _records(con: duckdb.DuckDBPyConnection, sql: str, params: list | dict) -> list[dict]:
    result = con.execute(sql, params)
    names = [d[0] for d in result.description]
    return [dict(zip(names, r)) for r in result.fetchall()]


def _by(rows: list[dict], key: str) -> dict:
    return {k: list(g) for k, g in itertools.groupby(rows, key=lambda r: r[key])}


def list_accuracy(con: duckdb.DuckDBPyConnection, series) -> dict[str, dict]:
    """How each list of a chess series predicted the games played while it was in
    force (pipeline/analysis/evaluate.py, without the calibration the pages do not
    show): list_id -> games, log_loss, brier."""
    if series.rule_set.game != "chess":
        return {}
    scores = accuracy(con, [Source(series.name, series=series.name)])
    return {r["list_id"]: r for r in scores.to_pylist() if r["list_id"] is not None}


# The published lists' rows (sql/50_published_lists.sql) without the names, which the
# pages look up only for the few dozen rows a list shows (`ranked`).
HISTORY_COLUMNS = "list_id, player_id, rating, previous_rating, change, games, status"

# The figures of list_summary (sql/views.sql) that the pages show, from report_history
# rather than from the view, which would compute rating_history again.
SUMMARY = """
with stats as (
    select list_id, count(*) as players_rated, count(*) filter (where status = 'new') as new_players,
           count(*) filter (where status <> 'did not play') as players_active,
           round(avg(rating), 1) as mean_rating, median(rating) as median_rating,
           round(avg(change) filter (where status = 'played'), 1) as mean_change_played,
           round(avg(change) filter (where status = 'did not play'), 1) as mean_change_not_played,
           round(avg(change), 1) as mean_change
    from report_history group by list_id
)
select l.list_id, l.revision, l.window_start, l.window_end, l.games_rated, l.forfeits,
       coalesce(s.players_rated, 0) as players_rated, coalesce(s.new_players, 0) as new_players,
       coalesce(s.players_active, 0) as players_active, s.mean_rating, s.median_rating,
       s.mean_change_played, s.mean_change_not_played, s.mean_change,
       round(s.mean_rating - lag(s.mean_rating) over (order by l.position), 1) as mean_rating_change
       {figures}
from lists l left join stats s using (list_id) {figures_join}
where l.series = $series"""


def summary_sql(rule_set) -> str:
    """SUMMARY with the rule set's own figures of each list (its `lists` extension: the
    estimation's rounds, players still moving, ...), under their own names."""
    own = rule_set.extensions.get("lists")
    if own is None:
        return SUMMARY.format(figures="", figures_join="")
    return SUMMARY.format(figures=", f.* exclude (series, list_id)",
                          figures_join=f"left join {own} f using (series, list_id)")


class ReportTables:
    """Everything the pages of a series read, fetched once: the lists' rows that
    publication read (`published`, pipeline.publish.Published.lists: rating_history is
    not read twice), less the names, made a temporary table, and from it in a few
    set-based queries each list's summary, histogram, gains, losses, new players and
    top players (those named); the estimation rounds, the input files and their open
    rejects, the predictive figures."""

    def __init__(self, con: duckdb.DuckDBPyConnection, series, published: pa.Table, accuracy: dict | None = None):
        s = [series.name]
        named = {"series": series.name}
        self.series = series
        self.lists = _records(con, "select list_id, position, run_id from lists where series = ? order by position", s)
        con.register("published_rows", published)
        con.execute(f"create or replace temp table report_history as select {HISTORY_COLUMNS} from published_rows")
        con.unregister("published_rows")
        self.summary = {r["list_id"]: r for r in _records(con, summary_sql(series.rule_set), named)}

        def ranked(where: str, key: str, n: int) -> dict[str, list[dict]]:
            # The first n of each list by one sort key, (key, player_id) as a struct: DuckDB
            # then keeps n rows a list as it reads (a top-n) rather than sorting them all.
            # Their names as the list's revision saw the registry, as in rating_history.
            return _by(_records(con, f"""
                with chosen as (
                    select *, ({key}, player_id) as rank_key from report_history where {where}
                    qualify row_number() over (partition by list_id order by ({key}, player_id)) <= {n}
                )
                select c.list_id, c.player_id, v.name, c.rating, c.previous_rating, c.change, c.games, c.status
                from chosen c join lists l on l.series = $series and l.list_id = c.list_id
                asof join player_versions v on v.player_id = c.player_id and l.registry_version >= v.version
                order by c.list_id, c.rank_key""", named), "list_id")

        self.gains = ranked("change > 0", "-change", 10)
        self.losses = ranked("change < 0", "change", 10)
        self.new = ranked("status = 'new'", "-rating", 20)
        self.top = ranked("true", "-rating", TOP)
        self.bins = {k: {r["low"]: r["players"] for r in rows} for k, rows in _by(_records(con, f"""
            select list_id, {BIN_START} + floor((rating - {BIN_START}) / {BIN}) * {BIN} as low, count(*) as players
            from report_history group by all order by list_id, low""", []), "list_id").items()}
        # The top players' ratings on the lists their charts show (each list's chart: the
        # HISTORY_LISTS lists up to it), not on every list: FIDE's 412 lists would make
        # 200,000 rows dicts, this a tenth of them.
        at = {l["list_id"]: k for k, l in enumerate(self.lists)}
        charted = [(at[list_id], r["player_id"]) for list_id, rows in self.top.items() for r in rows]
        create_temp_table(con, "charted", {"k": ("bigint", [k for k, _ in charted]),
                                           "player_id": ("bigint", [p for _, p in charted])})
        self.ratings = {(r["list_id"], r["player_id"]): r["rating"] for r in _records(con, f"""
            with numbered as (select list_id, row_number() over (order by position) - 1 as k
                              from lists where series = $series)
            select distinct h.list_id, h.player_id, h.rating
            from report_history h join numbered n using (list_id)
            join charted c on c.player_id = h.player_id and n.k between c.k - {HISTORY_LISTS - 1} and c.k
            """, named)}
        con.execute("drop table charted")
        con.execute("drop table report_history")
        self.rounds = _by(_records(con, """select list_id, round, players_moving from estimation_rounds
                                           where series = ? order by list_id, round""", s), "list_id") \
            if series.rule_set.estimates_players else {}
        self.files = input_files(con)
        self.accuracy = list_accuracy(con, series) if accuracy is None else accuracy

    def page(self, list_id: str) -> str:
        """The report page of one list."""
        at = next(k for k, l in enumerate(self.lists) if l["list_id"] == list_id)
        shown = [l["list_id"] for l in self.lists[max(0, at - HISTORY_LISTS + 1):at + 1]]
        lines = {f"{r['name']} ({r['player_id']})": [(k, self.ratings[(l, r["player_id"])])
                                                     for k, l in enumerate(shown)
                                                     if (l, r["player_id"]) in self.ratings]
                 for r in self.top.get(list_id, [])}
        step = max(1, len(shown) // 6)
        labels = {k: l for k, l in enumerate(shown) if k % step == 0 or k == len(shown) - 1}
        rounds = self.rounds.get(list_id, [])
        run = self.lists[at]["run_id"]
        return TEMPLATES.get_template("list_report.html.j2").render(
            s=self.summary[list_id], accuracy=self.accuracy.get(list_id),
            estimation=self.series.rule_set.estimates_players,
            histogram=bars(self.bins.get(list_id, {}), BIN_START, BIN_STOP, BIN, "published rating", "players"),
            convergence=line_chart({"players still moving": [(r["round"], r["players_moving"]) for r in rounds]},
                                   {k: str(k) for k in (1, 5, 10, 15, 20, 25)}, "players still moving",
                                   "round (1: without the compatibility range)", legend=False),
            history=line_chart(lines, labels, "rating"),
            gains=self.gains.get(list_id, []), losses=self.losses.get(list_id, []), new_players=self.new.get(list_id, []),
            **files_seen(self.files, run),
        )


# Each part of each input file and what became of its rows, as `ratings submissions`
# counts them (sql/submissions.sql): read = in force + rejected (open) + closed + fixed +
# withdrawn (taken in and withdrawn since, or rejected and withdrawn with the file). A
# replaced or withdrawn file shows as such, its rows withdrawn; a tournament's new
# players stay registered when its games are withdrawn, so that part stays in force.
INPUT_FILES = """
with judged as (
    select file_id, count(*) filter (where status = 'open') as rejected,
           count(*) filter (where status = 'closed') as closed,
           count(*) filter (where status in ('fixed', 'superseded')) as fixed,
           count(*) filter (where status = 'withdrawn') as rejects_withdrawn,
           mode(regexp_replace(split_part(reason, ';', 1), ' \\(got .*\\)$', ''))
               filter (where status = 'open') as top_reason
    from rejects group by file_id
),
withdrawn as (select file_id, count(*) as n from withdrawn_rows group by file_id)
select f.file_id, regexp_extract(f.path, '[^/]+$') as file, f.kind, f.run_id, f.taken_in_run,
       s.status in ('staged', 'taken in') or f.kind not in ('games', 'go_games', 'events') as in_force,
       case when s.status in ('staged', 'taken in') then 'taken in'
            when f.kind not in ('games', 'go_games', 'events') then 'taken in (its file ' || s.status || ')'
            when s.status = 'replaced' then 'replaced by ' || coalesce((select min_by(n.name, n.submission_id)
                                                                      from submissions n
                                                                      where n.replaces = s.submission_id), '?')
            else s.status end as status,
       f.rows_read, f.rows_accepted - coalesce(w.n, 0) as rows_in_force, coalesce(j.rejected, 0) as rows_rejected,
       coalesce(j.closed, 0) as rows_closed, coalesce(j.fixed, 0) as rows_fixed,
       coalesce(w.n, 0) + coalesce(j.rejects_withdrawn, 0) as rows_withdrawn, j.top_reason
from source_files f join submissions s using (submission_id)
left join judged j using (file_id) left join withdrawn w using (file_id)
where f.taken_in_run is not null
order by f.file_id"""

COUNTS = ("rows_read", "rows_in_force", "rows_rejected", "rows_closed", "rows_fixed", "rows_withdrawn")


def input_files(con: duckdb.DuckDBPyConnection) -> list[dict]:
    return _records(con, INPUT_FILES, [])


def files_seen(files: list[dict], run: int) -> dict:
    """The input files a list's revision saw (staged by its run or before), and the totals
    of those in force: a replaced or withdrawn file's rows are no longer counted."""
    seen = [f for f in files if f["run_id"] <= run]
    kept = [f for f in seen if f["in_force"]]
    totals = {c: sum(f[c] for f in kept) for c in COUNTS} | {"files": len(kept)}
    return {"rejects": seen, "totals": totals}


def _inputs_mark(files: list[dict], run: int) -> str:
    """What the page shows of the input files, in a few characters: a reject closed or a
    file withdrawn since rewrites the page, as a new revision does."""
    shown = [tuple(f[c] for c in ("file", "kind", "status", *COUNTS, "top_reason"))
             for f in files_seen(files, run)["rejects"]]
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:12]


def write_reports(con: duckdb.DuckDBPyConnection, out: Path, series, published: pa.Table | None) -> list[Path]:
    """<series folder>/<list_id>/index.html for each list of the series whose report is
    missing or older than its revision (the page records the revision it shows), from
    the lists' rows publication read (pipeline.publish.Published.lists), or, when
    publication left some lists alone (None), those of the lists the pages to write show
    (a rule set without list files has no pages)."""
    written = []
    if not series.rule_set.list_files:  # rule sets without list files have no list pages
        return written
    folder = Path(series.folder(Path(out)))
    accuracy = list_accuracy(con, series)
    lists = con.execute("select list_id, revision, run_id from lists where series = ? order by position",
                        [series.name]).fetchall()
    files = input_files(con)
    due = []
    for k, (list_id, revision, run) in enumerate(lists):
        if not FILE_NAME.fullmatch(list_id):
            continue
        # The predictive figures grow with the games played under the list: a page is
        # rewritten when they change, as when its revision does.
        scored = accuracy.get(list_id, {}).get("games", 0)
        marker = f"<!-- revision {revision}, {scored} games scored, inputs {_inputs_mark(files, run)} -->"
        path = folder / list_id / "index.html"
        if not (path.exists() and path.read_text().endswith(marker + "\n")):
            due.append((k, list_id, marker, path))
    if not due:
        return written
    if published is None:  # lists were left alone: read the rows the due pages show, each
        # page its list and the HISTORY_LISTS - 1 before it (its chart; its summary's change)
        shown = {lists[j][0] for k, *_ in due for j in range(max(0, k - HISTORY_LISTS + 1), k + 1)}
        published = list_rows(con, series, sorted(shown))
    tables = ReportTables(con, series, published, accuracy)
    for _, list_id, marker, path in due:
        path.parent.mkdir(parents=True, exist_ok=True)
        page = tables.page(list_id) + marker + "\n"
        replace_atomically(path, lambda tmp, text=page: tmp.write_text(text))
        written.append(path)
    return written
