"""Ruling D3 (the dates of the games taken in): an event whose own dates, as its tournament
file gives them (TRF tags 042/052, an EGD DT[], an OpenGotha begin and end), end more
than a year after they start, or before they start, is refused whole with that reason and
the line that says it; an events file (or --date) gives the real dates. The rule sets that
order events by their dates never rate such an event where its games' own dates contradict."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from pipeline.formats.aga import aga_from_text
from pipeline.formats.event_dates import span_refusal
from pipeline.formats.pairgoth import pairgoth_from_json
from tests.conftest import write_rows
from tests.test_submissions import query
from tests.test_trf import player

GO = Path(__file__).parent / "fixtures" / "go"
D = dt.date


@pytest.mark.parametrize("start, end, refused", [
    (D(2024, 3, 1), D(2024, 3, 1), None),  # a one-day event
    (D(2024, 3, 1), D(2025, 3, 1), None),  # a year exactly: the same day a year later
    (D(2024, 3, 1), D(2025, 3, 2), "end (2025-03-02) more than a year after they start (2024-03-01)"),
    (D(2024, 2, 29), D(2025, 2, 28), None),  # a year after 29 February is 28 February
    (D(2024, 2, 29), D(2025, 3, 1), "end (2025-03-01) more than a year after they start (2024-02-29)"),
    (D(2024, 3, 2), D(2024, 3, 1), "end (2024-03-01) before they start (2024-03-02)"),
    (D(2024, 3, 2), None, None),  # no end given: nothing to judge
])
def test_an_event_of_more_than_a_year_or_ending_before_it_starts_is_refused(start, end, refused):
    said = span_refusal(start, end, "tags 042, 052", 3, "give the real dates")
    if refused is None:
        assert said is None
    else:
        assert said == (f"line 3: the event's dates (tags 042, 052) {refused}: the file is refused whole "
                        "(ruling D3); give the real dates")


def _registry(tmp_path: Path) -> Path:
    return write_rows(tmp_path / "players.csv", ["player_id", "name", "fide_id"],
                      [[i, f"Registered {i}", 100 + i] for i in range(1, 4)])


def _cup(tmp_path: Path, *tags: str) -> Path:
    """The Club-Cup (tag 012, an event id an events file can give): three players (FIDE ids
    101-103), two rounds: 1 beats 2, then 1 draws 3."""
    lines = ["012 Club-Cup", *tags,
             player(1, "Registered 1", 1.5, "   2 w 1", "   3 b ="),
             player(2, "Registered 2", 0.0, "   1 b 0"),
             player(3, "Registered 3", 0.5, "        ", "   1 w =")]
    path = tmp_path / "cup.trf"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


REMEDY = ("give the real dates with an events file describing the event (its event_id the name of tag 012) or, "
          "for a one-day event, with --date YYYY-MM-DD")


def test_a_trf_whose_end_is_years_after_its_start_is_refused_until_an_events_file_dates_it(cli, tmp_path):
    # 052 typed 2027 for 2024: read as it is, FIDE would rate the cup on the list after
    # 2027-03-02, three years after its games (132: 2024-03-01 and 2024-03-02).
    trf = _cup(tmp_path, "042 2024/03/01", "052 2027/03/02", "132".ljust(91) + "24/03/01  24/03/02")
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    result = cli("run", "--players", _registry(tmp_path), "--games", trf, "--warehouse", w, "--out", out,
                 "--no-reports", rejected=True).output
    refusal = ("line 3: the event's dates (tags 042 2024-03-01, 052 2027-03-02) end (2027-03-02) more than a year "
               f"after they start (2024-03-01): the file is refused whole (ruling D3); {REMEDY}")
    assert f"cup.trf: {refusal}" in result
    assert "read 2 = accepted 0 + rejected 2" in result
    assert query(w, "select distinct reason from rejects") == [(refusal,)]
    # The events file gives the cup's real dates; the file given again is taken in, dated by its 132.
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date"],
                        [["Club-Cup", "Club Cup", "2024-03-01", "2024-03-02"]])
    result = cli("run", "--events", events, "--games", trf, "--warehouse", w, "--out", out, "--no-reports").output
    assert ("assumed: line 3: the event's dates (tags 042 2024-03-01, 052 2027-03-02) are not used (ruling D3): "
            "the events file's, 2024-03-01 … 2024-03-02, are") in result
    assert "examined again 2 = accepted 2 + rejected 0" in result
    assert query(w, "select date::varchar from games order by 1") == [("2024-03-01",), ("2024-03-02",)]
    assert query(w, "select date::varchar, what from file_dates order by 1, 2") == [
        ("2024-03-01", "round 1 (132)"), ("2024-03-01", "start (042)"), ("2024-03-02", "end (052)"),
        ("2024-03-02", "round 2 (132)")]


def test_a_trf_ending_before_it_starts_is_refused_until_dated_with_date(cli, tmp_path):
    # 042 2024/03/02, 052 2024/03/01 and no round dates: the file was taken in (every game
    # dated 042, "only the start date bounds the rounds"); it is refused, and --date dates it.
    trf = _cup(tmp_path, "042 2024/03/02", "052 2024/03/01")
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    result = cli("run", "--players", _registry(tmp_path), "--games", trf, "--warehouse", w, "--out", out,
                 "--no-reports", rejected=True).output
    assert ("cup.trf: line 3: the event's dates (tags 042 2024-03-02, 052 2024-03-01) end (2024-03-01) before they "
            f"start (2024-03-02): the file is refused whole (ruling D3); {REMEDY}") in result
    assert "read 2 = accepted 0 + rejected 2" in result
    result = cli("run", "--games", trf, "--date", "2024-03-02", "--warehouse", w, "--out", out, "--no-reports").output
    assert ("assumed: line 3: the event's dates (tags 042 2024-03-02, 052 2024-03-01) are not used (ruling D3): the "
            "date given with --date is, and no tag bounds the rounds") in result
    assert "examined again 2 = accepted 2 + rejected 0" in result
    assert query(w, "select distinct date::varchar from games") == [("2024-03-02",)]


def _egd_2017(tmp_path: Path, dates: str) -> Path:
    """The real EGD export of 2017 (tests/fixtures/go/README.md) with its DT[] line (line 4) as given."""
    text = (GO / "opengotha_export_2017.h9").read_text(encoding="utf-8")
    path = tmp_path / "lyon-2017.h9"
    path.write_text(text.replace("; DT[2017-02-11,2017-02-12]", f"; DT[{dates}]"), encoding="utf-8")
    return path


def test_an_egd_event_of_four_years_is_refused_and_rated_where_its_games_are_once_dated(cli, tmp_path):
    # A typed end year: DT[2017-02-11,2021-02-12]. Its 31 games are dated 2017-02-11 (the
    # format has no round dates); the Belgian rules rate events in the order of their end
    # dates (G1), so read as it is the event would be rated after the Juvisy tournament of
    # 2019-10-26..28, which its games precede by two and a half years.
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    shutil.copyfile(GO / "opengotha_juvisy_2019.h9", tmp_path / "juvisy.h9")
    cli("run", "--system", "go-belgium", "--games", tmp_path / "juvisy.h9", "--register-new", "--warehouse", w,
        "--out", out, "--no-reports")
    lyon = _egd_2017(tmp_path, "2017-02-11,2021-02-12")
    result = cli("run", "--games", lyon, "--register-new", "--warehouse", w, "--out", out, "--no-reports",
                 rejected=True).output
    refusal = ("line 4: the event's dates (DT[2017-02-11,2021-02-12]) end (2021-02-12) more than a year after they "
               "start (2017-02-11): the file is refused whole (ruling D3); give the real dates with an events file "
               "describing event Test_Participation_et_Licence_FFG")
    assert f"lyon-2017.h9: {refusal}" in result
    assert "read 31 = accepted 0 + rejected 31" in result
    assert query(w, "select distinct reason from rejects") == [(refusal,)]
    assert query(w, "select list_id from lists order by position") == [("Tournoi_de_Juvisy",)]
    # The events file gives the real dates: the file given again is rated first, where its games are.
    events = write_rows(tmp_path / "events.csv", ["event_id", "name", "start_date", "end_date", "class", "board_size"],
                        [["Test_Participation_et_Licence_FFG", "Lyon 2017", "2017-02-11", "2017-02-12", "A", 19]])
    result = cli("run", "--events", events, "--games", lyon, "--register-new", "--warehouse", w, "--out", out,
                 "--no-reports").output
    assert ("the file's own dates (2017-02-11 … 2021-02-12) are not used (ruling D3): the events file's are "
            "(2017-02-11 … 2017-02-12), and every game is dated 2017-02-11, its start") in result
    assert "examined again 31 = accepted 31 + rejected 0" in result
    assert query(w, "select list_id from lists order by position") == [("Test_Participation_et_Licence_FFG",),
                                                                        ("Tournoi_de_Juvisy",)]


def test_an_opengotha_event_ending_before_it_starts_is_refused_whole_with_its_line(cli, tmp_path):
    # The real OpenGotha file of 2020-12-22 with endDate typed 2020-12-21: its event was
    # rejected ("the event ends before it starts") and each game as "not in the events".
    text = (GO / "opengotha_simpleswiss_excerpt.xml").read_text(encoding="utf-8")
    swiss = tmp_path / "swiss.xml"
    swiss.write_text(text.replace('endDate="2021-01-07"', 'endDate="2020-12-21"'), encoding="utf-8")
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    result = cli("run", "--system", "go-belgium", "--games", swiss, "--register-new", "--warehouse", w, "--out", out,
                 "--no-reports", rejected=True).output
    refusal = ("line 28: the event's dates (beginDate 2020-12-22, endDate 2020-12-21) end (2020-12-21) before they "
               "start (2020-12-22): the file is refused whole (ruling D3); give the real dates with an events file "
               "describing event veteran2swiss")
    assert f"swiss.xml: {refusal}" in result
    assert "read 12 = accepted 0 + rejected 12" in result
    assert query(w, "select distinct reason from rejects") == [(refusal,)]
    assert query(w, "select count(*) from players") == [(0,)]  # a file refused whole registers nobody


def test_the_aga_and_pairgoth_readers_refuse_an_event_of_years_with_its_line():
    # The real AGA example (start=6/15/2004, finish=6/30/2004 on lines 2 and 3) with its
    # finish typed 2006; the real pairgoth file (endDate on line 7) ending the day before it starts.
    aga = (GO / "aga_rated_games_example.txt").read_text(encoding="latin-1").replace("finish=6/30/2004",
                                                                                   "finish=6/30/2006")
    assert aga_from_text(aga).fatal == (
        "line 3: the event's dates (start=6/15/2004, finish=6/30/2006) end (2006-06-30) more than a year after they "
        "start (2004-06-15): the file is refused whole (ruling D3); give the real dates with an events file "
        f"describing event {aga_from_text(aga).event['event_id']}")
    tour = (GO / "pairgoth_bosp2024_excerpt.tour").read_text(encoding="utf-8").replace(
        '"endDate" : "2024-07-07"', '"endDate" : "2024-07-05"')
    assert pairgoth_from_json(tour).fatal.startswith(
        "line 7: the event's dates (startDate 2024-07-06, endDate 2024-07-05) end (2024-07-05) before they start "
        "(2024-07-06): the file is refused whole (ruling D3)")
    # As they are, both files' events are taken in.
    assert aga_from_text((GO / "aga_rated_games_example.txt").read_text(encoding="latin-1")).fatal is None
    assert pairgoth_from_json((GO / "pairgoth_bosp2024_excerpt.tour").read_text(encoding="utf-8")).fatal is None
