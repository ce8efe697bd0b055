"""The rejected rows, written out to be fixed.

`ratings rejects --out F.csv` writes the open rejects in their input layout (the
columns of their kind, as read), with `reason`, `submission`, `file` and `row`
after them. Ingesting the fixed file takes the rows in, and `file` and `row` tell
validation which reject each one fixes (pipeline/validate/).

A reject no fix can take in (a player against themself, in a file whose organiser
cannot say which game it was) is closed by the rating officer, with who, when and
why (reject_closures): it stays a rejected row, no longer open, so `validate` and
`run` stop exiting 3 for it, and `--out` no longer writes it; it can be reopened.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow.csv as pacsv

from pipeline.config import KINDS
from pipeline.ingest import submissions
from pipeline.input_layout import WITH_EXTRA, columns
from pipeline.warehouse import scalar, sql_name, sql_text
from pipeline.writers import replace_atomically

OPEN_REJECTS = """select f.submission_id, r.file_id, f.kind, r.row_number, r.reason, r.record
                  from rejects r join source_files f using (file_id)
                  where r.status = 'open' and ($submission is null or f.submission_id = $submission)"""


def other_columns(con: duckdb.DuckDBPyConnection, kind: str, params: dict) -> list[str]:
    """The columns beyond the kind's own that the open rejects of `kind` give (a rule set's
    initial columns, a registry's federation: kept in `extra`, pipeline/input_layout.py),
    in the order the first row giving each gives them."""
    if kind not in WITH_EXTRA:
        return []
    return [k for (k,) in con.execute(f"""
        select key from (select file_id, row_number, unnest(json_keys(record)) as key,
                                unnest(range(len(json_keys(record)))) as place
                         from ({OPEN_REJECTS}) where kind = $kind)
        where not list_contains($own, key)
        group by key order by min((file_id, row_number, place))""",
        params | {"kind": kind, "own": list(columns(kind))}).fetchall()]


def export(con: duckdb.DuckDBPyConnection, out: Path, submission_id: int | None = None) -> dict[str, tuple[Path, int]]:
    """Write the open rejects to `out`, one file per kind when they are of several
    (`<name>-<kind>.csv`); returns kind → (file, rows)."""
    out = Path(out)
    params = {"submission": submission_id}
    kinds = [k for (k,) in con.execute(f"select distinct kind from ({OPEN_REJECTS}) order by kind", params).fetchall()]
    written = {}
    for kind in kinds:
        path = out if len(kinds) == 1 else out.with_name(f"{out.stem}-{kind}{out.suffix or '.csv'}")
        values = ", ".join(f"record->>{sql_text(c)} as {sql_name(c)}" for c in (*columns(kind), *other_columns(
            con, kind, params)))
        table = con.sql(f"""select {values}, reason, submission_id as submission, file_id as file, row_number as row
                            from ({OPEN_REJECTS}) where kind = $kind order by file_id, row_number""",
                        params=params | {"kind": kind}).to_arrow_table()
        # a plain CSV, not a public list: values go back in as they came (no spreadsheet escaping)
        replace_atomically(path, lambda tmp: pacsv.write_csv(table, tmp))
        written[kind] = (path, table.num_rows)
    return written


# --- the rejects no fix can take in: closed, and reopened ------------------------------

class DecisionRefused(ValueError):
    """A close, reopen or duplicate decision that cannot be taken; the message names each row."""


@dataclass(frozen=True)
class Reference:
    """A row as the officer names it: SUBMISSION:ROW (the submission's id or file name, the
    row as `ratings rejects` lists it), or SUBMISSION:KIND:ROW where a tournament file's
    parts share a row number."""

    text: str
    submission_id: int
    name: str
    kind: str | None
    row: int

    def __str__(self) -> str:
        return f"submission {self.submission_id} ({self.name}), row {self.row}"


def references(con: duckdb.DuckDBPyConnection, texts: tuple[str, ...] | list[str]) -> list[Reference]:
    """Each SUBMISSION:ROW resolved as `ratings withdraw` resolves a submission; one
    message naming every one that cannot be."""
    found, refused = [], []
    for text in texts:
        head, _, row = str(text).rpartition(":")
        submission, _, kind = head.rpartition(":")
        if not submission or kind not in KINDS:
            submission, kind = head, None
        if not submission or not row.strip().isdigit():
            refused.append(f"{text!r}: name a row as SUBMISSION:ROW (the submission's id or file name, the row as "
                           "`ratings rejects` lists it), e.g. 3:2 or games.csv:2")
            continue
        try:
            submission_id = submissions.resolve(con, submission)
        except submissions.SubmissionError as err:
            refused.append(f"{text}: {err}")
            continue
        name = scalar(con, "select name from submissions where submission_id = ?", [submission_id])
        found.append(Reference(str(text), submission_id, name, kind, int(row)))
    if refused:
        raise DecisionRefused("; ".join(refused) + ": nothing was done")
    return found


def _rejects_at(con: duckdb.DuckDBPyConnection, ref: Reference) -> list[tuple[int, str, str, str]]:
    """The rejects a reference names: (file_id, kind, status, reason)."""
    return con.execute("""select r.file_id, f.kind, r.status, r.reason
                          from rejects r join source_files f using (file_id)
                          where f.submission_id = ? and r.row_number = ? and (? is null or f.kind = ?)
                          order by r.file_id""", [ref.submission_id, ref.row, ref.kind, ref.kind]).fetchall()


WHY_NOT = {"taken in": "it was taken in since (the same file given again)", "fixed": "it was fixed by a fix file",
           "superseded": "its fix was rejected in turn: the fix's row is the open reject",
           "withdrawn": "its file was replaced or withdrawn"}


def decide(con: duckdb.DuckDBPyConnection, texts: tuple[str, ...], action: str, reason: str, by: str,
           run_id: int) -> list[tuple[Reference, str]]:
    """Close open rejects (action "closed") or reopen closed ones ("reopened"): all the rows
    named, or none, with one message naming each that cannot be. Returns (reference, reason
    of the reject) for each."""
    wanted = "open" if action == "closed" else "closed"
    chosen, refused = [], []
    for ref in references(con, texts):
        at = _rejects_at(con, ref)
        if len(at) > 1:
            kinds = ", ".join(k for _, k, _, _ in at)
            refused.append(f"{ref} is a row of several parts ({kinds}): name one as "
                           f"{ref.submission_id}:{at[0][1]}:{ref.row}")
        elif not at:
            refused.append(f"{ref}: no reject (`ratings rejects --all` lists them)")
        elif at[0][2] != wanted:
            status = at[0][2]
            why = ("it is open" if status == "open" else "it is closed already" if status == "closed"
                   else WHY_NOT.get(status, status))
            refused.append(f"{ref}: not {'an open' if wanted == 'open' else 'a closed'} reject ({why})")
        else:
            chosen.append((ref, at[0][0], at[0][3]))
    if refused:
        verb = "closed" if action == "closed" else "reopened"
        raise DecisionRefused("; ".join(refused) + f": nothing was {verb}")
    if len({(file_id, ref.row) for ref, file_id, _ in chosen}) < len(chosen):
        raise DecisionRefused("a row is named twice: name each once")
    now = dt.datetime.now()
    for ref, file_id, _ in chosen:
        con.execute("""update rejects set status = ?, resolved_run = ? where file_id = ? and row_number = ?""",
                    ["closed" if action == "closed" else "open", run_id if action == "closed" else None,
                     file_id, ref.row])
        con.execute("insert into reject_closures values (?, ?, ?, ?, ?, ?, ?)",
                    [file_id, ref.row, action, now, by, reason, run_id])
    return [(ref, why) for ref, _, why in chosen]


# The latest decision on each reject ever closed (who, when, why; reopened ones too).
LATEST_DECISION = """select file_id, row_number, arg_max(action, decided_at) as action,
                            max(decided_at) as decided_at, arg_max(decided_by, decided_at) as decided_by,
                            arg_max(reason, decided_at) as why
                     from reject_closures group by file_id, row_number"""


def listing(con: duckdb.DuckDBPyConnection, submission_id: int | None, shown: str) -> duckdb.DuckDBPyRelation:
    """What `ratings rejects --closed` lists: the closed rejects with who closed them, when
    and why (`shown` "closed"); `--all`: every reject with its status and the latest
    decision on it ("all"). The open ones: open_listing."""
    params = {"submission": submission_id}
    where = "r.status = 'closed'" if shown == "closed" else "true"
    return con.sql(f"""
        select f.submission_id as submission, s.name as file_name, r.file_id as file, f.kind, r.row_number as row,
               r.status, r.reason,
               case when d.action = 'reopened' then 'reopened by ' || d.decided_by else d.decided_by end as by,
               d.decided_at::timestamp(0) as at,
               coalesce(d.why, case r.status when 'fixed' then 'fixed by file ' || r.resolved_by_file || ', row '
                                                              || r.resolved_by_row
                                             when 'superseded' then 'its fix (file ' || r.resolved_by_file
                                                              || ', row ' || r.resolved_by_row || ') was rejected'
                                             when 'withdrawn' then 'its file was replaced or withdrawn' end) as why
        from rejects r join source_files f using (file_id) join submissions s using (submission_id)
        left join ({LATEST_DECISION}) d using (file_id, row_number)
        where {where} and ($submission is null or f.submission_id = $submission)
        order by r.file_id, r.row_number""", params=params)


def open_listing(con: duckdb.DuckDBPyConnection, submission_id: int | None,
                 limit: int | None = None) -> duckdb.DuckDBPyRelation:
    """What `ratings rejects` lists: the open rejects (of one submission, or of all), file
    by file and row by row, with the name of their file; the first `limit` of them (None: all)."""
    shown = f"limit {int(limit)}" if limit is not None else ""
    return con.sql(f"""select o.submission_id as submission, s.name as file_name, o.file_id as file,
                              o.kind, o.row_number as row, o.reason
                       from ({OPEN_REJECTS}) o join submissions s using (submission_id)
                       order by o.file_id, o.row_number {shown}""", params={"submission": submission_id})


def open_count(con: duckdb.DuckDBPyConnection, submission_id: int | None) -> int:
    """How many rejects are open (of one submission, or of all)."""
    return con.execute(f"select count(*) from ({OPEN_REJECTS})", {"submission": submission_id}).fetchall()[0][0]


# --- the games a series does not rate ------------------------------------------------

# The stored games a series keeps out of its lists (a history bound is a rule set's: filed
# before that series' first list when they came, rated by another series), with why.
EXCLUDED = """select x.series, f.submission_id, g.file_id, g.row_number, g.date, g.white_id, g.black_id, g.result,
                     g.event, x.reason
              from excluded_games x join games g using (game_key) join source_files f using (file_id)
              where $submission is null or f.submission_id = $submission"""


def excluded_listing(con: duckdb.DuckDBPyConnection, submission_id: int | None) -> duckdb.DuckDBPyRelation:
    """What `ratings rejects --excluded` lists: each stored game a series does not rate, with
    the series and why, file by file and row by row."""
    return con.sql(f"""select x.series, x.submission_id as submission, s.name as file_name, x.file_id as file,
                              x.row_number as row, x.date, x.white_id, x.black_id, x.result, x.reason
                       from ({EXCLUDED}) x join submissions s using (submission_id)
                       order by x.file_id, x.row_number, x.series""", params={"submission": submission_id})


def excluded_count(con: duckdb.DuckDBPyConnection, submission_id: int | None = None) -> list[tuple[str, int]]:
    """How many stored games each series does not rate (series in their order)."""
    return con.execute(f"""select x.series, count(*) from ({EXCLUDED}) x join series s using (series)
                           group by x.series, s.position order by s.position""",
                       {"submission": submission_id}).fetchall()
