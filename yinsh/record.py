"""Game records: PGN-style tag pairs followed by numbered moves in official notation, and
boardspace.net SGF files, read into games.

>>> rec = read_record('[White "Ann"]\\n[Black "Bo"]\\n\\n1.e3 2.a5 3.B5')
>>> rec.tags["White"], rec.game.ply, rec.game.record()
('Ann', 3, '1.e3 2.a5 3.b5')

The text itself (tags, numbered moves, writing a record) is :mod:`yinsh.pgn`'s; SGF is
:mod:`yinsh.sgf`'s.
"""

from __future__ import annotations

from .errors import NotationError
from .game import read_game
from .limits import MAX_GAMES, MAX_TEXT_CHARS
from .pgn import RESULTS, Record, is_sgf, split_records, write_record

__all__ = ["Record", "read_record", "read_records", "read_sgf", "split_records", "write_record", "RESULTS"]


def read_records(text: str, max_chars: int | None = MAX_TEXT_CHARS, max_games: int | None = MAX_GAMES
                 ) -> list[Record]:
    """Every game in a text that may hold several records (a tag block starts each).

    The limits on the whole text are those of :func:`split_records`.
    """
    records = [read_record(chunk) for chunk in split_records(text, max_chars, max_games)]
    if not records:
        raise NotationError("the text holds no game record")
    return records


def read_record(text: str) -> Record:
    """The single game a record describes: official notation, or a boardspace SGF file.

    Raises ``NotationError`` or ``IllegalMoveError``.
    """
    return Record(*read_game(text))


def read_sgf(text: str) -> Record:
    """The game an SGF record from boardspace.net describes, with PGN-style tags.

    >>> read_sgf("(;SU[Yinsh]P0[1 place wr E 6]P1[2 place br F 6])").game.record()
    '1.e6 2.f6'
    """
    if not isinstance(text, str) or not is_sgf(text):
        raise NotationError("the text is not an SGF record: it must start with '(;'")
    return read_record(text)
