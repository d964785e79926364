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
from ..limits import MAX_MOVE_NUMBER_DIGITS, MAX_MOVES, MAX_RECORD_CHARS
from ..pgn import (
    RESULTS,
    Layout,
    is_sgf,
    lay_out,
    odd_space_before,
    plain_spaces,
    record_text,
    strip_bounds,
    tag_pair_head,
)
from ..record import Record, read_record, write_record
from ..scan import skip, strip, visible
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


def export_record(game: Game, settings: Settings, date: datetime.date | Day,
                  extras: tuple[dict[str, str], list[str]] | None = None) -> str:
    """The text of the record file: tag pairs, a blank line, the numbered long-form moves;
    ``extras``: tags that replace or follow the game's own, and a comment a move
    (:attr:`~yinsh.page.session.Session.record_extras`)."""
    tags = export_tags(game, settings, date)
    tags.update(extras[0] if extras else {})
    return write_record(game, tags, extras[1] if extras else None) + "\n"


def record_filename(date: datetime.date | Day) -> str:
    """The name a downloaded record gets.

    >>> import datetime
    >>> record_filename(datetime.date(2026, 11, 29))
    'yinsh-2026-11-29.ygn'
    """
    return f"yinsh-{date.isoformat()}.ygn"


_LABEL_TAGS: Final = ("White", "Black", "Scenario", "Game", "Event", "Date", "Result")
"""The tags a game's line in the list shows (:meth:`Listed.label`)."""
_LABEL_NAMES: Final = tuple((name, name.encode()) for name in _LABEL_TAGS)
_LABEL_PREFIXES: Final = tuple(b"[" + raw for _, raw in _LABEL_NAMES) + (b"[ ", b"[\t")
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

    The glance looks at the game where it lies in the text's bytes (:func:`yinsh.pgn.lay_out`),
    by a few searches in C, never a step per word or comment, and makes no copy of it: on the
    page's MicroPython a step of Python costs microseconds, a paste within the limits holds half
    a million words, and each long object costs a search of the heap (``yinsh bench`` times the
    worst pastes). A numbered record's moves are counted from its first and last move numbers,
    an unnumbered one's by its words; a record read otherwise (or not at all) shows no count,
    and says what is wrong when chosen. On every record that reads, the glance gives what
    reading gives (property tests hold it to that)."""

    __slots__ = ("number", "count", "tags", "moves", "_layout", "_text", "_record")

    def __init__(self, number: int, count: int, layout: Layout | None = None, text: str = "") -> None:
        """Game ``number`` of ``count``: the game of that number in ``layout``, or else the
        whole ``text`` (an SGF file)."""
        self.number, self.count = number, count
        self._layout, self._text = layout, text
        self._record: Record | None = None
        self.tags: dict[str, str]
        """The tags its line shows, each value cut past :data:`_LABEL_CHARS` characters."""
        self.moves: int | None
        """How many moves it has; ``None`` when the glance could not tell."""
        try:
            if layout is None:  # an SGF file is one game: read it whole
                self._record = read_record(text)
                self.tags, self.moves = self._record.tags, len(self._record.game.moves)
            else:
                start, _, end = layout.bounds(number - 1)
                if end - start > MAX_RECORD_CHARS:  # bytes: as many characters or more
                    record_text(layout.text(number - 1))  # raises if the record is too long
                self.tags, self.moves = _glance(layout, number - 1)
        except YinshError as exc:
            raise self._located(exc) from None

    def _located(self, exc: YinshError) -> YinshError:
        return exc if self.count == 1 else exc.in_game(self.number, self.count)

    def record(self) -> Record:
        """The game, every move checked (once). Raises ``NotationError`` or
        ``IllegalMoveError``, whose message starts with ``game N of M:`` among several."""
        if self._record is None:
            try:
                self._record = read_record(self._text if self._layout is None else self._layout.text(self.number - 1))
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


def _glance(layout: Layout, index: int) -> tuple[dict[str, str], int | None]:
    """The tags a list shows and the count of moves of game ``index`` of ``layout``, by
    searches in C (see :class:`Listed`). Raises ``NotationError`` for a shown tag that cannot
    be read."""
    search = layout.search
    shown = ordered_dict()  # the line of each shown tag: the last of a repeated name counts, as in reading
    for start, end in layout.tag_lines(index):
        if search.startswith(_LABEL_PREFIXES, start):
            start, end = strip_bounds(search, start, end)
            name = _shown_name(search, start, end)
            if name is not None:
                shown[name] = (start, end)
    tags = ordered_dict()
    for name, (start, end) in shown.items():
        tags[name] = tag_pair_head(layout.data, start, end, _LABEL_CHARS + 1)[1]
    _, moves, end = layout.bounds(index)
    return tags, _count_moves(search, moves, end, layout.ascii, layout.commented(index))


_TAG_SPACES: Final = b" \t"
_SPACE_BYTES: Final = frozenset(b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")  # every space of a search (see Layout)
_CONTROL_SPACES: Final = (b"\x1c", b"\x1d", b"\x1e", b"\x1f")  # spaces to every reader, not to bytes.split()


def _shown_name(search: bytes | bytearray, start: int, end: int) -> str | None:
    """The name of the tag pair line ``search[start:end]`` when it is one a list shows (a
    space after it: a line that reads has one)."""
    name = skip(search, start + 1, _TAG_SPACES)
    for text, raw in _LABEL_NAMES:
        after = name + len(raw)
        if after < end and search[after] in _TAG_SPACES and search.startswith(raw, name):
            return text
    return None


def _count_moves(search: bytes | bytearray, start: int, end: int, ascii_only: bool, commented: bool) -> int | None:
    """The moves of the movetext ``search[start:end]``, from its move numbers or its words;
    ``None`` if unsure. ``ascii_only``: the text holds no space beyond ASCII; ``commented``:
    the movetext holds a brace (else no search for one)."""
    dot = search.find(b".", start, end)
    first = _outside_comments(search, start, dot, end, forward=True) if commented else dot
    if first is None:
        return None
    if first < 0:  # no move number: the moves are the words (comments aside)
        text = _without_comments(search, start, end) if commented else bytes(search[start:end])
        if text is None:
            return None
        for space in _CONTROL_SPACES:
            if space in text:
                text = text.replace(space, b" ")
        words = (text if ascii_only else plain_spaces(text)).split(None, MAX_MOVES + 1)
        if words and words[-1] in _RESULTS:
            words.pop()
        return len(words) if len(words) <= MAX_MOVES else None
    dot = search.rfind(b".", start, end)
    last = _outside_comments(search, start, dot, end, forward=False) if commented else dot
    low, high = _number_at(search, start, first), _number_at(search, start, last) if last is not None else None
    if low is None or high is None or not 0 < high - low + 1 <= MAX_MOVES:
        return None
    return high - low + 1


_RESULTS: Final = tuple(result.encode() for result in RESULTS)


def _without_comments(search: bytes | bytearray, start: int, end: int) -> bytes | None:
    """``search[start:end]`` with its ``{comments}`` left out, or ``None`` past
    :data:`_COMMENT_STEPS` of them or for one never closed."""
    kept: list[bytes | bytearray] = []
    for _ in range(_COMMENT_STEPS + 1):
        opening = search.find(b"{", start, end)
        if opening < 0:
            return b" ".join(kept + [search[start:end]]) if kept else bytes(search[start:end])
        closing = search.find(b"}", opening, end)
        if closing < 0:
            return None
        kept.append(search[start:opening])
        start = closing + 1
    return None


def _outside_comments(search: bytes | bytearray, start: int, dot: int, end: int, forward: bool) -> int | None:
    """``dot``, or the next dot (``forward``) or the one before, of ``search[start:end]``
    outside ``{comments}``: -1 for none, ``None`` past :data:`_COMMENT_STEPS` comments."""
    for _ in range(_COMMENT_STEPS):
        if dot < 0 or search.rfind(b"{", start, dot) <= search.rfind(b"}", start, dot):
            return dot
        if forward:
            closing = search.find(b"}", dot, end)
            dot = -1 if closing < 0 else search.find(b".", closing, end)
        else:
            dot = search.rfind(b".", start, search.rfind(b"{", start, dot))
    return None


def _number_at(search: bytes | bytearray, start: int, dot: int) -> int | None:
    """The move number written before the dot at ``dot`` (``12.`` or ``12...``), or ``None``."""
    end = dot
    while end > start and search[end - 1] == _DOT:
        end -= 1
    first = end
    while first > start and end - first <= MAX_MOVE_NUMBER_DIGITS and _ZERO <= search[first - 1] <= _NINE:
        first -= 1
    if first == end or end - first > MAX_MOVE_NUMBER_DIGITS or (first > start and search[first - 1] not in _SPACE_BYTES
                                                                  and search[first - 1] != _CLOSING_BRACE
                                                                  and not odd_space_before(search, start, first)):
        return None
    return int(bytes(search[first:end]).decode())


_DOT, _ZERO, _NINE, _CLOSING_BRACE = b".09}"
_LEAD_CHARS: Final = 64


def list_import(text: str) -> list[Listed]:
    """Every game in pasted or uploaded text (official notation or boardspace SGF), listed:
    tags and moves read, not yet replayed. Raises ``NotationError`` only; among several
    games the message starts with ``game N of M:``."""
    if not isinstance(text, str):
        raise NotationError("there is no record: paste one or choose a file")
    # Whether it is SGF (or blank) from its first characters: MicroPython's strip() steps
    # through every character of a text, milliseconds for a paste of a megabyte
    lead = text[:_LEAD_CHARS]
    if len(strip(lead)) < 3:  # blank, short, or a long run of spaces first: the whole text tells
        lead = text
        if not strip(lead):
            raise NotationError("there is no record: paste one or choose a file")
    if is_sgf(lead[1:] if lead.startswith("\ufeff") else lead):
        return [Listed(1, 1, text=text[1:] if text.startswith("\ufeff") else text)]
    layout = lay_out(text, tag_lines=_SHOWN_LINES)
    if not len(layout):
        raise NotationError("the text holds no game record, only comments")
    return [Listed(number, len(layout), layout) for number in range(1, len(layout) + 1)]


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
