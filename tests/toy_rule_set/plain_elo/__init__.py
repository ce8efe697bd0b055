"""A toy rule set for tests/test_rule_set_interface.py: plain Elo with a fixed K, one
list a quarter (its periods are its rules: a calendar file does not replace them). It
lives outside pipeline/ and reaches the pipeline through the registry alone
(pipeline.systems.register, or the entry point its pyproject.toml declares), as a
federation's own rule set would. Its own state (games to date, in plain_elo_state, made
by its schema.sql) starts from its own initial column, `games_before`."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pandera.pandas as pa

from pipeline.ruleset.figures import RatedList
from pipeline.ruleset.games import column
from pipeline.ruleset.interface import Fixes, Outcome, Period, RuleSet


@dataclass(frozen=True)
class PlainEloRules:
    k: float = 20.0  # one K for everyone
    start: float = 1500.0  # a newcomer's rating before their first game


@dataclass
class PlainEloState:
    ids: np.ndarray
    rating: np.ndarray  # NaN: never played
    games: np.ndarray  # rated games to date, those before the history included


class PlainEloInitial(pa.DataFrameModel):
    """The initial ratings file's own column of this rule set."""

    games_before: pa.typing.Series[float] = pa.Field(nullable=True, ge=0)

    class Config:
        coerce = True


class PlainElo(RuleSet):
    name = "plain-elo"
    title = "plain Elo with a fixed K"
    game = "chess"
    Parameters = PlainEloRules
    takes_calendar_file = False
    extensions = {"player_state": "plain_elo_state"}
    initial_columns = {"games_before": "integer"}
    InitialColumns = PlainEloInitial

    def calendar(self, first: dt.date, last: dt.date) -> pd.DataFrame:
        quarters = pd.period_range(pd.Period(first, "Q"), pd.Period(last, "Q"), freq="Q")
        return pd.DataFrame({"list_id": [f"{q.year}-Q{q.quarter}" for q in quarters],
                             "window_start": [q.start_time.date() for q in quarters],
                             "window_end": [q.end_time.date() for q in quarters]})

    def starting_state(self, con, series, before):
        players = con.sql(f"""select p.player_id, s.rating, s.games from players p left join (
                                  select player_id, rating, games_before as games from ({self.initial_ratings_sql()})
                                  where $before is null
                                  union all select player_id, rating, games from {self.extended("player_state")}
                                  where series = $series and list_id = $before) s using (player_id)
                              order by p.player_id""", params={"before": before, "series": series}).to_arrow_table()
        return PlainEloState(column(players, "player_id", np.int64), column(players, "rating"),
                             np.nan_to_num(column(players, "games")).astype(np.int64))

    def rate_period(self, state: PlainEloState, games, period: Period, fixes: Fixes | None) -> Outcome:
        k, n = self.parameters.k, len(state.ids)
        before = np.where(np.isnan(state.rating), self.parameters.start, state.rating)
        player = np.concatenate([games.white, games.black])
        opponent = np.concatenate([games.black, games.white])
        score = np.concatenate([games.white_score, 1 - games.white_score])
        expected = 1 / (1 + 10 ** ((before[opponent] - before[player]) / 400))
        played = np.bincount(player, minlength=n)
        change = k * np.bincount(player, weights=score - expected, minlength=n)
        unrounded = np.where(played > 0, before + change, state.rating)
        rating = np.sign(unrounded) * np.floor(np.abs(unrounded) + 0.5)
        if fixes is not None:
            rating[fixes.who] = fixes.ratings
        who = np.flatnonzero(played > 0)
        has = ~np.isnan(rating)
        games_to_date = state.games + played
        return Outcome(
            state=PlainEloState(state.ids, rating, games_to_date),
            rows={"player_state": {"list_id": period.list_id, "player_id": state.ids[has], "rating": rating[has],
                                   "games": games_to_date[has]},
                  "calculations": {"list_id": period.list_id, "player_id": state.ids[who],
                                   "previous_rating": state.rating[who], "games_played": played[who],
                                   "games": played[who], "score": np.bincount(player, weights=score, minlength=n)[who],
                                   "rule": np.full(len(who), f"K = {k:g}", dtype=object),
                                   "unrounded": unrounded[who], "rating": rating[who]}},
            figures={"games_rated": len(games.white), "forfeits": int(games.forfeits[0]),
                     "players_rated": int(has.sum()), "new_players": int((has & np.isnan(state.rating)).sum())},
            summary=RatedList(period.list_id, len(games.white), int(has.sum())))

    def card(self, con, series, player_id, list_id):
        rows = con.execute(f"""select c.previous_rating, c.games, c.score, c.unrounded, c.rating, s.games
                               from calculations c join {self.extended("player_state")} s using (series, list_id, player_id)
                               where c.series = ? and c.list_id = ? and c.player_id = ?""",
                           [series.name, list_id, player_id]).fetchall()
        if not rows:
            from pipeline.ruleset.interface import NotFound
            raise NotFound(f"player {player_id} has no game in list {list_id!r}")
        previous, games, score, unrounded, rating, to_date = rows[0]
        start = self.parameters.start if previous is None else previous
        return (f"{player_id}, list {list_id}, {self.title}: from {start:.0f}, {games} games, score {score:g}: "
                f"{unrounded:.3f} → {rating:.0f} ({to_date} games to date)")


RULE_SET = PlainElo
