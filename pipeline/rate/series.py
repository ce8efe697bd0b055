"""The series of a warehouse: each rule set's official lists (and, later, scenarios),
side by side on the same games, registry and submissions.

A warehouse rates one game, chess or Go (its games, its registry's grades): its
rule sets must share it. The first series is the warehouse's own: its files are
published in OUT/, the others' in OUT/<series>/.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import duckdb

from pipeline import systems
from pipeline.systems.base import RuleSet
from pipeline.warehouse import row, scalar


class SeriesError(ValueError):
    """A rule set the warehouse cannot hold, or lists it does not have; the message says why."""


@dataclass(frozen=True)
class Series:
    name: str  # the rule set's name for its official lists
    rule_set: RuleSet
    position: int  # 1: the warehouse's first

    def folder(self, out):
        """Where its files are published."""
        return out if self.position == 1 else out / self.name


def warehouse_game(con: duckdb.DuckDBPyConnection) -> str | None:
    found = row(con, "select value from settings where key = 'game'")
    return found[0] if found else None


def record_game(con: duckdb.DuckDBPyConnection, system: str) -> str:
    """The warehouse's game, from a rule set asked for: recorded the first time,
    refused when it is another."""
    game = systems.rule_set_class(system).game
    held = warehouse_game(con)
    if held is not None and held != game:
        holders = ", ".join(s.name for s in series_in(con)) or "its inputs"
        raise SeriesError(f"this warehouse holds {held} ({holders}); the {system} rules rate {game} games: "
                          "give them a warehouse of their own (another --warehouse)")
    if held is None:
        con.execute("insert into settings values ('game', ?)", [game])
    return game


def series_in(con: duckdb.DuckDBPyConnection) -> list[Series]:
    """The warehouse's series, first first, each with the parameters its lists use."""
    return [Series(name, systems.rule_set(system, json.loads(parameters)), position)
            for name, system, parameters, position in con.execute(
                "select series, system, parameters, position from series order by position").fetchall()]


def chosen(con: duckdb.DuckDBPyConnection, name: str | None) -> Series:
    """The series a reading command works on: the one named, else the warehouse's first."""
    held = series_in(con)
    if not held:
        raise SeriesError("no list has been computed in this warehouse yet")
    if name is None:
        return held[0]
    for s in held:
        if s.name == name:
            return s
    raise SeriesError(f"this warehouse has no {name} lists (it holds {', '.join(s.name for s in held)}): "
                      f"compute them with `ratings run --system {name}`")


def official(con: duckdb.DuckDBPyConnection, system: str, run_id: int, parameters: dict | None = None) -> Series:
    """A rule set's official series, made when the warehouse does not hold it yet;
    `parameters` (from --rules) become its parameters: when they differ from the
    stored ones, every list is recomputed (they are part of the first list's inputs)."""
    record_game(con, system)
    rule_set = systems.rule_set(system, parameters)
    values = json.dumps(rule_set.parameter_values(), sort_keys=True)
    held = row(con, "select position, parameters from series where series = ?", [system])
    if held is None:
        position = scalar(con, "select coalesce(max(position), 0) + 1 from series")
        con.execute("insert into series values (?, ?, false, ?, ?, ?, ?)",
                    [system, system, values, rule_set.rating_step(), position, run_id])
        return Series(system, rule_set, position)
    if parameters is None:
        return Series(system, systems.rule_set(system, json.loads(held[1])), held[0])
    if held[1] != values:
        con.execute("update series set parameters = ? where series = ?", [values, system])
    return Series(system, rule_set, held[0])
