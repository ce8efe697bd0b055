"""The warehouse a bench script times: opened read-only, with its official series (a
clear message, not a traceback, when it is not one or holds no list yet)."""
from __future__ import annotations

import argparse

import duckdb

from pipeline.rate.series import Series, series_in
from pipeline.warehouse import WarehouseError, connect


def official_series(parser: argparse.ArgumentParser, warehouse: str) -> tuple[duckdb.DuckDBPyConnection, list[Series]]:
    try:
        con = connect(warehouse, read_only=True)
    except WarehouseError as err:
        parser.error(str(err))
    official = series_in(con, scenarios=False)
    if not official:
        parser.error(f"{warehouse}: no rated series yet (run `ratings run` on it first)")
    return con, official
