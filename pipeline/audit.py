"""The warehouse's audits: each finds the rows that break one of its rules (`ratings audit`).
The SQL audits of sql/audits/, then those that ask the rule sets: no list in force rests on
a withdrawn or replaced game, as each rule set places its games; and each rule set's own
tables of its columns of the shared ones keep the shared table's grain, audits generated
from its declaration (RuleSet.extensions)."""
from __future__ import annotations

import duckdb

from pipeline.rate import stale_lists
from pipeline.rate.contract import RuleSetFailed, running
from pipeline.rate.series import series_in, unloaded_series
from pipeline.ruleset.interface import RuleSet
from pipeline.ruleset.tables import SHARED_KEYS
from pipeline.warehouse import SQL_DIR


def audit_failures(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Run every sql/audits/ query; each returns the rows that break its rule (here in
    words). Then `lists_on_withdrawn_games`: no list in force rests on a withdrawn or
    replaced game, as its rule set places the games (`on_withdrawn_games`); and
    `series_rule_sets`: every series' rule set loads and runs (one that does not is named,
    and the others are audited all the same); and `own_tables_grain`: the grain audits of
    each own table the series' rule sets declare (`own_table_audits`)."""
    failures = {}
    for path in sorted((SQL_DIR / "audits").glob("*.sql")):
        result = con.sql(path.read_text())
        failures[path.stem] = [", ".join(f"{c} {v}" for c, v in zip(result.columns, values))
                               for values in result.fetchall()]
    withdrawn, failed = on_withdrawn_games(con)
    failures["lists_on_withdrawn_games"] = [f"{series} {list_id}: rests on games withdrawn or replaced since it was "
                                            "computed (run `ratings rate`)" for series, list_id in withdrawn]
    failures["series_rule_sets"] = [gone.words() for gone in unloaded_series(con)] + failed
    failures["own_tables_grain"] = own_tables_broken(con)
    return failures


def own_table_audits(rule_set: RuleSet) -> dict[str, tuple[str, str, str]]:
    """The audits of each table of its own a rule set declares of a shared one
    (RuleSet.extensions), generated from the declaration: own table -> (the shared table, SQL
    of the keys it holds more than once, SQL of its keys missing from the shared table). One
    row a key of the shared table: a second one would double the player in every file that
    joins it."""
    audits = {}
    for shared, own in rule_set.extensions.items():
        keys = ", ".join(SHARED_KEYS[shared])
        audits[own] = (shared,
                       f"select {keys}, count(*) as copies from {own} group by all having count(*) > 1 order by all",
                       f"select {keys} from {own} anti join {shared} using ({keys}) order by all")
    return audits


def own_tables_broken(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The rows of the series' rule sets' own tables that break their grain, in words (each
    table once, however many series share it; a table not made yet holds nothing)."""
    made = {t for (t,) in con.execute("select table_name from duckdb_tables() where schema_name = 'main'").fetchall()}
    audits = {own: audit for s in series_in(con) for own, audit in own_table_audits(s.rule_set).items() if own in made}
    broken = []
    for own, (shared, copies, orphans) in sorted(audits.items()):
        for sql, why in ((copies, f"more than one row of a key of {shared}"), (orphans, f"no row of {shared}")):
            result = con.sql(sql)
            broken += [f"{own}: " + ", ".join(f"{c} {v}" for c, v in zip(result.columns, values)) + f": {why}"
                       for values in result.fetchall()]
    return broken


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
