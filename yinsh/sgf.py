"""Import of boardspace.net SGF game records.

boardspace writes each player's steps as numbered actions: ``place wr E 6`` (a
ring placed), ``place w G 11`` then ``drop board G 9`` (a marker put in the ring
on g11, the ring dropped on g9), ``move C 6 C 1`` (the same in one step),
``remove w H 5 H 9`` and ``remove wr E 10`` (a row and a ring), ``pass``,
``Done``, ``Resign``. The steps of one player between the other player's steps
make one move in official notation, checked by the rules as it is played.

The file is read in one pass (no regular expression, no recursion): ``(;``, then
nodes of properties ``NAME[value][value]…`` separated by ``;``, then ``)``. A file
cut short, a value never closed or a record with no steps is refused, naming what
is wrong:

>>> from yinsh import Game
>>> game = Game()
>>> play_sgf("(;SU[Yinsh]P0[1 place wr E 6]P1[2 place br F 6])", game), game.record()
({'Event': 'boardspace.net'}, '1.e6 2.f6')
>>> play_sgf("(;P0[1 place wr", Game())
Traceback (most recent call last):
...
yinsh.errors.NotationError: the SGF value P0[…] at character 5 is never closed (is the file cut short?)

``Game.from_record`` and :func:`yinsh.record.read_record` read SGF files with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .compat import ordered_dict
from .errors import NotationError
from .limits import MAX_MOVES, MAX_SGF_PROPERTIES, MAX_SGF_STEPS, MAX_TAG_CHARS, too_long
from .pgn import is_sgf
from .scan import SPACES, lower, position, skip, strip, utf8, visible
from .scan import words as split_words

if TYPE_CHECKING:
    from .game import Game

__all__ = ["is_sgf", "play_sgf"]

_IGNORED: Final = ("done", "start", "resign", "edit")
_NAME_BYTES: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_MAX_NAME: Final = 32  # SGF names have one or two letters; boardspace's have two
_SPACE: Final = b" \t\r\n\f\v"
_OPEN, _CLOSE, _NODE, _VALUE = b"();["  # bytes, as ints
_COLUMNS: Final = frozenset("abcdefghijk")
_MONTHS: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAYS: Final = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_DIGITS: Final = frozenset("0123456789")
_PLAYERS: Final = ("P0", "P1")


def play_sgf(text: str, game: Game) -> dict[str, str]:
    """Play the game an SGF record from boardspace.net describes on ``game`` (a new game: the
    file starts from the empty board) and return its PGN-style tags.

    Raises ``NotationError`` for unreadable steps and ``IllegalMoveError`` for
    moves the rules refuse, naming the move number.
    """
    if not is_sgf(text):
        raise NotationError("the text is not an SGF record: it must start with '(;'")
    properties = _properties(text)
    first: dict[str, str] = {}
    for name, value in properties:
        first.setdefault(name, value)
    game_of = strip(first.get("SU", ""))
    if "SU" in first and lower(game_of) != "yinsh":
        raise NotationError(f"the SGF record is a game of {_cut(game_of)}, not YINSH")
    turns: list[tuple[str, list[tuple[str, list[str]]]]] = []
    players: dict[str, str] = {}
    steps = 0
    for name, value in properties:
        if name not in _PLAYERS:
            continue
        number, _, step = strip(value).partition(" ")
        if not _is_number(number):
            if number == "id":
                players.setdefault(name, _quoted(step))
            continue  # the player's id or clock
        found = split_words(step)
        if not found or lower(found[0]) in _IGNORED:
            continue
        steps += 1
        if steps > MAX_SGF_STEPS:
            raise NotationError(f"the SGF record has more than {MAX_SGF_STEPS:,} steps: at most {MAX_SGF_STEPS:,} "
                                "are read")
        if not turns or turns[-1][0] != name:
            if len(turns) == MAX_MOVES:
                raise NotationError(f"the SGF record goes on past move {MAX_MOVES}: a game has at most "
                                    f"{MAX_MOVES} moves")
            turns.append((name, []))
        turns[-1][1].append((number, found))
    if not turns:
        raise NotationError("the SGF record holds no moves: no step P0[…] or P1[…] of a player")
    for _, turn in turns:
        game.play(_notation(turn, game.ply + 1))
    return _tags(first, players, game)


def _properties(text: str) -> list[tuple[str, str]]:
    """Every ``(name, value)`` of a one-game SGF text, in order (a property with several values
    gives one pair each). The text is scanned as bytes (see :func:`yinsh.scan`)."""
    data = utf8(text)
    end = len(data)
    i = data.find(b"(;") + 2  # the caller checked that only spaces come before it
    properties: list[tuple[str, str]] = []
    name = ""
    while True:
        i = skip(data, i, _SPACE)
        if i >= end:
            raise NotationError("the SGF record ends without its closing ')' (is the file cut short?)")
        c = data[i]
        if c == _VALUE:
            if not name:
                where = position(data, i)
                raise NotationError(f"the SGF record has a value with no property name at character {where}")
            if len(properties) == MAX_SGF_PROPERTIES:
                raise NotationError(f"the SGF record has more than {MAX_SGF_PROPERTIES:,} values: "
                                    f"at most {MAX_SGF_PROPERTIES:,} are read")
            close, value = _value(data, i, name)
            properties.append((name, value))
            i = close + 1
        elif c in _NAME_BYTES:
            start = i
            while i < end and data[i] in _NAME_BYTES and i - start <= _MAX_NAME:
                i += 1
            name = data[start:i].decode()
            i = skip(data, i, _SPACE)
            if i >= end or data[i] != _VALUE:
                where = position(data, start)
                raise NotationError(f"the SGF property {_shown(name)} at character {where} has no value "
                                    "(expected NAME[value])")
        elif c == _NODE:
            name = ""
            i += 1
        elif c == _CLOSE:
            break
        elif c == _OPEN:
            raise NotationError(f"the SGF record has a variation at character {position(data, i)}: "
                                "only one line of play is read")
        else:
            where = position(data, i)
            raise NotationError(f"cannot read the SGF record at character {where}: "
                                f"unexpected '{text[where - 1:where]}'")
    if data[i + 1:].strip():
        raise NotationError(f"the SGF record goes on after its closing ')' at character {position(data, i)}: "
                            "one game per file")
    return properties


def _value(data: bytes, opening: int, name: str) -> tuple[int, str]:
    """The closing ``]`` of the value opened at byte ``opening``, and the value (``\\]`` and
    ``\\\\`` escaped)."""
    parts: list[bytes] = []
    i = opening + 1
    close = data.find(b"]", i)
    while True:
        if close < 0:
            raise NotationError(f"the SGF value {name}[…] at character {position(data, opening)} is never closed "
                                "(is the file cut short?)")
        backslash = data.find(b"\\", i, close)
        if backslash < 0:
            if not parts:
                return close, data[i:close].decode()
            parts.append(data[i:close])
            return close, b"".join(parts).decode()
        parts += [data[i:backslash], data[backslash + 1:backslash + 2]]
        i = backslash + 2
        if i > close:  # the bracket was escaped: the value ends at a later one
            close = data.find(b"]", i)


def _quoted(text: str) -> str:
    """The text between the first two double quotes of ``text`` (``''`` if there are none)."""
    text = strip(text)
    end = text.find('"', 1)
    return text[1:end] if text.startswith('"') and end > 0 else ""


def _notation(steps: list[tuple[str, list[str]]], move_number: int) -> str:
    """One player's consecutive steps as a move in official notation."""
    before: list[str] = []
    after: list[str] = []
    action: str | None = None
    row: str | None = None
    for number, words in steps:
        kind, points = _step(words, move_number, number)
        removals = after if action is not None else before
        if kind == "ring":
            action = points[0]
        elif kind == "marker":
            action = points[0] + "-"
        elif kind == "drop":
            if action is None or not action.endswith("-"):
                raise NotationError(f"move {move_number}: SGF step {number} drops a ring that was not picked up")
            action += points[0]
        elif kind == "move":
            action = f"{points[0]}-{points[1]}"
        elif kind == "pass":
            action = "pass"
        elif kind == "row":
            row = f"{points[0]}-{points[1]}"
        else:  # a ring removed with the row named just before
            if row is None:
                raise NotationError(f"move {move_number}: SGF step {number} removes a ring without a row")
            removals.append(f"x{row}x{points[0]}")
            row = None
    if action is not None and action.endswith("-"):
        raise NotationError(f"move {move_number}: the ring picked up on {action[:-1]} is never dropped")
    parts = ["".join(before)] if before else []
    if action is not None:
        parts.append(action)
    if after:
        parts.append("".join(after))
    return ";".join(parts)


def _step(words: list[str], move_number: int, number: str) -> tuple[str, list[str]]:
    """What a step does (``ring``, ``marker``, ``drop``, ``move``, ``row``, ``remove``, ``pass``)
    and the points it names (``e6``)."""
    verb = lower(words[0])
    piece = lower(words[1]) if len(words) > 1 else ""
    kind = None
    if verb == "pass" and len(words) == 1:
        kind = "pass"
    elif verb == "place" and len(words) == 4 and piece in ("wr", "br", "w", "b"):
        kind = "ring" if piece.endswith("r") else "marker"
    elif verb == "drop" and len(words) == 4 and piece == "board":
        kind = "drop"
    elif verb == "move" and len(words) == 5:
        kind = "move"
    elif verb == "remove" and len(words) == 6 and piece in ("w", "b"):
        kind = "row"
    elif verb == "remove" and len(words) == 4 and piece in ("wr", "br"):
        kind = "remove"
    coordinates = words[1:] if kind == "move" else words[2:]
    points = [_point(coordinates[i], coordinates[i + 1]) for i in range(0, len(coordinates) - 1, 2)]
    if kind is None or None in points:
        raise NotationError(f"move {move_number}: cannot read the SGF step {number} {_shown(' '.join(words))}")
    return kind, points  # type: ignore[return-value]


def _point(column: str, row: str) -> str | None:
    """``'e6'`` from ``'E'`` and ``'6'``; ``None`` if they cannot name a point."""
    column = lower(column)
    if column not in _COLUMNS or not _is_number(row) or len(row) > 2:
        return None
    return column + row


def _tags(first: dict[str, str], players: dict[str, str], game: Game) -> dict[str, str]:
    """The PGN-style tags of the file: its name, date and players (simple text: line breaks and
    other controls become spaces, as SGF's SimpleText has it), and the result. A game over on the
    board has the board's result; an ``RE[…]`` that says otherwise is set aside with a
    ``Notice`` tag saying so. A game not over on the board has the winner ``RE`` names (a
    resignation)."""
    tags = ordered_dict()
    tags["Event"] = "boardspace.net"
    white, black = players.get("P0"), players.get("P1")
    found = (("Game", "GN", first.get("GN", "")), ("Date", "DT", _date(first.get("DT", ""))),
             ("White", "P0", white), ("Black", "P1", black))
    for tag, name, value in found:
        if value:
            if len(value) > MAX_TAG_CHARS:
                raise NotationError(too_long(f"the SGF property {name}", value, MAX_TAG_CHARS))
            value = _simple_text(value)
            if value:
                tags[tag] = value
    outcome = strip(first.get("RE", ""))
    winner = strip(outcome[len("Game won by "):]) if outcome.startswith("Game won by ") else None
    said = ("1-0" if winner == white else "0-1") if winner and winner in (white, black) else None
    done = game.outcome
    if done:
        tags["Result"] = done.result
        tags["Termination"] = done.termination
        if said is not None and said != done.result:
            tags["Notice"] = (f"the file gives the result {said} (RE[{_cut(_simple_text(outcome))}]), but the game "
                              f"on the board ended {done.result}: the board's result is kept")
    elif said is not None:
        tags["Result"] = said
        tags["Termination"] = "resignation"
    return tags


def _simple_text(value: str) -> str:
    """An SGF SimpleText value as one line: each space, line break or other control character
    a plain space, the ends stripped.

    >>> _simple_text(" Game\\n1\\x1b[2J ")
    'Game 1 [2J'
    """
    out = []
    for c in value:
        out.append(" " if c in SPACES or c < " " or "\x7f" <= c < "\xa0" else c)
    return strip("".join(out))


def _date(text: str) -> str | None:
    """``'2026.03.13'`` from boardspace's ``'Fri Mar 13 19:56:26 GMT+01:00 2026'`` (the time and
    its zone are dropped); ``None`` when it is not such a date.

    >>> _date("Fri Feb 20 11:58:00 MSK 2026"), _date("Mon Feb 30 11:58:00 MSK 2026")
    ('2026.02.20', None)
    """
    words = split_words(text)
    if len(words) != 6 or words[1] not in _MONTHS or not _is_number(words[2]) or not _is_number(words[5]):
        return None
    month, day, year = _MONTHS.index(words[1]) + 1, int(words[2][-2:]), int(words[5][-4:])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if len(words[5]) != 4 or len(words[2]) > 2 or not 1 <= day <= _DAYS[month - 1] + (month == 2 and leap):
        return None
    return f"{year}.{month:02d}.{day:02d}"


def _is_number(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (and not empty)."""
    return bool(text) and all(c in _DIGITS for c in text)


def _cut(text: str, limit: int = 40) -> str:
    """``text`` cut short for a message when long."""
    return visible(text if len(text) <= limit else text[: limit - 1] + "…")


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short when long (the same on every interpreter:
    MicroPython's ``repr`` escapes what is not ASCII)."""
    return "'" + _cut(text) + "'"
