"""Fixtures shared by the unit tests."""

from __future__ import annotations

import pytest
from helpers import load

from yinsh.record import Record


@pytest.fixture
def games() -> list[Record]:
    return load("games.ygn")


@pytest.fixture
def scenarios() -> dict[str, Record]:
    return {r.tags["Scenario"]: r for r in load("scenarios.ygn")}
