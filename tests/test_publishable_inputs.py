"""Issue 36: input that passes validation and breaks later. What validation accepts is
published in every format; free text cannot forge a line of a card; --rules values are
range-checked before anything is rated; initial ratings taken as given, each rule set checking
those it reads by its own rules (ruling R14)."""
from __future__ import annotations

import dataclasses
import math

import duckdb
import pyarrow as pa
import pytest

from pipeline import systems
from pipeline.formats.list_files import LayoutError, fide_list_text, swiss_manager_csv
from pipeline.ruleset.parameters import allowed
from tests.conftest import copy_built, write_rows

CONTROL = "holds a control character (a line break, tab or escape), which would break published lines"
FORGES = ("holds a control character (a line break, tab or escape), which would forge a line in the "
          "calculation cards (ratings explain, the site)")


def query(w, sql, params=()):
    con = duckdb.connect(str(w), read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def reasons(w) -> dict[int, str]:
    return dict(query(w, "select row_number, reason from rejects where status = 'open' order by row_number"))


@pytest.fixture
def built(published_once, tmp_path):
    """The small federation rated once (w.duckdb, out/): a copy for this test."""
    return copy_built(published_once, tmp_path)


# --- 1. what validation accepts, every writer writes ------------------------------------


def test_a_61_character_name_is_rejected_with_its_reason(cli, tmp_path):
    # FIDE's TXT layout gives the name columns 16-76: 60 characters and the blank before
    # Fed (pipeline/formats/fide_layout.py FIDE_WIDEST). 61 Bs do not fit.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, "B" * 61], [2, "Plain"]])
    result = cli("run", "--players", players, "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out",
                 "--no-reports", rejected=True)  # exit status 3
    assert "read 2 = accepted 1 + rejected 1" in result.output
    assert reasons(tmp_path / "w.duckdb") == {1: "name: longer than its column in FIDE's list layout (60 characters): "
                                                 f"the TXT list could not print it (got '{'B' * 61}')"}


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_name_with_a_line_or_paragraph_separator_is_rejected(cli, tmp_path, separator):
    # U+2028 and U+2029 end a line for many readers (Python's splitlines, JavaScript):
    # the writers refuse them, so validation does. The value is echoed with the
    # separator replaced by U+FFFD, so that the reason stays one line.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[1, f"Doe{separator}Forged"]])
    cli("run", "--players", players, "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out",
        "--no-reports", rejected=True)
    assert reasons(tmp_path / "w.duckdb") == {1: f"name: {CONTROL} (got 'Doe\ufffdForged')"}


def test_a_60_character_name_is_accepted_and_published_in_txt(cli, small_federation, tmp_path):
    name = "Anna " + "N" * 55  # 5 + 55 = 60 characters: the widest the Name column holds
    assert len(name) == 60
    rows = [[1, name, 1980, "Club A"], [2, "Bert Rated", 1975, "Club A"], [3, "Cara Rated", 1990, "Club B"],
            [4, "Dirk Rated", 1985, "Club B"], [5, "Eva Junior", 2012, "Club B"], [6, "Finn New", 2000, ""],
            [7, "Gus School", 2015, ""], [8, "Hana School", 2015, ""]]
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", "birth_year", "club"], rows)
    out = tmp_path / "out"
    cli("run", "--players", players, "--ratings", small_federation["ratings"], "--games", small_federation["games"],
        "--warehouse", tmp_path / "w.duckdb", "--out", out, "--no-reports", "--format", "txt,swiss-manager")
    line = next(x for x in (out / "lists" / "2027-01.txt").read_text().splitlines() if x.startswith("1 "))
    # Name in columns 16-75 (indices 15-74), untouched; index 75 is the blank before Fed;
    # the rating at column 114 (index 113): Anna's 1780 in the small federation's 2027-01.
    assert line[15:75] == name and line[75] == " "
    assert line[113:117] == "1780"
    assert f'"{name}"' in (out / "lists" / "2027-01-swiss-manager.csv").read_text()


@pytest.mark.parametrize(("column", "value", "reason"), [
    # Fed is 3 columns wide (77-79): BELG is one too many.
    ("federation", "BELG", "federation: longer than its column in FIDE's list layout (3 characters): "
                           "the TXT list could not print it (got 'BELG')"),
    ("fed", "B\tL", f"federation: {CONTROL} (got 'B\ufffdL')"),  # `fed` is read as the federation too
    # GM and IM both go to Tit (4 wide): "GM,IM" is 5 characters.
    ("title", "GM IM", "title: titles too long for FIDE's list layout (Tit 4, WTit 4, OTit 14 characters): "
                       "the TXT list could not print them (got 'GM IM')"),
    ("title", "G\x1bM", f"title: {CONTROL} (got 'G\ufffdM')"),
])
def test_the_registry_columns_the_pairing_lists_print_are_checked_as_their_writers_check_them(
        cli, tmp_path, column, value, reason):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name", column],
                         [[1, "Doe, Jo", value], [2, "Roe, Ann", ""]])
    cli("run", "--players", players, "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out",
        "--no-reports", rejected=True)
    assert reasons(tmp_path / "w.duckdb") == {1: reason}


def test_a_player_id_wider_than_the_id_column_is_rejected(cli, tmp_path):
    # ID Number is columns 1-15: 14 digits and a blank. 15 digits are an id elsewhere
    # (games may name a foreign id), but not one the TXT list can print.
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"],
                         [[10**14, "Fifteen Digits"], [10**14 - 1, "Fourteen Digits"]])
    cli("run", "--players", players, "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out",
        "--no-reports", rejected=True)
    assert reasons(tmp_path / "w.duckdb") == {1: "player_id: longer than its column in FIDE's list layout "
                                                 "(14 characters): the TXT list could not print it "
                                                 "(got '100000000000000')"}


# Names at the edges of what the writers take: by characters, not bytes (é is 2 bytes);
# no-break, zero-width and combining characters are printable, C0, C1 (U+0085) and the
# Unicode line and paragraph separators are not.
NAMES = {"x" * 60: True, "x" * 61: False, "é" * 60: True, "é" * 61: False, "Line\u2028Sep": False,
         "Para\u2029Sep": False, "Next\x85Line": False, "Tab\tName": False, "No\xa0break": True,
         "Zero\u200bwidth": True, "Combin\u0301ing": True, "Esc\x1b[31m": False}


def _writers_take(name: str) -> bool:
    one = pa.table({"player_id": [1], "name": [name], "federation": [None], "sex": [None], "title": [None],
                    "rating": [1500], "games": [1], "estimated": [False]},
                   schema=pa.schema([("player_id", pa.int64()), ("name", pa.string()), ("federation", pa.string()),
                                     ("sex", pa.string()), ("title", pa.string()), ("rating", pa.int64()),
                                     ("games", pa.int64()), ("estimated", pa.bool_())]))
    try:
        fide_list_text(one, "2027-01")
        swiss_manager_csv(one)
    except LayoutError:
        return False
    return True


def test_validation_accepts_exactly_the_names_every_writer_writes(cli, tmp_path):
    # The writers agree with the hand-made expectation, so the comparison below is not vacuous.
    assert {n: _writers_take(n) for n in NAMES} == NAMES
    ids = {name: 10 + i for i, name in enumerate(NAMES)}
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"],
                         [[i, n] for n, i in ids.items()] + [[1, "White"], [2, "Black"]])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"],
                         [[i, 1500] for i in ids.values()] + [[1, 1600], [2, 1600]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"],
                       [["2026-09-05", 1, 2, "1/2-1/2"]])
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli("run", "--players", players, "--ratings", ratings, "--games", games, "--warehouse", w, "--out", out,
        "--no-reports", "--format", "csv,parquet,txt,swiss-manager", rejected=True)
    accepted = {n for (n,) in query(w, "select name from players")} - {"White", "Black"}
    assert accepted == {n for n, ok in NAMES.items() if ok}
    # ... and every accepted name is in every published format of the list (the 5 accepted
    # names, kept at 1500, and the two players of the game are on 2027-01).
    txt = (out / "lists" / "2027-01.txt").read_text()
    manager = (out / "lists" / "2027-01-swiss-manager.csv").read_text(encoding="utf-8")
    published = (out / "lists" / "2027-01.csv").read_text()
    for name in accepted:
        assert name in txt and f'"{name}"' in manager and name in published, name
    # 7 of the 12 names refused, each for its own reason (the ratings of those players are
    # rejected in turn: not in the registry)
    assert query(w, "select count(*) from rejects join source_files using (file_id) where kind = 'players'") == [(7,)]


# --- 2. free text cannot forge a line of a card ---------------------------------------------

FORGED_EVENT = "X\nPublished (R3: nearest ten, 5 up): 1000 → 2900"


def test_an_event_name_or_a_round_with_a_control_character_is_rejected(cli, built, tmp_path):
    w, out = built
    games = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result", "event", "round"], [
        ["2027-01-16", 1, 2, "1-0", FORGED_EVENT, "1"],
        ["2027-01-16", 3, 4, "1-0", "Winter open", "2\u2028"],
        ["2027-01-16", 2, 3, "1-0", "Winter open", "3"],
    ])
    result = cli("run", "--games", games, "--warehouse", w, "--out", out, "--no-reports", rejected=True)
    assert "read 3 = accepted 1 + rejected 2" in result.output
    # The forged line is shown on the reason's one line: its line break as U+FFFD.
    assert reasons(w) == {1: f"event: {FORGES} (got 'X\ufffdPublished (R3: nearest ten, 5 up): 1000 → 2900')",
                          2: f"round: {FORGES} (got '2\ufffd')"}
    assert query(w, "select count(*) from games where event like 'X%'") == [(0,)]


def test_an_events_file_name_with_a_paragraph_separator_is_rejected(cli, small_federation, tmp_path):
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date"],
                        [["open-1", "Open\u2029Forged", "2026-09-05", "2026-09-06"]])
    cli("run", "--events", events, "--system", "fide", "--players", small_federation["players"],
        "--games", small_federation["games"], "--warehouse", tmp_path / "w.duckdb",
        "--out", tmp_path / "out", "--no-reports", rejected=True)
    assert reasons(tmp_path / "w.duckdb") == {1: f"name: {CONTROL} (got 'Open\ufffdForged')"}


REFUSED_TEXT = "holds a control character (a line break, tab or escape), which would forge a line where it is shown"


@pytest.mark.parametrize("command", [
    ["correct", "1", "--list", "2027-01", "--rating", "1850", "--reason", "appeal\nPublished: 2900"],
    ["correct", "1", "--list", "2027-01", "--rating", "1850", "--reason", "appeal", "--by", "clerk\u2028x"],
    ["correct", "--withdraw", "1", "--reason", "undo\r\nPublished: 2900"],
    ["withdraw", "1", "--reason", "cancelled\nPublished: 2900"],
    ["ingest", "--games", "GAMES", "--by", "clerk\x1b[2J"],
])
def test_a_reason_or_a_name_for_the_record_with_a_control_character_is_refused(cli, built, tmp_path, command):
    w, _ = built
    games = write_rows(tmp_path / "late.csv", ["date", "white_id", "black_id", "result"], [["2027-01-16", 1, 2, "1-0"]])
    args = [str(games) if a == "GAMES" else a for a in command]
    before = query(w, "select count(*) from runs")
    result = cli(*args, "--warehouse", w, ok=False)
    # click's usage error: exit status 2, one message naming the option; nothing is done
    # (not even a run is recorded: the option is refused before the warehouse is opened).
    assert result.exit_code == 2
    option = "--by" if "--by" in command else "--reason"
    assert f"Invalid value for '{option}': {REFUSED_TEXT}" in result.output
    assert "Traceback" not in result.output
    assert query(w, "select count(*) from runs") == before
    assert query(w, "select count(*) from corrections") == [(0,)]


# --- 3. --rules values in their range --------------------------------------------------------

STEP_REFUSED = ("rounding_step = 0 refused: the performance rules take one of 1, 2, 5, 10 (a divisor of ten: "
                "a rating in tens stays as it is, R3); nothing was rated")


def test_rounding_step_0_is_refused_by_run_before_anything_is_taken_in(cli, small_federation, tmp_path):
    rules = tmp_path / "step0.toml"
    rules.write_text("rounding_step = 0\n")
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
                 "--games", small_federation["games"], "--rules", rules, "--warehouse", w, "--out", tmp_path / "out",
                 "--no-reports", ok=False)
    assert result.exit_code == 1
    assert f"Error: {rules}: {STEP_REFUSED}" in result.output
    # refused before the files are taken in: no submission, no list, no published file
    assert query(w, "select count(*) from submissions") == [(0,)]
    assert query(w, "select count(*) from lists") == [(0,)]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("toml", "message"), [
    ("rounding_step = 0\n", STEP_REFUSED),
    # 7 does not divide ten: a player without a game, kept at 1500, would be published 1498.
    ("rounding_step = 7\n", STEP_REFUSED.replace("= 0", "= 7")),
    ("compatibility_gap = nan\n", "compatibility_gap = nan refused: the performance rules take a number more than "
                                  "0 and at most 3000; nothing was rated"),
    ("settle_tolerance = inf\n", "settle_tolerance = inf refused: the performance rules take a number more than "
                                 "0 and at most 3000; nothing was rated"),
    ("senior_quota = -5\n", "senior_quota = -5 refused: the performance rules take a number from 1 to 16 "
                            "(brake_weight = 16); nothing was rated"),
    # the barycentre completes to brake_weight (16): a quota of 20 would weigh the old rating by 16 - 18 < 0
    ("senior_quota = 20\n", "senior_quota = 20 refused: the performance rules take a number from 1 to 16 "
                            "(brake_weight = 16); nothing was rated"),
])
def test_a_scenario_with_a_parameter_out_of_its_range_is_refused(cli, built, tmp_path, toml, message):
    w, _ = built
    rules = tmp_path / "bad.toml"
    rules.write_text(toml)
    result = cli("scenario", "bad", "--rules", rules, "--warehouse", w, ok=False)
    assert result.exit_code == 1
    assert f"Error: {rules}: {message}" in result.output
    assert query(w, "select count(*) from series where series = 'bad'") == [(0,)]
    assert query(w, "select count(*) from lists where series = 'bad'") == [(0,)]


def test_a_change_within_its_range_is_accepted_and_audited_at_its_own_step(cli, built, tmp_path):
    w, _ = built
    rules = tmp_path / "fives.toml"
    rules.write_text("senior_quota = 12\n")
    cli("scenario", "fives", "--rules", rules, "--warehouse", w)
    assert query(w, "select rating_step from series where series = 'fives'") == [(10,)]
    # Given again with a step of 5: the series' step follows, so the audit of rounding
    # reads 5, and ratings ending in 5 are what the scenario publishes.
    rules.write_text("senior_quota = 12\nrounding_step = 5\n")
    cli("scenario", "fives", "--rules", rules, "--warehouse", w)
    assert query(w, "select rating_step from series where series = 'fives'") == [(5,)]
    fives = query(w, "select count(*) from player_state where series = 'fives' and rating % 10 = 5")
    assert fives[0][0] > 0  # not vacuous: a step of 10 in the audit would fail these
    assert "FAILED" not in cli("audit", "--warehouse", w).output


def test_every_parameter_declares_its_range_and_its_default_is_in_it():
    for name in systems.names():
        defaults = systems.rule_set_class(name).Parameters()
        values = dataclasses.asdict(defaults)
        for f in dataclasses.fields(defaults):
            value = values[f.name]
            if isinstance(value, bool | tuple | list | dict):  # switches have no range; tables are data
                continue
            rule = allowed(f)
            assert rule is not None, f"{name}: {f.name} declares no range"
            assert rule.holds(value, values), f"{name}: {f.name} = {value} outside {rule.words(values)}"
            if isinstance(value, int | float):
                assert not rule.holds(math.nan, values) and not rule.holds(math.inf, values), (name, f.name)


def test_a_fide_date_parameter_must_be_a_date(tmp_path):
    rules = tmp_path / "since.toml"
    rules.write_text('cap_exempt_since = "2025-13-01"\n')
    with pytest.raises(systems.ParameterError, match=r"since.toml: cap_exempt_since = '2025-13-01' refused: the "
                                                     r"fide rules take a date YYYY-MM-DD"):
        systems.rule_set("fide", systems.RulesFile({"cap_exempt_since": "2025-13-01"}, rules))


# --- 4. initial ratings taken as given, each rule set checking those it reads (ruling R14) ----


def _ratings(tmp_path, rows):
    return write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], rows)


def test_an_initial_rating_not_in_tens_is_taken_as_given_under_the_performance_elo(cli, small_federation, tmp_path):
    # R14: the initial ratings carry ratings the federation did not compute (a foreign
    # opponent's 2261): any whole number is Ei, whatever its last digit; only what the rules
    # compute is rounded (R3), so the lists publish tens.
    ratings = _ratings(tmp_path, [[1, 1505], [2, 1500], [3, "1600.0"], [4, 2261]])
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", small_federation["players"], "--ratings", ratings, "--games",
                 small_federation["games"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert query(w, "select player_id, rating from initial_ratings order by 1") == [
        (1, 1505.0), (2, 1500.0), (3, 1600.0), (4, 2261.0)]
    assert reasons(w) == {}
    assert ("Note: 2 initial ratings not a multiple of 10, the performance lists' step: taken as given; only the "
            "ratings the rules compute are rounded") in result.output
    assert query(w, "select count(*) from player_state where rating % 10 <> 0") == [(0,)]
    assert "FAILED" not in cli("audit", "--warehouse", w).output


@pytest.mark.parametrize("system, words", [
    ("performance", "a whole number, whatever its last digit (R14)"),
    ("fide", "a whole number"),  # FIDE publishes whole numbers
    ("glicko2", "a whole number"),
])
def test_an_initial_rating_no_rule_set_starts_from_is_refused_before_anything_is_taken_in(
        cli, small_federation, tmp_path, system, words):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    args = ["run", "--system", system, "--players", small_federation["players"], "--games",
            small_federation["games"], "--warehouse", w, "--out", out, "--no-reports"]
    result = cli(*args, "--ratings", _ratings(tmp_path, [[1, 1505], [2, "1505.5"]]), ok=False)
    assert result.exit_code == 1
    assert (f"Error: ratings.csv, row 2: rating 1505.5 refused: the {system} rules start from {words}; nothing "
            "of the run was taken in") in result.output
    assert query(w, "select count(*) from submissions") == [(0,)] and not out.exists()
    # Given again corrected, the file is taken in: nothing of the refused run stood in its way.
    cli(*args, "--ratings", _ratings(tmp_path, [[1, 1505], [2, 1506]]))
    assert query(w, "select player_id, rating from initial_ratings order by 1") == [(1, 1505.0), (2, 1506.0)]


def test_a_refusal_names_ten_ratings_and_counts_the_others(cli, tmp_path):
    players = write_rows(tmp_path / "players.csv", ["player_id", "name"], [[n, f"P{n}"] for n in range(1, 13)])
    ratings = _ratings(tmp_path, [[n, f"{1500 + n}.5"] for n in range(1, 13)])
    result = cli("run", "--players", players, "--ratings", ratings, "--warehouse", tmp_path / "w.duckdb",
                 "--out", tmp_path / "out", "--no-reports", ok=False)
    assert result.exit_code == 1
    named = "; ".join(f"ratings.csv, row {n}: rating {1500 + n}.5 refused: the performance rules start from a "
                      "whole number, whatever its last digit (R14)" for n in range(1, 11))
    assert f"Error: {named}; and 2 more; nothing of the run was taken in" in result.output


def test_a_rule_set_added_beside_another_takes_the_initial_ratings_by_its_own_rules(cli, built, tmp_path):
    # A warehouse of the performance Elo given FIDE's lists and a transferred player rated 2261:
    # neither rule set's rule is the other's (FIDE publishes whole numbers, the performance Elo
    # tens, and each takes 2261 as given).
    w, _ = built
    newcomer = write_rows(tmp_path / "transfer.csv", ["player_id", "name"], [[9, "Ivo Transfer"]])
    cli("run", "--system", "fide", "--players", newcomer, "--ratings", _ratings(tmp_path, [[9, 2261]]),
        "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert reasons(w) == {}
    assert query(w, "select rating from initial_ratings where player_id = 9") == [(2261.0,)]
    assert query(w, "select series, rating from player_state where player_id = 9 and list_id in "
                    "(select min(list_id) from lists l where l.series = player_state.series) order by 1") == [
        ("fide", 2261.0), ("performance", 2260.0)]  # FIDE keeps whole numbers; R3 rounds to tens
