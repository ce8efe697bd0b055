"""The go_ffg1984 rule set: its rules (rules.py), and what the pipeline needs of it."""
from pipeline.systems.go_ffg1984.rules import *  # noqa: F403
