"""The figures of a list: those every list's `lists` row carries whatever its rule set
(ListFigures, which a rule set's `Outcome.figures` must hold: pipeline/rate/contract.py checks
them), and a list computed as the run reports it (RatedList)."""
from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class RatedList:
    """A list computed, as the run reports it."""

    list_id: str
    games: int
    players_rated: int
    figures: tuple[tuple[str, int], ...] = ()  # the rule set's own, under its headings (RuleSet.figures)
    revision: int | None = None  # None: recomputed, unchanged


@dataclass(frozen=True)
class ListFigures:
    """The figures every list's `lists` row carries, whatever its rule set: `Outcome.figures`
    holds each of them by name (a whole number, 0 or more), then the rule set's own (its
    `figures`, stored in its `lists` extension). Checked when returned
    (pipeline/rate/contract.py)."""

    games_rated: int  # the games its rating counted
    forfeits: int  # the period's forfeits: stored and reported, never rated
    players_rated: int  # the players with a rating after it
    new_players: int  # of them, those without one before it


LIST_FIGURES: tuple[str, ...] = tuple(f.name for f in fields(ListFigures))
