"""The "New game" settings: who plays each colour, the variant, the pace of a game between two
computers, and how they are kept in ``localStorage`` (browser-free).

:mod:`yinsh.page.links` reads them from the page's URL too.

>>> settings_to_json(Settings(black="ai-3"))
'{"white":"human","black":"ai-3","variant":"standard","delay":1000}'
"""

from __future__ import annotations

import json
from typing import Final, NamedTuple

from ..compat import capitalize
from ..game import COLORS
from ..scan import lower, strip
from .safe_json import load_json

__all__ = ["PLAYER_KINDS", "REMOTE", "VARIANTS", "DELAYS", "DEFAULT_DELAY", "STORAGE_KEY", "Settings", "ai_level",
           "player_label", "settings_from_json", "settings_from_dict", "settings_to_json", "settings_from_params"]

PLAYER_KINDS: Final = ("human", "ai-1", "ai-2", "ai-3", "ai-4", "ai-5")
"""What a player may be: a person at this device, or the computer at a level from 1 to 5."""
REMOTE: Final = "remote"
"""The player who plays by link on another device (``?you=black`` makes White remote)."""
VARIANTS: Final = ("standard", "blitz")
"""The rules a new game is played by: three rings to win, or one (Blitz)."""
DELAYS: Final = (0, 250, 500, 1000, 2000, 4000)
"""The pauses (milliseconds) a viewer may put between two computer moves when both play."""
DEFAULT_DELAY: Final = 1000
STORAGE_KEY: Final = "yinsh:new-game"
"""The ``localStorage`` key under which the page keeps the last "New game" choice."""


class Settings(NamedTuple("Settings", [("white", str), ("black", str), ("variant", str), ("delay", int)])):
    """The "New game" choice: who plays each colour, the variant, the pace of AI against AI.

    It maps to the URL's query (``?white=ai-1&black=ai-3&variant=blitz&delay=500``; defaults
    left out) and to JSON text for ``localStorage``.
    """

    __slots__ = ()

    def __new__(cls, white: str = "human", black: str = "human", variant: str = "standard",
                delay: int = DEFAULT_DELAY) -> Settings:
        return super().__new__(cls, white, black, variant, delay)

    @property
    def players(self) -> dict[str, str]:
        return {"white": self.white, "black": self.black}

    def query(self) -> str:
        """The URL query (without ``?``) that gives these settings; ``delay`` only when two
        computers play (it means nothing otherwise); ``you`` when one side plays by link.

        >>> Settings("ai-1", "ai-2", "blitz", 250).query()
        'white=ai-1&black=ai-2&variant=blitz&delay=250'
        >>> Settings(black="ai-3").query(), Settings().query(), Settings(white="remote").query()
        ('black=ai-3', '', 'you=black')
        """
        if {self.white, self.black} == {"human", REMOTE}:
            parts = ["you=" + ("white" if self.white == "human" else "black")]
        else:
            parts = [f"{c}={k}" for c, k in (("white", self.white), ("black", self.black)) if k != "human"]
        if self.variant != "standard":
            parts.append(f"variant={self.variant}")
        if self.white != "human" and self.black != "human" and self.delay != DEFAULT_DELAY:
            parts.append(f"delay={self.delay}")
        return "&".join(parts)


def ai_level(kind: str) -> int | None:
    """The level of a computer player (``'ai-3'`` → 3), ``None`` for a person."""
    return int(kind[3:]) if kind.startswith("ai-") else None


def player_label(kind: str) -> str:
    """How the panel names a player kind.

    >>> player_label("human"), player_label("ai-3"), player_label("remote")
    ('by hand', 'AI 3', 'Opponent (by link)')
    """
    if kind == REMOTE:
        return "Opponent (by link)"
    level = ai_level(kind)
    return "by hand" if level is None else f"AI {level}"


def _delay(value: object) -> int | None:
    """A pause in milliseconds, clamped to 0…10 s; ``None`` if it is not a number."""
    try:
        number = int(float(str(value).strip()))
    except (TypeError, ValueError, OverflowError):
        return None
    return max(0, min(number, 10_000))


def _kind(value: object) -> str | None:
    kind = lower(strip(str(value))) or "human"
    return kind if kind in PLAYER_KINDS or kind == REMOTE else None


def _variant(value: object) -> str | None:
    variant = lower(strip(str(value))) or "standard"
    return variant if variant in VARIANTS else None


def settings_from_json(text: str | None) -> Settings:
    """Settings read back from ``localStorage``; anything missing or bad is the default.

    >>> settings_from_json('{"white": "ai-2", "black": "robot", "variant": "blitz", "delay": 250}')
    Settings(white='ai-2', black='human', variant='blitz', delay=250)
    >>> settings_from_json(None) == settings_from_json("{oops") == Settings()
    True
    """
    try:
        data = load_json(text) if text else {}
    except ValueError:
        data = {}
    return settings_from_dict(data)


def settings_from_dict(data: object) -> Settings:
    """Settings from their JSON object (a dict); anything missing or bad is the default.

    >>> settings_from_dict({"black": "ai-5", "delay": "soon"})
    Settings(white='human', black='ai-5', variant='standard', delay=1000)
    """
    if not isinstance(data, dict):
        data = {}
    default = Settings()
    delay = _delay(data.get("delay", default.delay))
    return Settings(
        white=_kind(data.get("white", "human")) or "human",
        black=_kind(data.get("black", "human")) or "human",
        variant=_variant(data.get("variant", "standard")) or "standard",
        delay=default.delay if delay is None else delay,
    )


def settings_to_json(settings: Settings) -> str:
    """The JSON text kept in ``localStorage``.

    >>> settings_to_json(Settings(black="ai-3"))
    '{"white":"human","black":"ai-3","variant":"standard","delay":1000}'
    """
    return json.dumps(settings._asdict(), separators=(",", ":"))


def settings_from_params(params: dict[str, str], stored: Settings | None = None) -> tuple[Settings, list[str]]:
    """The settings a URL's parameters give, and notices about bad values.

    When the URL names a player or the variant, the players and the variant come from the
    URL (a colour it leaves out is played by hand); otherwise they are the ``stored``
    choice. The pace comes from the URL if it gives one, else from ``stored``.

    >>> settings_from_params({"black": "ai-3"}, Settings("ai-1", "ai-1", "blitz", 250))
    (Settings(white='human', black='ai-3', variant='standard', delay=250), [])
    >>> settings_from_params({}, Settings("ai-1", "ai-1"))[0].players
    {'white': 'ai-1', 'black': 'ai-1'}
    >>> settings_from_params({"variant": "speedy", "delay": "soon"})[1][0]
    "Unknown variant 'speedy': expected standard or blitz. The standard rules are used."
    """
    notices: list[str] = []
    stored = stored or Settings()
    if not any(key in params for key in ("white", "black", "variant", "you")):
        settings = stored
    else:
        kinds = {}
        you = lower(strip(params.get("you", "")))
        if "you" in params and you not in COLORS:
            notices.append(f"Unknown side '{params['you']}' for you: expected white or black. "
                           "Both sides are played on this device.")
        for color in COLORS:
            if you in COLORS:  # a link from the opponent: this device plays one side, they the other
                kinds[color] = "human" if color == you else REMOTE
                continue
            raw = params.get(color, "human")
            kind = _kind(raw)
            if kind is None:
                notices.append(f"Unknown player '{raw}' for {capitalize(color)}: expected human or ai-1 to ai-5. "
                               f"{capitalize(color)} is played by hand.")
                kind = "human"
            kinds[color] = kind
        raw = params.get("variant", "standard")
        variant = _variant(raw)
        if variant is None:
            notices.append(f"Unknown variant '{raw}': expected standard or blitz. The standard rules are used.")
            variant = "standard"
        settings = Settings(kinds["white"], kinds["black"], variant, stored.delay)
    if "delay" in params:
        delay = _delay(params["delay"])
        if delay is None:
            notices.append(f"Unknown delay '{params['delay']}': expected milliseconds between computer moves.")
        else:
            settings = settings._replace(delay=delay)
    return settings, notices
