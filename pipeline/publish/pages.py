"""The Jinja2 templates of the published pages (templates/ beside this module): the
list reports and the comparison page. Their charts are SVG text (svg.py)."""
from __future__ import annotations

from pathlib import Path

import jinja2

TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                               autoescape=True, keep_trailing_newline=True)

__all__ = ["TEMPLATES"]
