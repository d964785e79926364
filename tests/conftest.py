"""Fixtures shared by the unit tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers import load
from processes import Started

from yinsh.record import Record


@pytest.fixture
def games() -> list[Record]:
    return load("games.ygn")


@pytest.fixture
def scenarios() -> dict[str, Record]:
    return {r.tags["Scenario"]: r for r in load("scenarios.ygn")}


@pytest.fixture
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Started]:
    """The processes a test starts (tests/processes.py): whatever happens, none outlives it."""
    processes = Started(tmp_path_factory.mktemp("started"))
    yield processes
    processes.close()
