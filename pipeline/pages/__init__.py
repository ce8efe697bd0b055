"""The pages written beside the lists and the studies: the Jinja2 templates (templates/
beside this module) of the list reports (pipeline/publish/report.py), the comparison page
(pipeline/analysis/page.py) and a study's page (pipeline/tune/page.py), and their charts
as SVG text (svg.py). Below publication and analysis, which both write pages: neither
imports the other for them (tests/test_import_graph.py)."""
from __future__ import annotations

from pathlib import Path

import jinja2

TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                               autoescape=True, keep_trailing_newline=True)

__all__ = ["TEMPLATES"]
