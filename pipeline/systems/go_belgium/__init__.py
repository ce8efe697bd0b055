"""The go_belgium rule set: its rules (rules.py), and what the pipeline needs of it."""
from pipeline.systems.go_belgium.rules import *  # noqa: F403
