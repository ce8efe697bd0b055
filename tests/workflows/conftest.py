"""What several workflow modules start from, made once a session (once a worker under
pytest-xdist): tests copy it (helpers.copied) before they write."""
from __future__ import annotations

import pytest

from tests.workflows.season import Season, run_season


@pytest.fixture(scope="session")
def season(tmp_path_factory) -> Season:
    """The README's season, command by command, run in a folder of its own."""
    return run_season(tmp_path_factory.mktemp("season"))
