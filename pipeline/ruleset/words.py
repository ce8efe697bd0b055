"""How the refusals say a series' lists: the replay's (pipeline.ruleset.replay) and the
series' own (pipeline.rate.series) name them alike."""
from __future__ import annotations


def span(held: list[str]) -> str:
    """A series' lists (in order) in words: the first … the last."""
    return f"{held[0]} … {held[-1]}" if len(held) > 1 else (held[0] if held else "none yet")
