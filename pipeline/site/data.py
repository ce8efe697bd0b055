"""What the site shows, read from the warehouse in a few set-based queries: every
player of every list with categories, activity and ranks (sql/site/ranked.sql), the
lists' summaries, and the calculation cards of the latest lists (from one replay
a list: RuleSet.cards)."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import duckdb
import pandas as pd

from pipeline.rate.series import own_views
from pipeline.warehouse import sql_name, stage_sql

UNDER = (8, 10, 12, 14, 16, 18, 20)


@dataclass(frozen=True)
class SiteData:
    series: object
    lists: pd.DataFrame  # list_summary rows, first first
    rows: pd.DataFrame  # sql/site/ranked.sql with rank_all, rank_active and club_slug
    cards: dict[tuple[int, str], str]  # (player_id, list_id) -> card text


def club_slug(name: str) -> str:
    """A file name for a club: ASCII letters, digits and '-' (accents dropped)."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "club"


class UnknownSince(ValueError):
    """--since names no list of the series."""


def site_data(con: duckdb.DuckDBPyConnection, series, card_lists: int, since: str | None = None) -> SiteData:
    """The site's tables for a series (its lists from `since` on, if given); the cards
    of its latest `card_lists` lists."""
    con.execute("set variable series = ?", [series.name])
    con.execute(f"create or replace temp table site_rows as {stage_sql('site/ranked')}")
    flag = series.rule_set.inactive_column
    if flag is not None:  # the rule set's own rule (FIDE B02 7.2.2) decides, for its series only
        own_views(con, series)
        con.execute(f"""update site_rows set active = not coalesce(s.{sql_name(flag)}, false) from series_player_state s
                        where s.series = getvariable('series') and s.list_id = site_rows.list_id
                          and s.player_id = site_rows.player_id""")
    rows = con.sql("""select *, rank() over (partition by list_id order by rating desc) as rank_all,
                             case when active then rank() over (partition by list_id, active order by rating desc)
                             end as rank_active
                      from site_rows order by position, rating desc, player_id""").df()
    con.execute("drop table site_rows")
    clubs = {c: club_slug(c) for c in rows["club"].dropna().unique()}
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for club in sorted(clubs):  # two clubs whose names give one slug get -2, -3 ...
        slug, n = clubs[club], 1
        while slug in taken:
            n += 1
            slug = f"{clubs[club]}-{n}"
        slugs[club] = slug
        taken.add(slug)
    rows["club_slug"] = rows["club"].map(slugs)
    lists = con.sql("select * from list_summary where series = $s order by list_id",
                    params={"s": series.name}).df()
    order = con.sql("select list_id, position from lists where series = $s", params={"s": series.name}).df()
    lists = lists.merge(order, on="list_id").sort_values("position").reset_index(drop=True)
    if since is not None:
        if since not in set(lists["list_id"]):
            raise UnknownSince(f"--since {since}: no list {since!r} in the {series.name} lists")
        first = int(lists.loc[lists["list_id"] == since, "position"].iloc[0])
        lists = lists[lists["position"] >= first].reset_index(drop=True)
        rows = rows[rows["position"] >= first].reset_index(drop=True)
    cards: dict[tuple[int, str], str] = {}
    if series.rule_set.bulk_cards:
        for list_id in lists["list_id"].tail(card_lists):
            for player_id, text in series.rule_set.cards(con, series, list_id).items():
                cards[(player_id, list_id)] = text
    return SiteData(series, lists, rows, cards)
