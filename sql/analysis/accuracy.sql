-- How well each source's ratings predicted the games (sql/analysis/scored_games.sql):
-- mean log-loss -(s ln E + (1 - s) ln(1 - E)) and Brier score (s - E)^2, per list
-- and over the whole history (list_id null); lower is better; a coin (E = 1/2) scores
-- ln 2 = 0.6931 and 0.25.
-- inputs: scored (the games as scored)
-- grain: source, list_id
with clipped as (select *, least(greatest(expected, 1e-12), 1 - 1e-12) as e from scored),
final as (
    select source, list_id, count(*) as games,
           avg(-(white_score * ln(e) + (1 - white_score) * ln(1 - e))) as log_loss,
           avg((white_score - e) * (white_score - e)) as brier,
           avg(white_score) as white_score, avg(e) as expected
    from clipped
    group by grouping sets ((source, list_id), (source))
)
select * from final order by source, list_id nulls last
