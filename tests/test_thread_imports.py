"""Threads never import: a module loaded by a thread can race another thread loading it
(Python hands the second one the first's half-made module), which is how the pairing
programs' files failed to publish on a busy machine ("partially initialized module
'pandas' has no attribute 'DataFrame'"): the writers' threads loaded pandas lazily, and
pyarrow converting a value loads it too. Whatever the publication's threads use is
loaded before they start. Each command runs as the `ratings` script runs it, in a fresh
process, with an import hook that records every module a thread other than the main
one loads; in-process tests cannot see it, since pandas is loaded there already."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import copy_built

PROBE = """
import atexit, sys, threading
class Recorder:
    loaded = []
    def find_spec(self, name, path=None, target=None):
        if threading.current_thread() is not threading.main_thread():
            self.loaded.append(name)
        return None
sys.meta_path.insert(0, Recorder())
atexit.register(lambda: print('thread loaded:', *sorted(set(Recorder.loaded)), file=sys.stderr))
sys.modules.setdefault('hypothesis', None)  # as pipeline.cli.entry does
sys.argv = ['ratings', *sys.argv[1:]]
from pipeline.cli import entry
entry()
"""


def loaded_by_threads(folder, *args) -> list[str]:
    """The modules threads loaded while the command (its arguments) ran; it must succeed.
    Run in `folder`, so that `python -c` imports the installed package, not the checkout's."""
    done = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True, text=True,
                          cwd=folder, check=False)
    assert done.returncode == 0, done.stderr
    line = [x for x in done.stderr.splitlines() if x.startswith("thread loaded:")][-1]
    return line.split()[2:]


@pytest.mark.parametrize("formats", ["csv,parquet", "csv,parquet,txt,swiss-manager", "txt", "parquet,swiss-manager"])
def test_publication_threads_load_no_module(published_once, tmp_path, formats):
    # A fresh folder: every list and state is written by the writers' threads.
    w, = copy_built(published_once, tmp_path, names=("w.duckdb",))
    assert loaded_by_threads(tmp_path, "publish", "--warehouse", w, "--out", tmp_path / "new",
                             "--format", formats) == []
    assert list((tmp_path / "new" / "lists").glob("*-r1.csv" if "csv" in formats else "*-r1*"))


def test_the_probe_sees_a_module_a_thread_loads(tmp_path):
    # The control: a thread that imports is seen (json is not loaded by `ratings --help`).
    code = PROBE.replace("from pipeline.cli import entry\nentry()",
                         "t = threading.Thread(target=lambda: __import__('json')); t.start(); t.join()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert "json" in done.stderr.splitlines()[-1].split()[2:], done.stderr


def test_a_publication_again_reads_its_record_in_threads_that_load_no_module(published_once, tmp_path):
    # The folder the lists were published into: its recorded files are hashed in threads
    # (publish/record.py); a deleted one makes its list written again by a writer's.
    w, out = copy_built(published_once, tmp_path)
    deleted = sorted((out / "lists").glob("*-r1.csv"))[0]
    deleted.unlink()
    assert loaded_by_threads(tmp_path, "publish", "--warehouse", w, "--out", out) == []
    assert deleted.exists()
