-- Layout 11: a correction is set aside, not applied, where it no longer stands (issue 50).
-- A correction sets a player's rating on a list as the list was computed when it was
-- entered. When the list no longer rates the player whose games it rated then (FIDE
-- re-placed their event on a later list, or their games were withdrawn), or is a list a
-- run from scratch would not make, the rating stage sets it aside and says why
-- (sql/corrections_in_force.sql); it is never applied to another list.
-- Applied to a warehouse of layout 6 to 10 at its first writable connection; the
-- corrections already entered are given `rated_at_entry` from the revision of their list
-- in force when they were entered (pipeline/warehouse.py, after this file).

alter table corrections add column if not exists rated_at_entry boolean;  -- the list rated the player's games then
alter table corrections add column if not exists set_aside varchar;       -- why the rating stage set it aside; null: applied
alter table corrections add column if not exists set_aside_run integer;   -- the run that last set it aside or back in force
