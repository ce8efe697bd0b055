-- Layout 13: what a study's trials are scored by (issue 53, item 5). A trial is scored by
-- its rule set's own forecast (`own`: Glicko-2's expectation with both deviations, FIDE's
-- table, as `ratings evaluate` scores a series) or by the logistic yardstick of every
-- source (`yardstick`); the yardstick's figures are kept beside the own forecast's.
-- Applied to a warehouse of layout 6 to 12 at its first writable connection: a study made
-- before was scored by the yardstick, and reads as such (its yardstick figures are its own).

alter table studies add column if not exists score varchar default 'yardstick';
alter table study_trials add column if not exists yardstick_train_log_loss double;  -- the yardstick's, same games
alter table study_trials add column if not exists yardstick_train_brier double;
alter table study_trials add column if not exists yardstick_test_log_loss double;
alter table study_trials add column if not exists yardstick_test_brier double;
alter table study_trials add column if not exists official_yardstick_test_log_loss double;
alter table study_trials add column if not exists official_yardstick_test_brier double;
update study_trials set yardstick_train_log_loss = train_log_loss, yardstick_train_brier = train_brier,
                        yardstick_test_log_loss = test_log_loss, yardstick_test_brier = test_brier,
                        official_yardstick_test_log_loss = official_test_log_loss,
                        official_yardstick_test_brier = official_test_brier
where study in (select study from studies where score = 'yardstick');
