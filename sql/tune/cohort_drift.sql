-- A trial's drift as `ratings compare TRIAL OFFICIAL` shows it: for each decade, the
-- fixed cohort's (sql/analysis/cohorts.sql: the players both rate on every compared
-- list of the decade) mean rating under the trial on the decade's last list minus its
-- mean on the first; and the mean change of the rated players who did not play in a
-- list's window (as list_ratings' status says it: rated on the list before, or in the
-- initial ratings, and no game in the window), added over every list (decade null):
-- how far the rules alone move those who do not play.
-- inputs: compared_pairs (a: the trial, b: the official series), lists, trial_state
--         (list_id, player_id, rating: the trial's ratings), initial_ratings, trial_played
--         (list_id, player_id: who played in each window), getvariable('a') (the trial)
-- grain: decade (null: the players who did not play)
with cohorts as (__COHORTS__),
by_decade as (
    select decade, arg_max(mean_a, list_date) - arg_min(mean_a, list_date) as change
    from cohorts group by decade
),
list_order as (
    select list_id, lag(list_id) over (order by position) as previous_list_id
    from lists where series = getvariable('a')
),
rated as (select list_id, player_id, rating from trial_state where rating is not null),
previous as (
    select l.list_id, s.player_id, s.rating from list_order l join rated s on s.list_id = l.previous_list_id
    union all
    select l.list_id, r.player_id, r.rating from list_order l join initial_ratings r on l.previous_list_id is null
    where r.rating is not null
),
idle as (
    select s.list_id, avg(s.rating::integer - round(p.rating)::integer) as change
    from rated s join previous p using (list_id, player_id)
    anti join trial_played t using (list_id, player_id)
    group by s.list_id
),
final as (
    select decade, change::double as change from by_decade
    union all
    select null, coalesce(sum(change), 0)::double from idle
)
select * from final order by decade nulls last
