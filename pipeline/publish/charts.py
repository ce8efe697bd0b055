"""Charts and pages for the published reports: matplotlib drawing inline SVG (the
pages work offline) without a date in it (byte-identical reruns), and the Jinja2
templates beside this module."""
from __future__ import annotations

import io
from pathlib import Path

import jinja2
import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

# text.parse_math off: chart text (player names in the legend) is never read as
# mathtext, so "$\foo$" or "a_b^c" is drawn as written, not parsed (or refused).
matplotlib.rcParams.update({"svg.hashsalt": "ratings", "svg.fonttype": "none", "font.size": 9,
                            "axes.spines.top": False, "axes.spines.right": False, "text.parse_math": False})
TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                               autoescape=True, keep_trailing_newline=True)


def svg_of(figure) -> str:
    """The figure as inline SVG, with no date in it (byte-identical reruns)."""
    buffer = io.StringIO()
    figure.tight_layout()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


__all__ = ["TEMPLATES", "plt", "svg_of"]
