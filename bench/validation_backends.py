"""Benchmark (issue 18): the row checks of a games file with Pandera's pandas, Polars and
Ibis (DuckDB) backends, and as one plain DuckDB query, on typed values rather than text.

Runs in a scratch venv, not the project's (it needs polars and ibis):

    /root/.pyenv/versions/3.11.7/bin/python -m venv /tmp/pbenv
    /tmp/pbenv/bin/pip install 'pandera[polars,ibis]' polars 'ibis-framework[duckdb]' duckdb pandas pyarrow -e /work/main
    /tmp/pbenv/bin/python bench/validation_backends.py            # /tmp/sim1m/games.csv, 1 % bad rows
    /tmp/pbenv/bin/python bench/validation_backends.py --games other.csv --bad 0.02 --repeat 5

The file is read as text (all_varchar, as the pipeline stages it) into a DuckDB table with
its row numbers; a known set of bad rows is injected (bad dates such as 2021-02-30,
2021-13-01, 2021-2-3, abc; ids that are not 1-15 digits; unknown result codes; a player
against themself, `007` against `7` included; missing values; rows with two problems).
Each backend then runs in its own process (import time, memory and caches apart):

  pandas        the pipeline's own (pipeline.validate.typed.type_and_check): the rows typed
                in DuckDB by the parses GamesInput declares, then GamesInput (pandera.pandas)
                on the typed values, the reasons with the file's text (until 2026-12-04:
                GamesInput on the texts, in pandas)
  polars        an equivalent pandera.polars DataFrameModel on a pl.DataFrame made from
                the DuckDB result's Arrow table (pl.from_arrow); validate(df, lazy=True)
  ibis-text     an equivalent pandera.ibis DataFrameModel over the DuckDB table, through
                ibis.duckdb.from_connection; nullable=False fields, as documented
  ibis-text+nn  the same, with the missing values checked by a custom check
                (ignore_na=False) instead of nullable=False (see the notes)
  ibis-typed    the same as ibis-text+nn over a view with try_cast columns (date, ids as
                numbers) beside the text
  duckdb-sql    the same checks as one DuckDB query (regexp_full_match, try_cast), a union
                of (row_number, column, check)

For each: the import time of the backend in a fresh process (alone, and on top of what the
pipeline imports already: duckdb, pandas, pyarrow, pandera.pandas), the time to hand the
rows to it (prep) and to validate (median of --repeat runs; validate ends with the failures
as (row_number, column, check)), the peak memory above the process's resident size before
the first run, and the failures found against those injected: every injected
(row, column, check) must be found with its row number, and nothing else.
Prints one Markdown table.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COLUMNS = ("game_id", "date", "white_id", "black_id", "result", "event", "round")
RESULT_CODES = ("1-0", "0-1", "1/2-1/2", "½-½", "+/-", "-/+", "-/-")
# The check names of pipeline.validate.schemas (copied: the worker of a backend other
# than pandas does not import the pipeline, so that its import time is its own).
DATE_CHECK = "unparseable date (expected YYYY-MM-DD)"
ID_CHECK = "not a whole-number id of at most 15 digits"
SELF_CHECK = "a player plays against themself"
DATE_SHAPE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
ID_SHAPE = r"^[0-9]{1,15}$"
# Canonical labels of the failures, whatever the backend calls them.
DATE, ID, RESULT, MISSING, SELF = "date", "id", "result code", "missing", "self-play"

# Bad rows: (what is set, the failures expected as (column, label); "" = the whole row).
INJECTIONS = [
    ({"date": "2021-02-30"}, [("date", DATE)]),
    ({"date": "2021-13-01"}, [("date", DATE)]),
    ({"date": "abc"}, [("date", DATE)]),
    ({"date": "1900-02-29"}, [("date", DATE)]),           # not a leap year
    ({"date": "2021-2-3"}, [("date", DATE)]),             # DuckDB's cast would take it
    ({"date": "2000-02-29"}, []),                         # a leap day: no failure
    ({"white_id": "12a"}, [("white_id", ID)]),
    ({"black_id": "-5"}, [("black_id", ID)]),
    ({"white_id": "1234567890123456"}, [("white_id", ID)]),  # 16 digits
    ({"black_id": "x"}, [("black_id", ID)]),
    ({"result": "2-0"}, [("result", RESULT)]),
    ({"result": "1/2"}, [("result", RESULT)]),
    ({"white_id": "4242", "black_id": "4242"}, [("", SELF)]),
    ({"white_id": "007", "black_id": "7"}, [("", SELF)]),  # compared as numbers
    ({"date": None}, [("date", MISSING)]),
    ({"white_id": None}, [("white_id", MISSING)]),
    ({"black_id": None}, [("black_id", MISSING)]),
    ({"result": None}, [("result", MISSING)]),
    ({"game_id": None, "event": None, "round": None}, []),  # nullable: no failure
    ({"date": "2021-04-31", "result": "1:0"}, [("date", DATE), ("result", RESULT)]),
    ({"white_id": None, "date": "abc", "black_id": "b7"},
     [("white_id", MISSING), ("date", DATE), ("black_id", ID)]),
]

BACKENDS = ("pandas", "polars", "ibis-text", "ibis-text+nn", "ibis-typed", "duckdb-sql")
NEEDS = {"pandas": ("pandera.pandas", "pandas"), "polars": ("pandera.polars", "polars"),
         "ibis-text": ("pandera.ibis", "ibis"), "ibis-text+nn": ("pandera.ibis", "ibis"),
         "ibis-typed": ("pandera.ibis", "ibis"), "duckdb-sql": ("duckdb",)}
IMPORTS = {"pandas": "import pandas, pandera.pandas",
           "polars": "import polars, pandera.polars",
           "ibis": "import ibis, pandera.ibis; ibis.duckdb",  # ibis.duckdb: the backend, loaded lazily
           "duckdb-sql": "import duckdb"}
PIPELINE_IMPORTS = "import duckdb, pandas, pyarrow, pandera.pandas"


# ---------------------------------------------------------------- data

def load(con, games: Path, bad: float, seed: int) -> tuple[int, set[tuple[int, str, str]]]:
    """The file as text in the DuckDB table `games` (row_number from 1, in file order),
    with the bad rows injected; returns the rows and the failures expected."""
    import numpy as np
    import pyarrow as pa

    con.execute(f"""create temp table raw as select row_number() over () as row_number, *
                    from read_csv('{games}', all_varchar = true, header = true)""").fetchall()
    table = con.sql("select row_number, " + ", ".join(COLUMNS) + " from raw order by row_number").to_arrow_table()
    con.execute("drop table raw").fetchall()
    n = table.num_rows
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(n, size=int(n * bad), replace=False))
    kinds = rng.integers(0, len(INJECTIONS), size=len(chosen))
    values = {c: table.column(c).to_numpy(zero_copy_only=False).copy() for c in COLUMNS}
    expected: set[tuple[int, str, str]] = set()
    for position, kind in zip(chosen, kinds):
        changes, failures = INJECTIONS[kind]
        for column, value in changes.items():
            values[column][position] = value
        expected |= {(int(position) + 1, column, label) for column, label in failures}
    injected = pa.table({"row_number": table.column("row_number"),
                         **{c: pa.array(values[c], type=pa.string()) for c in COLUMNS}})
    con.register("injected", injected)
    con.execute("create table games as select * from injected order by row_number").fetchall()
    con.unregister("injected")
    return n, expected


# ---------------------------------------------------------------- backends
# Each: prepare(con) -> the object validated; validate(obj) -> the failures, as
# (row_number, column, check name, failure value) rows of the backend's own frame type;
# canonical(failures) -> a set of (row_number, column, label) and the rows whose
# reported value is not the row's value (a wrong row number).

def pandas_backend():
    from pipeline.validate.schemas import GamesInput
    from pipeline.validate.typed import type_and_check

    def prepare(con):  # the rows as validation finds them staged (pipeline.validate.parts.validate_file)
        con.execute("""create or replace view staged_games as
            select 1 as file_id, row_number, null::integer as fixes_file, null::bigint as fixes_row,
                   date, white_id, black_id, result, game_id, event, round, null::varchar as problem
            from games""")
        return con

    def validate(con):  # typed in DuckDB, checked by the model, each reason with the file's text
        type_and_check(con, "games", GamesInput, "staged_games", 1, set(), 1_000_000, "and problem is null")
        return con.sql("select row_number, reason from schema_rejects").to_arrow_table().to_pandas()

    def canonical(out, con):
        found, wrong, lookup = set(), 0, con_values(con)
        for row, reason in zip(out["row_number"].tolist(), out["reason"].tolist()):
            if reason.startswith(SELF_CHECK):  # "... (player 7)": the pipeline names the player
                found.add((row, "", SELF))
                continue
            column, _, rest = reason.partition(": ")
            label = (MISSING if rest == "missing value" else DATE if rest.startswith((DATE_CHECK, "not a calendar date"))
                     else ID if rest.startswith(ID_CHECK) else RESULT if rest.startswith("unknown code")
                     else "other: " + rest)
            found.add((row, column, label))
            if "(got '" in rest and rest.rpartition("(got '")[2][:-2] != lookup(row, column):
                wrong += 1
        return found, wrong

    return prepare, validate, canonical


def polars_backend():
    import pandera.polars as pa
    import polars as pl
    from pandera.polars import PolarsData

    class GamesPolars(pa.DataFrameModel):
        date: str = pa.Field(nullable=False)
        white_id: str = pa.Field(nullable=False)
        black_id: str = pa.Field(nullable=False)
        result: str = pa.Field(nullable=False, isin=list(RESULT_CODES))
        game_id: str = pa.Field(nullable=True)
        event: str = pa.Field(nullable=True)
        round: str = pa.Field(nullable=True)

        @pa.check("date", name=DATE_CHECK)
        def _date(cls, data: PolarsData) -> pl.LazyFrame:
            # ignore_na drops null check *outputs*, not null inputs (pandas drops these): a
            # missing date must give null or true here, or it fails this check too
            text = pl.col(data.key)
            return data.lazyframe.select(text.is_null() | (
                text.str.contains(DATE_SHAPE) & text.str.to_date("%Y-%m-%d", strict=False).is_not_null()))

        @pa.check("white_id", "black_id", name=ID_CHECK)
        def _ids(cls, data: PolarsData) -> pl.LazyFrame:
            return data.lazyframe.select(pl.col(data.key).str.contains(ID_SHAPE))

        @pa.dataframe_check(name=SELF_CHECK)
        def _two_players(cls, data: PolarsData) -> pl.LazyFrame:
            white = pl.col("white_id").cast(pl.Float64, strict=False)
            black = pl.col("black_id").cast(pl.Float64, strict=False)
            return data.lazyframe.select(((white != black) | white.is_null() | black.is_null()).alias("ok"))

        class Config:
            strict = False

    def prepare(con):
        # DuckDB's Arrow strings become polars' string views: a copy (rechunk=False spares a second)
        return pl.from_arrow(con.sql("select row_number, " + ", ".join(COLUMNS) + " from games").to_arrow_table(),
                             rechunk=False)

    def validate(df):
        try:
            GamesPolars.validate(df, lazy=True)
        except pa.errors.SchemaErrors as err:
            fc = err.failure_cases
        else:
            return pl.DataFrame()
        # polars frames have no index: `index` is the position; the row number is that row's
        return fc.with_columns(row_number=df["row_number"].gather(fc["index"].fill_null(0)),
                               no_row=fc["index"].is_null())

    def canonical(fc, con):
        found, wrong, lookup = set(), 0, con_values(con)
        for r in fc.iter_rows(named=True):
            row = -1 if r["no_row"] else r["row_number"]
            column = "" if r["schema_context"] == "DataFrameSchema" else r["column"]
            found.add((row, column, label_of(r["check"])))
            if column and row > 0 and r["failure_case"] != lookup(row, column):
                wrong += 1
        return found, wrong

    return prepare, validate, canonical


def ibis_backend(variant: str):
    import ibis
    import pandas as pd
    import pandera.ibis as pa
    from pandera.ibis import IbisData

    typed = variant == "ibis-typed"
    custom_nulls = variant in ("ibis-text+nn", "ibis-typed")
    required = not custom_nulls  # nullable=False: the documented way

    class GamesIbis(pa.DataFrameModel):
        date: str = pa.Field(nullable=not required)
        white_id: str = pa.Field(nullable=not required)
        black_id: str = pa.Field(nullable=not required)
        result: str = pa.Field(nullable=not required, isin=list(RESULT_CODES))
        game_id: str = pa.Field(nullable=True)
        event: str = pa.Field(nullable=True)
        round: str = pa.Field(nullable=True)

        if typed:  # a column check sees only its column: the try_cast column needs a table check
            @pa.dataframe_check(name=DATE_CHECK)
            def _date(cls, data: IbisData):
                t = data.table
                return t.select(ok=t.date.isnull() | (t.date.re_search(DATE_SHAPE) & t.date_d.notnull()))
        else:
            @pa.check("date", name=DATE_CHECK)
            def _date(cls, data: IbisData):
                text = data.table[data.key]
                return data.table.select(text.re_search(DATE_SHAPE) & text.try_cast("date").notnull())

        @pa.check("white_id", "black_id", name=ID_CHECK)
        def _ids(cls, data: IbisData):
            return data.table.select(data.table[data.key].re_search(ID_SHAPE))

        @pa.dataframe_check(name=SELF_CHECK)
        def _two_players(cls, data: IbisData):
            t = data.table
            white, black = ((t.white_n, t.black_n) if typed
                            else (t.white_id.try_cast("float64"), t.black_id.try_cast("float64")))
            return t.select(ok=(white != black) | white.isnull() | black.isnull())

        if custom_nulls:
            @pa.check("date", "white_id", "black_id", "result", name="not_nullable", ignore_na=False)
            def _present(cls, data: IbisData):
                return data.table.select(data.table[data.key].notnull())

        class Config:
            strict = False

    def prepare(con):
        backend = ibis.duckdb.from_connection(con)
        if typed:
            con.execute("""create or replace temp view games_typed as
                           select *, try_cast(date as date) as date_d, try_cast(white_id as double) as white_n,
                                  try_cast(black_id as double) as black_n from games""").fetchall()
            return backend.table("games_typed")
        return backend.table("games")

    def validate(table):
        try:
            GamesIbis.validate(table, lazy=True)
        except pa.errors.SchemaErrors as err:
            fc = err.failure_cases.copy()
        else:
            return None
        # `index` is the position in the check's result (the table's scan order); the
        # row numbers in that order:
        rows = table.select("row_number").to_pyarrow().column(0).to_numpy()
        fc["row_number"] = [-1 if p is None or pd.isna(p) else int(rows[int(p)]) for p in fc["index"]]
        return fc

    def canonical(fc, con):
        found, wrong, lookup = set(), 0, con_values(con)
        for r in fc.to_dict("records"):
            value = r["failure_case"]
            column = r["column"]
            if r["schema_context"] == "DataFrameSchema":
                column = "date" if r["check"] == DATE_CHECK else ""  # ibis-typed: a table check
            elif isinstance(value, dict) and len(value) == 1:  # `column` says "failure_case": the key names it
                column, value = next(iter(value.items()))
            found.add((r["row_number"], column, label_of(r["check"])))
            if column and r["row_number"] > 0 and isinstance(value, str) and value != lookup(r["row_number"], column):
                wrong += 1
        return found, wrong

    return prepare, validate, canonical


def sql_backend():
    def prepare(con):
        return con

    def validate(con):
        codes = ", ".join(f"'{c}'" for c in RESULT_CODES)
        parts = []
        for column in ("date", "white_id", "black_id", "result"):
            parts.append(f"select row_number, '{column}' as col, 'not_nullable' as chk from games where {column} is null")
        parts.append(f"""select row_number, 'date', '{DATE_CHECK}' from games where date is not null
                         and not (regexp_full_match(date, '{DATE_SHAPE[1:-1]}') and try_cast(date as date) is not null)""")
        for column in ("white_id", "black_id"):
            parts.append(f"""select row_number, '{column}', '{ID_CHECK}' from games
                             where not regexp_full_match({column}, '{ID_SHAPE[1:-1]}')""")
        parts.append(f"select row_number, 'result', 'isin' from games where result not in ({codes})")
        parts.append(f"""select row_number, '', '{SELF_CHECK}' from games
                         where try_cast(white_id as double) = try_cast(black_id as double)""")
        return con.sql(" union all ".join(parts)).to_arrow_table()

    def canonical(out, con):
        rows, cols, checks = (out.column(i).to_pylist() for i in range(3))
        return {(r, c, label_of(k)) for r, c, k in zip(rows, cols, checks)}, None

    return prepare, validate, canonical


def label_of(check: str | None) -> str:
    if check == "not_nullable":
        return MISSING
    if check == DATE_CHECK:
        return DATE
    if check == ID_CHECK:
        return ID
    if check == SELF_CHECK:
        return SELF
    if check and check.startswith("isin"):
        return RESULT
    return f"other: {check}"


def con_values(con):
    """A row's text value, for checking that a reported failure is at the row it names."""
    cache: dict[str, list] = {}

    def value(row: int, column: str):
        if column not in cache:
            cache[column] = con.sql(f'select "{column}" from games order by row_number').to_arrow_table() \
                .column(0).to_pylist()
        return cache[column][row - 1]
    return value


# ---------------------------------------------------------------- one backend, in its own process

def rss() -> tuple[float, float]:
    """Resident and peak resident size of this process (MiB)."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def worker(args) -> dict:
    import duckdb

    name = args.worker
    try:
        for module in NEEDS[name]:
            __import__(module)
    except ImportError as exc:
        return {"backend": name, "skipped": f"not installed ({exc.name})"}
    make = {"pandas": pandas_backend, "polars": polars_backend, "duckdb-sql": sql_backend}.get(name) \
        or (lambda: ibis_backend(name))
    prepare, validate, canonical = make()
    con = duckdb.connect()
    rows, expected = load(con, args.games, args.bad, args.seed)
    before, _ = rss()
    try:
        Path("/proc/self/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current size
    except OSError:
        pass
    prep_times, validate_times = [], []
    for _ in range(args.repeat):
        started = time.perf_counter()
        obj = prepare(con)
        prepared = time.perf_counter()
        failures = validate(obj)
        prep_times.append(prepared - started)
        validate_times.append(time.perf_counter() - prepared)
    _, peak = rss()
    found, wrong = canonical(failures, con) if failures is not None else (set(), 0)
    rowless = {k for k in found if k[0] <= 0}  # failure cases reported without a row
    missing, extra = expected - found, found - expected - rowless
    breakdown = lambda keys: dict(sorted(_count(k[1:] for k in keys).items()))
    return {"backend": name, "rows": rows, "expected": len(expected), "found": len(found & expected),
            "extra": len(extra), "missing_by_check": breakdown(missing), "extra_by_check": breakdown(extra),
            "wrong_row_values": wrong, "rowless": breakdown(rowless), "prep": statistics.median(prep_times),
            "validate": statistics.median(validate_times), "peak_mib": peak - before,
            "injected_rows": len({k[0] for k in expected})}


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "absent"


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for column, label in items:
        key = f"{column}: {label}" if column else label
        out[key] = out.get(key, 0) + 1
    return out


# ---------------------------------------------------------------- orchestration

def import_seconds(statement: str, before: str = "", repeat: int = 5) -> float:
    """Median wall time of `statement` in a fresh interpreter, after `before`."""
    code = (f"{before}\nimport time\nt = time.perf_counter()\n{statement}\n"
            "print(time.perf_counter() - t)")
    times = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


NOTES = {
    "pandas": "the pipeline's: typed in DuckDB, GamesInput on the typed values, reasons with the text",
    "polars": "pandera.polars; index = position (mapped to row_number); typed via str.to_date / cast(strict=False)",
    "ibis-text": "pandera.ibis on the DuckDB table; nullable=False as documented",
    "ibis-text+nn": "pandera.ibis; nulls by a custom check (ignore_na=False) named not_nullable",
    "ibis-typed": "pandera.ibis over a try_cast view (date, ids as double); nulls as in +nn",
    "duckdb-sql": "one DuckDB query: union all of (row_number, column, check)",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=Path, default=Path("/tmp/sim1m/games.csv"))
    parser.add_argument("--bad", type=float, default=0.01, help="share of rows made bad (default 1 %%)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args)))
        return

    results = []
    for name in args.backends.split(","):
        missing = [m for m in NEEDS[name] if importlib.util.find_spec(m.split(".")[0]) is None]
        if missing:
            print(f"skipped {name}: {', '.join(missing)} is not installed", file=sys.stderr)
            results.append({"backend": name, "skipped": f"{', '.join(missing)} not installed"})
            continue
        print(f"running {name} ...", file=sys.stderr, flush=True)
        out = subprocess.run([sys.executable, __file__, "--worker", name, "--games", str(args.games),
                              "--bad", str(args.bad), "--seed", str(args.seed), "--repeat", str(args.repeat)],
                             check=False, capture_output=True, text=True, env=os.environ | {"PYTHONWARNINGS": "ignore"})
        if out.returncode != 0:
            results.append({"backend": name, "skipped": "failed: " + out.stderr.strip().splitlines()[-1]})
            print("\n".join(out.stderr.strip().splitlines()[-15:]), file=sys.stderr)
            continue
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if "skipped" in result:
            print(f"skipped {name}: {result['skipped']}", file=sys.stderr)
        results.append(result)

    imports = {}
    for key, statement in IMPORTS.items():
        try:
            imports[key] = (import_seconds(statement), import_seconds(statement, PIPELINE_IMPORTS))
        except subprocess.CalledProcessError:
            imports[key] = None

    first = next((r for r in results if "rows" in r), None)
    if first:
        versions = ", ".join(f"{m} {_version(m)}" for m in ("pandera", "pandas", "polars", "ibis-framework",
                                                            "duckdb", "pyarrow"))
        print(f"\n{first['rows']:,} rows of {args.games}, {first['injected_rows']:,} made bad "
              f"({first['expected']:,} (row, column, check) failures expected); times: median of "
              f"{args.repeat} (imports: of 5 fresh processes); {versions}; {os.cpu_count()} cores.")
        print("peak MiB: above the resident size once the rows are in DuckDB (DuckDB reuses its buffers, "
              "so its own work barely shows); wrong row: reported values that are not the value "
              "of the row named.\n")
    print("| backend | import s (alone / over pipeline's) | prep s | validate s | peak MiB | "
          "failures found / expected | extra | wrong row | notes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        key = "ibis" if r["backend"].startswith("ibis") else r["backend"]
        imp = imports.get(key)
        imp_text = f"{imp[0]:.2f} / {imp[1]:.2f}" if imp else "–"
        if "skipped" in r:
            print(f"| {r['backend']} | {imp_text} | – | – | – | – | – | – | skipped: {r['skipped']} |")
            continue
        note = NOTES[r["backend"]]
        if r["missing_by_check"]:
            note += "; MISSED " + ", ".join(f"{k} ×{v}" for k, v in r["missing_by_check"].items())
        if r["rowless"]:
            note += "; WITHOUT ROW NUMBER (one case each): " + ", ".join(r["rowless"])
        if r["extra_by_check"]:
            note += "; EXTRA " + ", ".join(f"{k} ×{v}" for k, v in r["extra_by_check"].items())
        wrong = "–" if r["wrong_row_values"] is None else r["wrong_row_values"]
        print(f"| {r['backend']} | {imp_text} | {r['prep']:.2f} | {r['validate']:.2f} | {max(0.0, r['peak_mib']):.0f} | "
              f"{r['found']:,} / {r['expected']:,} | {r['extra']:,} | {wrong} | {note} |")


if __name__ == "__main__":
    main()
