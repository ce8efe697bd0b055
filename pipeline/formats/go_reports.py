"""A Go tournament report of any format read here (OpenGotha, EGD, FFG, AGA, pairgoth),
recognised by its first bytes: the one place that knows every Go reader, above them all."""
from __future__ import annotations

from pathlib import Path

from pipeline.formats.aga import read_aga
from pipeline.formats.ffg_tou import read_ffg
from pipeline.formats.go_files import GoTournament, read_egd, read_opengotha
from pipeline.formats.pairgoth import read_pairgoth
from pipeline.formats.sniff import go_report_format, looks_like_opengotha

READERS = {"ffg": read_ffg, "aga": read_aga, "pairgoth": read_pairgoth, "opengotha": read_opengotha,
           "egd": read_egd}


def read_go_file(path: str | Path) -> GoTournament:
    """The tournament of a Go report, read by the reader its first bytes name (EGD when none)."""
    path = Path(path)
    with open(path, "rb") as fh:
        head = fh.read(8192)
    fmt = go_report_format(head) or ("opengotha" if looks_like_opengotha(head) else "egd")
    return READERS[fmt](path)
