"""The fide rule set: its rules (rules.py), and what the pipeline needs of it."""
from pipeline.systems.fide.rules import *  # noqa: F403
