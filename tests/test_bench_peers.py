"""The peers' forecasts (bench/peer_forecasts.py, run by bench/peers.py) predict each
game from the games before its window only, and learn from every window before it.
Each peer's test needs its package (the `peers` extra) and is skipped without it."""
from __future__ import annotations

import datetime as dt
import importlib.util
import math
import subprocess
import sys

import duckdb
import numpy as np
import pytest

from tests.conftest import PROJECT_DIR

sys.path.insert(0, str(PROJECT_DIR / "bench"))

import peer_forecasts  # noqa: E402

PACKAGES = {"whr": "whr", "openskill": "openskill", "glicko2": "glicko2"}
WINDOWS = [(dt.date(2020, 1, 1), dt.date(2020, 4, 30)), (dt.date(2020, 5, 1), dt.date(2020, 8, 31)),
           (dt.date(2020, 9, 1), dt.date(2020, 12, 31))]


def needs(peer: str):
    return pytest.mark.skipif(importlib.util.find_spec(PACKAGES[peer]) is None,
                              reason=f"the `{PACKAGES[peer]}` package (pip install -e '.[peers]')")


def history(reversed_from: dt.date | None = None) -> list[tuple]:
    """Eight players, each pair once a month of 2020 (the 15th): the higher number wins,
    a pair of neighbours draws; from `reversed_from` on, every decided result reversed."""
    games, game_id = [], 0
    for month in range(1, 13):
        day = dt.date(2020, month, 15)
        for white in range(1, 9):
            for black in range(1, 9):
                if white < black and (white + black + month) % 2 == 0 or white > black and (white + black + month) % 2:
                    game_id += 1
                    result = "1/2-1/2" if abs(white - black) == 1 else ("1-0" if white > black else "0-1")
                    if reversed_from and day >= reversed_from and result != "1/2-1/2":
                        result = "0-1" if result == "1-0" else "1-0"
                    games.append((game_id, day, white, black, result))
    return games


def forecasts(tmp_path, peer: str, games: list[tuple], period_months: int = 1) -> dict[int, float]:
    con = duckdb.connect()
    con.execute("create table g (game_id bigint, date date, white_id bigint, black_id bigint, result varchar)")
    con.executemany("insert into g values (?, ?, ?, ?, ?)", games)
    con.execute(f"copy g to '{tmp_path / 'games.parquet'}' (format parquet)")
    con.execute("create table w (window_start date, window_end date)")
    con.executemany("insert into w values (?, ?)", WINDOWS)
    con.execute(f"copy w to '{tmp_path / 'windows.parquet'}' (format parquet)")
    ids, probabilities = peer_forecasts.windows_forecast(
        peer_forecasts.peer_named(peer, period_months), peer_forecasts.read_games(tmp_path / "games.parquet"),
        peer_forecasts.read_windows(tmp_path / "windows.parquet"))
    return dict(zip(ids.tolist(), probabilities.tolist()))


def window_of(games: list[tuple], number: int) -> list[int]:
    start, end = WINDOWS[number]
    return [game[0] for game in games if start <= game[1] <= end]


@pytest.mark.parametrize("peer", [pytest.param(peer, marks=needs(peer)) for peer in PACKAGES])
def test_a_window_is_forecast_from_the_games_before_it_only(tmp_path, peer):
    plain = history()
    # The second and third windows' results reversed: the first two windows' forecasts
    # cannot move (the second is predicted from the first window's games alone) ...
    turned = history(reversed_from=WINDOWS[1][0])
    before, after = forecasts(tmp_path, peer, plain), forecasts(tmp_path, peer, turned)
    assert sorted(before) == [game[0] for game in plain]
    for number in (0, 1):
        assert [before[g] for g in window_of(plain, number)] == [after[g] for g in window_of(plain, number)]
    # ... and the third's do: it is predicted from the second window's games too.
    assert max(abs(before[g] - after[g]) for g in window_of(plain, 2)) > 0.05
    # The first window is predicted from nothing: every player alike.
    assert {round(before[g], 12) for g in window_of(plain, 0)} == {0.5}
    # From the second window on, the stronger (higher number) is favoured.
    assert all((before[g] > 0.5) == (white > black) for g, _, white, black, _ in plain
               if g in set(window_of(plain, 1)))
    assert all(0 < p < 1 and math.isfinite(p) for p in before.values())


@needs("glicko2")
@pytest.mark.parametrize("months_without_games", [(), (5, 6)])
def test_glicko2_takes_in_only_whole_periods_before_a_window(tmp_path, months_without_games):
    # Periods of three months (January-March, April-June, ...): the second window starts
    # on 1 May, within April-June, so April's games are not rated before it (their period
    # is not over) and reversing them moves none of the second window's forecasts; also
    # when the window's first game is in July, the next period's.
    plain = [game for game in history() if game[1].month not in months_without_games]
    april = [(g, d, w, b, {"1-0": "0-1", "0-1": "1-0"}.get(r, r) if d.month == 4 else r)
             for g, d, w, b, r in plain]
    before, after = forecasts(tmp_path, "glicko2", plain, 3), forecasts(tmp_path, "glicko2", april, 3)
    assert [before[g] for g in window_of(plain, 1)] == [after[g] for g in window_of(plain, 1)]
    assert max(abs(before[g] - after[g]) for g in window_of(plain, 2)) > 0.01


@needs("glicko2")
def test_glicko2_forecast_is_glickmans_expectation_with_both_deviations(tmp_path):
    # Two newcomers (1500, RD 350) have E = 1/2. After January, player 2 beat player 1
    # (their only game): by symmetry player 2 is at 1500 + d, player 1 at 1500 - d, both
    # with one RD φ', so E(1 v 2) = 1 / (1 + exp(g(√2 φ') 2d / 173.7178)), read from the
    # package's own states, below 1/2. Their next game, in July, is in the window that
    # starts on 1 May: it is predicted from the states at the window's start (February,
    # March and April missed), not at July's.
    import glicko2  # the optional `peers` extra: this test is skipped without it
    games = [(1, dt.date(2020, 1, 15), 1, 2, "0-1"), (2, dt.date(2020, 7, 15), 1, 2, "1-0")]
    one, two = glicko2.Player(), glicko2.Player()
    one.update_player([1500], [350], [0])
    two.update_player([1500], [350], [1])
    for player in (one, two):  # February, March, April: no game, the RD grows
        for _ in range(3):
            player.did_not_compete()
    phi = math.hypot(one.rd, two.rd) / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi ** 2 / math.pi ** 2)
    expected = 1 / (1 + math.exp(-g * (one.rating - two.rating) / 173.7178))
    assert one.rating < 1500 < two.rating and expected < 0.5
    assert forecasts(tmp_path, "glicko2", games)[2] == pytest.approx(expected, abs=1e-12)


@needs("whr")
def test_whr_starts_a_diverging_fit_again_from_every_game_taken_in(tmp_path, monkeypatch):
    # The second window's fit is made to fail (as a fit whose log-likelihood falls):
    # its forecasts are then a fit from 0 of every game before the second window, the
    # same as a peer that first meets those games there.
    plain = history()
    forecasts(tmp_path, "whr", plain)  # writes the games and windows files
    games = peer_forecasts.read_games(tmp_path / "games.parquet")
    windows = peer_forecasts.read_windows(tmp_path / "windows.parquet")
    climbed, calls = peer_forecasts.WholeHistory.climbed, []

    def failing_second(self, rounds):
        calls.append(rounds)
        return climbed(self, rounds) and len(calls) != 2

    monkeypatch.setattr(peer_forecasts.WholeHistory, "climbed", failing_second)
    peer = peer_forecasts.peer_named("whr")
    ids, restarted = peer_forecasts.windows_forecast(peer, games, windows[:2])
    assert peer.restarts == 1 and calls == [peer_forecasts.WHR_COLD_ROUNDS, peer_forecasts.WHR_WARM_ROUNDS,
                                             peer_forecasts.WHR_COLD_ROUNDS]
    monkeypatch.setattr(peer_forecasts.WholeHistory, "climbed", climbed)
    _, cold = peer_forecasts.windows_forecast(peer_forecasts.peer_named("whr"), games, windows[1:2])
    second = np.isin(ids, window_of(plain, 1))
    assert restarted[second].tolist() == cold.tolist()


@pytest.mark.slow
@pytest.mark.skipif(any(importlib.util.find_spec(p) is None for p in PACKAGES.values()),
                    reason="the `peers` extra (pip install -e '.[peers]')")
def test_peers_bench_prints_one_table_of_every_source_on_the_same_games(tmp_path):
    # A federation folder as the Belgian history's (bench/belgium_inputs.py reads it):
    # the eight players of `history`, rated 1500 to 2200 on the list of January 1989.
    folder = tmp_path / "belgium"
    folder.mkdir()
    con = duckdb.connect()
    con.execute("create table g (game_id bigint, date date, white_id bigint, black_id bigint, result varchar)")
    con.executemany("insert into g values (?, ?, ?, ?, ?)", history())
    con.execute(f"copy (select *, null::varchar as event from g) to '{folder / 'games.parquet'}' (format parquet)")
    con.execute(f"""copy (select range::bigint as player_id, 1990 as birth_year, 'M' as sex,
                                 'V' as federation_region from range(1, 9))
                    to '{folder / 'players.parquet'}' (format parquet)""")
    con.execute(f"""copy (select '198901' as list_period, range::bigint as player_id,
                                 (1400 + 100 * range)::integer as rating, 30 as games_total from range(1, 9))
                    to '{folder / 'official_ratings.parquet'}' (format parquet)""")
    done = subprocess.run([sys.executable, str(PROJECT_DIR / "bench" / "peers.py"), "--belgium", str(folder),
                           "--work", str(tmp_path / "work"), "--since", "2020-01-01", "--until", "2020-12-31"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line]
    header, sources = rows[0], {row[0].strip("| "): row for row in rows[1:]}
    assert header[1:5] == ["2020 log-loss", "yardstick", "Brier", "games"]
    assert list(sources) == ["performance", "fide", "glicko2", "whr", "openskill", "glicko2-package",
                             "openskill-predict-win"]
    # One period (2020), every source scored on the same games: the year's 336 but for
    # player 1's seven of November. He is on the initial list (1500) and loses every
    # decided game: FIDE's list of November shows him unrated (below its floor of 1400,
    # 1405 in October), so the FIDE series rates no game of his that month.
    assert {row[4] for row in sources.values()} == {"329"}
    assert all(0 < float(row[1]) < 1 for row in sources.values())
    assert {row[2] for name, row in sources.items() if name not in ("performance", "fide", "glicko2")} == {"—"}
    forecasts = duckdb.sql(f"select count(*), count(distinct game_id) from "
                           f"'{tmp_path / 'work' / 'forecasts' / 'whr.parquet'}'").fetchall()[0]
    assert forecasts == (336, 336)
