"""The site's card step timed: a series' cards of its latest lists (what `ratings site
--cards N` shows), each list's from one call of RuleSet.card_data, against one
player's card (what `ratings explain` makes) times the list's players, the cost of
making them a player at a time.

    python bench/site_cards.py be.duckdb --system fide --system glicko2 [--lists 1]
    python bench/site_cards.py be.duckdb --system fide --list 1996-03     # a given list (the largest)
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from rated_warehouse import official_series


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse")
    parser.add_argument("--system", action="append", required=True, help="a series (repeat for several)")
    parser.add_argument("--lists", type=int, default=1, help="the latest lists (the site's --cards)")
    parser.add_argument("--list", dest="chosen", action="append", help="these lists instead (repeat)")
    parser.add_argument("--singles", type=int, default=20, help="single cards timed per list")
    args = parser.parse_args()
    con, official = official_series(parser, args.warehouse)
    by_name = {s.name: s for s in official}
    for name in args.system:
        if name not in by_name:
            parser.error(f"no series {name!r} in {args.warehouse}: {', '.join(by_name)}")
        series = by_name[name]
        lists = args.chosen or [x for (x,) in con.execute("select list_id from lists where series = ? order by position desc "
                                           "limit ?", [name, args.lists]).fetchall()]
        for list_id in lists:
            started = time.perf_counter()
            cards = series.rule_set.card_data(con, series, list_id)
            whole = time.perf_counter() - started
            digest = hashlib.sha256("\n".join(c.to_json() for c in cards.values()).encode()).hexdigest()[:12]
            singles = []
            for player_id in list(cards)[::max(1, len(cards) // args.singles)][:args.singles]:
                started = time.perf_counter()
                series.rule_set.card_data(con, series, list_id, [player_id])
                singles.append(time.perf_counter() - started)
            one = statistics.median(singles)
            print(f"{name} {list_id}: {len(cards):,} cards in {whole:.2f} s ({whole / len(cards) * 1000:.2f} ms a "
                  f"card, sha256 {digest}); one card {one:.3f} s (median of {len(singles)}), "
                  f"× {len(cards):,} = {one * len(cards):.0f} s a player at a time")


if __name__ == "__main__":
    main()
