"""The page's learning and display glue (PyScript, main thread): the Rules dialog, the
first-game guide's switch, the sound's switch and the theme.

What to show is decided browser-free: the dialog's contents by :func:`~yinsh.page.rules_panel.rules_html`
(built the first time it opens), the guide's line by :func:`~yinsh.page.guide.guide_line` through
the session's status, the stored choices by :mod:`yinsh.page.prefs`. This class only moves them
in and out of the DOM and ``localStorage``.
"""

from __future__ import annotations

from ..page.prefs import (
    GUIDE_KEY,
    SOUND_KEY,
    THEME_COLORS,
    THEME_KEY,
    applied_theme,
    guide_on,
    guide_value,
    sound_on,
    sound_value,
    theme_choice,
)
from ..page.session import Session
from .audio import AUDIO
from .dom import document, element, load, store, window

__all__ = ["Learning"]


class Learning:
    """The Rules dialog, the guide's and the sound's switches and the theme of ``session``'s page."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.root = document.documentElement
        self.dialog = document.getElementById("rules-dialog")
        self.rules_button = document.querySelector("button[data-action=rules]")
        self.guide_switch = document.getElementById("guide-switch")
        self.sound_switch = document.getElementById("sound-switch")
        self.theme_select = document.getElementById("theme-choice")
        self.dark_query = window.matchMedia("(prefers-color-scheme: dark)")
        self.rules_built = False
        session.set_guide(guide_on(load(GUIDE_KEY)))
        session.set_sound(sound_on(load(SOUND_KEY)))
        self.theme = theme_choice(load(THEME_KEY))

    # ---------------------------------------------------------------- storage

    def store(self, key: str, value: str) -> None:
        if not store(key, value):
            self.session.notice("This browser does not keep settings: the choice lasts for this page only.")

    # ---------------------------------------------------------------- wiring

    def attach(self, listen) -> None:
        """Show the stored choices, apply the theme and listen to the controls."""
        self.guide_switch.checked = self.session.guide
        self.sound_switch.checked = self.session.sound
        self.theme_select.value = self.theme
        self.apply_theme()
        listen(self.guide_switch, "change", lambda event: self.set_guide(bool(self.guide_switch.checked)))
        listen(self.sound_switch, "change", lambda event: self.set_sound(bool(self.sound_switch.checked)))
        listen(self.theme_select, "change", lambda event: self.set_theme(str(self.theme_select.value)))
        listen(self.dark_query, "change", lambda event: self.apply_theme())  # "Auto" follows the system
        listen(self.dialog, "click", self.on_dialog_click)
        listen(self.dialog, "close", lambda event: self.rules_button.focus())

    def handle(self, action: str) -> bool:
        """Act on a panel button's ``data-action`` if it is one of ours."""
        if action == "rules":
            self.open_rules()
        elif action == "hide-guide":
            self.set_guide(False)
            self.guide_switch.focus()  # the link is gone: keep the keyboard near it
        else:
            return False
        return True

    # ---------------------------------------------------------------- the rules

    def open_rules(self) -> None:
        if not self.rules_built:
            from ..page.rules_panel import rules_html  # only now: it draws every diagram

            document.getElementById("rules-body").innerHTML = rules_html()
            self.rules_built = True
        self.dialog.showModal()

    def on_dialog_click(self, event) -> None:
        target = event.target
        close = element(target.closest("[data-action=close-rules]"))
        if str(target.id) == "rules-dialog" or close is not None:
            self.dialog.close()  # the close button, or a click on the backdrop

    # ---------------------------------------------------------------- the guide

    def set_guide(self, on: bool) -> None:
        self.session.set_guide(on)
        self.guide_switch.checked = on
        self.store(GUIDE_KEY, guide_value(on))

    # ---------------------------------------------------------------- the sound

    def set_sound(self, on: bool) -> None:
        """Sound on (a placement's sound says so, and it is heard from this click on) or off."""
        self.session.set_sound(on)
        self.sound_switch.checked = on
        self.store(SOUND_KEY, sound_value(on))
        if on:
            AUDIO.play(("place",))

    # ---------------------------------------------------------------- the theme

    def set_theme(self, choice: str) -> None:
        self.theme = theme_choice(choice)
        self.store(THEME_KEY, self.theme)
        self.apply_theme()

    def apply_theme(self) -> None:
        theme = applied_theme(self.theme, bool(self.dark_query.matches))
        self.root.setAttribute("data-theme", theme)
        document.querySelector('meta[name="theme-color"]').setAttribute("content", THEME_COLORS[theme])
