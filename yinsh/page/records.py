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
from ..limits import MAX_MOVE_NUMBER_DIGITS, MAX_MOVES
from ..pgn import RESULTS, is_sgf, record_text, tag_pair
from ..record import Record, read_record, split_records, write_record
from ..scan import strip, visible
from .settings import REMOTE, Settings, ai_level
from .words import plural

if TYPE_CHECKING:
    import datetime

__all__ = ["Day", "export_tags", "export_record", "record_filename", "Listed", "list_import", "read_import",
           "import_error_message", "record_title", "record_notices", "players_for_record", "RECORD_MIME"]

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


_LABEL_TAGS: Final = frozenset(("White", "Black", "Scenario", "Game", "Event", "Date", "Result"))
"""The tags a game's line in the list shows (:meth:`Listed.label`)."""
_LABEL_PREFIXES: Final = tuple("[" + name for name in sorted(_LABEL_TAGS))
_SHOWN_LINES: Final = 20
"""The first tag pairs of a game among which the list looks for those it shows (records put
them first: the PGN roster is Event, Site, Date, Round, White, Black, Result): a hundred games
of a hundred tag pairs each are listed without a step of Python for each pair."""
_LABEL_CHARS: Final = 120
"""Characters of the names and date a game's line in the list shows: a tag holds up to 1,000,
and a hundred lines of thousands of characters make a list no one reads that the browser lays
out slowly."""
_COMMENT_STEPS: Final = 8
"""Comments holding a dot that the count of moves steps over at either end of a record."""


class Listed:
    """A game found in imported text, glanced at for its line in the list: the tags that line
    shows and its moves' count. Reading it (:meth:`record`) waits until it is chosen.

    The glance costs a few scans of the text in C, never a step per word or comment: on the
    page's MicroPython a step of Python costs microseconds, and a paste within the limits holds
    half a million words (``yinsh bench`` times the worst one). A numbered record's moves are
    counted from its first and last move numbers, an unnumbered one's by its words; a record
    read otherwise (or not at all) shows no count, and says what is wrong when chosen. On every
    record that reads, the glance gives what reading gives (a property test holds it to that)."""

    __slots__ = ("number", "count", "text", "tags", "moves", "_record")

    def __init__(self, number: int, count: int, text: str) -> None:
        self.number, self.count, self.text = number, count, text
        """The game's place among ``count`` and its record's text."""
        self._record: Record | None = None
        self.tags: dict[str, str]
        """The tags its line shows (all of them once read)."""
        self.moves: int | None
        """How many moves it has; ``None`` when the glance could not tell."""
        try:
            if is_sgf(text):  # an SGF file is one game: read it whole
                self._record = read_record(text)
                self.tags, self.moves = self._record.tags, len(self._record.game.moves)
            else:
                self.tags, self.moves = _glance(record_text(text))
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
        count = "" if self.moves is None else f", {plural(self.moves, 'move')}"
        shown = f", {result}" if result in RESULTS and result != "*" else ""
        return f"{self.number}. {_title(self.tags, _LABEL_CHARS)}{count}{shown}"


def _glance(text: str) -> tuple[dict[str, str], int | None]:
    """The tags a list shows and the count of moves of a record in official notation, by scans
    in C (see :class:`Listed`). Raises ``NotationError`` for a shown tag that cannot be read."""
    header, body = "", text
    if text.startswith("["):
        # The tag pairs come first, each on its line, and no later line starts with "[" (it
        # would begin the next game: split_records): the movetext follows the last such line.
        last = text.rfind("\n[")
        end = text.find("\n", last + 1 if last >= 0 else 0)
        brace = text.find("{")
        if 0 <= brace and (end < 0 or brace < end):
            # unless that line is in a comment opened after the tags: the tags end at the first
            # line that does not start with "[" (a step per line, for these records only)
            end = 0
            for line in text.split("\n"):
                if not line.startswith("["):
                    break
                end += len(line) + 1
            end = -1 if end > len(text) else end - 1
        header, body = (text, "") if end < 0 else (text[:end], text[end:])
    shown = ordered_dict()
    for line in header.split("\n", _SHOWN_LINES)[:_SHOWN_LINES] if header else ():
        if line.startswith(_LABEL_PREFIXES) or line.startswith(("[ ", "[\t")):
            # The name, from the line's start: a value may hold a thousand characters, and
            # every new str costs its length and more on MicroPython (docs/PORTABILITY.md)
            words = line[1:_NAME_CHARS].split(None, 1)
            name = words[0] if len(words) > 1 else line[1:].split(None, 1)[0]
            if name in _LABEL_TAGS:
                shown[name] = line  # the last of a repeated name counts, as in reading
    tags = ordered_dict()
    for line in shown.values():  # each a tag pair line to read_tags (stripped, starting with "[")
        name, value = tag_pair(line)
        tags[name] = value
    return tags, _count_moves(body)


_NAME_CHARS: Final = 80
"""Characters from a tag pair line's start that hold a shown tag's name and the space after it."""


def _count_moves(body: str) -> int | None:
    """The moves of a movetext, from its move numbers or its words; ``None`` if unsure."""
    first = _outside_comments(body, body.find("."), forward=True)
    if first is None:
        return None
    if first < 0:  # no move number: the moves are the words (comments aside)
        text = _without_comments(body) if "{" in body else body
        if text is None:
            return None
        words = text.split(None, MAX_MOVES + 1)
        if words and words[-1] in RESULTS:
            words.pop()
        return len(words) if len(words) <= MAX_MOVES else None
    last = _outside_comments(body, body.rfind("."), forward=False)
    low, high = _number_at(body, first), _number_at(body, last) if last is not None else None
    if low is None or high is None or not 0 < high - low + 1 <= MAX_MOVES:
        return None
    return high - low + 1


def _without_comments(body: str) -> str | None:
    """``body`` with its ``{comments}`` left out, or ``None`` past :data:`_COMMENT_STEPS` of
    them or for one never closed."""
    kept: list[str] = []
    done = 0
    for _ in range(_COMMENT_STEPS + 1):
        start = body.find("{", done)
        if start < 0:
            return " ".join(kept + [body[done:]])
        end = body.find("}", start)
        if end < 0:
            return None
        kept.append(body[done:start])
        done = end + 1
    return None


def _outside_comments(body: str, dot: int, forward: bool) -> int | None:
    """``dot``, or the next dot (``forward``) or the one before outside ``{comments}``: -1 for
    none, ``None`` past :data:`_COMMENT_STEPS` comments."""
    for _ in range(_COMMENT_STEPS):
        if dot < 0 or body.rfind("{", 0, dot) <= body.rfind("}", 0, dot):
            return dot
        if forward:
            closing = body.find("}", dot)
            dot = -1 if closing < 0 else body.find(".", closing)
        else:
            dot = body.rfind(".", 0, body.rfind("{", 0, dot))
    return None


def _number_at(body: str, dot: int) -> int | None:
    """The move number written before the dot at ``dot`` (``12.`` or ``12...``), or ``None``."""
    end = dot
    while end > 0 and body[end - 1] == ".":
        end -= 1
    start = end
    while start > 0 and end - start <= MAX_MOVE_NUMBER_DIGITS and "0" <= body[start - 1] <= "9":
        start -= 1
    if start == end or end - start > MAX_MOVE_NUMBER_DIGITS or (start and not body[start - 1].isspace()
                                                                  and body[start - 1] != "}"):
        return None
    return int(body[start:end])


def list_import(text: str) -> list[Listed]:
    """Every game in pasted or uploaded text (official notation or boardspace SGF), listed:
    tags and moves read, not yet replayed. Raises ``NotationError`` only; among several
    games the message starts with ``game N of M:``."""
    if not isinstance(text, str) or not strip(text):
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
    line = visible((where + text).rstrip("."))
    return line[:1].upper() + line[1:] + "."


def record_title(record: Record) -> str:
    """What a game is: who played it, or its name; the date; how many moves; the result."""
    game = record.game
    count = len(game.moves)
    done = game.outcome
    result = f", {done.result}" if done else ""
    return f"{_title(record.tags)} ({plural(count, 'move')}{result})"


def record_notices(record: Record) -> list[str]:
    """What the page says about a record it opens besides its title: the reader's ``Notice``
    tag (an SGF file whose result contradicts its game, set aside for the board's).

    >>> record_notices(Record({"Notice": "the file gives the result 1-0, …"}, Game()))
    ['The file gives the result 1-0, ….']
    """
    notice = record.tags.get("Notice")
    if not notice:
        return []
    line = visible(notice).rstrip(".")
    return [line[:1].upper() + line[1:] + "."]


def _title(tags: dict[str, str], limit: int | None = None) -> str:
    """Who played a game, or its name; and its date: tag text made :func:`~yinsh.scan.visible`,
    cut short past ``limit`` characters."""
    def part(value: str) -> str:
        # A tag's first ``limit`` characters: the title's first ones are the same, and it is as
        # surely past the limit; the rest would cost a copy and a scan (a tag holds 1,000)
        return value if limit is None or len(value) <= limit else value[:limit]

    if "White" in tags or "Black" in tags:
        title = f"{part(tags.get('White', '?'))} – {part(tags.get('Black', '?'))}"
    else:
        title = part(tags.get("Scenario") or tags.get("Game") or tags.get("Event") or "a game")
    title += f", {part(tags['Date'])}" if tags.get("Date") else ""
    return visible(title if limit is None or len(title) <= limit else title[:limit - 1] + "…")


def players_for_record(game: Game, now: Settings) -> tuple[Settings, list[str]]:
    """Who plays ``game``, opened from a record while ``now``'s players play, and what the
    page says about it.

    A computer keeps its colour: the person playing it goes on against it, in the game opened
    (it moves at once if it is to move). A player by link becomes a player by hand: a record
    opened here is not the game the link was sent for. The page says who plays when a
    computer plays on; a finished game needs no word.

    >>> game = Game.from_record("1.e3 2.a5")
    >>> settings, said = players_for_record(game, Settings(black="ai-2", white="remote"))
    >>> settings.white, settings.black, said
    ('human', 'ai-2', ['Black is still played by the computer (AI 2); New game… changes who plays.'])
    """
    kinds = [kind if ai_level(kind) is not None else "human" for kind in (now.white, now.black)]
    settings = Settings(white=kinds[0], black=kinds[1], variant=game.variant, delay=now.delay)
    computers = [(capitalize(color), ai_level(kind)) for color, kind in zip(COLORS, kinds)
                 if ai_level(kind) is not None]
    if game.result is not None or not computers:
        return settings, []
    if len(computers) == 2:
        said = (f"The computers play on (White AI {computers[0][1]}, Black AI {computers[1][1]}); "
                "Pause stops them, New game… changes who plays.")
    else:
        said = f"{computers[0][0]} is still played by the computer (AI {computers[0][1]}); New game… changes who plays."
    return settings, [said]
