"""bench/step_memory.py (the peak of each step of a `ratings run`, which bench/README.md's
tables of issue 53, item 7 give) runs a real run in its own process and says every step."""
from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import PROJECT_DIR


def test_step_memory_says_the_peak_of_every_step_of_a_run(small_federation, tmp_path):
    run = ["run", "--system", "glicko2", "--players", str(small_federation["players"]),
           "--ratings", str(small_federation["ratings"]), "--games", str(small_federation["games"]),
           "--warehouse", "w.duckdb", "--out", "out", "--no-reports"]
    done = subprocess.run([sys.executable, str(PROJECT_DIR / "bench" / "step_memory.py"), "--", *run],
                          check=False, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    rows = dict(re.findall(r"^\| ([a-z: ,]+) \| (\d+) \| [\d,]+ \| [\d,]+ \| [\d,]+ \| [\d,]+ \|  \|$",
                           done.stdout, re.MULTILINE))
    # Every step once: the series' lists, all new and fewer rows than a batch, are written
    # once, as they are computed; none was stored before, so none is compared with its revision.
    assert rows == {"ingest": "1", "validate": "1", "rate": "1", "store: new lists": "1",
                    "rate: commit, pages handed back": "1", "publish": "1"}, done.stdout
    peaks = [int(p.replace(",", "")) for p in re.findall(r"^\| [a-z: ,]+ \| \d+ \| ([\d,]+) \|", done.stdout,
                                                          re.MULTILINE)]
    assert len(peaks) == 6 and all(p > 50 for p in peaks)  # MB: the interpreter and its libraries at least
    assert (tmp_path / "out" / "lists").is_dir()  # the run itself went through
