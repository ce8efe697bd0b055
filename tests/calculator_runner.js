// tests/test_calculator.py's side in Node: the calculator's arithmetic (the site's
// calculator.js, its path the first argument: the package's own file, installed or not,
// loaded as a module) on every case read from stdin, {system, data, cases}, each case's
// values printed as the page prints them, and the decimals it prints them with: one JSON
// object on stdout, {decimals, cases}.
"use strict";
const calculator = require(process.argv[2]);

const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const {system, data, cases, fields, game_fields: gameFields} = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const decimals = calculator.DECIMALS[system];
  const printed = (value, name) => typeof value === "number" ? calculator.fixed(value, decimals[name]) : String(value);
  const out = cases.map((input) => {
    const r = calculator.compute(system, input, data);
    return [fields.map((f) => printed(r[f], f)),
            r.games.map((g) => gameFields.map(([f, as]) => printed(g[f], as)))];
  });
  process.stdout.write(JSON.stringify({decimals, cases: out}));
});
