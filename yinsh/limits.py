"""How much the package reads: the size of every text, code and link, and the counts a game can hold.

Every reader checks these first, before any costly work, and refuses input past a limit with a
``NotationError`` that names the limit; docs/FORMATS.md states them for people. They are far
above anything a real game or file needs and low enough that reading any input within them
stays quick (``yinsh bench`` times the worst cases).

A game has at most 164 moves: 10 placements; at most 76 ring moves (each puts a marker on the
board, and the board holds at most the 51 markers of the pool plus the 5 that each of at most
5 removals returns); at most one pass before each ring move and two to end the game; and one
winning removal.

>>> too_long("the record", "x" * 5, 4)
'the record is 5 characters long: at most 4 are read'
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "MAX_MOVES", "MAX_MOVE_CHARS", "MAX_MOVE_NUMBER_DIGITS", "MAX_TAGS", "MAX_TAG_CHARS", "MAX_RECORD_CHARS",
    "MAX_TEXT_CHARS", "MAX_LINES", "MAX_WORDS", "MAX_GAMES", "MAX_SGF_STEPS", "MAX_SGF_PROPERTIES",
    "MAX_POSITION_CHARS", "MAX_GAME_CODE_CHARS", "MAX_LINK_CHARS", "MAX_SAVED_CHARS", "MAX_JSON_DEPTH",
    "MAX_CAPTION_CHARS", "MAX_PUZZLE_ANSWERS", "MAX_DIAGRAM_SIZE", "MAX_FILE_BYTES", "too_long",
]

MAX_MOVES: Final = 200
"""Moves in a game, counting those played before its start position (a real game has at most 164)."""
MAX_MOVE_CHARS: Final = 100
"""Characters of one move's text, spaces included (the longest move, three removals and a ring move, has 45)."""
MAX_MOVE_NUMBER_DIGITS: Final = 3
"""Digits of a move number in a record (``200.`` is the highest number a record can hold)."""
MAX_TAGS: Final = 100
"""Tag pairs of one game record."""
MAX_TAG_CHARS: Final = 1_000
"""Characters of one tag pair's value."""
MAX_RECORD_CHARS: Final = 100_000
"""Characters of one game's record (tags, moves and comments), an SGF file included."""
MAX_TEXT_CHARS: Final = 1_000_000
"""Characters of a text holding several records: a file or a paste."""
MAX_LINES: Final = 10_000
"""Lines of such a text, or of one record (a hundred games of our records have about 1,000)."""
MAX_WORDS: Final = 5_000
"""Words (separated by spaces) of one record's moves, comments aside (a game of 200 moves writes about 400)."""
MAX_GAMES: Final = 100
"""Games in one such text."""
MAX_SGF_STEPS: Final = 2_000
"""Steps (``P0[…]``/``P1[…]`` actions) of one SGF record (a game of 164 moves writes fewer than 1,000)."""
MAX_SGF_PROPERTIES: Final = 2_000
"""Property values of one SGF record (boardspace writes about six a move: fewer than 1,000 a game)."""
MAX_POSITION_CHARS: Final = 40
"""Characters of a position code (``Y1``, 36 digits, 2 check digits: any position at any move number)."""
MAX_GAME_CODE_CHARS: Final = 2_048
"""Characters of a whole-game code (a start position and 200 moves of three removals each fit)."""
MAX_LINK_CHARS: Final = 32_768
"""Characters of a link's query and hash together, as the browser gives them (percent-escapes included)."""
MAX_SAVED_CHARS: Final = 65_536
"""Characters of data kept in the browser's ``localStorage`` (the saved game, the settings)."""
MAX_JSON_DEPTH: Final = 16
"""Nesting of objects and arrays in that data (the saved game nests 2 deep)."""
MAX_CAPTION_CHARS: Final = 500
"""Characters of an embedded diagram's caption."""
MAX_PUZZLE_ANSWERS: Final = 100
"""Moves a puzzle accepts (``expect=a|b|…`` of an embedded diagram)."""
MAX_DIAGRAM_SIZE: Final = 10_000
"""Width in pixels of a diagram written by ``yinsh diagram``."""
MAX_FILE_BYTES: Final = 50_000_000
"""Bytes the command line reads from a file or standard input (``yinsh replay``): about 50,000 games."""


def too_long(what: str, text: str | int, limit: int) -> str:
    """The reason given for ``text`` (or a text of that many characters) past ``limit``
    characters (``what`` is its name)."""
    size = text if isinstance(text, int) else len(text)
    return f"{what} is {size:,} characters long: at most {limit:,} are read"
