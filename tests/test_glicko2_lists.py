"""Glicko-2's published files carry the rating deviation (RD) beside the rating
(RuleSet.list_columns, published_state): the list's CSV and Parquet, its state file,
and the card says what the list publishes; run by the installed `ratings` in a
scratch folder, as a federation runs it."""
from __future__ import annotations

import pyarrow.parquet as pq

from tests.as_user import ratings
from tests.conftest import write_rows

# Glickman 2013, steps 2-8, by hand for players 1 and 2 (1500 / RD 200 / 0.06 each; 1 beats 2
# in September 2026, list 2026-10):
#   phi = 200 / 173.7178 = 1.151293; g(phi) = 1 / sqrt(1 + 3 phi² / pi²) = 0.844282; E = 0.5 (same mu)
#   v = 1 / (g² E (1 − E)) = 5.611584; sigma' = 0.06 (to 6 places: Delta² < phi² + v)
#   phi* = sqrt(phi² + sigma'²) = 1.152855; phi' = 1 / sqrt(1/phi*² + 1/v) = 1.036619
#   RD' = 173.7178 × phi' = 180.078 → 180, for both
#   r' = 1500 ± 173.7178 × phi'² × g × 0.5 = 1500 ± 78.80 → 1579 (the winner) and 1421
# Player 3 (1700, no RD given: step 1's 350) does not play: RD = sqrt(350² + (0.06 × 173.7178)²)
# = 350.155, capped at max_deviation 350 (Glickman 1999) → 350.
EXPECTED = [  # (player_id, rating, deviation, previous_rating, change, games, status), as the list sorts them
    (3, 1700, 350, 1700, 0, 0, "did not play"),
    (1, 1579, 180, 1500, 79, 1, "played"),
    (2, 1421, 180, 1500, -79, 1, "played"),
]
HEADER = '"list_id","player_id","name","club","rating","deviation","previous_rating","change","games","status"'


def test_the_lists_publish_the_rd_beside_the_rating(tmp_path):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "Anna"], [2, "Bert"], [3, "Cara"]])
    initial = write_rows(tmp_path / "ratings.csv", ["player_id", "rating", "deviation"],
                         [[1, 1500, 200], [2, 1500, 200], [3, 1700, ""]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 2, "1-0"]])
    ratings(tmp_path, "run", "--system", "glicko2", "--players", players, "--ratings", initial, "--games", games,
            "--warehouse", "w.duckdb", "--out", "out", "--no-reports")

    csv = (tmp_path / "out" / "lists" / "2026-10.csv").read_text().splitlines()
    assert csv[0] == HEADER  # the RD right after the rating
    assert [line.split(",")[1:] for line in csv[1:]] == [
        [str(p), f'"{n}"', "", str(r), str(d), str(prev), str(c), str(g), f'"{s}"']
        for (p, r, d, prev, c, g, s), n in zip(EXPECTED, ["Cara", "Anna", "Bert"])]

    parquet = pq.read_table(tmp_path / "out" / "lists" / "2026-10.parquet")
    assert parquet.column_names == HEADER.replace('"', "").split(",")
    assert str(parquet.schema.field("deviation").type) == "int32"  # a whole number, as the rating
    assert parquet.select(["player_id", "rating", "deviation"]).to_pylist() == [
        {"player_id": p, "rating": r, "deviation": d} for p, r, d, *_ in EXPECTED]
    state = pq.read_table(tmp_path / "out" / "state" / "2026-10.parquet")
    assert state.to_pylist() == [{"player_id": p, "rating": r, "deviation": d}
                                 for p, r, d, *_ in sorted(EXPECTED)]

    card = ratings(tmp_path, "explain", 1, "--list", "2026-10", "--system", "glicko2", "--warehouse", "w.duckdb")
    assert "RD 200.00 → 180.08 (steps 6 and 7)" in card
    assert "On the list: rating 1579, RD 180 (rounded to whole numbers, 0.5 up)" in card
