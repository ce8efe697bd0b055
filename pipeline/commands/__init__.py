"""The commands of `ratings`, one module per task of a rating officer (pipeline/cli.py
holds the group, which imports a command's module when the command is called): intake.py
(run, ingest, validate, withdraw, confirm), rejects.py, record.py (submissions, revisions,
correct, corrections), lists.py (rate, publish, export), series.py (series, scenario,
scenarios), analysis.py (compare, evaluate), tune.py (tune, tunes), players.py (site,
explain, whatif), tools.py (audit, simulate), query.py (query); options.py and common.py
are what they share, notices.py what validating and rating warn of. A command parses,
calls the pipeline and prints: no SQL here (tests/test_cli_layout.py). Each module imports
what it uses at its top: the commands that only read the warehouse are in modules that
load neither pandas nor Pandera, nor Arrow for the listings (tests/test_command_imports.py)."""
from __future__ import annotations

# Every command of `ratings`: its name → ("module:attribute" of its click command, its short
# help). `ratings --help` lists the commands from here, so that it imports no command's module;
# each short help is the first sentence of its command's help (tests/test_cli_lazy.py checks
# both against the modules' own COMMANDS).
LAZY = {
    "audit": ("pipeline.commands.tools:audit",
                'Run the warehouse audits (sql/audits/): each must find no offending row.'),
    "compare": ("pipeline.commands.analysis:compare",
                'Compare two sources of ratings list by list and over the whole history: A and B are each a '
                "series of the warehouse (a rule set's official lists, a scenario) or a CSV/Parquet file of "
                'published ratings (player_id, list_id as YYYY-MM, YYYYMM or YYYY-MM-DD, rating, and a date or '
                "window_end column if the file dates its lists so; --columns maps a file's own names; "
                'FILE:scale=S,offset=O reads it on its own scale).'),
    "confirm": ("pipeline.commands.intake:confirm",
                "Take in a held file as it is: its games that look like corrections of another file's (the same "
                'day, players and event, another result) are other games, rated beside those.'),
    "correct": ("pipeline.commands.record:correct",
                'Record a correction by the rating commission (or withdraw one); the next `rate` applies it at '
                'that list and recomputes every later list from it.'),
    "corrections": ("pipeline.commands.record:list_corrections",
                "List the rating commission's corrections, in force, set aside (their list no longer rates the "
                'player, with why) or withdrawn, with who entered them and when.'),
    "evaluate": ("pipeline.commands.analysis:evaluate",
                'Score ratings on the games they were in force for: each game by the list in force on its day, '
                "with the source's own forecast (a rule set's expected score, from both players' state on the "
                'list) and with the common logistic yardstick 1 / (1 + 10^(-D/400)); the mean log-loss and Brier '
                'score per list and over the whole history, and a calibration table, on the games every source '
                'rates both players of (default, with no source named: every series of the warehouse).'),
    "explain": ("pipeline.commands.players:explain",
                "Print a player's calculation card for a list: each game and whether it counts (the 350 rule with "
                "the numbers), with the opponent's name, the date and the event; Ea, Sc, Nj, P, D(P), Pj, the "
                'rule applied with the numbers substituted, the unrounded and the published rating; for an '
                'unrated player, the estimate at each round.'),
    "export": ("pipeline.commands.lists:export",
                'Export the warehouse for other tools.'),
    "ingest": ("pipeline.commands.intake:ingest",
                "Read input files into the warehouse's staging tables (nothing judged yet): each file becomes a "
                'submission (`ratings submissions` lists them).'),
    "publish": ("pipeline.commands.lists:publish",
                'Write the computed lists (CSV, Parquet; FIDE TXT and Swiss-Manager CSV on request) and states '
                "(Parquet) of every rule set of the warehouse (or --system's) to OUT."),
    "query": ("pipeline.commands.query:query",
                'Run a read-only SQL query on the warehouse and print the result.'),
    "rate": ("pipeline.commands.lists:rate",
                "Compute the lists of every rule set of the warehouse (and --system's, made when new), in order, "
                'each from the one before.'),
    "rejects": ("pipeline.commands.rejects:list_rejects",
                'List the rejected rows still open, or write them out to be fixed: ingest the fixed file and its '
                'rows are taken in and their rejects marked fixed (`file` and `row` say which reject each line '
                'fixes: keep those columns).'),
    "revisions": ("pipeline.commands.record:revisions",
                'List the revisions of the lists: when, in which run, how many players changed, and why.'),
    "run": ("pipeline.commands.intake:run",
                'Ingest, validate, rate and publish in one go.'),
    "scenario": ("pipeline.commands.lists:scenario_command",
                "Rate the warehouse's games under a rule set with other parameters, stored as the scenario NAME "
                'beside the official lists: never published, recomputed like any list when the games change '
                '(`ratings rate`), compared with `ratings compare`.'),
    "scenarios": ("pipeline.commands.series:list_scenarios",
                'List the scenarios: rule set, the parameters each changes, lists computed.'),
    "series": ("pipeline.commands.series:series_command",
                "List the warehouse's series (each rule set's official lists, and the scenarios): the rule set, "
                'its lists, the package it comes from or why it cannot be loaded.'),
    "simulate": ("pipeline.commands.tools:simulate",
                'Write a synthetic federation (players, initial ratings, games) in the input format.'),
    "site": ("pipeline.commands.players:site",
                'Write the published lists of a rule set as a static site players use: an index of lists, each '
                "list's ranking with filters (category by age, women, region, club, active players only; in the "
                "page's address, so a filtered list can be linked) and its files to download, a page per player "
                '(rating history chart, every list, corrections and revisions with their reasons, the calculation '
                "cards in the page's language), club and event pages, a search by name or id on every page, and a "
                'JSON API (OUT/api/v1/, with its schema); in English, French, Dutch and German.'),
    "submissions": ("pipeline.commands.record:list_submissions",
                'List every submission: who took it in and when, its status, its rows (read, stored, rejected, '
                'withdrawn), what it replaced or why it was withdrawn.'),
    "tune": ("pipeline.commands.tune:tune",
                "Search the parameters of a rule set for those that would have predicted the warehouse's games "
                'best without drifting: each trial rates the whole history as a scenario that is never kept, '
                "scored by log-loss (or Brier) of the rule set's own forecast (or the yardstick) on the games "
                'after --train-until and by the drift of fixed cohorts, beside the official lists on the same '
                'games.'),
    "tunes": ("pipeline.commands.studies:tunes",
                "List the parameter studies: rule set, parameters searched, trials, the best feasible trial's "
                'training and test scores; or drop one (--drop NAME).'),
    "validate": ("pipeline.commands.intake:validate",
                'Check every staged row: accepted rows are stored, the others go to rejects with reasons.'),
    "whatif": ("pipeline.commands.players:whatif",
                "The rating after a win, a draw and a loss against an opponent of that rating, with the player's "
                "games of that list's window so far, before the game is played."),
    "withdraw": ("pipeline.commands.intake:withdraw",
                'Withdraw a whole game file: its games stay in the warehouse, marked withdrawn, and are never '
                'rated again; the next `rate` recomputes every list they touched, and the revisions name the '
                'submission.'),
}
