"""The site's age categories (Under 8 ... Under 20, 50 and over, 65 and over of a
list's season) counted as the rule set counts a player's age. The national Elo
defines its junior by ruling R2, `season_end_year - birth_year < 20`: there the age is
that difference, so that its Under 20 is R2's junior, the one its calculation cards
name. Elsewhere the age is the one on 1 January of the season's end year of a player
whose birthday is later (one less): FIDE's junior (its K of 40 to the end of the year
of the 18th birthday, `year - birth_year <= 18`) is then the site's Under 18."""
from __future__ import annotations

from pipeline.systems.performance.rules import PerformanceRules


def counts_ages_by_r2(rule_set) -> bool:
    """Whether the rule set's junior is ruling R2's (the national Elo's, whatever its scenario)."""
    return isinstance(rule_set.parameters, PerformanceRules)


def age_offset(rule_set) -> int:
    """What sql/site/ranked.sql takes off `season_end_year - birth_year` to count an age
    (getvariable('age_offset')): 0 under ruling R2, else 1."""
    return 0 if counts_ages_by_r2(rule_set) else 1
