"""A Ctrl-C at a transaction's edge (pipeline.warehouse.transaction, scratch): the
KeyboardInterrupt may arrive as `begin transaction` returns or as `commit` runs, in
whatever statement DuckDB was executing when Python saw the signal. A transaction left
open there took back, when the connection closed, what the caller recorded after it:
`ratings tune` stopped by Ctrl-C as trial 3 began left its run 'running', not
'failed' (seen once in CI, tests/test_tune.py's Ctrl-C test)."""
from __future__ import annotations

import duckdb
import pytest

from pipeline.warehouse import scratch, transaction


class _InterruptedAfter:
    """A connection on which Ctrl-C arrives as the statement `sql` returns (it took effect)."""

    def __init__(self, con: duckdb.DuckDBPyConnection, sql: str):
        self.con, self.sql = con, sql

    def execute(self, sql: str, *args):
        result = self.con.execute(sql, *args)
        if sql == self.sql:
            raise KeyboardInterrupt
        return result


@pytest.mark.parametrize("opened", [transaction, scratch])
def test_a_ctrl_c_just_after_begin_leaves_no_transaction_open(opened):
    con = duckdb.connect()
    con.execute("create table runs (status varchar)")
    with pytest.raises(KeyboardInterrupt):
        with opened(_InterruptedAfter(con, "begin transaction")):
            pass
    # What the caller records next (the run marked failed) is kept: no transaction is
    # open to roll it back (a second `begin` would say "within a transaction").
    con.execute("insert into runs values ('failed')")
    con.execute("begin transaction")
    con.execute("rollback")
    assert con.execute("select status from runs").fetchall() == [("failed",)]


def test_a_ctrl_c_as_commit_returns_keeps_what_was_committed_and_leaves_nothing_open():
    con = duckdb.connect()
    con.execute("create table t (x int)")
    with pytest.raises(KeyboardInterrupt):
        with transaction(_InterruptedAfter(con, "commit")):
            con.execute("insert into t values (1)")
    con.execute("begin transaction")
    con.execute("rollback")
    assert con.execute("select x from t").fetchall() == [(1,)]
