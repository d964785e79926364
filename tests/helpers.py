"""Helpers shared by the tests: the fixture files, small position builders and the rule for a missing
tool (skip locally, fail under CI)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from yinsh import Game
from yinsh.record import Record, read_records
from yinsh.state import make_state

DATA = Path(__file__).parent / "data"


def in_ci() -> bool:
    """True when the ``CI`` environment variable is set to anything but empty/0/false."""
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def unavailable(reason: str) -> None:
    """Skip locally, fail in CI: CI must never pass by skipping a check whose tool is missing."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so this is an error, not a skip)", pytrace=False)
    pytest.skip(reason)


def load(name: str) -> list[Record]:
    """The records of a file in tests/data."""
    return read_records((DATA / name).read_text(encoding="utf-8"))


def game_at(white_rings=(), black_rings=(), white_markers=(), black_markers=(), **kwargs) -> Game:
    """A game starting from a position drawn with point names (see ``make_state``), at move 41."""
    return Game.from_state(make_state(white_rings, black_rings, white_markers, black_markers, **kwargs), ply=40)
