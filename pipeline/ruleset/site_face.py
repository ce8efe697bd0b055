"""What `ratings site` shows of a rule set (RuleSet.site): its periods, the columns beside the
rating, how a rating is printed, its events' games."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shown:
    """A column the site shows beside the rating: its key in the JSON API and in the
    site's rows, its heading (a message of the site's catalogues, translated on each
    page), and its value as SQL of one row (see SiteFace for which)."""

    key: str
    heading: str
    sql: str
    # SQL of its standing on the ranking, read before the rating (higher first: a Go grade
    # ranks before the points); None: the ranking does not read it.
    ranks: str | None = None
    wide: bool = False  # left out on a phone (under 40em), as the shared tables' "wide" columns


@dataclass(frozen=True)
class SiteFace:
    """What `ratings site` shows of a rule set (pipeline/site/), so that any rule set, a
    federation's own included, gets a site from the same code. The defaults are a chess
    rating's: lists, a rating printed as the history view publishes it, nothing beside it."""

    # What a period is on the pages: "lists" (a list a period) or "events" (a Go event:
    # the ranking after each event, the event's page its calculations).
    periods: str = "lists"
    # Beside the rating on the ranking, the club and the player's history: SQL of `s`, the
    # rule set's player_state row with its own columns (RuleSet.extensions).
    state: tuple[Shown, ...] = ()
    # On an event's page, each player's: SQL of `h`, a row of the rule set's history view
    # (RuleSet.history: its name, its period column, its order), on the event's period.
    event: tuple[Shown, ...] = ()
    # The rating printed, SQL of `s` (None: rating_history's, the published lists' rating).
    rating: str | None = None
    # Its games in chess's `games` columns (game_key, date, event, round, white_id, black_id,
    # result 1-0 0-1 1/2-1/2 +/- -/+ -/-, white_score, file_id, row_number), which the event
    # pages and the pending games read (None: `games` itself).
    played: str | None = None
    # Each game's own columns on the event pages: SQL of `g`, a row of `played`.
    game_columns: tuple[Shown, ...] = ()
    # How the age categories count an age: the year the list's season ends minus the birth
    # year, less this. 1: the age on 1 January of that year of a player whose birthday is
    # later; 0: ruling R2's count, whose juniors are the site's Under 20.
    age_offset: int = 1

    def ranked_by(self) -> str:
        """SQL of a site row's standing on the ranking, higher first: the rating, or a list
        of the ranking columns' standings then the rating, compared in order."""
        ranks = [c.key + "_rank" for c in self.state if c.ranks]
        return f"[{', '.join(ranks)}, rating]" if ranks else "rating"
