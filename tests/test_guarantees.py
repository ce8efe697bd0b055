"""What a federation needs before it trusts the pipeline: one writer, read-only
analysis, idempotent stages, safe public files, runs that survive being killed."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest

from tests.conftest import copy_built, write_rows

RATINGS = [str(Path(sys.executable).parent / "ratings")]


def run_args(files, w, out):
    return ["run", "--players", files["players"], "--ratings", files["ratings"], "--games", files["games"],
            "--warehouse", w, "--out", out]


def test_a_second_writer_stops_with_a_clear_message_or_waits(cli, small_federation, tmp_path):
    w = tmp_path / "w.duckdb"
    cli(*run_args(small_federation, w, tmp_path / "out"))
    holder = subprocess.Popen([sys.executable, "-c",
                               f"import duckdb, time; c = duckdb.connect({str(w)!r}); print('held', flush=True); "
                               "time.sleep(2)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = cli("rate", "--warehouse", w, ok=False)
        assert refused.exit_code == 1
        assert f"{w} is in use by another run (PID {holder.pid})" in refused.output
        waited = cli("rate", "--warehouse", w, "--wait", "30")  # the holder lets go after 2 s
        assert "Rate took" in waited.output
    finally:
        holder.wait(timeout=30)
    result = cli("audit", "--warehouse", w)
    assert "FAILED" not in result.output


def test_query_is_read_only(cli, small_federation, tmp_path):
    w = tmp_path / "w.duckdb"
    cli(*run_args(small_federation, w, tmp_path / "out"))
    shown = cli("query", "select list_id, players_rated from lists order by list_id", "--warehouse", w)
    assert "2027-01" in shown.output and "2027-05" in shown.output
    for statement in ("delete from games", "drop table players", "update player_state set rating = 9999",
                      f"copy games to '{tmp_path / 'leak.csv'}'", "select * from read_csv('/etc/passwd')",
                      f"attach '{tmp_path / 'other.duckdb'}' as other"):
        refused = cli("query", statement, "--warehouse", w, ok=False)
        assert refused.exit_code == 1 and "query refused" in refused.output, statement
    assert not (tmp_path / "leak.csv").exists() and not (tmp_path / "other.duckdb").exists()
    con = duckdb.connect(str(w), read_only=True)
    assert con.execute("select count(*) from games").fetchall() == [(10,)]
    con.close()
    cli("query", "select player_id, rating from player_state order by 1", "--warehouse", w,
        "--out", tmp_path / "q.parquet")
    assert pq.read_table(tmp_path / "q.parquet").num_rows > 0


def _content(w: Path) -> dict[str, list]:
    """Every table's rows, sorted, except the record of runs (which grows by design)."""
    con = duckdb.connect(str(w), read_only=True)
    tables = [t for (t,) in con.execute("select table_name from duckdb_tables() where database_name = 'w'"
                                        " and schema_name = 'main'").fetchall() if t != "runs"]
    content = {}
    for t in tables:
        cols = [c for (c,) in con.execute(f"select column_name from duckdb_columns() where table_name = '{t}'"
                                          " and database_name = 'w' and column_name <> 'run_id'").fetchall()]
        content[t] = con.execute(f"select {', '.join(cols)} from {t} order by all").fetchall()
    con.close()
    return content


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_every_stage_twice_changes_nothing(cli, small_federation, tmp_path):
    w, out = tmp_path / "w.duckdb", tmp_path / "out"
    cli(*run_args(small_federation, w, out))
    content, files = _content(w), _files(out)
    cli(*run_args(small_federation, w, out))
    assert _content(w) == content and _files(out) == files
    cli("ingest", "--players", small_federation["players"], "--games", small_federation["games"], "--warehouse", w)
    for stage in (("validate",), ("rate",), ("publish", "--out", out)):
        cli(*stage, "--warehouse", w)
        assert _content(w) == content, stage
        assert _files(out) == files, stage


def test_public_files_are_safe(cli, tmp_path):
    players = write_rows(tmp_path / "players.csv",
                         ["player_id", "name", "birth_year", "club", "email", "address", "birth_date"], [
                             [1, "=HYPERLINK(\"http://x\")", 1980, "+32 Club", "one@example.org", "Rue 1", "1980-03-04"],
                             [2, "@SUM(A1)", 1981, "-Club", "two@example.org", "Rue 2", "1981-05-06"],
                             [3, "Ann Plain", 1982, "Club", "three@example.org", "Rue 3", "1982-07-08"],
                         ])
    ratings = write_rows(tmp_path / "ratings.csv", ["player_id", "rating"], [[1, 1600], [2, 1500], [3, 1400]])
    games = write_rows(tmp_path / "games.csv", ["date", "white_id", "black_id", "result"], [
        ["2026-09-05", 1, 2, "1-0"], ["2026-09-06", 2, 3, "1/2-1/2"]])
    out = tmp_path / "out"
    cli(*run_args({"players": players, "ratings": ratings, "games": games}, tmp_path / "w.duckdb", out))
    public = sorted(p for p in out.rglob("*") if p.is_file())
    assert public
    for path in public:
        if path.suffix == ".html":  # the report: scanned as text
            text, frame = path.read_text(), pd.DataFrame()
        elif path.suffix == ".csv":
            text = path.read_text()
            frame = pd.read_csv(path, dtype=str)
        else:
            frame = pq.read_table(path).to_pandas().astype(str)
            text = frame.to_csv()
        assert not {"birth_year", "email", "address", "birth_date", "extra"} & set(frame.columns), path
        for private in ("example.org", "Rue ", "1980", "1981", "1982", "03-04"):
            assert private not in text, (path, private)
        if path.suffix == ".csv":
            for cell in frame[["name", "club"]].stack():
                assert not cell.startswith(("=", "+", "-", "@")), (path, cell)
    listed = pd.read_csv(out / "lists" / "2027-01.csv").set_index("player_id")
    assert listed.loc[1, "name"] == "'=HYPERLINK(\"http://x\")" and listed.loc[2, "club"] == "'-Club"


def test_list_ids_cannot_lead_out_of_the_output_folder(cli, small_federation, tmp_path):
    calendar = write_rows(tmp_path / "calendar.csv", ["list_id", "window_start", "window_end"], [
        ["../../evil", "2026-09-01", "2026-12-31"], ["2027-01", "2026-09-01", "2026-12-31"]])
    out = tmp_path / "deep" / "out"
    cli("run", "--players", small_federation["players"], "--calendar", calendar, "--games", small_federation["games"],
        "--warehouse", tmp_path / "w.duckdb", "--out", out, rejected=True)
    written = {p.resolve() for p in tmp_path.rglob("*") if p.is_file()} - {
        p.resolve() for p in tmp_path.glob("*.csv")} - {(tmp_path / "w.duckdb").resolve()}
    assert written and all(out.resolve() in p.parents for p in written)


@pytest.fixture(scope="module")
def season_to_kill(tmp_path_factory) -> Path:
    """What the killed runs share, made once: 20,000 simulated players over 3 lists (sim/),
    their games split into early.csv and late.csv (the second half of the last window
    arrives late), the run on the early games (w.duckdb, out/), and one clean run on all
    the games (clean/, clean.duckdb)."""
    folder = tmp_path_factory.mktemp("season")
    sim = folder / "sim"
    subprocess.run([*RATINGS, "simulate", "--players", "20000", "--lists", "3", "--out", sim], check=True,
                   capture_output=True)
    games = pd.read_csv(sim / "games.csv", dtype=str, keep_default_na=False)
    late = games["date"] >= "2020-03-01"  # the second half of the last window arrives late
    games[~late].to_csv(folder / "early.csv", index=False)
    games[late].to_csv(folder / "late.csv", index=False)
    players = ["--players", str(sim / "players.csv"), "--ratings", str(sim / "ratings.csv")]
    subprocess.run([*RATINGS, "run", *players, "--games", str(folder / "early.csv"), "--warehouse",
                    str(folder / "w.duckdb"), "--out", str(folder / "out")], check=True, capture_output=True)
    subprocess.run([*RATINGS, "run", *players, "--games", str(folder / "early.csv"), "--games",
                    str(folder / "late.csv"), "--warehouse", str(folder / "clean.duckdb"),
                    "--out", str(folder / "clean")], check=True, capture_output=True)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["rating", "publication"])
def test_a_killed_run_leaves_everything_consistent(moment, season_to_kill, tmp_path):
    season, sim = season_to_kill, season_to_kill / "sim"
    w, out = copy_built(season, tmp_path)  # the run on the early games, in this test's folder
    base = ["run", "--players", str(sim / "players.csv"), "--ratings", str(sim / "ratings.csv"),
            "--warehouse", str(w), "--out", str(out)]
    before = _files(out)

    second = [*RATINGS, *base, "--games", str(season / "early.csv"), "--games", str(season / "late.csv")]
    proc = subprocess.Popen(second, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    signal_after = "Validate took" if moment == "rating" else "Rate took"
    for line in proc.stdout:
        if signal_after in line:
            time.sleep(0.05)
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"

    # What the killed run left: every file complete (old or new), the warehouse consistent.
    after = _files(out)
    assert set(after) >= set(before)
    for name in after:
        path = out / name
        if path.suffix == ".parquet":
            pq.read_table(path)
        elif path.suffix == ".csv":
            pd.read_csv(path)
        else:
            assert path.read_text().endswith("-->\n")  # a page ends with its revision marker
    audit = subprocess.run([*RATINGS, "audit", "--warehouse", str(w)], capture_output=True, text=True)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    con = duckdb.connect(str(w), read_only=True)
    statuses = dict(con.execute("select status, count(*) from runs group by all").fetchall())
    con.close()
    assert statuses.get("running") == 1  # the killed run is visible as never finished

    # The next run completes the work: the same files as one clean run on all the games.
    subprocess.run(second, check=True, capture_output=True)
    clean_out = season / "clean"
    # (The run that saw the late games also wrote diff reports and pages of revision 2.)

    def lists_and_states(folder):  # the latest revision of each list (the snapshots -r1, -r2 differ by design)
        return {k: v for k, v in _files(folder).items() if re.fullmatch(r"lists/\d{4}-\d{2}\.\w+|state/.*", k)}
    assert lists_and_states(out) == lists_and_states(clean_out)


def test_a_warehouse_of_another_layout_is_refused(cli, tmp_path):
    old = tmp_path / "old.duckdb"
    con = duckdb.connect(str(old))
    con.execute("create table lists (list_id varchar primary key)")  # the layout before revisions
    con.close()
    refused = cli("rate", "--warehouse", old, ok=False)
    assert refused.exit_code == 1
    assert "has the layout of version 1, this pipeline needs version 14" in refused.output
