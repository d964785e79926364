"""The game page (PyScript, main thread): the parts wired together, one way round.

An input — a click on the board (:mod:`~yinsh.web.controls`), a button, a key, a dialog
(:mod:`~yinsh.web.dialogs`), the Game menu (:mod:`~yinsh.web.game_menu`), the rules and the theme
(:mod:`~yinsh.web.learning`), an answer of the computer (:mod:`~yinsh.web.client`) — changes the
:class:`~yinsh.page.session.Session`; then :meth:`App.refresh` draws its status
(:mod:`~yinsh.web.view`), keeps the game in the URL and in ``localStorage`` when it changed,
and lets the client ask the computer what the session wants to know. docs/ARCHITECTURE.md
draws the whole path and lists the testing hooks; ``<html data-yinsh-ready>`` says the page
is interactive.
"""

from __future__ import annotations

from ..move import parse_row_name
from ..page.links import PageSetup, game_url, open_page
from ..page.session import Session
from ..page.settings import STORAGE_KEY, Settings, settings_from_json, settings_to_json
from ..page.status import status
from .client import ComputerClient
from .controls import BoardInput
from .dialogs import Dialogs
from .dom import document, element, find, listen, load, store, window
from .game_menu import ACTIONS, GameKeeper
from .learning import Learning
from .view import View

__all__ = ["App", "start"]

REVIEW_KEYS = {"ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last"}


def _seed() -> int:
    return int(window.Math.random() * 1_000_000)


class App:
    """The page: its session and the parts that read it, write it and draw it."""

    def __init__(self) -> None:
        setup = open_page(str(window.location.search), str(window.location.hash), self.stored_settings(),
                          GameKeeper.read_saved())
        self.setup = setup
        """What the URL (or the saved game) opened; its ``previous`` game is asked about at start."""
        self.session = session = Session(setup.game, setup.settings, setup.notices, _seed())
        self.view = View(lambda: status(session))
        self.client = ComputerClient(session, self.refresh)
        self.controls = BoardInput(session, self.view)
        self.dialogs = Dialogs(session, self.begin, self.client.start)
        self.keeper = GameKeeper(session, self.show, self.refresh)
        self.learning = Learning(session)
        self.saved_generation = session.generation
        self.holding = False
        """While a link's question is open, the saved game in progress is not overwritten."""
        if setup.set_aside is not None:
            self.keeper.set_aside(setup.set_aside)  # before any autosave replaces it

    # ------------------------------------------------------------------ the loop

    def listen(self, target, event: str, handler) -> None:
        """Every handler of the page: the input, then :meth:`refresh` (a failure: a message)."""
        listen(target, event, handler, after=self.refresh, on_error=self.recover)

    def refresh(self) -> None:
        """After any change: draw, keep the game if it changed, ask the computer what is needed."""
        session = self.session
        if session.generation != self.saved_generation:
            self.saved_generation = session.generation
            self.save()
        self.view.draw(status(session))
        self.client.sync()

    def recover(self) -> None:
        """A handler failed: no half-made drag, a short message, the board drawn afresh."""
        self.controls.end_drag()
        self.session.say("Something went wrong; the board has been redrawn.")
        self.view.forget_board()
        self.refresh()

    def save(self) -> None:
        """The game in the URL (``history.replaceState``) and in ``localStorage``."""
        session = self.session
        window.history.replaceState(None, "", game_url(str(window.location.pathname), session.players,
                                                       session.game, session.settings))
        if not self.holding:
            self.keeper.autosave()

    # ------------------------------------------------------------------ games

    def show(self, game, settings: Settings, notices: list[str]) -> None:
        """Show ``game`` (opened from a record or a link) to look at or play on."""
        self.controls.end_drag()
        self.session.open(game, settings, notices)

    def begin(self, settings: Settings | None) -> None:
        """A new game: with ``settings`` (the dialog's, then remembered) or the same players."""
        if settings is not None:
            self.store_settings(settings)
        self.controls.end_drag()
        self.session.new_game(settings, _seed())

    def stored_settings(self) -> Settings:
        return settings_from_json(load(STORAGE_KEY))

    def store_settings(self, settings: Settings) -> None:
        if not store(STORAGE_KEY, settings_to_json(settings)):
            self.session.notice("This browser does not keep settings: the choice lasts for this page only.")

    def on_hash_change(self, event) -> None:
        """A link pasted into this tab opens its game (the page's own updates fire no event); a
        bad link keeps the game, and one that would replace a game in progress asks first."""
        session = self.session
        setup = open_page(str(window.location.search), str(window.location.hash), self.stored_settings(),
                          current=(session.game, session.settings))
        if setup.source == "current":  # refused: the notices say why
            session.notices.extend(setup.notices)
            self.save()  # the address shows the game again, not the refused link
        elif setup.previous is not None:
            self.ask_link(setup, shown=False)
        else:
            self.show(setup.game, setup.settings, setup.notices)

    def ask_link(self, setup: PageSetup, shown: bool) -> None:
        """Ask whether ``setup``'s game (``shown`` already, at start) may replace the game in
        progress; meanwhile the saved game is not overwritten."""
        assert setup.previous is not None
        previous, settings = setup.previous
        self.holding = True

        def open_link() -> None:
            self.holding = False
            if shown:
                self.save()
            else:
                self.show(setup.game, setup.settings, setup.notices)
            self.refresh()

        def keep_mine() -> None:
            self.holding = False
            self.show(previous, settings, ["Your game in progress is kept: the link's game was not opened."])
            self.save()
            self.refresh()

        self.dialogs.confirm_link(len(previous.moves), open_link, keep_mine)

    # ------------------------------------------------------------------ buttons and keys

    def attach(self) -> None:
        listen = self.listen
        self.controls.attach(listen)
        self.dialogs.attach(listen)
        self.keeper.attach(listen)
        self.learning.attach(listen)
        listen(document.getElementById("panel"), "click", self.on_panel_click)
        listen(document.getElementById("banner"), "click", self.on_panel_click)
        listen(document, "keydown", self.on_key)
        listen(window, "hashchange", self.on_hash_change)
        hint = document.querySelector("#panel button[data-action=hint]")
        for event in ("pointerenter", "focus"):  # a hint is likely: get the worker going
            listen(hint, event, lambda event: self.client.start())

    def on_panel_click(self, event) -> None:
        session = self.session
        shown = find(event.target, "[data-ply]")  # a move of the list, a point of the graph
        if shown is not None:
            self.review(int(str(shown.getAttribute("data-ply"))))
            return
        button = find(event.target, "button[data-action]")
        if button is None:
            return
        action = str(button.getAttribute("data-action"))
        if self.learning.handle(action):
            return
        if action == "new-game":
            self.dialogs.confirm_new_game()
        elif action == "setup":
            self.dialogs.open_setup()
        elif action in ("undo", "redo"):
            self.controls.end_drag()
            session.undo() if action == "undo" else session.redo()
        elif action == "live":
            session.leave_review()
        elif action.startswith("review-"):
            self.review(step=action[len("review-"):])
        elif action == "hint":
            session.computer.ask_hint()
        elif action == "choose-row":
            session.click_row(parse_row_name(str(button.getAttribute("data-choice"))))
        elif action == "keys":
            self.dialogs.show_keys()
        elif action in ACTIONS:
            self.keeper.act(action)
        elif action == "pause":
            session.toggle_pause()

    def review(self, index: int | None = None, step: str = "") -> None:
        """Show a past position (by index, or a step from the one shown); the list keeps the
        keyboard's focus on the move shown when it had it."""
        self.controls.end_drag()
        if step:
            self.session.step_review(step)
        else:
            self.session.review(index or 0)
        if self.session.reviewing is not None and find(document.activeElement, "#moves") is not None:
            self.refresh()
            current = element(document.querySelector("#moves [aria-current]"))
            if current is not None:
                current.focus()

    def on_key(self, event) -> None:
        target = event.target
        if find(target, "input, textarea, select, [contenteditable], dialog[open]") is not None:
            return  # typing, or a dialog: its keys are its own
        key = str(event.key)
        session = self.session
        if (event.ctrlKey or event.metaKey) and not event.altKey and key.lower() in ("z", "y"):
            event.preventDefault()
            self.controls.end_drag()
            session.undo() if key.lower() == "z" and not event.shiftKey else session.redo()
            return
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        reviewing = session.reviewing is not None
        # the board's own arrow keys move between its points: review keys only off the board
        if key in REVIEW_KEYS and (find(target, "#moves") is not None or reviewing and find(target, "#board") is None):
            event.preventDefault()
            self.review(step=REVIEW_KEYS[key])
        elif key == "Escape" and reviewing:
            session.leave_review()
        elif key == "?":
            self.dialogs.show_keys()
        elif key == "Escape":
            self.controls.end_drag()
            session.cancel()


def start() -> App:
    """Build the page from the URL (or the saved game), draw it, listen, and flag
    ``data-yinsh-ready``; a computer player's worker starts at once."""
    app = App()
    app.attach()
    game, settings = app.session.game, app.session.settings
    if app.setup.previous is not None:
        app.ask_link(app.setup, shown=True)
    if game.moves or game.ply or settings.query():
        app.save()
    app.refresh()
    app.dialogs.greet()
    document.documentElement.setAttribute("data-yinsh-ready", "")
    window.performance.mark("yinsh:ready")
    return app
