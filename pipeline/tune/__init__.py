"""Parameter studies (`ratings tune`): a search over a rule set's parameters for
those that would have predicted the warehouse's games best without drifting.

space.py reads and checks the space a study searches; trial.py rates one parameter
set as a scenario that is rolled back and scores it; study.py keeps the study and
its trials in the warehouse; search.py asks Optuna for the next parameters and rates
the trials; outputs.py and page.py write what it found.
"""
