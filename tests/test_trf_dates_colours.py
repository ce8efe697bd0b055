"""What the TRF reader assumes and says (issue 13): French colour letters, files
with few or no dates, 132 lines off their columns, one per round or with dates of ten
characters (issue 51), rounds dated outside the event, players without an id, games
not played yet (`*`). Columns are 1-based as in tests/test_trf.py."""
from __future__ import annotations

import datetime as dt

from pipeline.formats.trf import Problem, read_trf, tournament_from_text
from tests.test_trf import FIXTURES, games_of, player

# The Irish rating system's league file: its 132 line (line 13) reads `10.09.13  10.09.25 …`,
# YY.MM.DD in the round columns, one date for each of its 11 rounds.
ARMSTRONG = FIXTURES / "icu_armstrong_cup_2011_zero_ruler.tab"
ARMSTRONG_ROUNDS = (dt.date(2010, 9, 13), dt.date(2010, 9, 25), dt.date(2010, 10, 16), dt.date(2010, 11, 6),
                    dt.date(2010, 11, 17), dt.date(2010, 12, 11), dt.date(2011, 1, 8), dt.date(2011, 1, 22),
                    dt.date(2011, 2, 5), dt.date(2011, 2, 19), dt.date(2011, 3, 13))


def dated(t) -> dict[int, dt.date | None]:
    return t.games.groupby("round")["date"].first().to_dict()


def two_rounds(*tags: str) -> str:
    """Four players, two rounds, after the given tag lines (012 is line 1)."""
    return "\n".join(["012 Club Cup", *tags,
                      player(1, "One, A", 2.0, "   2 w 1", "   3 b 1"),
                      player(2, "Two, B", 0.0, "   1 b 0", "   4 w 0"),
                      player(3, "Three, C", 1.0, "   4 w 1", "   1 w 0"),
                      player(4, "Four, D", 1.0, "   3 b 0", "   2 b 1")])


# ---------------------------------------------------------------------------
# Colours


def test_french_colour_letters_are_read_per_file():
    # An old Belgian writer: B (blanc) for White, N (noir) for Black.
    text = "\n".join(["012 Coupe", "042 2026/03/01",
                      player(1, "Un, A", 1.0, "   2 B 1", "   3 N =", "0000 - H"),  # line 3
                      player(2, "Deux, B", 0.0, "   1 N 0"),
                      player(3, "Trois, C", 0.5, "        ", "   1 B =")])
    t = tournament_from_text(text)
    assert t.problems == ()
    # Round 1: 1 "2 B 1" and 2 "1 N 0": 1 had White (blanc) and won. Read in English, B would be
    # Black and N unknown: no game at all. Round 2: 3 "1 B =", so 3 had White.
    assert games_of(t) == {(1, 1, 2, "1-0"), (2, 3, 1, "1/2-1/2")}
    assert "colours read as French letters B (blanc, white) and N (noir, black): " \
           "the round blocks use N and never w" in t.assumptions


def test_an_n_in_an_english_file_stays_an_unknown_colour():
    # Line 3 has w: the file is English, so the N on line 4 is no colour (not noir).
    text = "\n".join(["012 Cup", "042 2026/03/01",
                      player(1, "One, A", 1.0, "   2 w 1"),
                      player(2, "Two, B", 0.0, "   1 N 0")])
    t = tournament_from_text(text)
    assert t.problems == (Problem(4, "round 1: unknown colour 'N'"),)
    assert not any("French" in a for a in t.assumptions)
    assert len(t.games) == 0  # 1's block names 2, whose block is unusable: already said on line 4


# ---------------------------------------------------------------------------
# Dates


def test_a_file_without_any_date_is_refused_as_a_whole():
    t = tournament_from_text(two_rounds())
    assert t.fatal == ("no start date (tag 042) and no round dates (tag 132): give the event's date with "
                       "--date YYYY-MM-DD for a one-day event, or a calendar or events file")
    assert t.problems == ()  # one message for the file, not one per game
    assert set(t.games["date"]) == {None} and len(t.games) == 4


def test_an_unreadable_start_date_and_a_blank_132_are_named_in_the_refusal():
    t = tournament_from_text(two_rounds("042 soon", "132"))
    assert t.fatal.startswith("an unreadable start date (tag 042, line 2) and no round dates (tag 132):")
    assert t.problems == (Problem(2, "unreadable date 'soon' in tag 042"),)


def test_the_date_given_by_the_caller_dates_rounds_without_one():
    t = tournament_from_text(two_rounds(), default_date=dt.date(2026, 5, 1))
    assert t.fatal is None
    assert dated(t) == {1: dt.date(2026, 5, 1), 2: dt.date(2026, 5, 1)}
    assert "games of rounds without a date dated 2026-05-01, the date given with --date" in t.assumptions


def test_no_round_dates_every_game_at_the_start_date_and_said():
    t = tournament_from_text(two_rounds("042 2026/03/01", "052 2026/04/12"))
    assert dated(t) == {1: dt.date(2026, 3, 1), 2: dt.date(2026, 3, 1)}
    assert "no round dates (tag 132): every game dated 2026-03-01, the start date (tag 042)" in t.assumptions


def test_rounds_without_a_132_date_are_named():
    # 132 gives round 1 only (column 92): round 2 falls back to the start date.
    t = tournament_from_text(two_rounds("042 2026/03/01", "052 2026/03/08", "132".ljust(91) + "26/03/07"))
    assert dated(t) == {1: dt.date(2026, 3, 7), 2: dt.date(2026, 3, 1)}
    assert "round 2 without a date in tag 132: dated 2026-03-01, the start date (tag 042)" in t.assumptions


def test_a_132_line_shifted_by_a_column_is_read_in_order_and_said():
    # The dates start at column 93 and 103 instead of 92 and 102: by columns, round 1's
    # field (92-99) would be " 26/03/0", unreadable; found by their pattern, in order, they are read.
    shifted = "132".ljust(92) + "26/03/01  26/03/08"
    t = tournament_from_text(two_rounds("042 2026/03/01", "052 2026/03/08", shifted))
    assert t.problems == ()
    assert t.round_dates == (dt.date(2026, 3, 1), dt.date(2026, 3, 8))
    assert dated(t) == {1: dt.date(2026, 3, 1), 2: dt.date(2026, 3, 8)}
    assert "line 4: round dates of tag 132 not in the round columns (92, 102, ...): read in order, " \
           "round 1 first" in t.assumptions


def test_a_really_unreadable_round_date_is_a_problem_on_its_line():
    # Round 2's field (columns 102-109) holds month 13: reported on the 132 line (4);
    # the round then takes the start date, which is said too.
    t = tournament_from_text(two_rounds("042 2026/03/01", "052 2026/03/08",
                                        "132".ljust(91) + "26/03/01  26/13/08"))
    assert t.problems == (Problem(4, "round 2: unreadable date '26/13/08' in tag 132"),)
    assert dated(t)[2] == dt.date(2026, 3, 1)
    assert "round 2 without a date in tag 132: dated 2026-03-01, the start date (tag 042)" in t.assumptions


def test_a_round_dated_outside_the_event_rejects_its_games_and_the_rest_goes_in():
    # The event is 1-8 March; round 2 says 26/04/08, a month later (a typo in the month):
    # filed under it, its games would land in April's list.
    t = tournament_from_text(two_rounds("042 2026/03/01", "052 2026/03/08",
                                        "132".ljust(91) + "26/03/01  26/04/08"))
    reason = ("round 2 is dated 2026-04-08 (tag 132), outside the event's dates 2026-03-01..2026-03-08 "
              "(tags 042, 052): not filed in another window")
    assert t.games.groupby("round")["problem"].unique().map(list).to_dict() == {1: [None], 2: [reason]}
    assert t.problems == (Problem(4, "round 2: date 2026-04-08 is outside the event's dates 2026-03-01..2026-03-08 "
                                     "(tags 042, 052): the round's games are rejected"),)


def test_a_bye_of_a_round_dated_outside_the_event_is_kept_undated():
    text = "\n".join(["012 Cup", "042 2026/03/01", "052 2026/03/08", "132".ljust(91) + "26/03/01  26/04/08",
                      player(1, "One, A", 1.5, "   2 w 1", "0000 - H"), player(2, "Two, B", 0.0, "   1 b 0")])
    t = tournament_from_text(text)
    # Round 2: 1's H bye and 2's blank block (Z) keep no date: filed under April they would count there.
    assert set(zip(t.byes["rank"], t.byes["round"], t.byes["code"], t.byes["date"])) == {
        (1, 2, "H", None), (2, 2, "Z", None)}


def test_a_given_date_outside_the_event_rejects_the_games_it_would_date():
    t = tournament_from_text(two_rounds("042 2026/03/01", "052 2026/03/01"), default_date=dt.date(2026, 5, 1))
    assert set(t.games["problem"]) == {
        "round 1 is dated 2026-05-01, the date given with --date, outside the event's dates "
        "2026-03-01..2026-03-01 (tags 042, 052): not filed in another window",
        "round 2 is dated 2026-05-01, the date given with --date, outside the event's dates "
        "2026-03-01..2026-03-01 (tags 042, 052): not filed in another window"}


# ---------------------------------------------------------------------------
# Players without an id, and a real file with neither 132 nor ids


def test_players_without_an_id_are_said_with_their_lines():
    lines = two_rounds("042 2026/03/01").split("\n")
    # Blank the FIDE id (columns 58-68) of players 2 and 3 (lines 4 and 5).
    for i in (3, 4):
        lines[i] = lines[i][:57] + " " * 11 + lines[i][68:]
    t = tournament_from_text("\n".join(lines))
    assert t.players["id"].isna().tolist() == [False, True, True, False]
    assert ("2 players without an id (the id field, columns 58-68, is blank) on lines 4-5: "
            "they can only be matched to the registry by name") in t.assumptions


def test_fide_tie_break_exercise_file():
    # tests/fixtures/trf/README.md: 16 players, 5 rounds, 042 only, every id written 0.
    t = read_trf(FIXTURES / "tiebreak_exercises_swiss_5.trf")
    assert t.problems == () and t.fatal is None
    # Lines 5-20 are the players (after 012, 042, 062, XXR), in the order 2, 1, 3, 4, 16, ...
    assert t.players["rank"].tolist()[:5] == [2, 1, 3, 4, 16] and t.players["id"].isna().all()
    # 16 x 5 = 80 blocks; 8 have no opponent (David r2 H, Franck r3 U, Nick r2 U r4 Z r5 Z,
    # Paul r4 Z, Jessica r3 H r5 U): 72 blocks name an opponent, two a game, so 36 games,
    # the forfeits 11-9 (r4, "+"/"-") and 12-14 (r3) among them.
    assert len(t.games) == 36 and len(t.byes) == 8
    # Round 1: Bruno (rank 2) "10 b 1", Lais (10) "2 w 0": Black won.
    assert {(1, 10, 2, "0-1"), (4, 11, 9, "+/-"), (3, 12, 14, "+/-")} <= games_of(t)
    assert set(t.games["date"]) == {dt.date(2024, 8, 1)}  # 042 "2024-08-01"
    assert t.assumptions == (
        "16 players without an id (the id field, columns 58-68, is blank) on lines 5-20: "
        "they can only be matched to the registry by name",
        "no round dates (tag 132): every game dated 2024-08-01, the start date (tag 042)")


# ---------------------------------------------------------------------------
# Encoding, decided on the whole file


def test_a_file_mixing_utf8_and_latin1_is_refused_and_latin1_is_said(tmp_path):
    text = two_rounds("042 2026/03/01", "022 Liège").split("\n")
    mixed = tmp_path / "mixed.trf"
    # Line 3 (022) in UTF-8, line 4 (One, A) with a Latin-1 é: read either way, one would be mojibake.
    mixed.write_bytes(b"\n".join([text[0].encode(), text[1].encode(), text[2].encode("utf-8"),
                                  text[3].replace("One, A", "Oné, A").encode("latin-1"),
                                  *(x.encode() for x in text[4:])]))
    t = read_trf(mixed)
    assert t.fatal == ("mixes encodings: line 3 is UTF-8 ('è' written as 2 bytes), line 4 is not UTF-8 "
                       "(byte 0xE9, 'é' in Latin-1/CP1252?): save the file in one encoding")
    latin = tmp_path / "latin.trf"
    latin.write_bytes("\n".join(text).encode("latin-1"))
    t = read_trf(latin)
    assert t.fatal is None and t.tags["022"] == "Liège"
    assert t.assumptions[0] == ("encoding: Latin-1 (line 3 is not UTF-8: byte 0xE8, and no line holds a "
                                "UTF-8 character)")


# ---------------------------------------------------------------------------
# Tag 132 as other writers put it (issue 51), on the Irish league file


def with_132(*lines_132: str) -> str:
    """The Irish league file with its 132 line (line 13) replaced by the given lines."""
    lines = ARMSTRONG.read_text(encoding="latin-1").split("\n")
    assert lines[12].startswith("132 ") and read_trf(ARMSTRONG).round_dates == ARMSTRONG_ROUNDS
    return "\n".join(lines[:12] + list(lines_132) + lines[13:])


def test_one_132_line_per_round_dates_every_round():
    # One 132 line for each round, its date in the round's own columns (round k at 92 + 10(k - 1)):
    # the second line and those after it were ignored, and rounds 2-11 dated at the start (042).
    per_round = ["132".ljust(91 + 10 * (k - 1)) + f"{d:%y.%m.%d}" for k, d in enumerate(ARMSTRONG_ROUNDS, 1)]
    t = tournament_from_text(with_132(*per_round))
    assert t.problems == () and t.round_dates == ARMSTRONG_ROUNDS
    assert dated(t) == dict(enumerate(ARMSTRONG_ROUNDS, 1))


def test_132_dates_of_ten_characters_filling_their_columns_are_read_column_by_column():
    # YYYY/MM/DD fills a round's ten columns: round 1's date ends at 101 and round 2's starts at 102,
    # with no blank between them, which the dates' pattern read as one unreadable string.
    line = "132".ljust(91) + "".join(f"{d:%Y/%m/%d}" for d in ARMSTRONG_ROUNDS)
    assert line[91:111] == "2010/09/132010/09/25"
    t = tournament_from_text(with_132(line))
    assert t.problems == () and t.round_dates == ARMSTRONG_ROUNDS
    assert not any("132" in a for a in t.assumptions)  # in their columns: nothing guessed


def test_132_lines_read_in_order_across_lines_when_off_the_columns():
    # One plain `132 YY.MM.DD` line a round, off the round columns: rounds in order, lines 13-23 said.
    t = tournament_from_text(with_132(*(f"132 {d:%y.%m.%d}" for d in ARMSTRONG_ROUNDS)))
    assert t.problems == () and t.round_dates == ARMSTRONG_ROUNDS
    assert ("lines 13-23: round dates of tag 132 not in the round columns (92, 102, ...): read in order, "
            "round 1 first") in t.assumptions


def test_two_132_lines_dating_one_round_differently_are_a_problem_and_the_first_date_stands():
    first, second = "132".ljust(91) + "10.09.13", "132".ljust(91) + "10.09.14"
    t = tournament_from_text(with_132(first, second))  # lines 13 and 14
    assert t.round_dates[0] == dt.date(2010, 9, 13)
    assert Problem(14, "round 1: date 2010-09-14 in tag 132, but line 13 dates the round 2010-09-13: the round "
                       "keeps 2010-09-13") in t.problems


# ---------------------------------------------------------------------------
# TRF-2026's `*`: a game paired and not played yet


def test_a_pairing_not_played_yet_is_no_game_and_is_counted():
    text = two_rounds("042 2026/03/01").replace("   3 b 1", "   3 b *").replace("   1 w 0", "   1 w *")
    t = tournament_from_text(text)
    # Round 2: 1-3 written `*` on both lines (not played yet); 2 (`4 w 0`) lost to 4 (`2 b 1`).
    assert t.problems == () and games_of(t) == {(1, 1, 2, "1-0"), (1, 3, 4, "1-0"), (2, 2, 4, "0-1")}
    assert ("1 game of round 2 not played yet (result `*`, TRF-2026) on lines 3, 5: no game, nothing stored "
            "or rated") in t.assumptions
    assert len(t.byes) == 0  # not a bye either


def test_a_block_not_played_yet_without_an_opponent_is_no_bye_and_is_counted():
    # Line 7: player 5 had the pairing-allocated bye in round 1; round 2 written `0000 - *`.
    text = two_rounds("042 2026/03/01") + "\n" + player(5, "Five, E", 1.0, "0000 - U", "0000 - *")
    t = tournament_from_text(text)
    assert t.problems == () and len(t.games) == 4
    assert ("1 round block `0000 - *` (no opponent, not played yet) on line 7: no game, nothing stored or "
            "rated") in t.assumptions
    assert t.byes[["rank", "round", "code"]].values.tolist() == [[5, 1, "U"]]


def test_a_not_played_yet_against_a_result_is_a_disagreement():
    text = two_rounds("042 2026/03/01").replace("   3 b 1", "   3 b *")  # 3's line says `1 w 0`
    t = tournament_from_text(text)
    assert Problem(3, "round 2: result '*' against 3 does not match '0' on line 5") in t.problems
