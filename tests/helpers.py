"""Helpers shared by the unit tests: the fixture files and small position builders."""

from __future__ import annotations

from pathlib import Path

from yinsh import Game
from yinsh.record import Record, read_records
from yinsh.state import make_state

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[Record]:
    """The records of a file in tests/data."""
    return read_records((DATA / name).read_text(encoding="utf-8"))


def game_at(white_rings=(), black_rings=(), white_markers=(), black_markers=(), **kwargs) -> Game:
    """A game starting from a position drawn with point names (see ``make_state``), at move 41."""
    return Game.from_state(make_state(white_rings, black_rings, white_markers, black_markers, **kwargs), ply=40)
