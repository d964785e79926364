"""The page's dialogs (PyScript, main thread): the first visit's question, New game,
"Discard this game?", "Open the game from this link?", the keys, and putting the game's result
away.

- A first visit opens with a small question (:meth:`Dialogs.greet`): "Play the computer
  (level 2)" or "Two players here", remembered (:func:`~yinsh.page.prefs.welcome_due` says when
  it is asked: not for a link that says what to play, nor for a returning visitor).
- The New game dialog shows the current players, variant and pace; Start hands the chosen
  :class:`~yinsh.web.Settings` to ``begin``.
- Starting again while a game is in progress asks first: :meth:`Dialogs.confirm_new_game`.
- A link whose game would replace a game in progress without continuing it asks first:
  :meth:`Dialogs.confirm_link` (closing the dialog keeps the game in progress).
- The keyboard shortcuts (:data:`~yinsh.page.access.SHORTCUTS`) are listed in their own dialog.
- The game's result, beside the board, goes away with its close button or a click elsewhere
  (Escape: :meth:`~yinsh.page.session.Session.cancel`).
"""

from __future__ import annotations

from ..page.access import SHORTCUTS
from ..page.prefs import WELCOME_KEY, welcome_due
from ..page.saved import SAVED_KEY
from ..page.session import Session
from ..page.settings import DELAYS, PLAYER_KINDS, STORAGE_KEY, VARIANTS, Settings, ai_level
from ..page.urls import read_params
from ..render import escape
from .dom import document, find, load, pressed_action, store, window

WELCOME_COMPUTER = Settings(black="ai-2")
"""What "Play the computer (level 2)" starts: the visitor is White, the computer Black at level 2."""

__all__ = ["Dialogs"]


class Dialogs:
    """The dialogs of one page; ``begin(settings)`` starts a new game (``None``: the same
    players), once the person has agreed to discard the game in progress."""

    def __init__(self, session: Session, begin, computer_likely=lambda: None) -> None:
        self.session = session
        self.begin = begin
        self.computer_likely = computer_likely
        """Called when a computer player is likely (the pointer on the first visit's "Play the
        computer", a computer chosen in the New game dialog): the page starts its worker then."""
        self.setup = document.getElementById("new-game-dialog")
        self.form = self.setup.querySelector("form")
        self.confirm = document.getElementById("discard-dialog")
        self.keys = document.getElementById("keys-dialog")
        self.welcome = document.getElementById("welcome-dialog")
        self.banner = document.getElementById("banner")
        self.replace = document.getElementById("replace-dialog")
        self.pending: tuple | None = None
        """A new game waiting for the person to agree that the game in progress may go."""
        self.link_choice: tuple | None = None
        """What to do once the person has answered the link's question: (open it, keep mine)."""

    def attach(self, listen) -> None:
        self.keys.querySelector("dl").innerHTML = "".join(
            f"<dt><kbd>{escape(keys)}</kbd></dt><dd>{escape(what)}</dd>" for keys, what in SHORTCUTS)
        listen(self.keys, "click", self.on_keys_click)
        listen(self.setup, "click", self.on_setup_click)
        listen(self.setup, "change", lambda event: self.sync_setup())
        listen(self.confirm, "click", self.on_confirm_click)
        listen(self.confirm, "close", lambda event: self.forget_pending())
        listen(self.replace, "click", self.on_replace_click)
        listen(self.replace, "close", self.on_replace_closed)
        listen(self.welcome, "click", self.on_welcome_click)
        computer = self.welcome.querySelector("button[data-action=welcome-computer]")
        for event in ("pointerenter", "pointerdown"):  # the computer is about to be chosen: start its worker
            listen(computer, event, lambda event: self.computer_likely())
        listen(self.welcome, "close", lambda event: self.answer_welcome("two"))  # Escape: put away
        listen(self.banner, "click", self.on_banner_click)
        listen(document, "pointerdown", self.on_pointer_down)

    # ------------------------------------------------------------------ the first visit

    def greet(self) -> None:
        """Ask the first visit's question, if it is due."""
        try:
            params = read_params(str(window.location.search), str(window.location.hash))
        except Exception:  # a link too long to read is a link all the same
            return
        returning = load(SAVED_KEY) is not None or load(STORAGE_KEY) is not None
        if welcome_due(load(WELCOME_KEY), params, returning):
            self.welcome.showModal()

    def on_welcome_click(self, event) -> None:
        action = pressed_action(event)
        if not action:
            return
        choice = {"welcome-computer": "computer", "welcome-two": "two", "welcome-setup": "other"}.get(action)
        if choice is None:
            return
        self.answer_welcome(choice)
        self.welcome.close()
        if choice == "computer":
            self.begin(WELCOME_COMPUTER)
        elif choice == "two" and self.session.plays_computer():
            self.begin(Settings(variant=self.session.settings.variant))
        elif choice == "other":
            self.open_setup()

    def answer_welcome(self, choice: str) -> None:
        """Remember the first visit's answer (the first one given: closing the dialog after a
        button changes nothing)."""
        if load(WELCOME_KEY) is None:
            store(WELCOME_KEY, choice)

    # ------------------------------------------------------------------ the game's result

    def on_banner_click(self, event) -> None:
        if find(event.target, "[data-action=close-result]") is not None:
            self.session.close_result()

    def on_pointer_down(self, event) -> bool:
        """A press anywhere but on the result puts it away (a press, not a click: the click
        that ends the game has pressed before the result showed). A press inside an open dialog
        answers its question and leaves the result as it is. Whether it did (the page is drawn)."""
        if not self.banner.hidden and find(event.target, "#banner") is None and find(event.target, "dialog") is None:
            self.session.close_result()
            return True
        return False

    # ------------------------------------------------------------------ starting again

    def confirm_new_game(self, settings: Settings | None = None) -> None:
        """Restart, or the New game dialog's Start: asks first when a game is in progress."""
        if not self.session.in_progress():
            self.begin(settings)
            return
        self.pending = (settings,)
        played = len(self.session.game.moves)
        document.getElementById("discard-text").textContent = (
            f"The game in progress ({played} move{'s' * (played != 1)} played) is not over. "
            "Start a new one and discard it?")
        self.confirm.showModal()

    def forget_pending(self) -> None:
        self.pending = None

    def on_confirm_click(self, event) -> None:
        action = pressed_action(event)
        if not action:
            return
        pending, self.pending = self.pending, None
        self.confirm.close()
        if action == "discard" and pending is not None:
            self.begin(pending[0])

    # ------------------------------------------------------------------ a link's game

    def confirm_link(self, moves: int, open_link, keep_mine) -> None:
        """Ask whether the link's game may replace the game in progress (``moves`` played):
        ``open_link()`` or ``keep_mine()`` follows the answer."""
        self.link_choice = (open_link, keep_mine)
        document.getElementById("replace-text").textContent = (
            f"Your game in progress ({moves} move{'s' * (moves != 1)} played) is not over. "
            "Replace it with the game this link opens?")
        self.replace.showModal()

    def on_replace_click(self, event) -> None:
        action = pressed_action(event)
        if action:
            self.answer_link(action)

    def on_replace_closed(self, event) -> None:
        """Escape closes the question: the game in progress stays. (A close that arrives once
        the dialog is open again belongs to an earlier question, already answered.)"""
        if not self.replace.open:
            self.answer_link("keep-mine")

    def answer_link(self, action: str) -> None:
        """The person's answer (``open-link`` or ``keep-mine``: closing the dialog keeps it)."""
        choice, self.link_choice = self.link_choice, None
        if choice is None:
            return
        if self.replace.open:
            self.replace.close()
        choice[0 if action == "open-link" else 1]()

    # ------------------------------------------------------------------ the New game dialog

    def open_setup(self) -> None:
        s = self.session.settings
        self.field("white").value = s.white
        self.field("black").value = s.black
        for radio in self.form.querySelectorAll("input[name=variant]"):
            radio.checked = radio.value == s.variant
        self.field("delay").value = str(min(DELAYS, key=lambda d: abs(d - s.delay)))
        self.sync_setup()
        self.setup.showModal()

    def field(self, name: str):
        return self.form.elements.namedItem(name)

    def sync_setup(self) -> None:
        """The pace only matters when two computers play: show it then."""
        both = all(str(self.field(color).value) != "human" for color in ("white", "black"))
        document.getElementById("setup-pace").hidden = not both
        if any(ai_level(str(self.field(color).value)) is not None for color in ("white", "black")):
            self.computer_likely()

    def chosen(self) -> Settings:
        def pick(name: str, allowed: tuple, default: str) -> str:
            value = str(self.field(name).value)
            return value if value in allowed else default

        variant = "standard"
        for radio in self.form.querySelectorAll("input[name=variant]"):
            if radio.checked:
                variant = str(radio.value)
        delay = str(self.field("delay").value)
        return Settings(white=pick("white", PLAYER_KINDS, "human"), black=pick("black", PLAYER_KINDS, "human"),
                        variant=variant if variant in VARIANTS else "standard",
                        delay=int(delay) if delay.isdigit() else self.session.settings.delay)

    def on_setup_click(self, event) -> None:
        action = pressed_action(event)
        if not action:
            return
        if action == "start-game":
            settings = self.chosen()
            self.setup.close()
            self.confirm_new_game(settings)
        elif action == "cancel-dialog":
            self.setup.close()

    # ------------------------------------------------------------------ the keys

    def show_keys(self) -> None:
        self.keys.showModal()

    def on_keys_click(self, event) -> None:
        if find(event.target, "button[data-action=close-keys]") is not None:
            self.keys.close()
