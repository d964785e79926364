"""The page's learning and display glue (PyScript, main thread): the Rules dialog, the
first-game guide's line and the theme.

What to show is decided browser-free: the dialog's contents by :func:`~yinsh.web.rules.rules_html`
(built the first time it opens), the guide's line by :func:`~yinsh.web.guide.guide_line`, the
stored choices by :mod:`yinsh.web.prefs`. This class only moves them in and out of the DOM
and ``localStorage``; :class:`~yinsh.web.main.Page` owns it and calls :meth:`draw_guide`
whenever the panel's status is redrawn.
"""

from __future__ import annotations

try:
    from pyodide.ffi import jsnull
    from pyscript import document, window
except ImportError:  # outside the browser (pytest imports every module)
    document = window = jsnull = None

from ..turn import Turn
from .guide import guide_line
from .prefs import GUIDE_KEY, THEME_COLORS, THEME_KEY, applied_theme, guide_on, guide_value, theme_choice

__all__ = ["Learning"]


class Learning:
    """The Rules dialog, the guide and the theme of one page (``page`` provides ``listen``
    and ``notices``)."""

    def __init__(self, page) -> None:
        self.page = page
        self.root = document.documentElement
        self.dialog = document.getElementById("rules-dialog")
        self.rules_button = document.querySelector("button[data-action=rules]")
        self.guide_box = document.getElementById("guide")
        self.guide_switch = document.getElementById("guide-switch")
        self.theme_select = document.getElementById("theme-choice")
        self.dark_query = window.matchMedia("(prefers-color-scheme: dark)")
        self.rules_built = False
        self.guide_enabled = guide_on(self.load(GUIDE_KEY))
        self.theme = theme_choice(self.load(THEME_KEY))
        self.guide_for: tuple[Turn, int] | None = None  # the turn (and its version) of the line shown
        self.guide_text = ""

    # ---------------------------------------------------------------- storage

    def load(self, key: str) -> str | None:
        try:
            value = window.localStorage.getItem(key)
        except Exception:  # storage can be switched off: the defaults then
            return None
        return None if value is None else str(value)

    def store(self, key: str, value: str) -> None:
        try:
            window.localStorage.setItem(key, value)
        except Exception:
            self.page.notices.append("This browser does not keep settings: the choice lasts for this page only.")

    # ---------------------------------------------------------------- wiring

    def attach(self) -> None:
        """Show the stored choices, apply the theme and listen to the controls."""
        self.guide_switch.checked = self.guide_enabled
        self.theme_select.value = self.theme
        self.apply_theme()
        listen = self.page.listen
        listen(self.guide_switch, "change", lambda event: self.set_guide(bool(self.guide_switch.checked)))
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
            from .rules import rules_html  # only now: it draws every diagram

            document.getElementById("rules-body").innerHTML = rules_html()
            self.rules_built = True
        self.dialog.showModal()

    def on_dialog_click(self, event) -> None:
        target = event.target
        close = target.closest("[data-action=close-rules]")
        if str(target.id) == "rules-dialog" or (close is not None and close is not jsnull):
            self.dialog.close()  # the close button, or a click on the backdrop

    # ---------------------------------------------------------------- the guide

    def set_guide(self, on: bool) -> None:
        self.guide_enabled = on
        self.guide_switch.checked = on
        self.store(GUIDE_KEY, guide_value(on))
        self.page.draw_status()

    def draw_guide(self, turn: Turn, person_to_move: bool) -> None:
        """Show the guide's line for ``turn`` (hidden when off, or when nobody at this
        device is to move)."""
        text = ""
        if self.guide_enabled and person_to_move:
            if self.guide_for is None or self.guide_for[0] is not turn or self.guide_for[1] != turn.version:
                self.guide_for = (turn, turn.version)
                self.guide_text = guide_line(turn)
            text = self.guide_text
        if text != str(document.getElementById("guide-text").textContent):
            document.getElementById("guide-text").textContent = text
        self.guide_box.hidden = not text

    # ---------------------------------------------------------------- the theme

    def set_theme(self, choice: str) -> None:
        self.theme = theme_choice(choice)
        self.store(THEME_KEY, self.theme)
        self.apply_theme()

    def apply_theme(self) -> None:
        theme = applied_theme(self.theme, bool(self.dark_query.matches))
        self.root.setAttribute("data-theme", theme)
        document.querySelector('meta[name="theme-color"]').setAttribute("content", THEME_COLORS[theme])
