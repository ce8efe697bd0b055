"""The series of a warehouse: each rule set's official lists, and scenarios (a rule
set with other parameters, stored under a name of its own, never published), side
by side on the same games, registry and submissions.

A warehouse rates one game, chess or Go (its games, its registry's grades): its
rule sets must share it. The first series is the warehouse's own: its files are
published in OUT/, the others' in OUT/<series>/.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import duckdb

from pipeline import systems
from pipeline.ruleset.words import span
from pipeline.warehouse import row, scalar

if TYPE_CHECKING:  # loaded with a rule set, by the commands that read a series (not `ratings submissions`)
    from pipeline.ruleset.interface import RuleSet


class SeriesError(ValueError):
    """A rule set the warehouse cannot hold, or lists it does not have; the message says why."""


@dataclass(frozen=True)
class Series:
    name: str  # the rule set's name for its official lists, a scenario's own name
    rule_set: RuleSet
    position: int  # 1: the warehouse's first
    scenario: bool = False  # a scenario: computed like the official lists, never published

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


@dataclass(frozen=True)
class Unloaded:
    """A series whose rule set cannot be loaded (its package uninstalled or broken): its
    lists stay in the warehouse, left as they are, until it is back or they are dropped."""

    name: str
    system: str
    scenario: bool
    reason: str  # why, naming the package
    remedy: str = "install its package again, or drop them"

    def words(self) -> str:
        return f"the {self.name} lists are left as they are: {self.reason}; {self.remedy}: ratings series --drop {self.name}"


def _held(con: duckdb.DuckDBPyConnection) -> list[Series | Unloaded]:
    """Every series of the warehouse, first first: each with its rule set and the parameters
    its lists use, or Unloaded when the rule set cannot be loaded (or the series' name is
    not a plain name: a warehouse written by other means)."""
    found = []
    for name, system, parameters, position, scenario in con.execute(
            "select series, system, parameters, position, scenario from series order by position").fetchall():
        if not systems.PLAIN_NAME.fullmatch(name):  # it names the series' folder under --out
            found.append(Unloaded(name, system, scenario, f"its name {name!r} is not a plain name "
                                                          f"({systems.PLAIN_WORDS})", "drop them"))
            continue
        try:
            found.append(Series(name, systems.rule_set(system, json.loads(parameters), stored=True), position,
                                scenario))
        except (systems.UnknownRuleSet, systems.ParameterError) as err:
            found.append(Unloaded(name, system, scenario, str(err)))
    return found


def series_in(con: duckdb.DuckDBPyConnection, scenarios: bool = True) -> list[Series]:
    """The warehouse's series whose rule set loads, first first, each with the parameters
    its lists use (without the scenarios if asked): a series whose rule set cannot be
    loaded blocks none of the others (`unloaded_series`)."""
    return [s for s in _held(con) if isinstance(s, Series) and (scenarios or not s.scenario)]


def unloaded_series(con: duckdb.DuckDBPyConnection) -> list[Unloaded]:
    """The warehouse's series whose rule set cannot be loaded, first first."""
    return [s for s in _held(con) if isinstance(s, Unloaded)]


def chosen(con: duckdb.DuckDBPyConnection, name: str | None) -> Series:
    """The series a reading command works on: the one named, else the warehouse's first
    (whose rule set loads)."""
    held = series_in(con)
    gone = {u.name: u for u in unloaded_series(con)}
    if name in gone:
        raise SeriesError(gone[name].words())
    if not held:
        raise SeriesError("no list has been computed in this warehouse yet"
                          + "".join(f"; {u.words()}" for u in gone.values()))
    if name is None:
        return held[0]
    for s in held:
        if s.name == name:
            return s
    if name in systems.names():
        raise SeriesError(f"this warehouse has no {name} lists (it holds {', '.join(s.name for s in held)}): "
                          f"compute them with `ratings run --system {name}`")
    raise SeriesError(f"this warehouse has no {name!r} lists (it holds {', '.join(s.name for s in held)})")


def known_list(con: duckdb.DuckDBPyConnection, series: Series, list_id: str) -> str:
    """`list_id` when the series has that list; else the refusal names the lists it has."""
    held = [r[0] for r in con.execute("select list_id from lists where series = ? order by position",
                                      [series.name]).fetchall()]
    if list_id not in held:
        raise SeriesError(f"no list {list_id!r} in {series.name}: its lists are {span(held)}")
    return list_id


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
        return Series(system, systems.rule_set(system, json.loads(held[1]), stored=True), held[0])
    if held[1] != values:  # the audit of rounding reads the series' step (sql/audits/ratings_are_rounded.sql)
        con.execute("update series set parameters = ?, rating_step = ? where series = ?",
                    [values, rule_set.rating_step(), system])
    return Series(system, rule_set, held[0])


SCENARIO_NAME = systems.PLAIN_NAME


def scenario(con: duckdb.DuckDBPyConnection, name: str, system: str | None, parameters: dict, run_id: int) -> Series:
    """A scenario: the rule set `system` (default: the warehouse's first series') with
    `parameters` replacing its defaults, stored as the series `name`; made when new,
    given the new parameters when it exists (every list is then recomputed)."""
    if not SCENARIO_NAME.fullmatch(name):
        raise SeriesError(f"scenario name {name!r}: lower-case letters, digits, _ and -, at most 40 "
                          "(it names the scenario's series and folders)")
    held = {s.name: s for s in series_in(con)}
    for gone in unloaded_series(con):
        if gone.name == name:
            raise SeriesError(gone.words())
    if name in systems.names() or (name in held and not held[name].scenario):
        raise SeriesError(f"{name!r} names a rule set's official lists: choose another name for the scenario")
    officials = [s for s in held.values() if not s.scenario]
    if not officials:
        raise SeriesError("no list has been computed in this warehouse yet: run the official lists first")
    if name in held and system is not None and held[name].rule_set.name != system:
        raise SeriesError(f"scenario {name!r} is under the {held[name].rule_set.name} rules, not {system}: "
                          "drop it first (ratings scenario NAME --drop)")
    system = system or (held[name].rule_set.name if name in held else officials[0].rule_set.name)
    record_game(con, system)
    rule_set = systems.rule_set(system, parameters)
    values = json.dumps(rule_set.parameter_values(), sort_keys=True)
    if name in held:
        con.execute("update series set parameters = ?, rating_step = ? where series = ?",
                    [values, rule_set.rating_step(), name])
        return Series(name, rule_set, held[name].position, True)
    position = scalar(con, "select coalesce(max(position), 0) + 1 from series")
    con.execute("insert into series values (?, ?, true, ?, ?, ?, ?)",
                [name, system, values, rule_set.rating_step(), position, run_id])
    # The games its rule set's official lists do not rate (filed before their history when
    # they came) are none of its own either: a scenario rates what its rule set rates.
    con.execute("insert into excluded_games select ?, game_key, reason, run_id from excluded_games where series = ?",
                [name, system])
    return Series(name, rule_set, position, True)


def drop_scenario(con: duckdb.DuckDBPyConnection, name: str) -> int:
    """Remove a scenario and everything computed for it (its rows in every table keyed
    by series); returns the lists it had. Official lists cannot be dropped."""
    found = row(con, "select scenario from series where series = ?", [name])
    if found is None:
        raise SeriesError(f"no scenario {name!r} (`ratings scenarios` lists them)")
    if not found[0]:
        raise SeriesError(f"{name!r} is a rule set's official lists, not a scenario: they cannot be dropped")
    return _dropped(con, name)


def drop_series(con: duckdb.DuckDBPyConnection, name: str) -> int:
    """Remove a scenario, or the official lists of a rule set that cannot be loaded (its
    package uninstalled or broken), and everything computed for them; returns the lists
    they had. The official lists of a rule set that loads are a record: never dropped."""
    found = row(con, "select scenario, system from series where series = ?", [name])
    if found is None:
        held = [n for (n,) in con.execute("select series from series order by position").fetchall()]
        raise SeriesError(f"no series {name!r} in this warehouse (it holds {', '.join(held) or 'none'})")
    scenario_, system = found
    if not scenario_ and not any(u.name == name for u in unloaded_series(con)):
        raise SeriesError(f"{name!r} is the official lists of the rule set {system}, which is installed: they are "
                          "a record, never dropped (only a scenario, or lists whose rule set cannot be loaded)")
    return _dropped(con, name)


def _dropped(con: duckdb.DuckDBPyConnection, name: str) -> int:
    """The series `name` removed with its rows in every table keyed by series; its lists' count."""
    lists = scalar(con, "select count(*) from lists where series = ?", [name])
    tables = [t for (t,) in con.execute("""select distinct table_name from duckdb_columns()
                                           where schema_name = 'main' and column_name = 'series'
                                             and table_name in (select table_name from duckdb_tables())""").fetchall()]
    for table in sorted(tables):
        con.execute(f'delete from "{table}" where series = ?', [name])
    return lists


SERIES_COLUMNS = ("series", "rule_set", "kind", "lists", "from")


def series_listing(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """Each series of the warehouse, first first: its rule set, official or scenario, its
    lists, and where its rule set comes from (or why it cannot be loaded)."""
    counts = dict(con.execute("select series, count(*) from lists group by series").fetchall())
    return [{"series": s.name, "rule_set": s.system if isinstance(s, Unloaded) else s.rule_set.name,
             "kind": "scenario" if s.scenario else "official", "lists": counts.get(s.name, 0),
             "from": f"cannot be loaded: {s.reason}" if isinstance(s, Unloaded)
             else systems.origin(s.rule_set.name)}
            for s in _held(con)]


SCENARIO_COLUMNS = ("scenario", "rule_set", "changes", "lists", "made_in_run", "computed_at")


def scenario_listing(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """Each scenario: its rule set, the parameters it changes (from the rule set's
    defaults), its lists and the run that made it."""
    found = []
    for name, system, parameters, made, lists, latest in con.execute("""
            select s.series, s.system, s.parameters, s.created_run,
                   (select count(*) from lists l where l.series = s.series),
                   (select max(r.computed_at)::timestamp(0) from list_revisions r where r.series = s.series)
            from series s where s.scenario order by s.position""").fetchall():
        defaults = systems.rule_set(system, {}).parameter_values()
        changed = {k: v for k, v in json.loads(parameters).items() if defaults.get(k) != v}
        found.append({"scenario": name, "rule_set": system,
                      "changes": ", ".join(f"{k} = {v}" for k, v in sorted(changed.items())) or "(none)",
                      "lists": lists, "made_in_run": made, "computed_at": latest})
    return found


def own_views(con: duckdb.DuckDBPyConnection, series: Series) -> None:
    """Temp views series_player_state, series_calculations, series_lists: the shared tables
    with the series' rule set's own columns joined (RuleSet.extensions), for the stages
    that read what a rule set declares it publishes or flags (sql/51, the site, the
    pairing lists). A table the rule set has not made yet (it never rated) reads as the
    shared one."""
    made = {t for (t,) in con.execute("select table_name from duckdb_tables()").fetchall()}
    for table in ("player_state", "calculations", "lists"):
        own = series.rule_set.extensions.get(table)
        relation = series.rule_set.extended(table) if own in made else table
        con.execute(f"create or replace temp view series_{table} as select * from {relation}")
