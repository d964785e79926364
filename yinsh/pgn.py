"""Game records as text: PGN-style tag pairs, then numbered moves in official notation.

The text of a record, read and written without playing it: :func:`read_tags` takes a
record apart into its tag pairs and its movetext, :func:`move_texts` the movetext into its
numbered moves, :func:`write_record` puts a game back together. :class:`yinsh.game.Game`
plays the moves (``Game.from_record``); :mod:`yinsh.record` reads whole records and files,
boardspace SGF included.

>>> read_tags('[White "Ann"]\\n[Black "Bo"]\\n\\n1.e3 {best} 2.a5')
({'White': 'Ann', 'Black': 'Bo'}, '1.e3   2.a5')
>>> move_texts('1.e3   2.a5 3... b5 1-0', 0)
[(1, 'e3'), (2, 'a5'), (3, 'b5')]

Two tags have a meaning for the rules: ``Variant`` (``standard`` or ``blitz``) and
``Position``, a position code the moves start from (numbered on from its ply).

Reading is one pass over the text, with the sizes of :mod:`yinsh.limits` checked before
anything is played: a record that cannot be read raises ``NotationError`` saying where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from .compat import MICROPYTHON, decode_utf8, ordered_dict
from .errors import NotationError
from .limits import (
    MAX_GAMES,
    MAX_LINES,
    MAX_MOVE_NUMBER_DIGITS,
    MAX_MOVES,
    MAX_RECORD_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_TEXT_CHARS,
    MAX_WORDS,
    too_long,
)
from .position import encode_position
from .scan import ODD_SPACES, plain, skip, strip, utf8, visible, words
from .state import initial_state

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Record", "RESULTS", "is_sgf", "split_records", "record_text", "read_tags", "tag_pair", "move_texts",
           "write_record"]

RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")
_BOM: Final = "\ufeff"
_TAG_NAME_BYTES: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_MAX_TAG_NAME: Final = 64
_BLANKS: Final = b" \t"
_DIGITS: Final = frozenset("0123456789")
_DROPPED: Final = (b"#", b"%")  # what starts a line left out, outside a comment


class Record(NamedTuple("Record", [("tags", "dict[str, str]"), ("game", "Game")])):
    """A game read from a record, with its tag pairs."""

    __slots__ = ()


def is_sgf(text: str) -> bool:
    """Whether ``text`` looks like an SGF record (boardspace's files: :mod:`yinsh.sgf`)."""
    return strip(text).startswith("(;")


def split_records(text: str, max_chars: int | None = MAX_TEXT_CHARS, max_games: int | None = MAX_GAMES
                  ) -> list[str]:
    """The text of each game in a text that may hold several (a tag block starts each);
    a boardspace SGF file is one game. Comment lines (``#``, ``%``) and blank lines are dropped.

    >>> split_records('[White "A"]\\n1.e3\\n\\n[White "B"]\\n1.f5')
    ['[White "A"]\\n1.e3', '[White "B"]\\n1.f5']

    Raises ``NotationError`` for a text longer than ``max_chars`` or holding more than
    ``max_games`` games (``None``: no limit, for a file the user chose on their own machine).
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a record: expected text")
    if max_chars is not None and len(text) > max_chars:
        raise NotationError(too_long("the text", text, max_chars))
    text = _without_bom(text)
    if is_sgf(text):
        return [text]
    return _games(text, max_chars is not None, max_games)


def record_text(text: str) -> str:
    """The text of one record, checked (text, at most ``MAX_RECORD_CHARS`` long) and without
    the byte-order mark some editors put first. Raises ``NotationError``."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a record: expected text")
    if len(text) > MAX_RECORD_CHARS:
        raise NotationError(too_long("the record", text, MAX_RECORD_CHARS))
    return _without_bom(text)


def read_tags(text: str) -> tuple[dict[str, str], str]:
    """The tag pairs of a record in official notation, in the order written, and its movetext
    with the ``{comments}`` taken out. Raises ``NotationError``."""
    tags: dict[str, str] = ordered_dict()  # written back in the order read, on MicroPython too
    lines = []
    tag_lines = 0
    for is_tag, line in _record_lines(record_text(text)):
        if is_tag:
            tag_lines += 1  # a repeated name counts too: each line costs its reading
            if tag_lines > MAX_TAGS:
                raise NotationError(f"the record has more than {MAX_TAGS} tag pairs: at most {MAX_TAGS} are read")
            name, value = tag_pair(line)
            tags[name] = value
        else:
            lines.append(line)
    return tags, _without_comments(" ".join(lines))


def _record_lines(text: str, limited: bool = True) -> list[tuple[bool, str]]:
    """The lines that matter in the text of records, each stripped and marked as a tag pair
    line or not: the one reading of lines that every reader shares (one game or several, a
    link, a file). A line is a tag pair when it starts with ``[`` outside a ``{comment}``; a
    line starting with ``#`` or ``%`` outside a comment is left out, as is a blank line; inside
    a comment every line is the comment's text, whatever it starts with.

    >>> _record_lines('[White "A"]\\n1.e3 {a remark\\n[Variant "blitz"]\\n}\\n# note\\n2.a5')
    [(True, '[White "A"]'), (False, '1.e3 {a remark'), (False, '[Variant "blitz"]'), (False, '}'), (False, '2.a5')]
    """
    out = []
    in_comment = False
    fast = plain(text)
    for line in _lines(text, limited):
        stripped = line.strip() if fast else strip(line)
        if not in_comment:
            if not stripped or stripped.startswith(("#", "%")):
                continue
            if stripped.startswith("["):
                out.append((True, stripped))
                continue
        out.append((False, stripped))
        if "{" in stripped or "}" in stripped:
            in_comment = _ends_in_comment(stripped, in_comment)
    return out


def _games(text: str, limited: bool, max_games: int | None) -> list[str]:
    """:func:`split_records` of a text that is not SGF: the reading of :func:`_record_lines`
    (a property test holds it to that) in one short step of Python per line, over the text's
    UTF-8 bytes: on MicroPython every new ``str`` is first looked up among the interned
    strings (thousands in the page: a line's ``str`` cost several times its ``bytes``)."""
    text = _one_break(text)
    if limited:
        _check_line_count(text)  # counted, not split: a line's ``str`` is looked up as said above
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate (CPython only) is refused below, as there
    if not ((not plain(text)) if MICROPYTHON else any(space in text for space in ODD_SPACES)):
        return _games_in_place(data, max_games)
    lines = _stripped_like(data.split(b"\n"), _plain_spaces(data).split(b"\n"))
    games: list[list[bytes]] = []
    game: list[bytes] = []
    in_comment = in_moves = too_many = False
    surrogates = not MICROPYTHON and b"\xed" in data  # U+D000-U+DFFF: maybe a lone surrogate
    for line in lines:
        line = line.strip()
        if in_comment:  # a comment's line is its text, whatever it starts with
            game.append(line)
            if surrogates and (b"{" in line or b"}" in line):
                _check_unicode(line)
            if b"}" in line:
                in_comment = line.rfind(b"{") > line.rfind(b"}")  # the last brace decides (_ends_in_comment)
        elif not line:
            continue
        elif line.startswith(b"["):
            if in_moves:
                too_many = too_many or len(games) + 1 == max_games  # said once every line is read, as there
                games.append(game)
                game = []
                in_moves = False
            game.append(line)
        elif not line.startswith(_DROPPED):
            game.append(line)
            in_moves = True
            if surrogates and (b"{" in line or b"}" in line):
                _check_unicode(line)
            if b"{" in line:
                in_comment = line.rfind(b"{") > line.rfind(b"}")
    if too_many:
        raise NotationError(f"the text holds more than {max_games} games: at most {max_games} are read")
    games.append(game)
    return [b"\n".join(game).decode("utf-8", "surrogatepass") for game in games if game]


def _games_in_place(data: bytes, max_games: int | None) -> list[str]:
    """:func:`_games` of a text whose spaces the built-in ``strip()`` all knows, by the offsets
    of its lines in ``data``: no object per line (only for one that strips), and a run of lines
    kept as they are is one slice. On the page's MicroPython each object of more than 16 bytes
    is placed by a search past the heap's small holes (docs/PORTABILITY.md): a ``bytes`` per line
    of a long paste cost several times the step that reads it."""
    games: list[list[int]] = []
    spans: list[int] = []  # each kept piece's start and end in data, pieces that touch merged
    in_comment = in_moves = too_many = False
    surrogates = not MICROPYTHON and b"\xed" in data  # U+D000-U+DFFF: maybe a lone surrogate
    size = len(data)
    start = 0
    while start <= size:
        end = data.find(b"\n", start)
        if end < 0:
            end = size
        after = end + 1
        if start < end and (data[start] in _STRIPPED or data[end - 1] in _STRIPPED):
            if start + 1 < end and data[start] not in _STRIPPED and data[end - 2] not in _STRIPPED:
                end -= 1  # one space at the end, the usual case: no object needed
            else:
                line = data[start:end]
                stripped = line.lstrip()
                start += len(line) - len(stripped)
                end = start + len(stripped.rstrip())
        if in_comment or (start < end and data[start] != _DROPPED_0 and data[start] != _DROPPED_1):
            if not in_comment and data[start] == _OPENING:
                if in_moves:
                    too_many = too_many or len(games) + 1 == max_games  # said once every line is read
                    games.append(spans)
                    spans = []
                    in_moves = False
            else:
                if surrogates and (data.find(b"{", start, end) >= 0 or data.find(b"}", start, end) >= 0):
                    _check_unicode(data[start:end])
                if in_comment:
                    if data.find(b"}", start, end) >= 0:  # the last brace decides (_ends_in_comment)
                        in_comment = data.rfind(b"{", start, end) > data.rfind(b"}", start, end)
                else:
                    in_moves = True
                    if data.find(b"{", start, end) >= 0:
                        in_comment = data.rfind(b"{", start, end) > data.rfind(b"}", start, end)
            if spans and spans[-1] + 1 == start:
                spans[-1] = end
            else:
                spans += [start, end]
        start = after
    if too_many:
        raise NotationError(f"the text holds more than {max_games} games: at most {max_games} are read")
    games.append(spans)
    return [_joined(data, spans).decode("utf-8", "surrogatepass") for spans in games if spans]


def _joined(data: bytes, spans: list[int]) -> bytes:
    """The pieces of ``data`` between each pair of offsets of ``spans``, a line break between two."""
    if len(spans) == 2:
        return data[spans[0]:spans[1]]
    return b"\n".join([data[spans[i]:spans[i + 1]] for i in range(0, len(spans), 2)])


_STRIPPED: Final = frozenset(b" \t\r\x0b\x0c")  # what bytes.strip() strips besides the line's break
_OPENING: Final = b"["[0]
_DROPPED_0, _DROPPED_1 = (byte[0] for byte in _DROPPED)


def _check_unicode(line: bytes) -> None:
    """Raise ``NotationError`` for a line holding a lone surrogate (as :func:`~yinsh.scan.utf8`)."""
    try:
        line.decode()
    except UnicodeError:
        raise NotationError("the text holds a character that is not Unicode (a lone surrogate)") from None


def _ends_in_comment(line: str, in_comment: bool) -> bool:
    """Whether a ``{comment}`` is still open at the end of ``line`` (open at its start if
    ``in_comment``): a comment runs from ``{`` to the first ``}``, without nesting. So the last
    brace decides: after a ``{`` with no ``}`` behind it the text is inside a comment (it opened
    one, or was in one already), after a ``}`` with no ``{`` behind it outside (it closed one, or
    stood outside): one search from the end, however many comments the line holds.

    >>> _ends_in_comment("1.e3 {a} {b", False), _ends_in_comment("c} 2.a5", True), _ends_in_comment("x", True)
    (True, False, True)
    """
    data = utf8(line)
    opening, closing = data.rfind(b"{"), data.rfind(b"}")
    return in_comment if opening == closing else opening > closing  # equal: both absent


def _lines(text: str, limited: bool = True) -> list[str]:
    """The lines of ``text`` (ended by ``\\n``, ``\\r\\n`` or ``\\r``, alike on every interpreter),
    at most ``MAX_LINES`` of them unless not ``limited``: counted first, in one pass in C, since
    each line costs a few microseconds of Python on the page's MicroPython."""
    text = _one_break(text)
    if limited:
        _check_line_count(text)
    return text.split("\n")


def _check_line_count(text: str) -> None:
    """Raise ``NotationError`` for a text (its lines ended by ``\\n``) of more than ``MAX_LINES`` lines."""
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        raise NotationError(f"the text has {lines:,} lines: at most {MAX_LINES:,} are read")


def _one_break(text: str) -> str:
    """``text`` with each line ended by ``\\n`` (not ``\\r\\n`` or ``\\r``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _stripped_like(lines: list[bytes], plain_lines: list[bytes]) -> list[bytes]:
    """``lines`` stripped where ``plain_lines`` (the same lines with every space the built-in
    ``strip()`` does not know made as many ASCII spaces as it has bytes) strip."""
    out = []
    for line, plain_line in zip(lines, plain_lines):
        stripped = plain_line.strip()
        if len(stripped) == len(plain_line):
            out.append(line)
        elif not stripped:
            out.append(b"")
        else:
            start = len(plain_line) - len(plain_line.lstrip())
            out.append(line[start:start + len(stripped)])
    return out


def _plain_spaces(data: bytes) -> bytes:
    """``data`` with the UTF-8 of each of :data:`~yinsh.scan.ODD_SPACES` replaced by as many
    ``b" "`` (no such sequence occurs inside another character's bytes)."""
    for space in _ODD_SPACE_BYTES:
        if space in data:
            data = data.replace(space, b" " * len(space))
    return data


_ODD_SPACE_BYTES: Final = [space.encode() for space in ODD_SPACES]


def _without_bom(text: str) -> str:
    """``text`` without the byte-order mark some editors put first."""
    return text[1:] if text.startswith(_BOM) else text


def tag_pair(line: str) -> tuple[str, str]:
    """The name and value of a tag pair line, ``[Name "value"]`` (``\\"`` and ``\\\\`` escaped).

    >>> tag_pair('[ White  "Ann \\\\"A\\\\"" ]'), tag_pair('[Event "a\\\\\\\\b"]')
    (('White', 'Ann "A"'), ('Event', 'a\\\\b'))

    A value that reads is taken apart by searches and replacements in C: the value ends at the
    line's last quote, and its escapes go in three replacements (a value of a thousand escaped
    characters cost a thousand steps of Python, milliseconds on the page's MicroPython). Any
    other line, a wrong one included, is read a step per escape (:func:`_tag_pair_stepwise`).
    """
    data = utf8(line)
    end = len(data)
    i = start = skip(data, 1, _BLANKS)
    while i < end and data[i] in _TAG_NAME_BYTES and i - start <= _MAX_TAG_NAME:
        i += 1
    opening = skip(data, i, _BLANKS)
    closing = data.rfind(_QUOTES)
    if (start == i or opening == i or closing <= opening or data[opening] != _QUOTE or b"\r" in data
            or data[skip(data, closing + 1, _BLANKS):] != b"]"):
        return _tag_pair_stepwise(line)
    value = data[opening + 1:closing]
    if b"\\" in value:
        value = value.replace(b"\\\\", b"\r")  # an escaped backslash, out of the way
        if value.endswith(b"\\") or value.count(_QUOTES) != value.count(b'\\"'):
            return _tag_pair_stepwise(line)  # the last quote is escaped, or an earlier one is not
        value = value.replace(b"\\", b"").replace(b"\r", b"\\")  # each escaped character stands for itself
    elif _QUOTES in value:
        return _tag_pair_stepwise(line)
    text = value.decode()
    if len(text) > MAX_TAG_CHARS:
        return _tag_pair_stepwise(line)
    return data[start:i].decode(), text


def _tag_pair_stepwise(line: str) -> tuple[str, str]:
    """:func:`tag_pair` a step of Python per escaped character: the reference its searches in
    C are held to (a property test), and what reads a value that they do not."""
    bad = f"cannot read the tag pair {_shown(line)}: expected [Name \"value\"]"
    data = utf8(line)
    end = len(data)
    i = start = skip(data, 1, _BLANKS)
    while i < end and data[i] in _TAG_NAME_BYTES and i - start <= _MAX_TAG_NAME:
        i += 1
    name = data[start:i].decode()
    after_name = skip(data, i, _BLANKS)
    if not name or after_name == i or after_name >= end or data[after_name] != _QUOTE:
        raise NotationError(bad)
    parts: list[bytes] = []
    size = 0
    i = after_name + 1
    quote = data.find(b'"', i)
    while True:
        if quote < 0:
            raise NotationError(bad)
        backslash = data.find(b"\\", i, quote)
        if backslash < 0:
            parts.append(data[i:quote])
            i = quote + 1
            break
        parts += [data[i:backslash], data[backslash + 1:backslash + 2]]  # an escaped character stands for itself
        size += backslash + 1 - i
        if size > 4 * MAX_TAG_CHARS:  # bytes: a character is at most four
            break
        i = backslash + 2
        if i > quote:  # the quote was escaped: the value ends at a later one
            quote = data.find(b'"', i)
    text = b"".join(parts).decode()
    if len(text) > MAX_TAG_CHARS:
        raise NotationError(too_long(f"the value of the tag {name}", text, MAX_TAG_CHARS))
    if data[skip(data, i, _BLANKS):] != b"]":
        raise NotationError(bad)
    return name, text


_QUOTE: Final = b'"'[0]
_QUOTES: Final = b'"'


def _without_comments(body: str) -> str:
    """``body`` with each ``{comment}`` replaced by a space.

    >>> _without_comments("1.e3 {best} 2.a5")
    '1.e3   2.a5'
    """
    if "{" not in body:
        return body
    data = utf8(body)
    parts = []
    i = 0
    while True:
        opening = data.find(b"{", i)
        if opening < 0:
            parts.append(data[i:])
            return b" ".join(parts).decode()
        closing = data.find(b"}", opening)
        if closing < 0:
            shown = _shown(decode_utf8(data[opening:opening + 160]))
            raise NotationError(f"the comment {shown} is never closed: a comment runs from {{ to }}")
        parts.append(data[i:opening])
        i = closing + 1


def move_texts(body: str, ply: int) -> list[tuple[int | None, str]]:
    """The moves of ``body``, each with the number written before it (``None`` when the record
    has no numbers: then the moves are separated by spaces). A result at the end is dropped;
    ``ply`` is the number of moves before the first."""
    tokens = words(body)
    if len(tokens) > MAX_WORDS:
        raise NotationError(f"the record's moves are {len(tokens):,} words long: at most {MAX_WORDS:,} are read")
    if tokens and tokens[-1] in RESULTS:
        tokens.pop()
    moves: list[tuple[int | None, list[str]]] = []
    numbered = False
    for token in tokens:
        digits = 0
        for c in token:
            if c not in _DIGITS:
                break
            digits += 1
        if digits and token[digits:digits + 1] == ".":
            expected = ply + len(moves) + 1
            if digits > MAX_MOVE_NUMBER_DIGITS:
                raise NotationError(f"move {expected}: the move number {_shown(token[:digits])} has {digits:,} "
                                    f"digits: at most {MAX_MOVE_NUMBER_DIGITS} are read")
            if not numbered and moves:
                raise NotationError(f"cannot read {_shown(' '.join(moves[0][1]))} before the first move number")
            numbered = True
            rest = token[digits + 1:]
            if rest.startswith(".."):  # 12... before a Black move
                rest = rest[2:]
            moves.append((int(token[:digits]), [rest] if rest else []))
        elif numbered:
            moves[-1][1].append(token)
            continue
        else:
            moves.append((None, [token]))
        if ply + len(moves) > MAX_MOVES:
            raise NotationError(f"the record goes on past move {MAX_MOVES}: a game has at most {MAX_MOVES} moves")
    return [(number, " ".join(words)) for number, words in moves]


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut short when long (the same on every interpreter:
    MicroPython's ``repr`` escapes what is not ASCII)."""
    return "'" + visible(text if len(text) <= limit else text[: limit - 1] + "…") + "'"


def write_record(game: Game, tags: dict[str, str] | None = None) -> str:
    """The record of ``game``: tag pairs (if any), a blank line, then the numbered moves.

    ``Variant`` and ``Position`` tags are set from the game when it needs them to be read back
    (a caller's own would describe another game). What is written reads back: a tag that
    :func:`read_tags` could not read — a name of other characters than letters, digits and
    ``_``, a value holding a line break, more than ``MAX_TAG_CHARS`` long — or more than
    ``MAX_TAGS`` of them raise ``ValueError`` rather than be written.
    """
    written = ordered_dict()  # the caller's order, on MicroPython too
    written.update(tags or {})
    if game.variant != "standard" or "Variant" in written:
        written["Variant"] = game.variant
    if game.start_ply or game.start_state != initial_state(game.start_state.rings_to_win):
        written["Position"] = encode_position(game.start_state, game.start_ply)
    elif "Position" in written:
        del written["Position"]
    if len(written) > MAX_TAGS:
        raise ValueError(f"{len(written)} tag pairs cannot be written: a record is read with at most {MAX_TAGS}")
    for name, value in written.items():
        _check_tag(name, str(value))
    number = game.start_ply
    moves = []
    for move in game.moves:
        number += 1
        moves.append(f"{number}.{move}")
    movetext = " ".join(moves)
    if not written:
        return movetext
    header = "\n".join(f'[{k} "{_escape(v)}"]' for k, v in written.items())
    return f"{header}\n\n{movetext}" if movetext else header


def _check_tag(name: str, value: str) -> None:
    """Raise ``ValueError`` for a tag pair :func:`tag_pair` would not read back as it is."""
    if not name or len(name) > _MAX_TAG_NAME or any(b not in _TAG_NAME_BYTES for b in utf8(name)):
        raise ValueError(f"the tag name {_shown(name)} cannot be written: letters, digits and _ only")
    if "\n" in value or "\r" in value:
        raise ValueError(f"the value of the tag {name} cannot be written: it holds a line break")
    if len(value) > MAX_TAG_CHARS:
        raise ValueError(f"the value of the tag {name} cannot be written: " + too_long("it", value, MAX_TAG_CHARS))
    utf8(value)  # a lone surrogate (CPython only) cannot be written


def _escape(value: str) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')
