"""Two sources of ratings side by side (`ratings compare A B`): per list, the players
both rate; over the whole history, the drift of each and of a fixed cohort a
decade; and how each predicted the games (sql/analysis/, pipeline/analysis/evaluate.py)."""
from __future__ import annotations

from dataclasses import dataclass

import duckdb
import pyarrow as pa

from pipeline.analysis.evaluate import Accuracy, evaluate
from pipeline.analysis.sources import Source
from pipeline.progress import progress
from pipeline.rate.series import SeriesError
from pipeline.warehouse import stage_sql


@dataclass(frozen=True)
class Comparison:
    a: Source
    b: Source
    lists: pa.Table  # compared_lists.sql, with each list's log-loss and Brier of A and B
    differences: pa.Table
    drift: pa.Table
    cohorts: pa.Table
    accuracy: Accuracy
    latest_pairs: pa.Table  # the latest compared list's players: a, b (the scatter chart)

    def tables(self) -> dict[str, pa.Table]:
        return {"lists": self.lists, "differences": self.differences, "drift": self.drift, "cohorts": self.cohorts,
                "accuracy": self.accuracy.accuracy, "calibration": self.accuracy.calibration}


def compare(con: duckdb.DuckDBPyConnection, a: Source, b: Source) -> Comparison:
    if a.name == b.name:
        raise SeriesError(f"compare two different sources (both are named {a.name!r})")
    bar = progress(step="compare", total=3, unit="step")
    bar.set_postfix_str("accuracy")
    # Loads the sources (A first: the windows are A's lists). The lists are compared as their
    # files date them; a month-dated list that scores games of its month is not refused here
    # (setting lists side by side is fair), its scores are said not to be (the window rule).
    accuracy = evaluate(con, [a, b], window_rule=False)
    bar.update()
    bar.set_postfix_str("lists")
    con.execute("set variable a = ?", [a.name])
    con.execute("set variable b = ?", [b.name])
    con.execute(f"create or replace temp table compared_pairs as {stage_sql('analysis/compared_pairs')}")
    con.register("accuracy_table", accuracy.accuracy)
    lists = con.sql(f"""
        with scores as (
            select list_id, max(games) as games_scored,
                   max(log_loss) filter (where source = getvariable('a')) as log_loss_a,
                   max(log_loss) filter (where source = getvariable('b')) as log_loss_b,
                   max(brier) filter (where source = getvariable('a')) as brier_a,
                   max(brier) filter (where source = getvariable('b')) as brier_b
            from accuracy_table where list_id is not null group by list_id
        )
        select l.*, s.games_scored, s.log_loss_a, s.log_loss_b, s.brier_a, s.brier_b
        from ({stage_sql('analysis/compared_lists')}) l left join scores s using (list_id)
        order by l.list_date""").to_arrow_table()
    con.unregister("accuracy_table")
    latest = con.sql("""select a, b from compared_pairs
                        where list_date = (select max(list_date) from compared_pairs)""").to_arrow_table()
    bar.update()
    bar.set_postfix_str("differences, drift, cohorts")
    comparison = Comparison(a, b, lists, con.sql(stage_sql("analysis/differences")).to_arrow_table(),
                            con.sql(stage_sql("analysis/drift")).to_arrow_table(),
                            con.sql(stage_sql("analysis/cohorts")).to_arrow_table(), accuracy, latest)
    bar.update()
    bar.close()
    return comparison
