"""The warehouse's audits: each finds the rows that break one of its rules (`ratings audit`).
The SQL audits of sql/audits/, then one that asks the rule sets: no list in force rests on
a withdrawn or replaced game, as each rule set places its games."""
from __future__ import annotations

import duckdb

from pipeline.rate import stale_lists
from pipeline.rate.contract import RuleSetFailed, running
from pipeline.rate.series import series_in, unloaded_series
from pipeline.warehouse import SQL_DIR


def audit_failures(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Run every sql/audits/ query; each returns the rows that break its rule (here in
    words). Then `lists_on_withdrawn_games`: no list in force rests on a withdrawn or
    replaced game, as its rule set places the games (`on_withdrawn_games`); and
    `series_rule_sets`: every series' rule set loads and runs (one that does not is named,
    and the others are audited all the same)."""
    failures = {}
    for path in sorted((SQL_DIR / "audits").glob("*.sql")):
        result = con.sql(path.read_text())
        failures[path.stem] = [", ".join(f"{c} {v}" for c, v in zip(result.columns, values))
                               for values in result.fetchall()]
    withdrawn, failed = on_withdrawn_games(con)
    failures["lists_on_withdrawn_games"] = [f"{series} {list_id}: rests on games withdrawn or replaced since it was "
                                            "computed (run `ratings rate`)" for series, list_id in withdrawn]
    failures["series_rule_sets"] = [gone.words() for gone in unloaded_series(con)] + failed
    return failures


def on_withdrawn_games(con: duckdb.DuckDBPyConnection) -> tuple[list[tuple[str, str]], list[str]]:
    """(series, list_id) of every list in force that rests on a withdrawn or replaced game: its
    inputs changed since it was computed (its rule set's own signature, recomputed), and a
    game of its window or an earlier one was withdrawn after its revision (a later list rests
    on the earlier ones). Lists only waiting for late games are not counted. And the
    failures of the rule sets that could not tell (each one message)."""
    found, failed = [], []
    for s in series_in(con):
        try:
            with running(s, "audited"):
                stale = stale_lists(con, s)
        except RuleSetFailed as err:
            failed.append(str(err))
            continue
        for list_id in stale:
            if con.execute("""select 1 from lists l, withdrawn_rows w
                              where l.series = ? and l.list_id = ? and w.kind in ('games', 'go_games')
                                and w.run_id > l.run_id
                                and coalesce(try_cast(w.record->>'date' as date), l.window_end) <= l.window_end
                              limit 1""", [s.name, list_id]).fetchall():
                found.append((s.name, list_id))
    return found, failed
