"""The commands of `ratings`, one module per task of a rating officer (pipeline/cli.py
holds the group and registers them): intake.py (run, ingest, validate, withdraw,
submissions), rejects.py, record.py (revisions, corrections), lists.py (rate, publish,
export), analysis.py (scenarios, compare, evaluate), tune.py (tune, tunes), players.py
(site, explain, whatif), tools.py (audit, query, simulate); options.py and common.py are
what they share. A command parses, calls the pipeline and prints: no SQL here (tests/test_cli_layout.py)."""
