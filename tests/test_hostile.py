"""Hostile, odd and real-world input through the CLI (issue 13): no row uncounted, no
crash, no forged line, one message for every failure of the environment."""
from __future__ import annotations

import errno
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from pipeline import warehouse
from tests.conftest import write_rows
from tests.test_submissions import query
from tests.test_trf import player


def test_control_characters_in_names_and_clubs_are_rejected_with_the_row(cli, small_federation, tmp_path):
    players = write_rows(tmp_path / "forged.csv", ["player_id", "name", "club"], [
        [21, "Doe, John\n21000000 Forged, Line                 BEL", "Club A"],  # a forged TXT line
        [22, "Roe, Ann", "Club\tB"],
        [23, "Poe, Edgar", "Club \x1b[31mred"],
        [24, "Plain, Name", "Club C"]])
    result = cli("run", "--players", players, "--warehouse", tmp_path / "w.duckdb", "--out", tmp_path / "out",
                 "--no-reports", rejected=True).output
    assert "read 4 = accepted 1 + rejected 3" in result
    reasons = dict(query(tmp_path / "w.duckdb", "select row_number, reason from rejects"))
    assert reasons[1].startswith("name: holds a control character (a line break, tab or escape), which would "
                                 "break published lines")
    assert reasons[2].startswith("club: holds a control character") and reasons[3].startswith("club: holds")


def test_a_name_that_matplotlib_would_read_as_maths_is_published(cli, small_federation, tmp_path):
    frame = pd.read_csv(small_federation["players"], dtype=str, keep_default_na=False)
    frame.loc[0, "name"] = r"$\foo$ Anna_b^c"
    frame.to_csv(tmp_path / "players.csv", index=False)
    out = tmp_path / "out"
    cli("run", "--players", tmp_path / "players.csv", "--ratings", small_federation["ratings"],
        "--games", small_federation["games"], "--warehouse", tmp_path / "w.duckdb", "--out", out)  # reports on
    assert r"$\foo$ Anna_b^c" in (out / "2027-01" / "index.html").read_text()


def test_a_warehouse_killed_while_being_created_leaves_nothing(cli, small_federation, tmp_path, monkeypatch):
    w = tmp_path / "w.duckdb"

    def killed(con):
        raise KeyboardInterrupt  # the moment between the tables and the views

    # A process builds its first warehouse from sql/ and copies the bytes for the next
    # ones: forget those, so that this one is built (and killed while being built).
    monkeypatch.setattr(warehouse, "_TEMPLATES", {})
    monkeypatch.setattr(warehouse, "_refresh_views", killed)
    with pytest.raises(KeyboardInterrupt):
        warehouse.connect(w)
    assert not w.exists()
    monkeypatch.undo()

    warehouse.connect(tmp_path / "first.duckdb").close()  # the bytes are kept: the next one is a copy

    def killed_half_way(self, data):
        with open(self, "wb") as fh:
            fh.write(data[:len(data) // 2])
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "write_bytes", killed_half_way)
    with pytest.raises(KeyboardInterrupt):
        warehouse.connect(w)
    assert not w.exists()
    monkeypatch.undo()
    cli("run", "--players", small_federation["players"], "--warehouse", w, "--out", tmp_path / "out", "--no-reports")
    assert query(w, "select version from warehouse_version") == [(warehouse.WAREHOUSE_VERSION,)]


def test_a_warehouse_left_without_its_version_is_refused_with_what_to_do(cli, tmp_path):
    w = tmp_path / "half.duckdb"
    with duckdb.connect(str(w)) as con:  # what an interrupted creation used to leave
        con.execute("create table warehouse_version (version integer)")
        con.execute("create table games (game_key bigint)")
    for args in (("audit",), ("query", "select 1"), ("rate",), ("submissions",)):
        refused = cli(*args, "--warehouse", w, ok=False)
        assert refused.exit_code == 1 and "was left incomplete" in refused.output and "delete it" in refused.output


@pytest.mark.parametrize("command", [("query", "select 1"), ("audit",), ("explain", "1", "--list", "2027-01"),
                                     ("export", "history", "--out", "{tmp}/h"), ("submissions",), ("rejects",),
                                     ("corrections",), ("revisions",), ("whatif", "1", "--opponent", "1500")])
def test_read_only_commands_on_a_missing_warehouse_say_so(cli, tmp_path, command):
    missing = tmp_path / "typo.duckdb"
    args = [a.format(tmp=tmp_path) for a in command]
    if command[0] == "export":
        args = ["export", "history", "--warehouse", missing, *args[2:]]
    else:
        args = [*args, "--warehouse", missing]
    refused = cli(*args, ok=False)
    assert refused.exit_code == 1 and f"{missing}: no warehouse there" in refused.output
    assert "Traceback" not in refused.output and not missing.exists()


def test_read_only_commands_check_the_layout_version(cli, published):
    w, _ = published
    with duckdb.connect(str(w)) as con:
        con.execute("update warehouse_version set version = 2")
    for args in (("audit",), ("query", "select 1"), ("export", "history", "--out", str(w.parent / "h"))):
        refused = cli(*args, "--warehouse", w, ok=False)
        assert refused.exit_code == 1 and "has the layout of version 2" in refused.output


def test_a_read_only_place_and_a_full_disk_are_one_message(cli, published, small_federation, tmp_path, monkeypatch):
    w, _ = published
    # /proc takes no new file, whoever asks (root included): a read-only place for the tests.
    refused = cli("run", "--players", small_federation["players"], "--warehouse", "/proc/ratings.duckdb", ok=False)
    assert refused.exit_code == 1 and "/proc/ratings.duckdb: cannot create the warehouse" in refused.output
    refused = cli("publish", "--warehouse", w, "--out", "/proc/ratings-out", ok=False)
    assert refused.exit_code == 1 and "/proc/ratings-out" in refused.output and "Traceback" not in refused.output
    from pipeline import publish

    def full(path, write):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(publish, "replace_atomically", full)
    refused = cli("publish", "--warehouse", w, "--out", tmp_path / "elsewhere", ok=False)
    assert refused.exit_code == 1 and "No space left on device" in refused.output and "2027-01-r1.csv" in refused.output


def test_debug_shows_the_traceback(cli, published, tmp_path, monkeypatch):
    w, _ = published
    from pipeline import flow

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(flow, "publish_series", broken)  # as flow.publish calls it
    refused = cli("publish", "--warehouse", w, "--out", tmp_path / "o", ok=False)
    assert refused.exit_code == 1 and "unexpected RuntimeError: a bug (run again with --debug" in refused.output
    with pytest.raises(RuntimeError):
        cli("--debug", "publish", "--warehouse", w, "--out", tmp_path / "o", ok=False)


def test_query_out_never_writes_onto_the_warehouse_or_an_input(cli, published, small_federation):
    w, _ = published
    for target in (w, Path(f"{w}.wal"), small_federation["games"]):
        before = target.read_bytes() if target.exists() else None
        refused = cli("query", "select 1", "--out", target, "--warehouse", w, ok=False)
        assert refused.exit_code == 1 and "it is the warehouse or one of its input files" in refused.output
        assert (target.read_bytes() if target.exists() else None) == before


def test_export_history_into_the_working_folder_is_a_message(cli, published, tmp_path, monkeypatch):
    w, _ = published
    monkeypatch.chdir(tmp_path)
    refused = cli("export", "history", "--out", ".", "--warehouse", w, ok=False)
    assert refused.exit_code == 1 and "holds other files than a dataset" in refused.output


def test_the_sample_runs_only_when_asked(cli, tmp_path):
    typo = tmp_path / "warehuose.duckdb"
    refused = cli("run", "--warehouse", typo, "--out", tmp_path / "out", ok=False)
    assert refused.exit_code == 2 and "holds nothing yet and no input file was given" in refused.output
    assert not typo.exists() and not (tmp_path / "out").exists()
    empty = tmp_path / "empty.duckdb"
    warehouse.connect(empty).close()
    refused = cli("run", "--warehouse", empty, "--out", tmp_path / "out", ok=False)
    assert refused.exit_code == 2 and "--sample to run the embedded sample" in refused.output
    assert not (tmp_path / "out").exists()


def test_diffs_are_byte_identical_whatever_the_order_of_same_day_games(cli, small_federation, tmp_path):
    # Two late games of one pair on one day, in either order: the same diff files.
    outs = []
    for name, rows in (("a", [["2026-11-15", 4, 3, "1-0"], ["2026-11-15", 4, 3, "0-1"]]),
                       ("b", [["2026-11-15", 4, 3, "0-1"], ["2026-11-15", 4, 3, "1-0"]])):
        w, out = tmp_path / f"{name}.duckdb", tmp_path / f"out-{name}"
        cli("run", "--players", small_federation["players"], "--ratings", small_federation["ratings"],
            "--games", small_federation["games"], "--warehouse", w, "--out", out, "--no-reports")
        (tmp_path / name).mkdir()
        late = write_rows(tmp_path / name / "late.csv", ["date", "white_id", "black_id", "result"], rows)
        cli("run", "--games", late, "--warehouse", w, "--out", out, "--no-reports")
        outs.append(out)
    files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file())
    assert any(f.parts[0] == "diffs" for f in files)
    assert files == sorted(p.relative_to(outs[1]) for p in outs[1].rglob("*") if p.is_file())
    for f in files:
        assert (outs[0] / f).read_bytes() == (outs[1] / f).read_bytes(), f


def _trf(tmp_path: Path, *tags: str) -> Path:
    """Three players (FIDE ids 101-103), two rounds: 1 beats 2 with White, then 1 draws 3 with Black."""
    lines = ["012 Club Cup", *tags,
             player(1, "Registered 1", 1.5, "   2 w 1", "   3 b ="),
             player(2, "Registered 2", 0.0, "   1 b 0"),
             player(3, "Registered 3", 0.5, "        ", "   1 w =")]
    path = tmp_path / "cup.trf"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _registry(tmp_path):
    return write_rows(tmp_path / "players.csv", ["player_id", "name", "fide_id"],
                      [[i, f"Registered {i}", 100 + i] for i in range(1, 4)])


def test_a_tournament_file_without_dates_is_rejected_whole_and_dated_with_date(cli, tmp_path):
    trf = _trf(tmp_path)
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", _registry(tmp_path), "--games", trf, "--warehouse", w, "--out", tmp_path / "o",
                 "--no-reports", rejected=True).output
    assert ("no start date (tag 042) and no round dates (tag 132): give the event's date with --date YYYY-MM-DD "
            "for a one-day event, or a calendar or events file") in result
    assert "read 2 = accepted 0 + rejected 2" in result
    # Given the date, the same content is examined again: its two games go in, dated so, and it says so.
    again = cli("run", "--games", trf, "--date", "2026-10-04", "--warehouse", w, "--out", tmp_path / "o",
                "--no-reports").output
    assert "assumed: games of rounds without a date dated 2026-10-04, the date given with --date" in again
    assert "examined again 2 = accepted 2 + rejected 0" in again
    assert query(w, "select distinct date::varchar from games") == [("2026-10-04",)]


def test_french_colour_letters_through_a_run(cli, tmp_path):
    # An old Belgian writer's blocks: B (blanc) White, N (noir) Black; read per file and said.
    lines = ["012 Coupe", "042 2026/10/03",
             player(1, "Registered 1", 1.0, "   2 B 1"), player(2, "Registered 2", 0.0, "   1 N 0")]
    trf = tmp_path / "coupe.trf"
    trf.write_text("\n".join(lines), encoding="utf-8")
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", _registry(tmp_path), "--games", trf, "--warehouse", w, "--out", tmp_path / "o",
                 "--no-reports").output
    assert "assumed: colours read as French letters B (blanc, white) and N (noir, black)" in result
    assert "assumed: no round dates (tag 132): every game dated 2026-10-03, the start date (tag 042)" in result
    assert query(w, "select white_id, black_id, result from games") == [(1, 2, "1-0")]


def test_a_contradicting_fide_id_is_a_problem_with_both_ids(cli, tmp_path):
    registry = write_rows(tmp_path / "players.csv", ["player_id", "name", "fide_id"],
                          [[1, "Registered 1", 101], [2, "Registered 2", 9999]])
    lines = ["012 Cup", "042 2026/10/03", player(1, "Registered 1", 1.0, "   2 w 1"),
             player(2, "Registered 2", 0.0, "   1 b 0")]  # the file gives 2 the FIDE id 102
    trf = tmp_path / "cup.trf"
    trf.write_text("\n".join(lines), encoding="utf-8")
    w = tmp_path / "w.duckdb"
    result = cli("run", "--players", registry, "--games", trf, "--register-new", "--warehouse", w,
                 "--out", tmp_path / "o", "--no-reports", rejected=True).output
    assert "FIDE id 102 in the file, 9999 in the registry for 'Registered 2': not matched" in result
    assert "--register-new adds" not in result  # it was given
    assert query(w, "select count(*) from players") == [(2,)]  # nobody registered twice
    assert query(w, "select count(*) from games") == [(0,)]


def test_a_rejected_go_event_registers_nobody(cli, tmp_path):
    egd = (Path(__file__).parent / "fixtures" / "go" / "opengotha_export_2017.h9").read_text(encoding="utf-8")
    undated = tmp_path / "undated.h9"
    undated.write_text(egd.replace("; DT[2017-02-11,2017-02-12]\n", ""), encoding="utf-8")
    w = tmp_path / "go.duckdb"
    result = cli("run", "--system", "go-belgium", "--games", undated, "--register-new", "--warehouse", w,
                 "--out", tmp_path / "o", rejected=True).output
    assert "(0 in the registry, 0 new)" in result
    assert query(w, "select count(*) from players") == [(0,)]
    assert query(w, "select count(*) from events") == [(0,)]
