-- How well each source's ratings predicted the games (sql/analysis/scored_games.sql):
-- mean log-loss -(s ln E + (1 - s) ln(1 - E)) and Brier score (s - E)^2, per list
-- and over the whole history (list_id null); lower is better; a coin (E = 1/2) scores
-- ln 2 = 0.6931 and 0.25.
-- inputs: scored (the games as scored)
-- grain: source, list_id
-- Means are taken over exact sums (decimal(38, 12)): a sum of doubles depends on the order
-- DuckDB's threads add it in, and a rerun would write other last digits.
with clipped as (select *, least(greatest(expected, 1e-12), 1 - 1e-12) as e from scored),
final as (
    select source, list_id, count(*) as games,
           avg((-(white_score * ln(e) + (1 - white_score) * ln(1 - e)))::decimal(38, 12)) as log_loss,
           avg(((white_score - e) * (white_score - e))::decimal(38, 12)) as brier,
           avg(white_score::decimal(38, 12)) as white_score, avg(e::decimal(38, 12)) as expected
    from clipped
    group by grouping sets ((source, list_id), (source))
)
select * from final order by source, list_id nulls last
