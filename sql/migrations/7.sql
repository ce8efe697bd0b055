-- Layout 7: what each list's publication wrote in each output folder, so that a run
-- whose list kept its revision (a late result touches the last lists only) neither
-- rebuilds nor rereads its files: pipeline/publish/record.py checks the files on disk
-- against these hashes instead (an edited or missing file is published again, or refused).
-- Applied to a warehouse of layout 6 at its first writable connection (a new warehouse
-- runs no migration: sql/schema.sql is the current layout).
create table if not exists published_files (
    folder      varchar not null,   -- the series' output folder, resolved
    series      varchar not null,
    list_id     varchar not null,
    fingerprint varchar not null,   -- what its files depend on (pipeline/publish/record.py)
    file        varchar not null,   -- relative to the folder: lists/2022-04-r2.csv, state/2022-04.parquet
    sha256      varchar not null,
    size        bigint not null,
    recorded_at timestamp not null, -- when it was written (or found on disk with these bytes)
    primary key (folder, series, list_id, file)
);
