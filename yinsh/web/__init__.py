"""The game page: what it needs that does not need a browser.

:mod:`yinsh.web.main` is the PyScript glue (DOM events → :class:`~yinsh.turn.Turn` →
:func:`~yinsh.render.board_svg`); everything here is plain Python, tested in pytest:
reading the page's query parameters and URL hash, opening the game they describe, and the
link that reopens the game in its current state.

>>> setup = open_page("?white=human&black=ai-3", "#record=1.e3%202.a5")
>>> setup.game.record(), setup.players
('1.e3 2.a5', {'white': 'human', 'black': 'ai-3'})
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from ..errors import YinshError
from ..game import COLORS, Game

__all__ = ["PLAYER_KINDS", "PageSetup", "read_params", "open_page", "game_url", "ai_level"]

PLAYER_KINDS: Final = ("human", "ai-1", "ai-2", "ai-3", "ai-4", "ai-5")
"""What a player may be: a person at this device, or the computer at a level from 1 to 5."""


class PageSetup(NamedTuple):
    """What the page opens: the game, who plays each colour, and notices for the player."""

    game: Game
    players: dict[str, str]
    notices: list[str]


def read_params(search: str, hash_: str = "") -> dict[str, str]:
    """The page's parameters from ``location.search`` and ``location.hash``.

    Both are ``key=value&…``; the hash wins (it is where the page keeps the game it is
    playing). Keys are lower-cased; the first value of a repeated key counts.

    >>> read_params("?record=1.e3+2.a5&white=AI-2", "#white=human")
    {'record': '1.e3 2.a5', 'white': 'human'}
    """
    out: dict[str, str] = {}
    for text in (search, hash_):
        seen = set()
        for key, value in _parse_qsl(text.lstrip("?#")):
            key = key.strip().lower()
            if key not in seen:
                out[key] = value
                seen.add(key)
    return out


def ai_level(kind: str) -> int | None:
    """The level of a computer player (``'ai-3'`` → 3), ``None`` for a person."""
    return int(kind[3:]) if kind.startswith("ai-") else None


def open_page(search: str = "", hash_: str = "") -> PageSetup:
    """The game and players the page's URL asks for; never raises.

    A bad value gives a notice and falls back to a fresh game or a human player.
    """
    params = read_params(search, hash_)
    notices: list[str] = []
    players = {}
    for color in COLORS:
        raw = params.get(color, "human")
        kind = raw.strip().lower() or "human"
        if kind not in PLAYER_KINDS:
            notices.append(f"Unknown player '{raw}' for {color.capitalize()}: expected human or ai-1 to ai-5. "
                           f"{color.capitalize()} is played by hand.")
            kind = "human"
        players[color] = kind
    game = Game()
    record, position = params.get("record", "").strip(), params.get("position", "").strip()
    if "record" in params and "position" in params and record and position:
        notices.append("The link gives both a record and a position: the record is used.")
    try:
        if record:
            game = Game.from_record(record)
        elif position:
            game = Game.from_position(position)
        elif "record" in params or "position" in params:
            notices.append("The link's game is empty: a new game has started.")
    except (YinshError, ValueError) as exc:
        what = "record" if record else "position"
        notices.append(f"Could not open the {what} in the link ({_short(str(exc))}). A new game has started.")
        game = Game()
    return PageSetup(game, players, notices)


def game_url(path: str, players: dict[str, str], game: Game) -> str:
    """The link that reopens ``game`` with the same players (for ``history.replaceState``).

    >>> g = Game(); _ = g.play("e3")
    >>> game_url("/index.html", {"white": "human", "black": "ai-2"}, g)
    '/index.html?black=ai-2#record=1.e3'
    """
    query = "&".join(f"{c}={_quote(players[c])}" for c in COLORS if players.get(c, "human") != "human")
    url = path + (f"?{query}" if query else "")
    if game.moves:
        url += "#record=" + _quote(game.record())
    elif game.start_state != Game(game.variant).start_state or game.start_ply:
        url += "#position=" + game.position()
    return url


# urllib.parse costs a tenth of a second to import in the browser; these few lines do.

_PERCENT: Final = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_SAFE: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~;:/,")


def _unquote(text: str) -> str:
    """Decode ``+`` and ``%XX`` escapes (UTF-8; bad sequences become U+FFFD)."""
    return _PERCENT.sub(lambda m: bytes.fromhex(m[0].replace("%", "")).decode("utf-8", "replace"),
                        text.replace("+", " "))


def _quote(text: str) -> str:
    """Escape everything but unreserved characters and ``;:/,`` (spaces as ``%20``).

    >>> _quote('1.e3 2.a5 [Tag "x"]'), _unquote(_quote("é ü+"))
    ('1.e3%202.a5%20%5BTag%20%22x%22%5D', 'é ü+')
    """
    return "".join(c if c in _SAFE else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text)


def _parse_qsl(text: str) -> list[tuple[str, str]]:
    """``key=value`` pairs of a query string, decoded, blank values kept."""
    pairs = []
    for part in text.split("&"):
        if part:
            key, _, value = part.partition("=")
            pairs.append((_unquote(key), _unquote(value)))
    return pairs


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
