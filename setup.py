"""The packages, found: every folder of pipeline/ with an __init__.py (a new rule set is a
folder and one registry line, nothing here), and the top-level sql/ and data/sample/
shipped as pipeline.sql and pipeline.sample (pyproject.toml maps their folders)."""
from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["pipeline", "pipeline.*"]), "pipeline.sql", "pipeline.sample"])
