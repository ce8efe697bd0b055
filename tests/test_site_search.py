"""The site's search (pipeline/site/static/site.js, findPlayers) run in Node, the
script as the browser loads it: by the start of the id, by words in any order with
accents and case ignored, and how many more players there are than it shows."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.conftest import PROJECT_DIR

NODE = shutil.which("node")
SCRIPT = PROJECT_DIR / "pipeline" / "site" / "static" / "site.js"
# Node runs the page's script in a context of its own; the page's `document` is a stand-in
# that only takes the listener the script adds on load.
RUN = """
const vm = require("vm"), fs = require("fs");
const context = {document: {addEventListener() {}}};
vm.createContext(context);
vm.runInContext(fs.readFileSync(process.argv[1], "utf8"), context);
const [rows, queries, shown] = JSON.parse(fs.readFileSync(0, "utf8"));
const found = queries.map((q) => { const r = context.findPlayers(rows, q, shown);
                                   return [r.found.map((p) => p[0]), r.more]; });
process.stdout.write(JSON.stringify(found));
"""
ROWS = [[1282, "Jan Peeters", "KSK"], [12820, "François De Smet", "Club A"], [12821, "Anna Émile", None],
        [31282, "Smet Franck", "Club B"], [40001, "Marie-Françoise Van Smet", None], [40002, "Jean Desmet", None]]


def _found(queries: list[str], rows=ROWS, shown: int = 20) -> list[tuple[list[int], int]]:
    done = subprocess.run([NODE, "-e", RUN, str(SCRIPT)], input=json.dumps([rows, queries, shown]),
                          capture_output=True, text=True, timeout=60, check=True)
    return [tuple(r) for r in json.loads(done.stdout)]


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_the_search_finds_by_id_prefix_and_words_in_any_order():
    found = dict(zip(["1282", "12820", "smet franc", "FRANCOIS de", "emil", "van smet", "smet", "mile", "zz"],
                     _found(["1282", "12820", "smet franc", "FRANCOIS de", "emil", "van smet", "smet", "mile", "zz"])))
    # "1282": the id typed whole first, then every id that starts with it (not 31282: inside)
    assert found["1282"] == ([1282, 12820, 12821], 0)
    assert found["12820"] == ([12820], 0)
    # words in any order, each the start of a word of the name, accents ignored: François
    # De Smet and Smet Franck (and Marie-Françoise Van Smet: "franc" starts Françoise)
    assert found["smet franc"] == ([12820, 31282, 40001], 0)
    assert found["FRANCOIS de"] == ([12820], 0)
    assert found["emil"] == ([12821], 0)
    assert found["van smet"] == ([40001], 0)
    assert found["smet"] == ([12820, 31282, 40001], 0)  # not Desmet: "smet" starts no word of it
    assert found["mile"] == ([], 0) and found["zz"] == ([], 0)


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_the_search_says_how_many_more_than_it_shows():
    rows = [[k, f"Player {k}", None] for k in range(1, 46)]
    # 45 players named "Player": 20 shown, 25 more
    assert _found(["player"], rows) == [(list(range(1, 21)), 25)]
    assert _found(["player"], rows, shown=50) == [(list(range(1, 46)), 0)]
