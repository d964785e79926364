"""The game the page keeps in ``localStorage`` so that it survives a reload or a closed tab.

The saved form is JSON text, version 1::

    {"version": 1, "game": "G1…", "settings": {"white": …, "black": …, "variant": …, "delay": …},
     "time": 1764400000000}

``game`` is the whole game as a :mod:`yinsh.link` code (history included); ``time`` is when
it was saved (milliseconds since 1970, as JavaScript's ``Date.now()``). A later version of
the page may add keys (version 1 readers ignore them) and bumps ``version`` only when a
version 1 reader would misread the data: such data is refused, never guessed at.

>>> from yinsh import Game
>>> from yinsh.page.settings import Settings
>>> game = Game.from_record("1.e3 2.a5")
>>> text = saved_to_json(game, Settings(black="ai-2"), 1764400000000)
>>> saved = saved_from_json(text)
>>> saved.game.record(), saved.settings.black, saved.time
('1.e3 2.a5', 'ai-2', 1764400000000)
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Final, NamedTuple

from ..errors import YinshError
from ..game import Game
from ..link import decode_game, encode_game
from .safe_json import load_json
from .settings import Settings, settings_from_dict

__all__ = ["SAVED_KEY", "SET_ASIDE_KEY", "SAVED_VERSION", "SavedGame", "SavedGameError", "saved_to_json",
           "saved_from_json"]

SAVED_KEY: Final = "yinsh.saved"
"""The ``localStorage`` key of the saved game."""
SET_ASIDE_KEY: Final = "yinsh.saved.unreadable"
"""The ``localStorage`` key under which the page keeps saved data it could not read (for a bug
report, or for a newer version of the page), before its next autosave replaces it."""
SAVED_VERSION: Final = 1
"""The version of the saved form that this page writes and reads."""


class SavedGameError(ValueError):
    """Saved data that cannot be read (corrupt, written by something else, or by a later
    version); the message says why, for the notice the page shows."""


class SavedGame(NamedTuple("SavedGame", [("game", Game), ("settings", Settings), ("time", int)])):
    """A saved game: the game with its history, the settings it was played with, and when."""

    __slots__ = ()


def saved_to_json(game: Game, settings: Settings, time: int) -> str:
    """The JSON text kept under :data:`SAVED_KEY`."""
    data = OrderedDict([("version", SAVED_VERSION), ("game", encode_game(game)), ("settings", settings._asdict()),
                        ("time", int(time))])  # ordered on MicroPython too
    return json.dumps(data, separators=(",", ":"))


def saved_from_json(text: str) -> SavedGame:
    """The game saved as ``text``; raises :class:`SavedGameError` (and nothing else) when it
    cannot be read. Its size and nesting are checked before it is parsed
    (:func:`yinsh.page.safe_json.load_json`), and the game code's length and characters before it is decoded.

    >>> saved_from_json('{"version": 2, "game": "G1…"}')
    Traceback (most recent call last):
    ...
    yinsh.page.saved.SavedGameError: it was saved by a newer version of this page, in format 2, and ...
    """
    try:
        data = load_json(text)
    except ValueError as exc:
        raise SavedGameError(str(exc)) from None
    if not isinstance(data, dict) or "version" not in data:
        raise SavedGameError("it is not a saved YINSH game")
    version = data["version"]
    if type(version) is not int:  # bool is an int too: refuse it
        raise SavedGameError(f"its version {version!r} is not a number")
    if version > SAVED_VERSION:
        raise SavedGameError(f"it was saved by a newer version of this page, in format {version}, "
                             f"and this page reads format {SAVED_VERSION}")
    if version < 1:
        raise SavedGameError(f"its version {version} is unknown")
    code = data.get("game")
    if not isinstance(code, str):
        raise SavedGameError("it holds no game")
    try:
        game = decode_game(code)
    except YinshError as exc:
        raise SavedGameError(f"its game is damaged: {exc}") from None
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise SavedGameError("it holds no settings")
    time = data.get("time", 0)
    if type(time) not in (int, float) or not 0 <= time < 1e16:
        raise SavedGameError(f"its time {time!r} is not a time")
    chosen = settings_from_dict(settings)._replace(variant=game.variant)
    return SavedGame(game, chosen, int(time))
