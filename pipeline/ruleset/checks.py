"""The words a model declares its checks in, shared by the input models
(pipeline/validate/schemas.py) and a rule set's own model of its initial columns
(RuleSet.InitialColumns): a column's parse, a check of each value or of whole rows as the
SQL validation runs over the typed rows (or one of the writers' own Arrow checks), each
named for the problem it finds. Validation compiles them (pipeline/validate/compile.py:
checks.json) and runs them without pandas or Pandera (pipeline/validate/model_checks.py);
the Pandera check runs the very same SQL on a frame, so the two cannot say different
things. Loads pandas and Pandera: imported by a model's module only."""
from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pandera.pandas as pa
from pandera.typing import Series

from pipeline.config import today
from pipeline.ruleset.forms import ARROW_CHECKS, Parse, RowCheck
from pipeline.warehouse import sql_name, sql_text


# A decimal number as pandas' to_numeric reads one (no 'inf', no 'nan': never in range).
NUMBER = ("case when regexp_full_match({c}, '[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?') "
          "then try_cast({c} as double) end")


def whole(pattern: str) -> str:
    """The parse of a whole number whose text matches `pattern` (digits only)."""
    braces = pattern.replace("{", "{{").replace("}", "}}")  # kept through str.format
    return f"case when regexp_full_match({{c}}, '{braces}') then {{c}}::bigint end"


def parsed(sql: str, reason: str, layout: str | None = None, wrong_value: str | None = None) -> dict[str, Parse]:
    """A Field's metadata: the column is typed by `sql`; a text it refuses is rejected for
    `reason`, or for `wrong_value` when the text matches the regular expression `layout`."""
    return {"parse": Parse(sql, reason, layout, wrong_value)}


# Each check's form as validation runs it (pipeline/validate/model_checks.py: SQL over
# the typed rows, or the writers' own Arrow check), by its name, the reason: the Pandera
# check below runs the very same form on a frame, so the two cannot say different things.
CHECK_FORMS: dict[str, tuple[str, str]] = {}
ROW_CHECKS: dict[str, RowCheck] = {}


# pandera (0.35, and its main branch) builds a model's checks from what the decorators
# stored, popping the name on the way: the first model built takes it, and every other
# model that inherits the same check (RatingsInput and PlayersInput from PlayerRows,
# GoEventsInput from EventsInput) falls back to the method's __name__: "player_id: _id"
# instead of the reason. Giving the method the name too keeps the reason for all of them.
def check(*fields: str, name: str, sql: str | None = None, arrow: str | None = None):
    """A Pandera column check named for the problem (the reason), run as `sql` (over the
    value `{c}`; true when it passes) or as the Arrow check `arrow` (ARROW_CHECKS)."""
    form = ("sql", sql) if sql is not None else ("arrow", arrow)
    if form[1] is None or (form[0] == "arrow" and arrow not in ARROW_CHECKS):
        raise ValueError(f"the check {name!r} needs its SQL or one of the Arrow checks {sorted(ARROW_CHECKS)}")
    if CHECK_FORMS.setdefault(name, form) != form:
        raise ValueError(f"two checks named {name!r} run differently")

    def passes(cls, s: pd.Series) -> Series[bool]:
        if form[0] == "arrow":
            return pd.Series(ARROW_CHECKS[arrow](s).to_numpy(zero_copy_only=False), index=s.index)
        return pd.Series(_sql_passes(sql.format(c="c"), s.to_frame("c")), index=s.index)
    passes.__name__ = name
    return pa.check(*fields, name=name)(passes)


def row_check(*, name: str, reads: tuple[str, ...], sql: str, detail: str | None = None):
    """A Pandera check of whole rows, named for the problem, run as `sql` over the columns
    `reads` (`{column}`); a row it cannot judge (a value missing: the SQL gives NULL)
    passes. `detail` (SQL over the typed columns, `{column}`) is said in brackets after
    the name: "a player plays against themself (player 7)" says who, without opening the file.

    A row whose value in one of `reads` did not parse is rejected for that value, and
    the row check does not judge it (it would judge a NULL that the file did not leave
    empty: "neither a rating nor archives" for a rating of "x")."""
    declared = RowCheck(name, reads, sql, detail)
    if ROW_CHECKS.setdefault(name, declared) != declared:
        raise ValueError(f"two row checks named {name!r} differ")

    def judged(cls, df: pd.DataFrame) -> Series[bool]:
        if not set(reads) <= set(df.columns):  # an optional column left out: nothing to judge
            return pd.Series(True, index=df.index)
        return pd.Series(_sql_passes(sql.format(**{c: sql_name(c) for c in reads}), df[list(reads)]), index=df.index)
    judged.__name__ = name
    return pa.dataframe_check(name=name)(judged)


def _sql_passes(sql: str, frame: pd.DataFrame) -> np.ndarray:
    """Whether each row of `frame` passes `sql`, in DuckDB as validation runs it (NULL passes)."""
    con = duckdb.connect()
    con.execute("set variable today = ?", [today()])
    con.register("frame", frame.reset_index(drop=True))
    return con.sql(f"select coalesce(({sql}), true) as ok from frame").fetchnumpy()["ok"].astype(bool)


def full_match(pattern: str) -> str:
    """The SQL of a column check whose value must match `pattern` whole (RE2, as Arrow's)."""
    return "regexp_full_match({c}, " + sql_text(pattern).replace("{", "{{").replace("}", "}}") + ")"


def between(low: float, high: float | str) -> str:
    return f"{{c}} between {low} and {high}"
