"""The Pandera models of pipeline/validate/schemas.py, and those of the rule sets'
initial columns declared as SQL (RuleSet.InitialColumns), written out as the checks
validation runs (pipeline/validate/model_checks.py reads them, without pandas):

    python -m pipeline.validate.compile      # rewrites pipeline/validate/checks.json

tests/test_compiled_checks.py fails while the file is not the models' current one, and
compares the compiled checks with Pandera's own on hostile rows (`pandera_failures`).
"""
from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pandera.pandas as pa
import pyarrow

from pipeline import systems
from pipeline.ruleset.checks import CHECK_FORMS, ROW_CHECKS
from pipeline.validate import schemas
from pipeline.validate.model_checks import COMPILED, ColumnCheck
from pipeline.warehouse import sql_text

# Every model validation may choose (model_checks.schema_of): one a kind, and Go's own.
MODELS = (*schemas.SCHEMAS.values(), schemas.GoRatingsInput, schemas.GoEventsInput)
# Pandera's built-in check the models use, and the reason its failures give.
UNKNOWN_CODE = "unknown code"


def compiled(model: type[pa.DataFrameModel]) -> dict:
    """One model as model_checks.Model reads it; a check with no form to run is refused."""
    schema = model.to_schema()
    checks = []
    for name, column in schema.columns.items():
        for check in column.checks:
            if check.name == "isin":
                values = ", ".join(sql_text(v) for v in check.statistics["allowed_values"])
                braces = values.replace("{", "{{").replace("}", "}}")  # kept through str.format
                checks.append(ColumnCheck(UNKNOWN_CODE, name, sql=f"{{c}} in ({braces})"))
            elif check.name in CHECK_FORMS:
                form, what = CHECK_FORMS[check.name]
                checks.append(ColumnCheck(check.name, name, **{form: what}))
            else:
                raise ValueError(f"{model.__name__}.{name}: the check {check.name!r} has no form validation runs "
                                 "(declare it with pipeline.ruleset.checks.check)")
    row_checks = []
    for check in schema.checks:
        if check.name not in ROW_CHECKS:
            raise ValueError(f"{model.__name__}: the row check {check.name!r} has no SQL (declare it with "
                             "pipeline.ruleset.checks.row_check)")
        row_checks.append(dataclasses.asdict(ROW_CHECKS[check.name]))
    meta = {name: column.metadata or {} for name, column in schema.columns.items()}
    return {"columns": list(schema.columns), "not_null": [n for n, c in schema.columns.items() if not c.nullable],
            "parses": {n: dataclasses.asdict(m["parse"]) for n, m in meta.items() if "parse" in m},
            "derived": {n: dataclasses.asdict(m["derived"]) for n, m in meta.items() if "derived" in m},
            "checks": [dataclasses.asdict(c) for c in checks], "row_checks": row_checks}


def initial_columns_models() -> dict[str, type[pa.DataFrameModel]]:
    """The models of the initial columns of the pipeline's own rule sets (RuleSet.InitialColumns)
    that validation runs compiled: those whose every check has a form (schemas.check,
    row_check). The others (Glicko-2's Python checks, an installed package's model) run in
    Pandera (pipeline/validate/initial.py)."""
    found = {}
    for name in systems.names():
        if name in systems.ORIGINS:  # an installed or registered rule set: not the pipeline's file
            continue
        model = systems.rule_set_class(name).InitialColumns
        try:
            compiled(model) if model is not None else None
        except ValueError:
            continue
        if model is not None:
            found[name] = model
    return found


def compiled_text() -> str:
    """checks.json as the models give it now."""
    data = {"written_by": "python -m pipeline.validate.compile, from pipeline/validate/schemas.py and the rule "
                          "sets' initial columns: do not edit",
            "kinds": {kind: model.__name__ for kind, model in schemas.SCHEMAS.items()},
            "models": {model.__name__: compiled(model) for model in MODELS},
            "initial_columns": {name: [model.__name__, systems.rule_set_class(name).game, compiled(model)]
                                for name, model in initial_columns_models().items()}}
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


FAILURES = pyarrow.schema([("row_number", pyarrow.int64()), ("column", pyarrow.string()), ("check", pyarrow.string()),
                           ("whole_row", pyarrow.bool_())])


def pandera_failures(model: type[pa.DataFrameModel], frame: pd.DataFrame) -> pyarrow.Table:
    """Every check every row of `frame` (typed rows indexed by row number) fails under
    Pandera itself, lazily: row_number, column (None for a row check), check, whole_row;
    what the compiled checks must find (tests/test_compiled_checks.py)."""
    try:
        model.validate(frame, lazy=True)
    except pa.errors.SchemaErrors as err:
        fc = err.failure_cases
    else:
        return FAILURES.empty_table()
    if fc["index"].isna().any():  # a column or type missing from the frame: the caller's error
        raise RuntimeError(f"the frame does not fit {model.__name__}: {fc[fc['index'].isna()].to_dict('records')}")
    check = fc["check"].astype("str").str.replace(r"^isin\(\[.*\]\)$", UNKNOWN_CODE, regex=True).tolist()
    whole_row = (fc["schema_context"].astype("str") == "DataFrameSchema").tolist()
    return pyarrow.table({
        "row_number": fc["index"].astype("int64").to_numpy(),
        "column": [None if w else c for c, w in zip(fc["column"].astype("str").tolist(), whole_row)],
        "check": check,
        "whole_row": whole_row,
    }, schema=FAILURES)


if __name__ == "__main__":
    COMPILED.write_text(compiled_text(), encoding="utf-8")
    print(f"{COMPILED}: {len(MODELS)} models")
