"""What the two Go rule sets share (go_belgium, go_ffg1984): events as periods, rated
in order (end date, then start date, then id), each from the state after the one
before; a state of points, grade (G4), games and events to date; the game sides
kept with every term, read back by the card.

Starting points: the --ratings file (Go points); else a declared grade's middle
(a new member, 50 for 1 dan); else none (NC: the Belgian rules give a first
rating from the first event, ruling G2; the 1984 rules rate only games between
players with points).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from pipeline.ruleset.card import cards_one_by_one
from pipeline.ruleset.figures import RatedList
from pipeline.ruleset.games import column, local_indices
from pipeline.ruleset.interface import Fixes, Outcome, Period, RuleSet
from pipeline.ruleset.site_face import Shown, SiteFace
from pipeline.ruleset.texts import first_that_holds
from pipeline.systems.go.grades import corrected_level, grade_text, level_of_points, levels_of_grades, middle_of
from pipeline.config import GO_MAX_RATING, GO_MIN_RATING

HERE = Path(__file__).parent
BY_DEFAULT = ("B+F", "W+F")  # games won by default: counted, never rated (as chess forfeits)
# A grade's level (pipeline/systems/go/grades.py: d dan is d, k kyu is 1 − k) from its text, in SQL.
GRADE_LEVEL = ("case right({g}, 1) when 'd' then left({g}, -1)::integer "
               "when 'k' then 1 - left({g}, -1)::integer end")
# What the site shows (SiteFace): a ranking after each event by grade, then points; the
# points printed as the current list rounds them (half up); an event's page with each
# player's points and grade before and after it, from go_history, the rule set's own
# calculations; its games with their handicaps and winners.
GO_SITE = SiteFace(
    periods="events",
    state=(Shown("grade", "Grade", "s.grade", ranks=GRADE_LEVEL.format(g="s.grade")),),
    event=(Shown("grade_before", "Grade before", "h.grade_before", wide=True),
           Shown("points_before", "Points before", "round(h.rating_before, 1)", wide=True),
           Shown("grade_after", "Grade after", "h.grade_after", wide=True),
           Shown("points_after", "Points after", "round(h.rating_after, 1)"),
           Shown("points_change", "Points gained", "round(h.change, 1)")),
    rating="floor(s.rating + 0.5)",
    played=(HERE / "site_games.sql").read_text(),
    game_columns=(Shown("handicap", "Handicap", "g.handicap"), Shown("winner", "Winner", "g.winner")))


@dataclass
class GoState:
    ids: np.ndarray
    rating: np.ndarray  # NaN: no rating
    level: np.ndarray  # NaN: no grade
    games: np.ndarray
    events: np.ndarray


@dataclass(frozen=True)
class EventGames:
    """One event's games, in rating order (date, then input order), players as global indices;
    its games won by default are counted, never rated (as chess forfeits)."""

    black: np.ndarray
    white: np.ndarray
    table: pd.DataFrame  # game_key, date, winner, black_result, handicap, weight, class, board_size
    forfeits: int = 0

    def __len__(self) -> int:
        return len(self.black)


@dataclass(frozen=True)
class GoGames:
    games: pd.DataFrame
    black: np.ndarray
    white: np.ndarray
    bounds: np.ndarray
    forfeits: np.ndarray  # per event: its games won by default (B+F, W+F)

    def of(self, i: int) -> EventGames:
        sl = slice(self.bounds[i], self.bounds[i + 1])
        return EventGames(self.black[sl], self.white[sl], self.games.iloc[sl], int(self.forfeits[i]))


@dataclass(frozen=True)
class Rated:
    """What one Go rule set's rules give for an event's players (local indices)."""

    after: np.ndarray
    level: np.ndarray
    games: np.ndarray  # games counted
    start: np.ndarray  # what each counted from
    first: np.ndarray  # first ratings (G2)
    sides: dict  # the go_game_sides columns


class GoRuleSet(RuleSet):
    """An event-by-event Go rule set; a subclass gives `rate_event`."""

    game = "go"
    rating_word = "Points"  # what the site's pages call a rating
    periods_are = "events"
    history_bound = None  # a late event older than the first rated one becomes the first
    tables = ("go_game_sides",)
    extensions = {"player_state": "go_state", "calculations": "go_calculations"}
    published_state = ("player_id", "rating", "grade", "games_total as games", "events")
    list_files = False
    initial_rating_rule = None  # ruling G6: any Go points in their range, which validation checks
    history = ("go_history", "event_id", "event_id, player_id")
    site = GO_SITE
    events_at_once: bool = True  # the card: an event's changes summed and applied at its end (G1), or game by game
    current_list = """
        with last as (select list_id from lists where series = getvariable('series')
                      order by position desc limit 1),
        played as (select c.player_id, arg_max(c.list_id, k.position) as last_event
                   from calculations c join lists k using (series, list_id)
                   where c.series = getvariable('series') and c.games > 0 group by c.player_id)
        select s.player_id, p.name, p.club, floor(s.rating + 0.5)::integer as rating, x.grade,
               x.games_total as games, x.events, pl.last_event
        from player_state s join last using (list_id) join players p using (player_id)
        left join go_state x using (series, list_id, player_id)
        left join played pl using (player_id)
        where s.series = getvariable('series')
        order by s.rating desc, s.player_id"""

    def rating_step(self) -> None:
        return None

    def rating_scale(self) -> tuple[float, float, None, str]:
        return GO_MIN_RATING, GO_MAX_RATING, None, f"Go points from {GO_MIN_RATING} to {GO_MAX_RATING}"

    def signature_sql(self) -> str:
        return (HERE / "signatures.sql").read_text()

    def starting_state(self, con: duckdb.DuckDBPyConnection, series: str, before: str | None) -> GoState:
        if before is None:
            return starting_points(con)
        players = con.sql(f"""
            select p.player_id, s.rating, s.grade, s.games_total, s.events
            from players p left join {self.extended("player_state")} s on s.player_id = p.player_id
             and s.series = $series and s.list_id = $before
            order by p.player_id""", params={"series": series, "before": before}).to_arrow_table()
        return GoState(column(players, "player_id", np.int64), column(players, "rating"),
                       levels_of_grades(players.column("grade").to_pandas()),
                       np.nan_to_num(column(players, "games_total")).astype(np.int64),
                       np.nan_to_num(column(players, "events")).astype(np.int64))

    def place_games(self, con: duckdb.DuckDBPyConnection) -> None:
        """An event holds its games: `placed_games` names each game's event (the
        revision reasons read it; chess's `games` is empty in a warehouse of Go)."""
        con.execute("""create or replace temp table placed_games as
                       select game_key, event_id as list_id, 0::bigint as event_key, 0::ubigint as placement
                       from go_games""")

    def periods(self, con: duckdb.DuckDBPyConnection, series: str) -> pd.DataFrame:
        self.place_games(con)
        return con.sql("""select event_id as list_id, start_date as window_start, end_date as window_end
                          from events order by end_date, start_date, event_id""").df()

    def period_games(self, con: duckdb.DuckDBPyConnection, series: str, periods: pd.DataFrame) -> GoGames:
        con.register("ordered_events", periods.assign(event_index=np.arange(len(periods))))
        games = con.sql("""
            select e.event_index, g.game_key, g.event_id, g.date, g.black_id, g.white_id, g.winner, g.black_result,
                   g.handicap, g.weight, v.class, v.board_size
            from go_games g join ordered_events e on e.list_id = g.event_id
            join events v using (event_id)
            order by e.event_index, g.date, g.game_key""").df()
        con.unregister("ordered_events")
        by_default = games["winner"].isin(BY_DEFAULT).to_numpy()  # stored and counted, never rated
        forfeits = np.bincount(games["event_index"].to_numpy()[by_default], minlength=len(periods))
        games = games[~by_default].reset_index(drop=True)
        ids = column(con.sql("select player_id from players order by player_id").to_arrow_table(), "player_id",
                     np.int64)
        # Registry ids → dense indices (ids ascending; validation put every player in the registry).
        black = np.searchsorted(ids, games["black_id"].to_numpy(np.int64))
        white = np.searchsorted(ids, games["white_id"].to_numpy(np.int64))
        bounds = np.searchsorted(games["event_index"].to_numpy(), np.arange(len(periods) + 1))
        return GoGames(games, black, white, bounds, forfeits)

    def rate_event(self, local: np.ndarray, b: np.ndarray, w: np.ndarray, g: pd.DataFrame,
                   before_rating: np.ndarray, before_level: np.ndarray) -> Rated:
        raise NotImplementedError

    def rate_period(self, s: GoState, games: EventGames, period: Period, fixes: Fixes | None) -> Outcome:
        who = fixes.who if fixes is not None else np.empty(0, dtype=np.int64)
        # A corrected player is in the event's rows even without a game: the history shows why.
        local, b, w = local_indices(games.black, games.white, len(s.ids), also=who)
        before_rating, before_level = s.rating[local].copy(), s.level[local].copy()
        r = self.rate_event(local, b, w, games.table, before_rating, before_level)
        s.rating[local], s.level[local] = r.after, r.level
        s.games[local] += r.games
        s.events[local] += r.games > 0
        played = np.bincount(r.sides["player"], minlength=len(local))
        weightless = np.bincount(r.sides["player"], weights=r.sides["rule"] == "not counted: weight 0 (G7)",
                                 minlength=len(local))
        rule = first_that_holds([r.first, np.isnan(r.start), (played > 0) & (weightless == played),
                                 (played > 0) & (r.games == 0)],
                                ["first rating (G2)", "no rating to count from", "no game counted: weight 0 (G7)",
                                 "no game counted: no opponent with a rating"], "rated")
        if fixes is not None:  # the commission's rating; every later event follows
            s.rating[who] = fixes.ratings
            # G4a: the correction replaces what the event's games gave: the grade moves from the one before it
            s.level[who] = corrected_level(before_level[np.searchsorted(local, who)], fixes.ratings)
            rule[np.searchsorted(local, who)] = [f"correction by the rating commission: {why}" for why in fixes.reasons]
        has = ~np.isnan(s.rating)
        return Outcome(
            state=s,
            rows={"calculations": {"list_id": period.list_id, "player_id": s.ids[local], "rule": rule,
                                   "previous_rating": before_rating, "start": r.start, "unrounded": s.rating[local],
                                   "rating": s.rating[local], "grade_before": grade_text(before_level),
                                   "grade_after": grade_text(s.level[local]), "games": r.games.astype(np.int64),
                                   "games_played": r.games.astype(np.int64)},
                  "player_state": {"list_id": period.list_id, "player_id": s.ids[has], "rating": s.rating[has],
                                   "grade": grade_text(s.level[has]), "games_total": s.games[has],
                                   "events": s.events[has]},
                  "go_game_sides": side_rows(period.list_id, s.ids[local], r.sides)},
            figures={"games_rated": len(games), "forfeits": games.forfeits, "players_rated": int(has.sum()),
                     "new_players": int(r.first.sum())},
            summary=RatedList(period.list_id, len(games), int(has.sum())),
            detail=r)

    def card(self, con, series, player_id, list_id):
        return cards_module().go_card(con, series, self, player_id, list_id)

    def card_data(self, con, series, list_id, player_ids=None):
        return cards_one_by_one(cards_module().go_card_data, con, series, self, list_id, player_ids)


def cards_module():
    """The cards' module (card.py), imported when a card is asked for."""
    # why: it reads go_ffg1984's rules, whose package imports this one
    from pipeline.systems.go import card
    return card


def side_rows(event_id: str, ids: np.ndarray, sides: dict) -> dict:
    """The game sides as rows: the event's local player indices as registry ids."""
    rows = {k: v for k, v in sides.items() if k not in ("player", "opponent")}
    return {"list_id": event_id, "game_key": rows.pop("game_key"), "player_id": ids[sides["player"]],
            "opponent_id": ids[sides["opponent"]], **rows}


def starting_points(con: duckdb.DuckDBPyConnection) -> GoState:
    """Every registered player (ids ascending) before the first event."""
    players = con.sql("""
        select p.player_id, p.grade, r.rating
        from players p left join initial_ratings r using (player_id)
        order by p.player_id""").to_arrow_table()
    ids = column(players, "player_id", np.int64)
    declared = levels_of_grades(players.column("grade").to_pandas())
    rating = column(players, "rating")
    # A starting rating keeps the declared grade, else the grade it reads as (G4).
    level = np.where(np.isnan(rating), declared, np.where(np.isnan(declared), level_of_points(rating), declared))
    rating = np.where(np.isnan(rating), middle_of(declared), rating)  # new members: the middle of their grade
    return GoState(ids, rating, level, np.zeros(len(ids), dtype=np.int64), np.zeros(len(ids), dtype=np.int64))
