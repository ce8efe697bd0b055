"""The suite runs whatever else is installed as `tests`: the `glicko2` package (the
`peers` extra) installs a top-level package of that name, found before the checkout's
(conftest.py at the checkout's root)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_package_named_tests_found_first_does_not_hide_the_suite(tmp_path):
    other = tmp_path / "elsewhere" / "tests"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("")
    (other / "tests.py").write_text("")  # as glicko2 2.1.0 installs it
    env = os.environ | {"PYTHONPATH": str(other.parent)}
    # -P: the folder it starts in is not put first on sys.path, as the `pytest` script does not
    done = subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                           "tests/test_memory_limit.py::test_a_given_limit"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
