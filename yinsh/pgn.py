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

__all__ = ["Record", "RESULTS", "is_sgf", "split_records", "lay_out", "Layout", "record_text", "read_tags", "tag_pair",
           "tag_pair_head", "strip_bounds", "odd_space_before", "plain_spaces", "move_texts", "write_record",
           "clock_comment"]

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
    text = _checked_text(text, max_chars)
    if is_sgf(_without_bom(text)):
        return [_without_bom(text)]
    layout = _laid_out(text, max_chars is not None, max_games)
    return [layout.text(index) for index in range(len(layout))]


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


def lay_out(text: str, max_chars: int | None = MAX_TEXT_CHARS, max_games: int | None = MAX_GAMES,
            tag_lines: int = 20) -> Layout:
    """Where each game of a text in official notation lies in its UTF-8 bytes: the games of
    :func:`split_records` (checked the same way: raises ``NotationError``), none of them made a
    ``str``, and where the first ``tag_lines`` tag pair lines of each lie. A reader of a long
    paste looks at each game there (the Open dialog's list): on the page's MicroPython a game's
    ``str`` costs a search of the heap past its holes, and each step of Python a microsecond or
    more, so a line costs here only the steps that find where its game starts and ends (its
    spaces at the end are left for :meth:`Layout.text`). Not for SGF (:func:`is_sgf`).

    >>> layout = lay_out('[White "A"] \\n  1.e3\\n\\n[White "B"]\\n# x\\n1.f5 ')
    >>> len(layout), layout.bounds(0), layout.bounds(1), layout.tag_lines(1), layout.text(1)
    (2, (0, 15, 19), (21, 37, 42), [(21, 32)], '[White "B"]\\n1.f5')
    """
    layout = _laid_out(_checked_text(text, max_chars), max_chars is not None, max_games, tag_lines)
    dropped = layout.dropped
    if dropped:  # searches in a game's moves must not see the lines reading leaves out
        search = bytearray(layout.data)
        blank = memoryview(b" " * len(search))
        for i in range(0, len(dropped), 2):
            start, end = dropped[i], dropped[i + 1]
            search[start:end] = blank[:end - start]
        layout.search = search
    return layout


class Layout:
    """Where the games of a text lie in its UTF-8 bytes (:func:`lay_out`).

    ``data`` is the text's UTF-8, each line ended by ``\\n``; ``search`` the same bytes with
    the lines that reading leaves out of a game's moves (``#``, ``%``) made blank. So a search
    of ``search`` for ``.``, a brace or a word in a game's moves finds what it would in the
    game's record text, whatever lines lie between; its spaces are those of
    :data:`~yinsh.scan.SPACES` (:func:`odd_space_before`, :func:`plain_spaces`), and ``ascii``
    says whether the text holds any character beyond ASCII.
    """

    __slots__ = ("data", "search", "ascii", "dropped", "_games", "_pieces", "_tags")

    def __init__(self, data: bytes, games: list[int], pieces: list[int] | None, tags: list[int] | None,
                 dropped: list[int]) -> None:
        self.data = data
        self.ascii = False
        self.search: bytes | bytearray = data
        self.dropped = dropped
        """The start and end of each line left out of a game's moves, one after the other."""
        self._games = games  # each game's start, where its moves start (-1: none), end; its first piece and tag
        self._pieces = pieces  # the start and end of each piece kept (lines that touch merged), or None
        self._tags = tags  # the start and end (spaces and all) of the first tag pair lines of each game

    def __len__(self) -> int:
        return len(self._games) // _GAME_FIELDS

    def bounds(self, index: int) -> tuple[int, int, int]:
        """Where game ``index`` (from 0) starts in ``data``, where its moves start (at its end
        when it has none: its tag pair lines come before), and where it ends (a :func:`lay_out`
        layout: spaces after its last line included)."""
        games, at = self._games, _GAME_FIELDS * index
        return games[at], games[at + 2] if games[at + 1] < 0 else games[at + 1], games[at + 2]

    def commented(self, index: int) -> bool:
        """Whether the moves of game ``index`` hold a ``{comment}`` (or a brace)."""
        return self._games[_GAME_FIELDS * index + 5] == 1

    def tag_lines(self, index: int) -> list[tuple[int, int]]:
        """Where each of the first tag pair lines of game ``index`` starts and ends (spaces at
        the end included), as many as :func:`lay_out` was asked for."""
        tags, at = self._tags or [], self._games[_GAME_FIELDS * index + 4]
        stop = self._games[_GAME_FIELDS * index + 4 + _GAME_FIELDS] if index + 1 < len(self) else len(tags)
        return [(tags[i], tags[i + 1]) for i in range(at, stop, 2)]

    def text(self, index: int) -> str:
        """The record text of game ``index``, as :func:`split_records` gives it."""
        if self._pieces is None:  # a lay_out layout: the game's lines read again, their ends stripped
            start, _, end = self.bounds(index)
            return _split(self.data, start, end, None, True).text(0)
        at = _GAME_FIELDS * index + 3
        last = self._games[at + _GAME_FIELDS] if index + 1 < len(self) else len(self._pieces)
        return _joined(self.data, self._pieces[self._games[at]:last]).decode("utf-8", "surrogatepass")


_GAME_FIELDS: Final = 6  # start, moves, end, first piece, first tag line, comments in its moves (0 or 1)


def _checked_text(text: str, max_chars: int | None) -> str:
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a record: expected text")
    if max_chars is not None and len(text) > max_chars:
        raise NotationError(too_long("the text", text, max_chars))
    return text


def _laid_out(text: str, limited: bool, max_games: int | None, tag_lines: int | None = None) -> Layout:
    """The games of ``text`` (its byte-order mark aside): :func:`lay_out`'s layout, but the
    dropped lines not yet blanked, when ``tag_lines`` is given; else :func:`split_records`'."""
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate (CPython only) is refused below, as there
    ascii_only = len(data) == len(text)  # a count, not a copy, on MicroPython
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if limited:  # counted, not split: each line's object costs (docs/PORTABILITY.md)
        lines = data.count(b"\n") + 1
        if lines > MAX_LINES:
            raise NotationError(f"the text has {lines:,} lines: at most {MAX_LINES:,} are read")
    start = 3 if data.startswith(_BOM_BYTES) else 0
    layout = _split(data, start, len(data), max_games, tag_lines is None, tag_lines or 0)
    layout.ascii = ascii_only
    return layout


def _split(data: bytes, start: int, stop: int, max_games: int | None, exact: bool, tag_lines: int = 0) -> Layout:
    """The games of ``data[start:stop]``, read as :func:`_record_lines` reads lines (a property
    test holds it to that), in one short step of Python per line by the offsets of its lines:
    no object per line (only for one with more than a few spaces at an end), and no pass over
    the text for the spaces beyond ASCII (a line's ends are looked at: :func:`strip_bounds`).
    When ``exact``, each line's spaces at the end are stripped too and the pieces kept noted (a
    run of lines kept as they are is one piece); else the first ``tag_lines`` tag pair lines of
    each game and the lines dropped from its moves are."""
    games: list[int] = []
    pieces: list[int] = []
    tags: list[int] = []
    dropped: list[int] = []
    in_comment = in_moves = too_many = False
    surrogates = not MICROPYTHON and b"\xed" in data  # U+D000-U+DFFF: maybe a lone surrogate
    find, rfind, stripped, keep = data.find, data.rfind, _STRIPPED, pieces.append
    leads, tails = _SPACE_LEADS, _SPACE_TAILS
    opening_bracket, dropped_0, dropped_1 = _OPENING, _DROPPED_0, _DROPPED_1  # locals: a step less each
    noted = 0  # tag pair lines of this game noted
    while start <= stop:
        end = find(b"\n", start, stop)
        if end < 0:
            end = stop
        after = end + 1
        if start < end and data[start] in leads:
            if data[start] in stripped:  # a space or two first (an indented line): a step each
                start += 1
                if start < end and data[start] in stripped:
                    start += 1
            if start < end and data[start] in leads:
                start = strip_bounds(data, start, end, False)[0]
        if exact and start < end and data[end - 1] in tails:
            if data[end - 1] in stripped and data[end - 2] not in tails:
                end -= 1  # a space at the end, the usual case
            else:
                end = strip_bounds(data, start, end)[1]
        lead = data[start] if start < end else -1
        if in_comment or (lead >= 0 and lead != dropped_0 and lead != dropped_1):
            if not in_comment and lead == opening_bracket:  # a tag pair line
                if in_moves or not games:
                    if in_moves:
                        too_many = too_many or len(games) // _GAME_FIELDS == max_games  # said once all is read
                        in_moves = False
                    games += [start, -1, end, len(pieces), len(tags), 0]
                    noted = 0
                if noted < tag_lines:
                    tags.append(start)
                    tags.append(end)
                    noted += 1
            else:
                if not games:
                    games += [start, -1, end, len(pieces), len(tags), 0]
                if surrogates and (find(b"{", start, end) >= 0 or find(b"}", start, end) >= 0):
                    _check_unicode(data[start:end])
                if in_comment:  # the last brace decides (_ends_in_comment)
                    closing = rfind(b"}", start, end)
                    if closing >= 0:
                        in_comment = rfind(b"{", start, end) > closing
                else:
                    if not in_moves:
                        games[-5] = start
                        in_moves = True
                    opening = rfind(b"{", start, end)
                    if opening >= 0:
                        in_comment = opening > rfind(b"}", start, end)
                        games[-1] = 1
            games[-4] = end
            if exact:
                if len(pieces) > games[-3] and pieces[-1] + 1 == start:
                    pieces[-1] = end
                else:  # append, not +=: MicroPython grows a list by += four items at a time (docs/PORTABILITY.md)
                    keep(start)
                    keep(end)
        elif in_moves and start < end:
            dropped.append(start)
            dropped.append(end)
        start = after
    if too_many:
        raise NotationError(f"the text holds more than {max_games} games: at most {max_games} are read")
    return Layout(data, games, pieces if exact else None, None if exact else tags, dropped)


def strip_bounds(data: bytes | bytearray, start: int, end: int, at_end: bool = True) -> tuple[int, int]:
    """Where the line ``data[start:end]`` starts and ends without the :data:`~yinsh.scan.SPACES`
    at its ends (at its start only, unless ``at_end``): what ``strip()`` leaves on CPython. A few
    are stepped over; past those, the rest is stripped by the built-in a chunk at a time (a
    copy: on the page's MicroPython each copy of more than 16 bytes costs a search of the heap,
    docs/PORTABILITY.md).

    >>> line = " \\u3000ab\\u00a0\\t".encode()
    >>> strip_bounds(line, 0, len(line)), strip_bounds(b" " * 9 + b"x", 0, 10), strip_bounds(b"   ", 0, 3)
    ((4, 6), (9, 10), (3, 3))
    """
    first, last = start, end
    while first < last and data[first] in _STRIPPED and first - start < _STEPPED:  # ASCII, the usual case
        first += 1
    if first < last and data[first] in _SPACE_LEADS:
        for _ in range(_STEPPED if data[first] in _ODD_LEADS else 0):  # spaces beyond ASCII: a step each
            size = _space_at(data, first, last)
            if not size:
                break
            first += size
        else:
            first = _stripped_run(data, first, last, True)
    while at_end and last > first and data[last - 1] in _STRIPPED and end - last < _STEPPED:
        last -= 1
    if at_end and last > first and data[last - 1] in _SPACE_TAILS:
        for _ in range(_STEPPED if data[last - 1] in _ODD_TAILS else 0):
            size = _space_before(data, first, last)
            if not size:
                break
            last -= size
        else:
            last = _stripped_run(data, first, last, False)
    return first, last


def _space_at(data: bytes | bytearray, i: int, end: int) -> int:
    """The length of the space that starts at ``i`` (before ``end``), or 0."""
    if i >= end:
        return 0
    byte = data[i]
    if byte in _STRIPPED:
        return 1
    if byte in _ODD_LEADS and data.startswith(_ODD_SPACE_BYTES, i, end):
        return 2 if byte == 0xC2 else 3
    return 0


def _space_before(data: bytes | bytearray, start: int, i: int) -> int:
    """The length of the space that ends at ``i`` (after ``start``), or 0."""
    if i <= start:
        return 0
    byte = data[i - 1]
    if byte in _STRIPPED:
        return 1
    if byte in _ODD_TAILS and data.endswith(_ODD_SPACE_BYTES, start, i):
        return 2 if data[i - 2] == 0xC2 else 3
    return 0


def odd_space_before(data: bytes | bytearray, start: int, i: int) -> bool:
    """Whether a space beyond ASCII (:data:`~yinsh.scan.ODD_SPACES`) ends at ``i`` in ``data``
    (after ``start``): the bytes of a reader of UTF-8 that knows only ASCII's spaces."""
    return i > start and data[i - 1] in _ODD_TAILS and data.endswith(_ODD_SPACE_BYTES, start, i)


def _stripped_run(data: bytes | bytearray, first: int, last: int, leading: bool) -> int:
    """Where a long run of spaces at the start (``leading``) or the end of ``data[first:last]``
    ends: stripped a chunk at a time (whole characters), its spaces beyond ASCII made ASCII."""
    while first < last:
        if leading:
            begin, end = first, min(last, first + _CHUNK)
            while end < last and 0x80 <= data[end] < 0xC0:
                end += 1
        else:
            begin, end = max(first, last - _CHUNK), last
            while begin > first and 0x80 <= data[begin] < 0xC0:
                begin -= 1
        chunk = bytes(data[begin:end])
        kept = chunk.lstrip(_STRIPPED_BYTES) if leading else chunk.rstrip(_STRIPPED_BYTES)
        if kept and (kept[0] in _ODD_LEADS if leading else kept[-1] in _ODD_TAILS):  # maybe a space beyond ASCII
            chunk = plain_spaces(chunk)
            kept = chunk.lstrip(_STRIPPED_BYTES) if leading else chunk.rstrip(_STRIPPED_BYTES)
        if leading:
            first += len(chunk) - len(kept)
        else:
            last -= len(chunk) - len(kept)
        if kept:
            break
    return first if leading else last


_STEPPED: Final = 4
_CHUNK: Final = 256


def _joined(data: bytes, pieces: list[int]) -> bytes:
    """The pieces of ``data`` between each pair of offsets of ``pieces``, a line break between two."""
    if len(pieces) == 2:
        return data[pieces[0]:pieces[1]]
    return b"\n".join([data[pieces[i]:pieces[i + 1]] for i in range(0, len(pieces), 2)])


_STRIPPED_BYTES: Final = b" \t\r\x0b\x0c\x1c\x1d\x1e\x1f"  # the ASCII spaces of every reader but the line's break
_STRIPPED: Final = frozenset(_STRIPPED_BYTES)
_ODD_SPACE_BYTES: Final = tuple(space.encode() for space in ODD_SPACES if space > "\x7f")  # beyond ASCII
_ODD_LEADS: Final = frozenset(space[0] for space in _ODD_SPACE_BYTES)
_ODD_TAILS: Final = frozenset(space[-1] for space in _ODD_SPACE_BYTES)
_SPACE_LEADS: Final = _STRIPPED | _ODD_LEADS  # the first bytes of a space: a line starting with one is looked at
_SPACE_TAILS: Final = _STRIPPED | _ODD_TAILS
_OPENING: Final = b"["[0]
_DROPPED_0, _DROPPED_1 = (byte[0] for byte in _DROPPED)
_BOM_BYTES: Final = b"\xef\xbb\xbf"


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


def plain_spaces(data: bytes) -> bytes:
    """``data`` with the UTF-8 of each of :data:`~yinsh.scan.ODD_SPACES` beyond ASCII replaced by
    as many ``b" "`` (no such sequence occurs inside another character's bytes). Each search is a pass
    over the text: the spaces that share their first bytes are looked for only when those are
    there (an en dash shares two with a dozen spaces)."""
    for lead, spaces in _ODD_SPACES_BY_LEAD:
        if lead in data:
            for space in spaces:
                if space in data:
                    data = data.replace(space, b" " * len(space))
    return data


_ODD_SPACES_BY_LEAD: Final = [(lead, [space for space in _ODD_SPACE_BYTES if space.startswith(lead)])
                              for lead in (b"\xc2", b"\xe1\x9a\x80", b"\xe2\x80", b"\xe2\x81\x9f", b"\xe3\x80\x80")]


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
    parts = None if b"\r" in data else _tag_parts(data, 0, len(data))  # \r holds escaped backslashes below
    if parts is None:
        return _tag_pair_stepwise(line)
    start, name_end, opening, closing = parts
    value = data[opening:closing]
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
    return data[start:name_end].decode(), text


def _tag_parts(data: bytes, start: int, end: int) -> tuple[int, int, int, int] | None:
    """Where the name and the value of the tag pair line ``data[start:end]`` lie, when the line
    is ``[Name "value"]`` up to its escapes (the value ends at the line's last quote); ``None``
    for any other line, to be read a step at a time."""
    i = name = min(skip(data, start + 1, _BLANKS), end)
    while i < end and data[i] in _TAG_NAME_BYTES and i - name <= _MAX_TAG_NAME:
        i += 1
    opening = min(skip(data, i, _BLANKS), end)
    closing = data.rfind(_QUOTES, start, end)
    if (name == i or opening == i or closing <= opening or data[opening] != _QUOTE
            or min(skip(data, closing + 1, _BLANKS), end) != end - 1 or data[end - 1] != _CLOSING):
        return None
    return name, i, opening + 1, closing


def tag_pair_head(data: bytes, start: int, end: int, chars: int) -> tuple[str, str]:
    """The name of the tag pair line ``data[start:end]`` (UTF-8) and the first ``chars``
    characters of its value: what a list shows of a tag that may hold a thousand. Only the
    value's first bytes are read (on the page's MicroPython each pass over a long value, and
    each copy of it, costs: docs/PORTABILITY.md); the rest of a long value is not checked.

    Of a line :func:`tag_pair` reads, it gives the name and the value's head; of one it refuses,
    the same ``NotationError``, unless what is wrong lies past the head.

    >>> line = b'[Event "\\\\"' + b'\\\\"' * 999 + b'"]'
    >>> tag_pair_head(line, 0, len(line), 5)
    ('Event', '\"\"\"\"\"')
    """
    parts = _tag_parts(data, start, end)
    if parts is not None:
        name, name_end, opening, closing = parts
        # Bytes for as many characters, guessed from the value's start (ASCII or not, escaped or
        # not), once more if they fall short: each try is a copy, dear on the page (see above)
        guess = chars * (4 if opening < closing and data[opening] >= 0x80 else 1)
        guess *= 2 if data.find(b"\\", opening, min(closing, opening + guess)) >= 0 else 1
        for size in (guess, 8 * chars):
            cut = min(closing, opening + size)
            while opening < cut < closing and 0x80 <= data[cut] < 0xC0:
                cut -= 1  # not inside a character
            head: bytes | memoryview
            if data.find(b"\\", opening, cut) >= 0:
                head = data[opening:cut]
                if b"\\\\" in head or (cut == closing and head.endswith(b"\\")):
                    break  # an escaped backslash, or the last quote escaped: read whole
                if head.count(b'"') != head.count(b'\\"'):
                    break  # a quote not escaped
                head = head.replace(b"\\", b"")
            elif data.find(b'"', opening, cut) >= 0:
                break  # a quote not escaped
            else:
                head = memoryview(data)[opening:cut]  # decoded without a copy of the bytes first
            try:
                value = str(head, "utf-8")
            except UnicodeError:  # a lone surrogate (CPython only): refused as tag_pair refuses it
                break
            if cut == closing or len(value) >= chars:
                return data[name:name_end].decode(), value if len(value) <= chars else value[:chars]
    name_text, value_text = tag_pair(data[start:end].decode("utf-8", "surrogatepass"))
    return name_text, value_text[:chars]


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
_CLOSING: Final = b"]"[0]


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


def clock_comment(ms: int) -> str:
    """A move's clock as a record writes it after the move, lichess's way: the mover's time left.

    >>> clock_comment(252_999), clock_comment(3 * 86_400_000)
    ('{[%clk 0:04:12]}', '{[%clk 72:00:00]}')
    """
    seconds = max(0, ms) // 1000
    return f"{{[%clk {seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}]}}"


def write_record(game: Game, tags: dict[str, str] | None = None, comments: list[str] | None = None) -> str:
    """The record of ``game``: tag pairs (if any), a blank line, then the numbered moves, each
    followed by its comment in ``comments`` (one a move, ``""`` for none: a ``{…}`` the reader
    skips, such as :func:`clock_comment`'s).

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
    for i, move in enumerate(game.moves):
        number += 1
        moves.append(f"{number}.{move}")
        comment = comments[i] if comments and i < len(comments) else ""
        if comment:
            if not (comment.startswith("{") and comment.endswith("}")) or "}" in comment[:-1]:
                raise ValueError(f"comment {comment!r} is not one {{…}} a record can hold")
            moves.append(comment)
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
