"""Property: whatever sequence of ingests, replacements, withdrawals and corrections
a rating officer goes through, the final lists are those of a clean run on the final
inputs, and every row of every file is stored, rejected or withdrawn exactly once."""
from __future__ import annotations

import duckdb
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.simulate import generate

CHUNKS = 3  # game files besides the base file, which holds every third game and is never replaced


def federation(tmp) -> tuple[dict, list[pd.DataFrame]]:
    tables = {k: v.to_pandas() for k, v in generate(40, 2, 3).items()}
    tables["players"].astype({"birth_year": "Int64"}).to_csv(tmp / "players.csv", index=False)
    tables["ratings"].astype({"archive_games": "Int64"}).to_csv(tmp / "ratings.csv", index=False)
    games = tables["games"]
    return tables, [games.iloc[k::CHUNKS + 1].reset_index(drop=True) for k in range(CHUNKS + 1)]


ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("ingest"), st.integers(1, CHUNKS)),
    st.tuples(st.just("replace"), st.integers(1, CHUNKS), st.integers(0, 10**6)),
    st.tuples(st.just("withdraw"), st.integers(1, CHUNKS)),
    st.tuples(st.just("correct"), st.integers(0, 39), st.integers(0, 1), st.integers(100, 250)),
    st.tuples(st.just("uncorrect"), st.integers(0, 5)),
    st.tuples(st.just("run"),),
), min_size=1, max_size=6)


def mutated(games: pd.DataFrame, seed: int, version: int) -> pd.DataFrame:
    """The organiser's next version: one result changed, one game removed, one added."""
    rng = pd.Series(range(len(games))).sample(frac=1, random_state=seed).tolist()
    out = games.copy()
    flip = {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0"}
    out.loc[rng[0], "result"] = flip.get(out.loc[rng[0], "result"], "1-0")
    added = out.loc[[rng[1]]].assign(game_id=10**6 + seed % 1000 * 100 + version, event=f"added {seed} {version}",
                                     white_id=out.loc[rng[1], "black_id"], black_id=out.loc[rng[1], "white_id"])
    return pd.concat([out.drop(index=rng[2]), added], ignore_index=True)


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(actions=ACTIONS)
def test_any_sequence_ends_as_a_clean_run_on_the_final_inputs(cli, tmp_path_factory, actions):
    tmp = tmp_path_factory.mktemp("seq")
    tables, chunks = federation(tmp)
    w, out = tmp / "w.duckdb", tmp / "out"
    current: dict[int, tuple[str, pd.DataFrame] | None] = {}  # chunk → (file name, content); None: withdrawn
    written: dict[str, int] = {}  # every file given, with its rows
    corrections: list[tuple[int, int, str, int]] = []  # (id, player, list, rating) in force

    def write(name: str, frame: pd.DataFrame) -> str:
        frame.to_csv(tmp / name, index=False)
        written[name] = len(frame)
        return name

    def run(*args) -> None:
        cli("run", *args, "--warehouse", w, "--out", out, "--no-reports")

    run("--players", tmp / "players.csv", "--ratings", tmp / "ratings.csv", "--games",
        tmp / write("base.csv", chunks[0]))
    list_ids = [r[0] for r in duckdb.connect(str(w), read_only=True).execute(
        "select list_id from lists order by 1").fetchall()]
    player_ids = tables["players"]["player_id"].tolist()
    versions = 0
    for action in actions:
        kind = action[0]
        if kind == "ingest" and action[1] not in current:
            current[action[1]] = (write(f"chunk{action[1]}.csv", chunks[action[1]]), chunks[action[1]])
            cli("ingest", tmp / current[action[1]][0], "--warehouse", w)
        elif kind == "replace" and current.get(action[1]):
            versions += 1
            old, games = current[action[1]]
            new = mutated(games, action[2], versions)
            current[action[1]] = (write(f"chunk{action[1]}-v{versions}.csv", new), new)
            cli("ingest", tmp / current[action[1]][0], "--replaces", old, "--warehouse", w)
        elif kind == "withdraw" and current.get(action[1]):
            cli("withdraw", current[action[1]][0], "--reason", "cancelled", "--warehouse", w)
            current[action[1]] = None
        elif kind == "correct":
            player, list_id, rating = player_ids[action[1]], list_ids[action[2]], action[3] * 10
            cli("correct", player, "--list", list_id, "--rating", rating, "--reason", "appeal", "--warehouse", w)
            number = duckdb.connect(str(w), read_only=True).execute("select max(correction_id) from corrections"
                                                                    ).fetchall()[0][0]
            corrections.append((number, player, list_id, rating))
        elif kind == "uncorrect" and corrections:
            number = corrections.pop(action[1] % len(corrections))[0]
            cli("correct", "--withdraw", number, "--reason", "reversed", "--warehouse", w)
        elif kind == "run":
            run()
    run()

    # A clean run on the final inputs: the base file, the chunks in force, the corrections in force.
    clean_w, clean_out = tmp / "clean.duckdb", tmp / "clean-out"
    final = [tmp / "base.csv"] + [tmp / c[0] for c in current.values() if c]
    cli("run", "--players", tmp / "players.csv", "--ratings", tmp / "ratings.csv",
        *[a for f in final for a in ("--games", f)], "--warehouse", clean_w, "--out", clean_out, "--no-reports")
    for _, player, list_id, rating in corrections:
        cli("correct", player, "--list", list_id, "--rating", rating, "--reason", "appeal", "--warehouse", clean_w)
    cli("run", "--warehouse", clean_w, "--out", clean_out, "--no-reports")
    for list_id in list_ids:
        assert (out / "lists" / f"{list_id}.csv").read_bytes() == (clean_out / "lists" / f"{list_id}.csv").read_bytes()

    # Per file: rows read (our own count of what we wrote) = stored + rejected + withdrawn.
    with duckdb.connect(str(w), read_only=True) as con:
        counts = dict((name, (read, stored, rejected, withdrawn)) for name, read, stored, rejected, withdrawn in
                      con.execute("""select s.name, f.rows_read,
                                            (select count(*) from games g where g.file_id = f.file_id),
                                            (select count(*) from rejects r where r.file_id = f.file_id
                                             and r.status <> 'taken in'),
                                            (select count(*) from withdrawn_rows x where x.file_id = f.file_id)
                                     from source_files f join submissions s using (submission_id)
                                     where f.kind = 'games'""").fetchall())
    assert set(counts) == set(written)
    for name, rows in written.items():
        read, stored, rejected, withdrawn = counts[name]
        assert read == rows == stored + rejected + withdrawn, (name, counts[name])
    assert "FAILED" not in cli("audit", "--warehouse", w).output
