"""The initial ratings as each rule set reads them, checked by its own rules at the run
(ruling R14: the performance Elo takes any whole number as given, whatever its last
digit). Validation takes any rating in the input range: a rule set's rule is never
another's reason to refuse an input (RuleSet.initial_rating_rule)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from pipeline import systems
from pipeline.rate.series import SeriesError, series_in, warehouse_game
from pipeline.warehouse import scalar

if TYPE_CHECKING:
    from pipeline.ruleset.interface import RuleSet

NAMED = 10  # the refused ratings a message names; the others are counted


class InitialRatingsRefused(SeriesError):
    """Initial ratings a rule set cannot start from: the message names each (file, row, rating)."""


def rule_sets_of_run(con: duckdb.DuckDBPyConnection, system: str | None) -> list[RuleSet]:
    """The rule sets a run rates from the initial ratings, as flow.series_to_rate makes
    them: the warehouse's series (scenarios included), the one `system` adds, and on a
    warehouse holding none the default rule set; those of the warehouse's game."""
    held = {s.rule_set.name: s.rule_set for s in series_in(con)}  # a scenario's rule is its rule set's
    added = system or (None if held else systems.DEFAULT)
    if added is not None and added not in held:
        held[added] = systems.rule_set(added)
    game = warehouse_game(con)
    return [rs for rs in held.values() if game is None or rs.game == game]


def refuse_unreadable(con: duckdb.DuckDBPyConnection, rule_sets: list[RuleSet], then: str) -> None:
    """Raise InitialRatingsRefused naming the stored initial ratings one of `rule_sets`
    cannot start from (each by its own rule), and `then`, what was not done."""
    said = []
    for rs in rule_sets:
        if rs.initial_rating_rule is None:
            continue
        sql, words = rs.initial_rating_rule
        refused = con.execute(f"""
            select f.path, r.row_number, r.rating from initial_ratings r join source_files f using (file_id)
            where r.rating is not null and not ({sql.format(rating='r.rating')})
            order by r.file_id, r.row_number""").fetchall()
        said += [f"{Path(path).name}, row {row}: rating {rating:.15g} refused: the {rs.name} rules start from {words}"
                 for path, row, rating in refused]
    if said:
        more = f"; and {len(said) - NAMED} more" if len(said) > NAMED else ""
        raise InitialRatingsRefused("; ".join(said[:NAMED]) + more + f"; {then}")


def off_step(con: duckdb.DuckDBPyConnection, rule_set: RuleSet) -> int:
    """How many initial ratings are not multiples of the step the rule set publishes in:
    taken as given (ruling R14), only the lists computed from them are rounded (R3)."""
    step = rule_set.rating_step()
    if step is None:
        return 0
    return scalar(con, "select count(*) from initial_ratings where rating is not null and rating % ? <> 0", [step])
