"""The independent server for the tests beside this file: one Prism per test process."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from tests.mock_server.prism import MockServer, missing, running_prism


@pytest.fixture(scope="session")
def prism(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockServer]:
    """Prism answering random data valid for docs/openapi-documented.json. Skipped where it
    is not installed, except in CI, which installs it: there a missing Prism fails."""
    reason = missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the independent server: {reason}")
        pytest.skip(reason)
    with running_prism(tmp_path_factory.mktemp("prism")) as server:
        yield server
