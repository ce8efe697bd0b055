"""The rating officer's decisions where validation cannot settle a row, taken with
`ratings rejects`: close a reject no fix can take in, reopen it, withdraw one copy of
a possible duplicate game, keep both copies (pipeline/validate/rejects.py,
pipeline/validate/duplicates.py). Each is all or nothing, recorded with who, when
and why, and answered in words the officer can act on."""
from __future__ import annotations

import duckdb

from pipeline.validate import duplicates, rejects

ACTIONS = ("close", "reopen", "withdraw-duplicate", "keep-duplicate")


def _rows(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def take(con: duckdb.DuckDBPyConnection, action: str, rows: tuple[str, ...], reason: str, by: str,
         run_id: int) -> list[str]:
    """Take the decision on the rows named (SUBMISSION:ROW); returns what to print.
    Raises rejects.DecisionRefused, naming every row it cannot be taken on."""
    if action in ("close", "reopen"):
        done = rejects.decide(con, rows, "closed" if action == "close" else "reopened", reason, by, run_id)
        lines = [f"{'Closed' if action == 'close' else 'Reopened'} {_rows(len(done), 'reject')} ({by}: {reason}):"]
        lines += [f"  {ref}: {why}" for ref, why in done]
        if action == "close":
            lines.append("Kept as rejected rows (`ratings rejects --closed` lists them), no longer open: "
                         "`validate` and `run` no longer count them, `ratings rejects --out` no longer writes them.")
        else:
            lines.append("Open again: `ratings rejects` lists them, `--out` writes them, and `validate` and `run` "
                         "exit 3 when they examine them.")
        return lines
    if action == "withdraw-duplicate":
        done = duplicates.withdraw(con, rows, reason, by, run_id)
        lines = [f"Withdrew {_rows(len(done), 'game')} as a duplicate ({by}: {reason}):"]
        lines += [f"  {ref}, a copy of {other}" for ref, other in done]
        lines.append("Kept in withdrawn_rows, never rated. Run `ratings rate` (or `ratings run`) to revise the lists "
                     "they were on.")
        return lines
    kept = duplicates.keep(con, rows, reason, by, run_id)
    return [f"Kept both copies of {_rows(kept, 'pair')} ({by}: {reason}): no longer warned about "
            "(`ratings rejects --warnings --closed` lists the pairs decided)."]
