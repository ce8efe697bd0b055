-- Each list of A beside the list of B in force on its date, over the players both
-- rate: means and medians and their differences (B - A), Spearman's rank correlation
-- (the Pearson correlation of the ranks, ties given their mean rank), and the share
-- of players whose ratings differ by 50 or more.
-- inputs: compared_pairs (sql/analysis/compared_pairs.sql)
-- grain: list_id
-- Means are taken over exact sums (decimal(38, 12)): a sum of doubles depends on the order
-- DuckDB's threads add it in, and a rerun would write other last digits.
with pairs as (select * from compared_pairs),
ranked as (
    select *,
           rank() over (partition by list_id order by a) + (count(*) over (partition by list_id, a) - 1) / 2 as rank_a,
           rank() over (partition by list_id order by b) + (count(*) over (partition by list_id, b) - 1) / 2 as rank_b
    from pairs
),
final as (
    select list_id, b_list_id, list_date, count(*) as players,
           avg(a::decimal(38, 12)) as mean_a, avg(b::decimal(38, 12)) as mean_b,
           avg(b::decimal(38, 12)) - avg(a::decimal(38, 12)) as mean_difference,
           median(a) as median_a, median(b) as median_b, median(b) - median(a) as median_difference,
           -- Pearson's r of the ranks from exact sums (the ranks are halves: decimal(38, 1));
           -- 0 / 0 is NaN, as corr() gives for one player or equal ranks
           ((count(*) * sum(ra * rb) - sum(ra) * sum(rb))::double
            / sqrt((count(*) * sum(ra * ra) - sum(ra) * sum(ra))::double
                   * (count(*) * sum(rb * rb) - sum(rb) * sum(rb))::double)) as spearman,
           avg(case when abs(b - a) >= 50 then 1 else 0 end) as share_50_or_more
    from (select *, rank_a::decimal(38, 1) as ra, rank_b::decimal(38, 1) as rb from ranked)
    group by list_id, b_list_id, list_date
)
select * from final order by list_date
