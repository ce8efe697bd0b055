"""What `ratings site` keeps from one run to the next, outside the published folder: the
data step's tables and JSON texts of every list, event and player (a DuckDB file
beside the site's folder, `.<folder>.site-cache.duckdb`), so that a re-run computes
again only the lists whose inputs changed, the events on them and the players whose
rows changed, and takes the rest as the run before left it.

A list's data is kept under its key: what the warehouse says it was computed from and
what it is (its `lists` row: revision, input signature, registry version, run, window,
counts; its corrections, revisions and their changed ratings), chained with the key of
the list before (a list's rows read the lists before it: who was active), so a list
revised in the middle of the history takes every later one with it. Everything else
the data step reads (the registry's names, birth years, sexes and regions; the series'
parameters; the warehouse's layout version and which warehouse it is; the site's code
and the rule set's face; `--since`) is one key for the whole file: a change of any
throws the whole file away. `--whole` ignores the file (and rewrites it)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import duckdb

from pipeline.outputs import OutputRefused

VERSION = 1  # the file's own layout: a new one throws the old file away
LOG_MOST = 64 << 20  # the file's log past which a save checkpoints (a late result's save: a few MB)
# What is kept, each from the data step's temp table of the same data (save): the lists' and
# events' by list or event, the players' by player.
TABLES = {"rows": "select * from site_rows where list_contains(getvariable('site_fresh'), list_id)",
          "lists": "select * from site_lists where list_contains(getvariable('site_fresh'), list_id)",
          "players": "select * from site_players",
          "event_players": "select * from site_event_players",
          "events": "select * exclude (api) from site_fresh_events",
          # the JSON files' digests, not their texts: the texts are the site's files themselves
          "player_texts": "select player_id, digest from site_player_digests",
          "list_texts": "select list_id, digest from site_list_digests",
          "event_texts": "select slug, digest from site_event_digests"}
# What of a table this run's data replaces: the rows of every list but those kept (a list no
# longer shown goes too), of the players and the events computed again (the tables
# still_kept, changed_players, changed_events, given by save).
REPLACED = {"rows": "list_id not in (select list_id from still_kept)",
            "lists": "list_id not in (select list_id from still_kept)",
            "players": "player_id in (select player_id from changed_players)",
            "event_players": "slug in (select slug from changed_events)",
            "events": "slug in (select slug from changed_events)",
            "player_texts": "player_id in (select player_id from changed_players)",
            "list_texts": "list_id not in (select list_id from still_kept)",
            "event_texts": "slug in (select slug from changed_events)"}


def kept_path(out: Path) -> Path:
    """The file a site folder's kept data lives in: beside the folder, hidden, never in it
    (the folder is what is copied to the public host)."""
    out = Path(out).absolute()
    return out.parent / f".{out.name}.site-cache.duckdb"


def _digest(*parts) -> str:
    return hashlib.sha1(json.dumps(parts, default=str, sort_keys=True).encode()).hexdigest()


def digest(data: bytes) -> str:
    """A file's hash in the site's manifest. 64 bits: enough to tell a file's versions
    apart, and the manifest of a hundred thousand files stays a few megabytes."""
    return hashlib.sha1(data).hexdigest()[:16]


class Kept:
    """The kept data of a site folder (`path` None: nothing kept, nothing saved), on its own
    DuckDB connection (the warehouse's reads no file: pipeline.warehouse.connect, so what it
    needs of the kept data is handed to it as Arrow tables); save() replaces it in one
    transaction. The JSON files' texts are not kept, their digests are: a kept text is the
    file the folder holds, which `on_disk` says (path under api/v1/ -> the digest the
    folder's manifest gives a file that is there); a list, an event or a player whose file
    is not there with the kept digest is computed again."""

    def __init__(self, path: Path | None, whole: bool = False, on_disk: dict[str, str] | None = None):
        self.path, self.on_disk = path, on_disk or {}
        self.key: str | None = None
        self.lists: dict[str, str] = {}  # list_id -> its key, as kept
        self.any = False  # whether any list's kept data holds
        self.fresh: list[str] = []  # the lists computed again
        self.kept: list[str] = []  # the lists taken as kept
        self.db = None
        if path is None:
            return
        try:
            self.db = duckdb.connect(str(path))
            there = {t for (t,) in self.db.execute("select table_name from duckdb_tables()").fetchall()}
        except duckdb.Error as err:
            if "lock" in str(err).lower():
                raise OutputRefused(f"{path}: in use by another `ratings site` writing the same folder; try "
                                    f"again when it has finished") from err
            # Not a file this command wrote (or one a crash cut short): it is this command's
            # own, beside its folder, and holds nothing that cannot be computed again.
            self.close()
            path.unlink(missing_ok=True)
            Path(f"{path}.wal").unlink(missing_ok=True)
            self.db = duckdb.connect(str(path))
            there = set()
        # A re-run's changes are small: written to the file's log and checkpointed when the
        # log grows past DuckDB's threshold, not each time the file is closed.
        self.db.execute("pragma disable_checkpoint_on_shutdown")
        if not whole and {"meta", "list_keys", *TABLES} <= there:
            self.key = self.db.execute("select any_value(key) from meta").fetchone()[0]
            self.lists = dict(self.db.execute("select list_id, key from list_keys").fetchall())

    def kept_lists(self, con: duckdb.DuckDBPyConnection, series, first: int, code: str) -> None:
        """Each shown list's key now (from position `first` on); which lists are taken as kept
        (their key unchanged) and which computed again, also as the variables
        getvariable('site_kept') and getvariable('site_fresh') of `con`."""
        key = _digest(VERSION, code, series.name, series.rule_set.name, repr(series.rule_set.site), first,
                      *con.execute("""
            select (select max(version) from warehouse_version),
                   -- which warehouse: its first run (a copy of it is the same warehouse)
                   (select hash(started_at, arguments)::varchar from runs order by run_id limit 1),
                   -- the registry as the site reads it: names, birth years (categories), sex, region
                   (select sum(hash(player_id, name, birth_year, extra))::hugeint::varchar from players),
                   (select hash(s)::varchar from series s where s.series = getvariable('series'))""").fetchone())
        rows = con.execute("""
            with own as (  -- revision, input signature, registry version, run, window, counts
                select list_id, position, hash(l)::hugeint as h from lists l
                where series = getvariable('series') and position >= ?
            ),
            fixes as (select list_id, sum(hash(c))::hugeint as h from corrections c
                      where series = getvariable('series') group by list_id),
            revised as (select list_id, sum(hash(r))::hugeint as h from list_revisions r
                        where series = getvariable('series') group by list_id),
            changed as (select list_id, sum(hash(r))::hugeint as h from rating_changes r
                        where series = getvariable('series') group by list_id)
            select o.list_id, (o.h + coalesce(f.h, 0) + coalesce(v.h, 0) + coalesce(c.h, 0))::varchar
            from own o left join fixes f using (list_id) left join revised v using (list_id)
            left join changed c using (list_id)
            order by o.position""", [first]).fetchall()
        keys, chained = {}, key
        for list_id, own in rows:
            # a list's rows read the lists before it (who was active): its key holds theirs
            chained = _digest(chained, list_id, own)
            keys[list_id] = chained
        same = key == self.key
        texts = dict(self.db.execute("select list_id, digest from list_texts").fetchall()) if same else {}
        self.kept = [l for l, k in keys.items()
                     if same and self.lists.get(l) == k and self.on_disk.get(f"lists/{l}.json", "") == texts.get(l)]
        kept = set(self.kept)
        self.fresh = [l for l in keys if l not in kept]
        self.any, self.now = bool(self.kept), (key, keys)
        con.execute("set variable site_kept = ?::varchar[]", [self.kept])
        con.execute("set variable site_fresh = ?::varchar[]", [self.fresh])

    def arrow(self, sql: str, params=None):
        """A query of the kept data as an Arrow table (for the warehouse's connection)."""
        return self.db.sql(sql, params=params).to_arrow_table()

    def not_there(self, table: str, id_column: str, path: str) -> list:
        """The ids of the kept `table`'s texts (player_texts, event_texts) whose file (`path`
        with the id) is not in the folder with the digest kept: computed again."""
        return [i for i, d in self.rows(f"select {id_column}, digest from {table}")
                if self.on_disk.get(path.format(i)) != d]

    def digests(self, table: str, id_column: str) -> dict:
        """The kept `table`'s digests (player_texts, list_texts, event_texts), by id."""
        return dict(self.rows(f"select {id_column}, digest from {table}"))

    def rows(self, sql: str, params=None) -> list[tuple]:
        """A query of the kept data's rows (none when nothing is kept)."""
        return self.db.execute(sql, params or []).fetchall() if self.any else []

    def records(self, sql: str, params=None) -> list[dict]:
        """A query of the kept data, a dict a row (none when nothing is kept)."""
        if not self.any:
            return []
        cur = self.db.execute(sql, params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]

    def rows_of(self, players, table: str, where: str, params: list):
        """The rows of the kept `table` of `players` (an Arrow table of player ids) where
        `where` holds, as an Arrow table."""
        self.db.register("wanted_players", players)
        try:
            return self.arrow(f"""select * from {table} where {where}
                                  and player_id in (select player_id from wanted_players)""", params)
        finally:
            self.db.unregister("wanted_players")

    def save(self, con: duckdb.DuckDBPyConnection) -> None:
        """Replace what is kept by this run's data, read from `con`'s temp tables (TABLES; the
        players and events computed again: site_dirty_players, site_dirty_events), in one
        transaction: an interrupted save leaves the run before's whole."""
        if self.db is None:
            return
        db, (key, keys) = self.db, self.now
        given = {f"new_{table}": sql for table, sql in TABLES.items()}
        given |= {"still_kept": "select unnest(getvariable('site_kept')) as list_id",
                  "changed_players": "select player_id from site_dirty_players",
                  "changed_events": "select slug from site_dirty_events"}
        for name, sql in given.items():
            db.register(name, con.sql(sql).to_arrow_table())
        db.execute("begin")
        try:
            if not self.any:  # nothing kept holds: the file written anew
                for table in ("meta", "list_keys", *TABLES):
                    db.execute(f"drop table if exists {table}")
                db.execute("create table meta (key varchar)")
                db.execute("create table list_keys (list_id varchar, key varchar)")
                for table in TABLES:
                    db.execute(f"create table {table} as select * from new_{table} limit 0")
            for table, replaced in REPLACED.items():
                db.execute(f"delete from {table} where {replaced}")
                db.execute(f"insert into {table} by name select * from new_{table}")
            db.execute("delete from list_keys")
            db.executemany("insert into list_keys values (?, ?)", list(keys.items()))
            db.execute("delete from meta")
            db.execute("insert into meta values (?)", [key])
            db.execute("commit")
            if not self.any or Path(f"{self.path}.wal").stat().st_size > LOG_MOST:
                db.execute("checkpoint")  # the log into the file: the next run does not replay it
        except BaseException:
            db.execute("rollback")
            raise
        finally:
            for name in given:
                db.unregister(name)

    def close(self) -> None:
        """Close the file."""
        if self.db is not None:
            self.db.close()
            self.db = None
