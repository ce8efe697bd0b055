-- Calibration: the games grouped by White's expected score in tenths (0.0-0.1 ...
-- 0.9-1.0), the mean expected against the mean actual score; a source whose ratings
-- are calibrated has the two close in every bin.
-- inputs: scored (the games as scored)
-- grain: source, bin
-- Means are taken over exact sums (decimal(38, 12)): a sum of doubles depends on the order
-- DuckDB's threads add it in, and a rerun would write other last digits.
with binned as (select *, least(floor(expected * 10), 9) / 10 as bin from scored),
final as (
    select source, bin, bin + 0.1 as bin_end, count(*) as games, avg(expected::decimal(38, 12)) as expected,
           avg(white_score::decimal(38, 12)) as actual
    from binned group by source, bin
)
select * from final order by source, bin
