"""Possible duplicate games: a second copy of a game under another game_id (the same
date, players, result and event) passes every check of validation, and would be rated
twice. A round robin may pair the same players twice in a day with the same result,
so it is a warning, not a reject: `validate` and `run` count the pairs, `ratings
rejects --warnings` lists them, and the rating officer withdraws one copy (its row goes
to withdrawn_rows, as a withdrawn file's rows do, and the next `rate` revises the lists
it was on) or keeps both; a pair decided is no longer warned about
(duplicate_decisions, layout 8).
"""
from __future__ import annotations

import datetime as dt

import duckdb

from pipeline.validate.rejects import DecisionRefused, Reference, references
from pipeline.warehouse import row

# The pairs of games in force that repeat each other, the first copy the one taken in
# first (its game_key: file, then row), less the pairs kept; a pair with a copy
# withdrawn is gone with it. Both without a game_id is not "another game_id": those are
# rejected as duplicates when every column is equal, and told apart by their round. The
# hash finds the few candidate groups in one pass over the games, so that only those are
# joined, not every game with every game of its day.
PAIRS = """
with repeated as (
    select hash(date, white_id, black_id, result, event) as h from games group by h having count(*) > 1
),
copies as (
    select g.game_key, g.game_id, g.date, g.white_id, g.black_id, g.result, g.event, g.file_id, g.row_number,
           s.submission_id, s.name
    from games g join source_files f using (file_id) join submissions s using (submission_id)
    where hash(g.date, g.white_id, g.black_id, g.result, g.event) in (select h from repeated)
),
pairs as (
    select a.date, a.white_id, a.black_id, a.result, a.event,
           a.submission_id as submission_1, a.name as name_1, a.row_number as row_1, a.game_id as game_id_1,
           b.submission_id as submission_2, b.name as name_2, b.row_number as row_2, b.game_id as game_id_2,
           a.game_key as key_1, b.game_key as key_2
    from copies a join copies b
      on a.date = b.date and a.white_id = b.white_id and a.black_id = b.black_id and a.result = b.result
     and a.event is not distinct from b.event and a.game_key < b.game_key
    where a.game_id is distinct from b.game_id
)
select * from pairs p
where not exists (select 1 from duplicate_decisions d
                  where d.decision = 'kept' and d.game_key = p.key_1 and d.other_key = p.key_2)
"""

WARNING = ("{n} possible duplicate game{s} (same date, players, result and event under another game_id): "
           "`ratings rejects --warnings` lists them")


def count(con: duckdb.DuckDBPyConnection) -> int:
    return con.execute(f"select count(*) from ({PAIRS})").fetchall()[0][0]


def warning(con: duckdb.DuckDBPyConnection) -> str | None:
    """What `validate` and `run` say of the pairs still undecided (None: there are none)."""
    n = count(con)
    return WARNING.format(n=n, s="" if n == 1 else "s") if n else None


def listing(con: duckdb.DuckDBPyConnection, shown: str) -> duckdb.DuckDBPyRelation:
    """The pairs still undecided ("open"), the pairs decided with who, when and why
    ("closed"), or both ("all")."""
    undecided = f"""select date, white_id, black_id, result, event, submission_1, name_1, row_1, game_id_1,
                           submission_2, name_2, row_2, game_id_2, 'undecided' as decision,
                           null::varchar as by, null::timestamp(0) as at, null::varchar as why
                    from ({PAIRS})"""
    decided = """
        with copies as (
            select g.game_key, g.game_id, g.date, g.white_id, g.black_id, g.result, g.event, g.row_number,
                   f.submission_id
            from games g join source_files f using (file_id)
            union all
            select (w.record->>'game_key')::bigint, w.record->>'game_id', (w.record->>'date')::date,
                   (w.record->>'white_id')::bigint, (w.record->>'black_id')::bigint, w.record->>'result',
                   w.record->>'event', w.row_number, f.submission_id
            from withdrawn_rows w join source_files f using (file_id) where w.kind = 'games'
        )
        select a.date, a.white_id, a.black_id, a.result, a.event,
               a.submission_id as submission_1, sa.name as name_1, a.row_number as row_1, a.game_id as game_id_1,
               b.submission_id as submission_2, sb.name as name_2, b.row_number as row_2, b.game_id as game_id_2,
               case d.decision when 'kept' then 'both kept'
                               else 'row ' || a.row_number || ' of submission ' || a.submission_id || ' withdrawn' end
                   as decision,
               d.decided_by as by, d.decided_at::timestamp(0) as at, d.reason as why
        from duplicate_decisions d
        join copies a on a.game_key = d.game_key join copies b on b.game_key = d.other_key
        join submissions sa on sa.submission_id = a.submission_id
        join submissions sb on sb.submission_id = b.submission_id"""
    order = " order by date, white_id, black_id, submission_1, row_1, submission_2, row_2"
    if shown == "open":
        return con.sql(f'select * exclude (decision, "by", "at", why) from ({undecided})' + order)
    parts = {"closed": [decided], "all": [undecided, decided]}[shown]
    return con.sql(" union all ".join(f"select * from ({p})" for p in parts) + order)


def _game_at(con: duckdb.DuckDBPyConnection, ref: Reference) -> int:
    """The game_key of the game in force a reference names."""
    found = row(con, """select g.game_key from games g join source_files f using (file_id)
                        where f.submission_id = ? and g.row_number = ?""", [ref.submission_id, ref.row])
    if found is None:
        withdrawn = row(con, """select 1 from withdrawn_rows w join source_files f using (file_id)
                                where f.submission_id = ? and w.row_number = ? and w.kind = 'games'""",
                        [ref.submission_id, ref.row])
        raise DecisionRefused(f"{ref}: " + ("a game withdrawn already" if withdrawn else "no game in force"
                                            " (`ratings rejects --warnings` lists the possible duplicates)"))
    return found[0]


def _partners(con: duckdb.DuckDBPyConnection, key: int) -> list[tuple[int, int, str, int]]:
    """The undecided copies of a game: (game_key, submission, name, row)."""
    return con.execute(f"""select key_2, submission_2, name_2, row_2 from ({PAIRS}) where key_1 = $k
                           union all select key_1, submission_1, name_1, row_1 from ({PAIRS}) where key_2 = $k
                           order by 1""", {"k": key}).fetchall()


def withdraw(con: duckdb.DuckDBPyConnection, texts: tuple[str, ...], reason: str, by: str,
             run_id: int) -> list[tuple[Reference, str]]:
    """Withdraw the copies named, each a possible duplicate of a game kept in force: its
    row to withdrawn_rows (sql/audits/rows_accounted.sql counts it there) and the change
    to game_changes, so that the next `rate` revises its list and says why. Returns
    (reference, the copy it repeats) for each."""
    done = []
    now = dt.datetime.now()
    for ref in references(con, texts):
        key = _game_at(con, ref)
        partners = _partners(con, key)
        if not partners:
            raise DecisionRefused(f"{ref} repeats no game in force (`ratings rejects --warnings` lists the possible "
                                  "duplicates; a whole file is withdrawn with `ratings withdraw`): "
                                  "nothing was withdrawn")
        other_key, other_submission, other_name, other_row = partners[0]
        other = f"submission {other_submission} ({other_name}), row {other_row}"
        why = f"withdrawn as a duplicate of {other}: {reason}"
        con.execute("""insert into withdrawn_rows
                       select file_id, row_number, 'games', to_json(t), ?, null, ? from games t where game_key = ?""",
                    [run_id, why, key])
        con.execute("""insert into game_changes
                       select ?, ?, null, 'withdrawn', file_id, row_number, null, null, date, white_id, black_id,
                              result, null,
                              'withdrawn ' || date || ' ' || white_id || '-' || black_id || ' ' || result
                              || ' (a duplicate of ' || ? || ')'
                       from games where game_key = ?""", [run_id, ref.submission_id, other, key])
        con.execute("delete from games where game_key = ?", [key])
        con.execute("insert into duplicate_decisions values (?, ?, 'withdrawn', ?, ?, ?, ?)",
                    [key, other_key, now, by, reason, run_id])
        done.append((ref, other))
    return done


def keep(con: duckdb.DuckDBPyConnection, texts: tuple[str, ...], reason: str, by: str, run_id: int) -> int:
    """Keep both copies of each undecided pair among the games named (two real games: a
    round robin's); each game named must be in such a pair. Returns the pairs kept."""
    refs = references(con, texts)
    keys = {_game_at(con, ref): ref for ref in refs}
    pairs = con.execute(f"""select key_1, key_2 from ({PAIRS})
                            where list_contains($keys, key_1) and list_contains($keys, key_2)""",
                        {"keys": list(keys)}).fetchall()
    paired = {k for pair in pairs for k in pair}
    alone = [str(ref) for key, ref in keys.items() if key not in paired]
    if alone:
        raise DecisionRefused(f"{'; '.join(alone)}: no possible duplicate of another game named here: name both "
                              "copies of a pair (`ratings rejects --warnings` lists them): nothing was kept")
    now = dt.datetime.now()
    for key_1, key_2 in pairs:
        con.execute("insert into duplicate_decisions values (?, ?, 'kept', ?, ?, ?, ?)",
                    [key_1, key_2, now, by, reason, run_id])
    return len(pairs)
