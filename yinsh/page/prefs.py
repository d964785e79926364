"""The page's display and learning preferences, kept in ``localStorage`` (browser-free).

- The theme: ``auto`` (follow the system's light or dark preference), ``light``, ``dark``
  or ``high-contrast``. The page shows the choice and sets ``<html data-theme>`` to the
  palette applied, never to ``auto``; a small script in ``index.html``'s ``<head>`` does the
  same before anything is drawn (so there is no flash of the wrong colours), with the same
  key and names as here (tests/page/test_prefs.py checks that they agree). Both set
  ``<meta name="theme-color">`` (the browser's own bars) to the palette's page colour.
- The first-game guide: on unless the visitor turned it off.
- Sound: off unless the visitor switched it on.
- The first visit's choice, "Play the computer" or "Two players here": asked once
  (:func:`welcome_due`), then remembered.

Anything stored that is not understood is the default: a corrupt value never breaks the page.

>>> theme_choice(" Dark "), theme_choice("sepia"), theme_choice(None)
('dark', 'auto', 'auto')
>>> applied_theme("auto", prefers_dark=True), applied_theme("high-contrast", prefers_dark=True)
('dark', 'high-contrast')
>>> guide_on(None), guide_on("off"), guide_on(guide_value(True))
(True, False, True)
>>> sound_on(None), sound_on("loud"), sound_on(sound_value(True))
(False, False, True)
>>> welcome_due(None, {}, returning=False), welcome_due("two", {}, False), welcome_due(None, {"black": "ai-3"}, False)
(True, False, False)
"""

from __future__ import annotations

from typing import Final

__all__ = ["THEMES", "THEME_LABELS", "THEME_COLORS", "THEME_KEY", "GUIDE_KEY", "SOUND_KEY", "WELCOME_KEY",
           "WELCOME_CHOICES", "LINK_KEYS", "theme_choice", "applied_theme", "guide_on", "guide_value", "sound_on",
           "sound_value", "welcome_choice", "welcome_due"]

THEMES: Final = ("auto", "light", "dark", "high-contrast")
"""The theme choices, in the order the panel offers them."""
THEME_LABELS: Final = {"auto": "Auto", "light": "Light", "dark": "Dark", "high-contrast": "High contrast"}
"""How the panel names each theme choice."""
THEME_COLORS: Final = {"light": "#f4efe4", "dark": "#15181d", "high-contrast": "#000000"}
"""Each palette's ``<meta name="theme-color">``: its ``--page-bg`` in yinsh.css."""
THEME_KEY: Final = "yinsh:theme"
"""The ``localStorage`` key of the theme choice (also read by the script in ``index.html``)."""
GUIDE_KEY: Final = "yinsh:guide"
"""The ``localStorage`` key of the guide's switch: ``'on'`` or ``'off'``."""
SOUND_KEY: Final = "yinsh:sound"
"""The ``localStorage`` key of the sound's switch: ``'on'`` or ``'off'``."""
WELCOME_KEY: Final = "yinsh:welcome"
"""The ``localStorage`` key of the first visit's choice, one of :data:`WELCOME_CHOICES`."""
WELCOME_CHOICES: Final = ("computer", "two", "other")
"""The first visit's answers: play the computer (level 2), two players here, or other players
(the New game dialog); putting the question away counts as ``two``."""
LINK_KEYS: Final = ("g", "record", "position", "white", "black", "you", "variant", "study")
"""The parameters of a link that says what to play: such a link skips the first visit's question."""


def theme_choice(stored: str | None) -> str:
    """The theme chosen, from what ``localStorage`` holds (``'auto'`` unless understood)."""
    choice = (stored or "").strip().lower()
    return choice if choice in THEMES else "auto"


def applied_theme(choice: str, prefers_dark: bool) -> str:
    """The palette to apply (``<html data-theme>``): the choice, or for ``auto`` the system's."""
    choice = theme_choice(choice)
    if choice == "auto":
        return "dark" if prefers_dark else "light"
    return choice


def guide_on(stored: str | None) -> bool:
    """Whether the guide shows: yes for a new visitor (nothing stored), no once turned off."""
    return (stored or "").strip().lower() != "off"


def guide_value(on: bool) -> str:
    """What ``localStorage`` keeps for the guide's switch."""
    return "on" if on else "off"


def sound_on(stored: str | None) -> bool:
    """Whether moves make sounds: only once the visitor switched them on."""
    return (stored or "").strip().lower() == "on"


def sound_value(on: bool) -> str:
    """What ``localStorage`` keeps for the sound's switch."""
    return "on" if on else "off"


def welcome_choice(stored: str | None) -> str | None:
    """The first visit's choice kept in ``localStorage``, or ``None`` (not made, or not understood)."""
    choice = (stored or "").strip().lower()
    return choice if choice in WELCOME_CHOICES else None


def welcome_due(stored: str | None, params: dict[str, str], returning: bool) -> bool:
    """Whether the page opens with the first visit's question: not once it was answered
    (``stored``), not for a link that says what to play (``params``, the page's URL
    parameters: :data:`LINK_KEYS`), not for a ``returning`` visitor (a saved game or chosen
    players are kept)."""
    return welcome_choice(stored) is None and not returning and not any(key in params for key in LINK_KEYS)
