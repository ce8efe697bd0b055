"""The calculator page's data (issue 52, seed 003): the parameters of the rule set the
site is built for and the tables its arithmetic reads (table 8.1.2, D(P), table I), as
the rule set's own code loaded them from its data files, written into the site as a
script (calculator-data.js) so that the page works offline, from a file:// folder too.
The arithmetic is static/calculator.js; tests/test_calculator.py compares it with the
rule sets' Python functions."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

SCRIPT = Path(__file__).parent / "static" / "calculator.js"

def calculator_data(rule_set) -> dict | None:
    """What the calculator needs of `rule_set` (None: it has no calculator): its name,
    its parameters and its tables."""
    tables = rule_set.calculator_tables
    if tables is None:
        return None
    fields = asdict(rule_set.parameters)
    parameters = {k: v for k, v in fields.items() if k not in tables.values()}
    return {"system": rule_set.name, "parameters": parameters,
            "tables": {name: [list(row) for row in fields[field]] for name, field in tables.items()}}


def calculator_script(data: dict) -> bytes:
    """calculator-data.js: the data as a script the page loads (a page opened from the
    disk may not fetch a JSON file beside it)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, allow_nan=False)
    return f"window.CALCULATOR = {text};\n".encode("utf-8")


def calculator_files(rule_set) -> dict[str, bytes]:
    """The files the calculator page loads, by their path in the site (none: no calculator)."""
    data = calculator_data(rule_set)
    return {} if data is None else {"calculator.js": SCRIPT.read_bytes(), "calculator-data.js": calculator_script(data)}


def calculator_page(rule_set) -> tuple | None:
    """The calculator's page as the site lists its pages (template, path, depth, values);
    None: the rule set has no calculator."""
    data = calculator_data(rule_set)
    if data is None:
        return None
    return ("calculator", "calculator.html", 1, {"system": data["system"], "title": rule_set.title,
                                                  "p": data["parameters"]})
