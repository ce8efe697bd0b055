-- A trial's drift as `ratings compare TRIAL OFFICIAL` shows it: for each decade, the
-- fixed cohort's (sql/analysis/cohorts.sql: the players both rate on every compared
-- list of the decade) mean rating under the trial on the decade's last list minus its
-- mean on the first; and the mean change of the rated players who did not play in a
-- list's window (rating_history's status, as the list reports' summary), added over
-- every list (decade null): how far the rules alone move those who do not play.
-- inputs: compared_pairs (a: the trial, b: the official series), rating_history,
--         getvariable('trial')
-- grain: decade (null: the players who did not play)
with cohorts as (__COHORTS__),
by_decade as (
    select decade, arg_max(mean_a, list_date) - arg_min(mean_a, list_date) as change
    from cohorts group by decade
),
idle as (
    select avg(change) filter (where status = 'did not play') as change
    from rating_history where series = getvariable('trial') group by list_id
),
final as (
    select decade, change::double as change from by_decade
    union all
    select null, coalesce(sum(change), 0)::double from idle
)
select * from final order by decade nulls last
