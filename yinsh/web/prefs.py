"""The page's display and learning preferences, kept in ``localStorage`` (browser-free).

- The theme: ``auto`` (follow the system's light or dark preference), ``light``, ``dark``
  or ``high-contrast``. The page shows the choice and sets ``<html data-theme>`` to the
  palette applied, never to ``auto``; a small script in ``index.html``'s ``<head>`` does the
  same before anything is drawn (so there is no flash of the wrong colours), with the same
  key and names as here (tests/test_web_learning.py checks that they agree). Both set
  ``<meta name="theme-color">`` (the browser's own bars) to the palette's page colour.
- The first-game guide: on unless the visitor turned it off.

Anything stored that is not understood is the default: a corrupt value never breaks the page.

>>> theme_choice(" Dark "), theme_choice("sepia"), theme_choice(None)
('dark', 'auto', 'auto')
>>> applied_theme("auto", prefers_dark=True), applied_theme("high-contrast", prefers_dark=True)
('dark', 'high-contrast')
>>> guide_on(None), guide_on("off"), guide_on(guide_value(True))
(True, False, True)
"""

from __future__ import annotations

from typing import Final

__all__ = ["THEMES", "THEME_LABELS", "THEME_COLORS", "THEME_KEY", "GUIDE_KEY", "theme_choice", "applied_theme",
           "guide_on", "guide_value"]

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
