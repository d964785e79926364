"""The game the page keeps in ``localStorage`` so that it survives a reload or a closed tab.

The saved form is JSON text, version 1::

    {"version": 1, "game": "G1…", "settings": {"white": …, "black": …, "variant": …, "delay": …},
     "time": 1764400000000}

``game`` is the whole game as a :mod:`yinsh.link` code (history included); ``time`` is when
it was saved (milliseconds since 1970, as JavaScript's ``Date.now()``; the page reads it as
text, :func:`time_from_iso`: the MicroPython of the page's main thread receives a JavaScript
number above 2³¹ wrapped modulo 2³²). A later version of
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
           "saved_from_json", "time_from_iso"]

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


def time_from_iso(text: str) -> int:
    """Milliseconds since 1970 of a UTC time written as JavaScript's ``Date.toISOString()`` does.

    >>> time_from_iso("2026-12-01T20:38:46.504Z"), time_from_iso("1970-01-01T00:00:00.000Z")
    (1796157526504, 0)
    >>> time_from_iso("+275760-09-13T00:00:00.000Z")  # the last time a JavaScript Date holds
    8640000000000000

    Raises ``ValueError`` for other text.
    """
    date, _, clock = text.partition("T")
    sign = -1 if date[:1] == "-" else 1
    parts = date.lstrip("+-").split("-")
    hours, minutes, rest = clock.rstrip("Z").split(":")
    seconds, _, millis = rest.partition(".")
    if len(parts) != 3 or not clock.endswith("Z"):
        raise ValueError(f"{text!r} is not a time as Date.toISOString() writes it")
    year, month, day = sign * int(parts[0]), int(parts[1]), int(parts[2])
    # days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil)
    year -= 1 if month <= 2 else 0
    era = (year if year >= 0 else year - 399) // 400
    of_era = year - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = era * 146097 + of_era * 365 + of_era // 4 - of_era // 100 + of_year - 719468
    return ((days * 24 + int(hours)) * 60 + int(minutes)) * 60_000 + int(seconds) * 1000 + int(millis or 0)
