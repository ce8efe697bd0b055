"""The site's downloads (pipeline/site/downloads.py): the bytes `ratings publish` writes
for a list's latest revision, its diff when revised, and a SHA256SUMS that sha256sum
checks."""
from __future__ import annotations

import hashlib
import shutil
import subprocess

import duckdb
import pytest

from pipeline.rate.series import SeriesError, chosen
from pipeline.site.downloads import FORMATS, checksums_text, list_downloads
from tests.conftest import cli_runner, copy_built, write_rows

EVERY_FORMAT = ("--format", "csv,parquet,txt,swiss-manager", "--csv-dialect", "excel")


@pytest.fixture(scope="module")
def sample_once(tmp_path_factory):
    """The embedded sample rated and published in every format, then a late game in the
    window of its latest list (2019-09: May-August 2019), which revises it: revision 2."""
    folder = tmp_path_factory.mktemp("sample")
    cli = cli_runner()
    cli("run", "--sample", "--warehouse", folder / "w.duckdb", "--out", folder / "out", "--no-reports", *EVERY_FORMAT)
    late = write_rows(folder / "late.csv", ["date", "white_id", "black_id", "result", "event"],
                      [["2019-06-15", 27, 35, "0-1", "Late report"]])
    cli("run", "--games", late, "--warehouse", folder / "w.duckdb", "--out", folder / "out", "--no-reports",
        *EVERY_FORMAT)
    return folder


@pytest.fixture
def sample(sample_once, tmp_path):
    return copy_built(sample_once, tmp_path)


def _downloads(w, list_ids, **kwargs):
    con = duckdb.connect(str(w), read_only=True)
    try:
        return list_downloads(con, chosen(con, None), list_ids, **kwargs)
    finally:
        con.close()


def test_the_downloads_are_the_published_files(sample):
    w, out = sample
    downloads = _downloads(w, ["2019-09"])
    assert list(downloads) == ["2019-09"] and downloads.skipped == {}
    files = {d.name: d for d in downloads["2019-09"]}
    published = {"2019-09.csv": "lists/2019-09.csv", "2019-09-excel.csv": "lists/2019-09-excel.csv",
                 "2019-09.parquet": "lists/2019-09.parquet", "2019-09.txt": "lists/2019-09.txt",
                 "2019-09-swiss-manager.csv": "lists/2019-09-swiss-manager.csv",
                 "2019-09-r2-diff.csv": "diffs/2019-09-r2.csv"}
    assert sorted(files) == sorted(published)
    for name, path in published.items():
        data = (out / path).read_bytes()
        assert files[name].data == data, name
        assert files[name].size == len(data) and files[name].sha256 == hashlib.sha256(data).hexdigest()
    # the latest revision's files: the same bytes as its own revision's
    assert files["2019-09.csv"].data == (out / "lists" / "2019-09-r2.csv").read_bytes()
    assert b",27," in files["2019-09-r2-diff.csv"].data  # the players of the late game changed
    labels = {d.name: d.label for d in downloads["2019-09"]}
    assert labels["2019-09.csv"] == "CSV" and labels["2019-09.txt"] == "TXT (FIDE layout)"
    # a list never revised has no diff; only the formats asked for are made
    first = _downloads(w, ["2019-01"], formats=("csv", "diff"))
    assert [d.name for d in first["2019-01"]] == ["2019-01.csv"]
    assert first["2019-01"][0].data == (out / "lists" / "2019-01.csv").read_bytes()


def test_sha256sum_checks_a_folder_written_from_them(sample, tmp_path):
    w, _ = sample
    files = _downloads(w, ["2019-09"])["2019-09"]
    folder = tmp_path / "downloads"
    folder.mkdir()
    for d in files:
        (folder / d.name).write_bytes(d.data)
    text = checksums_text(files)
    (folder / "SHA256SUMS").write_bytes(text)
    lines = text.decode("ascii").splitlines()
    assert [line.split("  ")[1] for line in lines] == sorted(d.name for d in files)
    csv = (folder / "2019-09.csv").read_bytes()
    assert f"{hashlib.sha256(csv).hexdigest()}  2019-09.csv" in lines  # by hand
    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum on this machine")
    checked = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=folder, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": OK") == len(files)
    (folder / "2019-09.csv").write_bytes(csv.replace(b"\n", b"\r\n", 1))  # one byte more: refused
    assert subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=folder, capture_output=True).returncode == 1


def test_a_layout_that_cannot_hold_a_value_leaves_out_that_file_only(sample, monkeypatch):
    from pipeline.formats import list_files
    from pipeline.formats.cells import LayoutError

    def refused(table, list_id):
        raise LayoutError("player 27: name 'X' is longer than its column (60 characters)")

    monkeypatch.setattr(list_files, "fide_list_text", refused)
    w, out = sample
    downloads = _downloads(w, ["2019-09"])
    names = [d.name for d in downloads["2019-09"]]
    assert "2019-09.txt" not in names and "2019-09-swiss-manager.csv" in names and len(names) == len(FORMATS) - 1
    assert set(downloads.skipped) == {"2019-09.txt"}
    assert "list 2019-09, --format txt: player 27: name 'X' is longer" in downloads.skipped["2019-09.txt"]


def test_an_unknown_list_or_format_is_refused(sample):
    w, _ = sample
    with pytest.raises(SeriesError, match=r"no list '2031-01' in performance: its lists are 2019-01 … 2019-09"):
        _downloads(w, ["2031-01"])
    with pytest.raises(ValueError, match="formats xlsx: not among"):
        _downloads(w, ["2019-09"], formats=("csv", "xlsx"))


def test_checksums_refuse_two_files_of_one_name():
    from pipeline.site.downloads import download

    with pytest.raises(ValueError, match="two files named a.csv"):
        checksums_text([download("a.csv", "CSV", b"1"), download("a.csv", "CSV", b"2")])
    assert checksums_text({"x": [download("b.csv", "CSV", b"")], "y": [download("a.csv", "CSV", b"")]}) == (
        f"{hashlib.sha256(b'').hexdigest()}  a.csv\n{hashlib.sha256(b'').hexdigest()}  b.csv\n".encode())
