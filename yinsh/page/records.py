"""The records the page saves and opens ("Save record", "Open record"), without a browser.

A saved record is official notation with PGN-style tag pairs: who played (``White``,
``Black``, and ``WhiteLevel``/``BlackLevel`` for a computer player), ``Date``, ``Variant``
and ``Result``, then the long-form moves. It reads back to the same game and tags:

>>> import datetime
>>> from yinsh import Game
>>> from yinsh.page.settings import Settings
>>> game = Game.from_record("1.e3 2.a5")
>>> text = export_record(game, Settings(black="ai-3"), datetime.date(2026, 11, 29))
>>> print(text, end="")
[White "Human"]
[Black "Computer (level 3)"]
[BlackLevel "3"]
[Date "2026.11.29"]
[Variant "standard"]
[Result "*"]
<BLANKLINE>
1.e3 2.a5
>>> [r.game.record() for r in read_import(text)]
['1.e3 2.a5']

Opening accepts official notation (long or short form, tags or not, one game or several)
and boardspace.net SGF; :func:`import_error_message` turns what went wrong into a line
for the dialog that names the game, the move number, who played it and the move's text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from ..compat import capitalize, ordered_dict
from ..errors import NotationError, YinshError
from ..game import COLORS, Game
from ..pgn import RESULTS, is_sgf, move_texts, read_tags
from ..record import Record, read_record, split_records, write_record
from .settings import REMOTE, Settings, ai_level
from .words import plural

if TYPE_CHECKING:
    import datetime

__all__ = ["Day", "export_tags", "export_record", "record_filename", "Listed", "list_import", "read_import",
           "import_error_message", "record_title", "RECORD_MIME"]

RECORD_MIME: Final = "text/plain;charset=utf-8"
"""The type of a saved record file (``.ygn``: plain text)."""


class Day(NamedTuple("Day", [("year", int), ("month", int), ("day", int)])):
    """A calendar day, for the page to give a record its date (MicroPython has no
    :mod:`datetime`; a ``datetime.date`` serves as well under CPython).

    >>> Day(2026, 11, 29).isoformat()
    '2026-11-29'
    """

    __slots__ = ()

    def isoformat(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


def _player_name(kind: str) -> str:
    if kind == REMOTE:
        return "Opponent (by link)"
    level = ai_level(kind)
    return "Human" if level is None else f"Computer (level {level})"


def export_tags(game: Game, settings: Settings, date: datetime.date | Day) -> dict[str, str]:
    """The tag pairs of a saved record, in the order written."""
    tags = ordered_dict()
    tags["White"], tags["Black"] = _player_name(settings.white), _player_name(settings.black)
    for color in COLORS:
        level = ai_level(getattr(settings, color))
        if level is not None:
            tags[f"{capitalize(color)}Level"] = str(level)
    tags["Date"] = f"{date.year:04d}.{date.month:02d}.{date.day:02d}"
    tags["Variant"] = game.variant
    done = game.outcome
    tags["Result"] = done.result if done else "*"
    if done:
        tags["Termination"] = done.termination
    return tags


def export_record(game: Game, settings: Settings, date: datetime.date | Day) -> str:
    """The text of the record file: tag pairs, a blank line, the numbered long-form moves."""
    return write_record(game, export_tags(game, settings, date)) + "\n"


def record_filename(date: datetime.date | Day) -> str:
    """The name a downloaded record gets.

    >>> import datetime
    >>> record_filename(datetime.date(2026, 11, 29))
    'yinsh-2026-11-29.ygn'
    """
    return f"yinsh-{date.isoformat()}.ygn"


class Listed:
    """A game found in imported text, read as far as its tags and its moves' count: replaying
    it (:meth:`record`) waits until it is chosen, so a file of a hundred games lists at once."""

    __slots__ = ("number", "count", "text", "tags", "moves", "_record")

    def __init__(self, number: int, count: int, text: str) -> None:
        self.number, self.count, self.text = number, count, text
        """The game's place among ``count`` and its record's text."""
        self._record: Record | None = None
        try:
            if is_sgf(text):  # an SGF file is one game: read it whole
                self._record = read_record(text)
                self.tags, self.moves = self._record.tags, len(self._record.game.moves)
            else:
                self.tags, body = read_tags(text)
                self.moves = len(move_texts(body, 0))
        except YinshError as exc:
            raise self._located(exc) from None

    def _located(self, exc: YinshError) -> YinshError:
        return exc if self.count == 1 else exc.in_game(self.number, self.count)

    def record(self) -> Record:
        """The game, every move checked (once). Raises ``NotationError`` or
        ``IllegalMoveError``, whose message starts with ``game N of M:`` among several."""
        if self._record is None:
            try:
                self._record = read_record(self.text)
            except YinshError as exc:
                raise self._located(exc) from None
        return self._record

    def label(self) -> str:
        """How the dialog lists it, without replaying it (the result is its tag's).

        >>> [g.label() for g in list_import('[White "Ann"]\\n[Result "0-1"]\\n1.e3 2.a5\\n\\n[Scenario "x"]\\n1.e3')]
        ['1. Ann – ?, 2 moves, 0-1', '2. x, 1 move']
        """
        result = self.tags.get("Result", "")
        return f"{self.number}. {_title(self.tags)}, {plural(self.moves, 'move')}" + (
            f", {result}" if result in RESULTS and result != "*" else "")


def list_import(text: str) -> list[Listed]:
    """Every game in pasted or uploaded text (official notation or boardspace SGF), listed:
    tags and moves read, not yet replayed. Raises ``NotationError`` only; among several
    games the message starts with ``game N of M:``."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("there is no record: paste one or choose a file")
    chunks = split_records(text)
    if not chunks:
        raise NotationError("the text holds no game record, only comments")
    return [Listed(number, len(chunks), chunk) for number, chunk in enumerate(chunks, 1)]


def read_import(text: str) -> list[Record]:
    """Every game in pasted or uploaded text, each replayed and checked (see :func:`list_import`).

    Raises ``NotationError`` or ``IllegalMoveError`` only; when the text holds several games
    the message starts with ``game N of M:`` (and the error's ``game`` is ``(N, M)``).
    """
    return [listed.record() for listed in list_import(text)]


def import_error_message(exc: Exception) -> str:
    """A line for the dialog: where the record is wrong and why. A move is named with the
    colour that played it in the game, whatever its number (a game from a position code may
    have Black move on an odd number).

    >>> from yinsh.errors import IllegalMoveError
    >>> import_error_message(IllegalMoveError("move 23: 'e4-e9' is illegal: the ring cannot pass over the ring on e8")
    ...                      .at_move(23, "black", "e4-e9", "the ring cannot pass over the ring on e8"))
    'Move 23 (Black: e4-e9): the ring cannot pass over the ring on e8.'
    >>> import_error_message(ValueError("the text holds no game record"))
    'The text holds no game record.'
    """
    where = ""
    text = str(exc).strip()
    game = getattr(exc, "game", None)
    if game is not None:
        where = f"Game {game[0]} of {game[1]}, "
        text = text[len(f"game {game[0]} of {game[1]}: "):]
    number, mover = getattr(exc, "move_number", None), getattr(exc, "mover", None)
    if number is not None and mover is not None:
        reason = str(getattr(exc, "reason", None) or text).strip()
        text = f"move {number} ({capitalize(mover)}: {getattr(exc, 'move_text', None)}): {reason}"
    line = (where + text).rstrip(".")
    return line[:1].upper() + line[1:] + "."


def record_title(record: Record) -> str:
    """What a game is: who played it, or its name; the date; how many moves; the result."""
    game = record.game
    count = len(game.moves)
    done = game.outcome
    result = f", {done.result}" if done else ""
    return f"{_title(record.tags)} ({plural(count, 'move')}{result})"


def _title(tags: dict[str, str]) -> str:
    """Who played a game, or its name; and its date."""
    if "White" in tags or "Black" in tags:
        title = f"{tags.get('White', '?')} – {tags.get('Black', '?')}"
    else:
        title = tags.get("Scenario") or tags.get("Game") or tags.get("Event") or "a game"
    return title + (f", {tags['Date']}" if tags.get("Date") else "")
