"""Golden files of the published lists (see README.md); no tests are collected here."""
