"""The performance rule set: its rules (rules.py), and what the pipeline needs of it."""
from pipeline.systems.performance.rules import *  # noqa: F403
