"""Files for the tools users have: the spreadsheet dialect of the CSV lists, the
version, and the defaults of --warehouse and --out (environment, ratings.toml)."""
from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline.publish import csv_bytes
from tests.conftest import copy_built


@pytest.fixture
def published(published_once, tmp_path):
    """Here a copy of the small federation the session rated and published once
    (tests/conftest.py): no test of this file gives its input files again."""
    return copy_built(published_once, tmp_path)


def test_the_excel_dialect_is_what_a_belgian_spreadsheet_opens():
    table = pa.table({"name": ["Émile", "=cmd"], "rating": [1850, 1900], "score": [1.5, None]})
    # A BOM (Excel then reads UTF-8), ";" between cells, a decimal comma; text made
    # spreadsheet-safe as in the standard CSV (a leading "=" is quoted away).
    assert csv_bytes(table, "excel") == ('\ufeff"name";"rating";"score"\n"Émile";1850;"1,5"\n"\'=cmd";1900;\n'
                                         ).encode("utf-8")
    assert csv_bytes(table) == '"name","rating","score"\n"Émile",1850,1.5\n"\'=cmd",1900,\n'.encode("utf-8")


def test_publish_writes_the_spreadsheet_twins_beside_the_lists(cli, published, tmp_path):
    w, _ = published
    out = tmp_path / "excel"
    cli("publish", "--csv-dialect", "excel", "--warehouse", w, "--out", out, "--no-reports")
    names = sorted(p.name for p in (out / "lists").iterdir())
    assert "2027-01-excel.csv" in names and "2027-01-r1-excel.csv" in names and "2027-01.csv" in names
    standard = (out / "lists" / "2027-01.csv").read_text(encoding="utf-8").splitlines()
    excel = (out / "lists" / "2027-01-excel.csv").read_text(encoding="utf-8-sig").splitlines()
    assert [line.replace(",", ";") for line in standard] == excel  # the same cells (no decimals in a list)


def test_version(cli):
    assert cli("--version").output.startswith("ratings, version ")


def test_defaults_come_from_the_environment_then_ratings_toml(cli, published, tmp_path, monkeypatch):
    w, _ = published
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ratings.toml").write_text(f'warehouse = "{w.name}"\nout = "from-toml"\n')
    cli("publish", "--no-reports")
    assert (tmp_path / "from-toml" / "lists" / "2027-01.csv").exists()
    monkeypatch.setenv("RATINGS_OUT", str(tmp_path / "from-env"))
    cli("publish", "--no-reports")
    assert (tmp_path / "from-env" / "lists" / "2027-01.csv").exists()
    (tmp_path / "ratings.toml").write_text('wharehouse = "x.duckdb"\n')
    refused = cli("publish", "--no-reports", ok=False)
    assert refused.exit_code == 1 and "wharehouse: not a setting" in refused.output
    assert "Traceback" not in refused.output
