"""Compact, URL-safe codes of whole games (history included), for share links.

A code is ``G1`` (the format's version), then the start position's code and a
dot when the game did not start from the empty board, then base64url digits of
one integer that packs every move point by point (independent of the order of
``legal_moves``, so later versions read it the same way), then two check digits.

>>> from yinsh import Game
>>> game = Game.from_record("1.e3 2.a5 3.b5")
>>> code = encode_game(game)
>>> code
'G1HDl_vAAADMw'
>>> decode_game(code).record()
'1.e3 2.a5 3.b5'
"""

from __future__ import annotations

from typing import Final

from .board import POINTS, WINDOWS
from .errors import IllegalMoveError, NotationError
from .game import Game
from .limits import MAX_GAME_CODE_CHARS, MAX_MOVES, too_long
from .move import Move, Removal
from .position import check_digits, from_digits, to_digits
from .scan import quoted, strip

__all__ = ["encode_game", "decode_game", "VERSION"]

VERSION: Final = "G1"
_KINDS: Final = ("place", "move", "pass", "remove")
_INDEX: Final = {p: i for i, p in enumerate(POINTS)}
_MAX_MOVES: Final = 1 << 16
_CODE_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")


def encode_game(game: Game) -> str:
    """The code of ``game`` with its whole history."""
    digits: list[tuple[int, int]] = [(len(game.moves), _MAX_MOVES), (game.variant == "blitz", 2)]
    for move in game.moves:
        kind = _KINDS.index(move.kind)
        digits.append((kind * 16 + len(move.before) * 4 + len(move.after), 64))
        if move.kind == "move":
            digits.append((_INDEX[move.source], len(POINTS)))  # type: ignore[index]
        if move.kind in ("place", "move"):
            digits.append((_INDEX[move.target], len(POINTS)))  # type: ignore[index]
        for removal in move.before + move.after:
            digits += [(removal.row, len(WINDOWS)), (_INDEX[removal.ring], len(POINTS))]
    n = 0
    for digit, radix in reversed(digits):
        n = n * radix + digit
    body = to_digits(n)
    prefix = VERSION
    if game.start_ply or game.start_state != Game(game.variant).start_state:
        prefix += Game.from_state(game.start_state, game.start_ply).position() + "."
    return prefix + body + check_digits(prefix + body)


def decode_game(code: str) -> Game:
    """The game a code describes, every move checked. Raises ``NotationError`` or ``IllegalMoveError``.

    Its length is checked first (``MAX_GAME_CODE_CHARS``), then its characters, then its check
    digits, then the number of moves it holds (``MAX_MOVES``), and only then are moves played.
    """
    if not isinstance(code, str):
        raise NotationError(f"{code!r} is not a game code: expected text")
    text = strip(code)
    if len(text) > MAX_GAME_CODE_CHARS:
        raise NotationError(f"'{text[:12]}…' is not a game code: " + too_long("it", text, MAX_GAME_CODE_CHARS))
    if not text.startswith(VERSION):
        raise NotationError(f"{quoted(text)} is not a game code: it must start with {VERSION!r}")
    if any(c not in _CODE_CHARS for c in text) or text.count(".") > 1:
        raise NotationError(f"{quoted(text)} is not a game code: it has characters outside A-Z a-z 0-9 - _ .")
    if len(text) < len(VERSION) + 3 or check_digits(text[:-2]) != text[-2:]:
        raise NotationError(f"'{_cut(text)}' is not a game code: its check digits do not match "
                            "(truncated or mistyped?)")
    body = text[len(VERSION):-2]
    start = None
    if "." in body:
        position, body = body.split(".")
        start = Game.from_position(position)
    n = from_digits(body)  # its characters were checked above

    def take(radix: int) -> int:
        nonlocal n
        n, digit = divmod(n, radix)
        return digit

    count = take(_MAX_MOVES)
    variant = "blitz" if take(2) else "standard"
    game = start or Game(variant)  # type: ignore[arg-type]
    if game.ply + count > MAX_MOVES:
        raise NotationError(f"'{_cut(text)}' is not a game code: it goes on past move {MAX_MOVES}, "
                            f"and a game has at most {MAX_MOVES} moves")
    for _ in range(count):
        head = take(64)
        kind, n_before, n_after = _KINDS[head // 16 % 4], head // 4 % 4, head % 4
        source = POINTS[take(len(POINTS))] if kind == "move" else None
        target = POINTS[take(len(POINTS))] if kind in ("place", "move") else None
        removals = tuple(Removal(take(len(WINDOWS)), POINTS[take(len(POINTS))]) for _ in range(n_before + n_after))
        move = Move(kind, source, target, removals[:n_before], removals[n_before:])  # type: ignore[arg-type]
        try:
            game.play(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"the game code '{_cut(text)}' holds an illegal move: {exc}") from None
    if n:
        raise NotationError(f"'{_cut(text)}' is not a game code: it has digits left over")
    return game


def _cut(text: str, limit: int = 40) -> str:
    """``text`` cut short for a message when long."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
