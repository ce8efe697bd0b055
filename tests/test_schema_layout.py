"""sql/schema.sql is the current layout (issue 54, item 4): a new warehouse runs it and no
migration, and has exactly the catalog of a warehouse made the old way, layout 6 (kept as
tests/fixtures/schema_layout6.sql, the schema.sql of before) brought up by the migrations."""
from __future__ import annotations

from pathlib import Path

import duckdb

from pipeline import warehouse
from tests.conftest import PROJECT_DIR

LAYOUT_6 = PROJECT_DIR / "tests" / "fixtures" / "schema_layout6.sql"

# What a warehouse's layout is: its tables (as DuckDB writes their definitions back, defaults
# and constraints included), columns, constraints, indexes, views and sequences.
CATALOG = {
    "tables": "select table_name, sql from duckdb_tables() where schema_name = 'main'",
    "columns": """select table_name, column_index, column_name, data_type, column_default, is_nullable,
                         numeric_precision, numeric_scale from duckdb_columns() where schema_name = 'main'""",
    "constraints": """select table_name, constraint_type, constraint_text, constraint_column_names, expression
                      from duckdb_constraints() where schema_name = 'main'""",
    "indexes": "select table_name, index_name, sql from duckdb_indexes() where schema_name = 'main'",
    "views": "select view_name, sql from duckdb_views() where schema_name = 'main' and not internal",
    "sequences": "select sequence_name, start_value, increment_by, cycle from duckdb_sequences()",
}


def catalog(path: Path) -> dict[str, list[tuple]]:
    with duckdb.connect(str(path), read_only=True) as con:
        return {part: sorted(con.execute(query).fetchall(), key=repr) for part, query in CATALOG.items()}


def new_warehouse(path: Path, monkeypatch) -> Path:
    """A warehouse made by this process's code now, not copied from an earlier one's bytes."""
    monkeypatch.setattr(warehouse, "_TEMPLATES", {})
    warehouse.connect(path).close()
    return path


def migrated_from_layout_6(path: Path) -> Path:
    with duckdb.connect(str(path)) as con:
        con.execute(LAYOUT_6.read_text())
        con.execute("insert into warehouse_version values (6)")
    warehouse.connect(path).close()  # its first writable connection runs 7.sql to 12.sql
    return path


def test_schema_sql_is_layout_6_with_every_migration(tmp_path, monkeypatch):
    old = migrated_from_layout_6(tmp_path / "old.duckdb")
    new = new_warehouse(tmp_path / "new.duckdb", monkeypatch)
    with duckdb.connect(str(old), read_only=True) as con:
        assert con.execute("select version from warehouse_version order by 1").fetchall() == [
            (v,) for v in range(warehouse.MIGRATED_FROM, warehouse.WAREHOUSE_VERSION + 1)]
    old_catalog, new_catalog = catalog(old), catalog(new)
    for part in CATALOG:
        assert new_catalog[part] == old_catalog[part], part
    # The comparison compares something: the tables of the latest migrations are there.
    tables = {name for name, _ in new_catalog["tables"]}
    assert {"published_files", "studies", "excluded_games", "file_dates"} <= tables
    assert "performance_state" not in tables  # a rule set's tables come with its first rating


def test_a_new_warehouse_runs_no_migration(tmp_path, monkeypatch):
    def refused(found):
        raise AssertionError(f"a migration from layout {found} was read")

    monkeypatch.setattr(warehouse, "_migrations", refused)
    w = new_warehouse(tmp_path / "w.duckdb", monkeypatch)
    with duckdb.connect(str(w), read_only=True) as con:
        assert con.execute("select version from warehouse_version").fetchall() == [(warehouse.WAREHOUSE_VERSION,)]


def test_schema_sql_declares_no_column_a_migration_removed():
    # Layout 9 moved the estimation's figures out of lists: schema.sql no longer declares them.
    schema = (warehouse.SQL_DIR / "schema.sql").read_text()
    assert "rounds_used" not in schema and "players_still_moving" not in schema

