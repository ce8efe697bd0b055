"""The rule-set kernel: what every rule set is written against, below the rule sets
(pipeline/systems/) and the period loop that calls them (pipeline/rate/). It imports no
rule set, nor the registry, nor the loop (tests/test_import_graph.py); docs/rule-sets.md
lists its modules. Nothing is imported here: a module of the kernel loads only what it
holds (the interface loads NumPy, the initial columns' types pandas and Pandera)."""
