"""What players see: `ratings site` (the static site of the published lists), `explain`
(a player's calculation card), `whatif` (the rating after one more game)
(pipeline/site/, the rule sets' cards)."""
from __future__ import annotations

from pathlib import Path

import click

from pipeline.commands.common import opened
from pipeline.commands.options import series_option, warehouse_option
from pipeline.config import site_contact
from pipeline.console import ConsoleReporter
from pipeline.flow import timed
from pipeline.outputs import check_place, claim_folder
from pipeline.progress import progress
from pipeline.publish import write_bytes
from pipeline.rate.series import chosen, known_list, series_in
from pipeline.ruleset.replay import next_list
from pipeline.site.build import build_site
from pipeline.site.i18n import LANGUAGES


def _languages(ctx, param, value: str) -> list[str]:
    chosen = list(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))
    unknown = [v for v in chosen if v not in LANGUAGES]
    if unknown or not chosen:
        raise click.BadParameter(f"{', '.join(unknown) or 'nothing'}: choose among {', '.join(LANGUAGES)}")
    return chosen


def _download_lists(ctx, param, value: str) -> int | None:
    if value.strip().lower() == "all":
        return None
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise click.BadParameter(f"{value!r}: a number of lists (0 or more) or 'all'")
    return n


def _official_of(con, scenario) -> str:
    """The official series a scenario varies (the name to compare it with)."""
    return next((s.name for s in series_in(con, scenarios=False) if s.rule_set.name == scenario.rule_set.name),
                scenario.rule_set.name)


@click.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the site (its index.html opens the first language's).")
@click.option("--lang", "languages", default="en,fr,nl,de", show_default=True, callback=_languages,
              help="Comma-separated languages of the pages: en, fr, nl, de (the first is the default).")
@click.option("--cards", "card_lists", type=click.IntRange(min=0), default=1, show_default=True,
              help="The calculation cards of the latest N lists on the player pages (0: none).")
@click.option("--since", metavar="LIST_ID", help="Only this list and the later ones (default: every list).")
@click.option("--downloads", "download_lists", default="1", show_default=True, callback=_download_lists,
              metavar="N|all", help="The published files (CSV, spreadsheet CSV, Parquet, and the pairing "
                                    "layouts where the rules have them) of the latest N lists to download "
                                    "from their pages, with their SHA-256 checksums (0: none; all: every list). "
                                    "A revised list's diff is always there.")
@click.option("--pending", is_flag=True,
              help="Add the games received so far for the next list: a page per player, for players to "
                   "report an error before the list is computed (to whom: contact in ratings.toml).")
@click.option("--whole", is_flag=True,
              help="Compute every list's data and write every file again, taking nothing from the run before "
                   "(a re-run otherwise computes only what changed in the warehouse, the rest kept beside the "
                   "folder in .OUT.site-cache.duckdb).")
@series_option
@warehouse_option
def site(out: Path, languages: list[str], card_lists: int, since: str | None, download_lists: int | None,
         pending: bool, whole: bool, system: str | None, warehouse: Path, wait: float) -> None:
    """Write the published lists of a rule set as a static site players use: an index
    of lists, each list's ranking with filters (category by age, women, region,
    club, active players only; in the page's address, so a filtered list can be
    linked) and its files to download, a page per player (rating history chart,
    every list, corrections and revisions with their reasons, the calculation cards
    in the page's language), club and event pages, a search by name or id on every
    page, and a JSON API (OUT/api/v1/, with its schema); in English, French, Dutch
    and German. Plain files for any web server (python -m http.server -d OUT shows
    them locally). A re-run rewrites only the files that changed. No birth date or
    address is written.

    Under the Go rule sets, a ranking after each event by grade, then points; each
    event's points and grades before and after, its games with their handicaps; the
    state files to download. Glicko-2's deviation (RD) is shown beside its rating.

    Example: ratings site --out site/ --lang fr,nl,de,en
    """
    with opened(warehouse, wait, read_only=True) as con, timed(ConsoleReporter(), "Site"):
        series = chosen(con, system)
        if series.scenario:
            raise click.ClickException(f"{series.name} is a scenario, and scenarios are never published: "
                                       f"look at it with `ratings compare {_official_of(con, series)} {series.name}`")
        # whom to write to about a game received: ratings.toml's, read for the pending pages only
        contact = site_contact() if pending else None
        built = build_site(con, series, out, languages, card_lists, since, download_lists, pending, contact, whole)
        tongues = f"{len(languages)} languages" if len(languages) > 1 else "1 language"
        period = "event" if series.rule_set.site.periods == "events" else "list"
        click.echo(f"  {built.players:,} players, {built.lists} {period}{'s' if built.lists != 1 else ''}, "
                   f"{built.pages:,} pages in {tongues}, {built.bytes / 1e6:.1f} MB: {out / 'index.html'}")
        removed = f", {built.removed:,} removed" if built.removed else ""
        click.echo(f"  {built.changed:,} files changed, {built.unchanged:,} unchanged{removed}")


@click.command()
@click.argument("player_id", type=int, required=False)
@click.option("--list", "list_id", required=True, help="The list (YYYY-MM; Go: the event id).")
@click.option("--all", "every", is_flag=True, help="The cards of every player of the list (with --out).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="With --all: the folder for the cards, one text file a player (<player_id>.txt): a new or "
                   "empty folder, or one explain wrote before, outside the folders of published lists.")
@series_option
@warehouse_option
def explain(player_id: int | None, list_id: str, every: bool, out: Path | None, system: str | None,
            warehouse: Path, wait: float) -> None:
    """Print a player's calculation card for a list: each game and whether it counts
    (the 350 rule with the numbers), with the opponent's name, the date and the
    event; Ea, Sc, Nj, P, D(P), Pj, the rule applied with the numbers substituted,
    the unrounded and the published rating; for an unrated player, the estimate at
    each round. With --all --out DIR: every player's card of the list, from one
    replay of it.

    Under the other rule sets, the card shows their own terms (the manual's page of each
    rule set says which); under the rule sets of events, --list is the event's id.

    Example: ratings explain 12345 --list 2027-01
    """
    if every == (player_id is not None) or (every and out is None):
        raise click.UsageError("give PLAYER_ID, or --all with --out DIR")
    with opened(warehouse, wait, read_only=True) as con:
        series = chosen(con, system)
        if not every:
            click.echo(series.rule_set.card(con, series, player_id, list_id))
            return
        known_list(con, series, list_id)  # the refusal names the lists there are
        # A folder of published lists holds what the federation published, as published,
        # and a user's folder their own files: the cards go into neither.
        check_place(con, out, "the cards", "explain")
        claim_folder(out, "explain")
        cards = series.rule_set.cards(con, series, list_id)
    for pid, text in progress(cards.items(), f"write the cards of {list_id}", unit="card"):
        write_bytes((text + "\n").encode("utf-8"), Path(out) / f"{pid}.txt")
    click.echo(f"{len(cards)} cards of list {list_id} written to {out}")


@click.command()
@click.argument("player_id", type=int)
@click.option("--opponent", type=click.IntRange(1, 3000), required=True, help="The opponent's rating.")
@click.option("--list", "list_id", help="The list the game would count for (default: the next one).")
@series_option
@warehouse_option
def whatif(player_id: int, opponent: int, list_id: str | None, system: str | None, warehouse: Path,
           wait: float) -> None:
    """The rating after a win, a draw and a loss against an opponent of that rating,
    with the player's games of that list's window so far, before the game is played.

    Example: ratings whatif 12345 --opponent 1850
    """
    with opened(warehouse, wait, read_only=True) as con:
        series = chosen(con, system)
        if series.rule_set.periods_are != "windows":
            raise click.ClickException(f"whatif is not available under the {series.name} rules")
        target = list_id or next_list(con, series)
        text = series.rule_set.whatif(con, series, player_id, opponent, target)
    click.echo(f"Player {player_id}, one more game against {opponent}, list {target}:")
    click.echo(text)


COMMANDS = (site, explain, whatif)
