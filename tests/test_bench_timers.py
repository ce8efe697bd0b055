"""The two in-process timers the README's figures name (bench/step_time.py, one
function of a command; bench/statement_time.py, every SQL statement of one) run a
real command as the console script does and count what they time."""
from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import PROJECT_DIR


def timer(script: str, *args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(PROJECT_DIR / "bench" / script), *args],
                          check=False, capture_output=True, text=True, cwd=cwd, timeout=120)


def run(federation: dict) -> list[str]:
    return ["run", "--players", str(federation["players"]), "--ratings", str(federation["ratings"]),
            "--games", str(federation["games"]), "--warehouse", "w.duckdb", "--out", "out", "--no-reports"]


def test_step_time_times_each_call_of_the_function_named(small_federation, tmp_path):
    # One series, its lists new and fewer rows than a batch: its rating writes them once.
    done = timer("step_time.py", "pipeline.rate.store:store_new", "--", *run(small_federation), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^pipeline\.rate\.store:store_new: 1 call\(s\), (\d+\.\d{3}) s in all: \1 s$", done.stdout,
                     re.MULTILINE), done.stdout
    assert (tmp_path / "out" / "lists" / "2027-01.csv").is_file()  # the command itself ran whole


def test_step_time_names_a_function_it_cannot_find(tmp_path):
    done = timer("step_time.py", "pipeline.rate.store:nothing", "--", "audit", cwd=tmp_path)
    assert done.returncode == 2 and "pipeline.rate.store:nothing" in done.stderr
    assert "Traceback" not in done.stderr


def test_statement_time_lists_every_statement_it_counts(small_federation, tmp_path):
    done = timer("statement_time.py", "--top", "100000", "--", *run(small_federation), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = re.findall(r"^ *(\d+\.\d{3})  (.*)$", done.stdout, re.MULTILINE)
    total, count, command = re.search(r"^(\d+\.\d{3}) s in (\d+) statements .* the command (\d+\.\d{3}) s$",
                                      done.stdout, re.MULTILINE).groups()
    assert len(listed) == int(count) > 0  # --top above the count: every statement printed once
    assert any(sql.startswith("insert into games by name") for _, sql in listed)  # validation's typed insert
    # The slowest first, and the statements' sum within the command's time.
    seconds = [float(s) for s, _ in listed]
    assert seconds == sorted(seconds, reverse=True)
    assert abs(sum(seconds) - float(total)) <= 0.0005 * len(seconds) + 0.001 and float(total) <= float(command)


def test_step_time_sums_many_calls_and_gives_their_median_and_longest():
    from bench.step_time import calls_said

    # Twelve calls: 0.1 s eleven times and 0.5 s once make 1.6 s; the median of twelve is
    # the mean of the sixth and seventh, both 0.1.
    assert calls_said([0.1] * 11 + [0.5]) == "12 call(s), 1.600 s in all; median 0.1000 s, longest 0.5000 s"
    # Up to ten calls are each said.
    assert calls_said([0.25, 0.5]) == "2 call(s), 0.750 s in all: 0.250, 0.500 s"
