"""The records the page saves and opens ("Save record", "Open record"), without a browser.

A saved record is official notation with PGN-style tag pairs: who played (``White``,
``Black``, and ``WhiteLevel``/``BlackLevel`` for a computer player), ``Date``, ``Variant``
and ``Result``, then the long-form moves. It reads back to the same game and tags:

>>> import datetime
>>> from yinsh import Game
>>> from yinsh.web import Settings
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

from typing import TYPE_CHECKING, Final

from ..compat import capitalize, ordered_dict
from ..errors import NotationError, YinshError
from ..game import COLORS, Game
from ..record import Record, read_record, split_records, write_record
from . import REMOTE, Settings, ai_level

if TYPE_CHECKING:
    import datetime

__all__ = ["export_tags", "export_record", "record_filename", "read_import", "import_error_message",
           "record_label", "record_title", "RECORD_MIME"]

RECORD_MIME: Final = "text/plain;charset=utf-8"
"""The type of a saved record file (``.ygn``: plain text)."""


def _player_name(kind: str) -> str:
    if kind == REMOTE:
        return "Opponent (by link)"
    level = ai_level(kind)
    return "Human" if level is None else f"Computer (level {level})"


def export_tags(game: Game, settings: Settings, date: datetime.date) -> dict[str, str]:
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


def export_record(game: Game, settings: Settings, date: datetime.date) -> str:
    """The text of the record file: tag pairs, a blank line, the numbered long-form moves."""
    return write_record(game, export_tags(game, settings, date)) + "\n"


def record_filename(date: datetime.date) -> str:
    """The name a downloaded record gets.

    >>> import datetime
    >>> record_filename(datetime.date(2026, 11, 29))
    'yinsh-2026-11-29.ygn'
    """
    return f"yinsh-{date.isoformat()}.ygn"


def read_import(text: str) -> list[Record]:
    """Every game in pasted or uploaded text: official notation or boardspace SGF.

    Raises ``NotationError`` or ``IllegalMoveError`` only; when the text holds several games
    the message starts with ``game N of M:`` (and the error's ``game`` is ``(N, M)``).
    """
    if not isinstance(text, str) or not text.strip():
        raise NotationError("there is no record: paste one or choose a file")
    chunks = split_records(text)
    if not chunks:
        raise NotationError("the text holds no game record, only comments")
    records = []
    for number, chunk in enumerate(chunks, 1):
        try:
            records.append(read_record(chunk))
        except YinshError as exc:
            if len(chunks) == 1:
                raise
            raise exc.in_game(number, len(chunks)) from None
    return records


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


def record_label(number: int, record: Record) -> str:
    """How the dialog lists a game of a file with several.

    >>> from yinsh.record import read_record
    >>> record_label(2, read_record('[White "Ann"]\\n[Black "Bo"]\\n[Date "2026.03.13"]\\n1.e3 2.a5'))
    '2. Ann – Bo, 2026.03.13 (2 moves)'
    >>> record_label(1, read_record('[Scenario "single row"]\\n1.e3'))
    '1. single row (1 move)'
    """
    return f"{number}. {record_title(record)}"


def record_title(record: Record) -> str:
    """What a game is: who played it, or its name; the date; how many moves; the result."""
    tags, game = record.tags, record.game
    if "White" in tags or "Black" in tags:
        title = f"{tags.get('White', '?')} – {tags.get('Black', '?')}"
    else:
        title = tags.get("Scenario") or tags.get("Game") or tags.get("Event") or "a game"
    if tags.get("Date"):
        title += f", {tags['Date']}"
    count = len(game.moves)
    done = game.outcome
    result = f", {done.result}" if done else ""
    return f"{title} ({count} move{'s' * (count != 1)}{result})"
