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

import asyncio
from typing import Any

from ..move import parse_row_name
from ..page.links import PageSetup, game_url, live_link, open_page
from ..page.safe_json import load_json
from ..page.session import Session
from ..page.settings import STORAGE_KEY, Settings, settings_from_json, settings_to_json
from ..page.status import status
from .client import ComputerClient
from .controls import BoardInput
from .dialogs import Dialogs
from .dom import document, element, find, guarded, is_none, listen, load, pressed_action, store, to_js, warn, window
from .game_menu import ACTIONS, GameKeeper
from .learning import Learning
from .view import View

__all__ = ["App", "start"]

REVIEW_KEYS = {"ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last"}

LIVE_MODULES = ("yinsh/live/__init__.py", "yinsh/live/protocol.py", "yinsh/live/clock.py", "yinsh/live/room.py",
                "yinsh/page/live.py", "yinsh/web/relay.py", "yinsh/web/live.py")
"""A live room's modules, fetched and imported only when a room opens: a game at one device never
loads them (tests/test_pyscript_config.py checks the list against their imports)."""
LIVE_SCRIPTS = ("./static/js/live.js", "./static/vendor/nats/nats.js")
"""The JavaScript a live room needs (yinsh.web.live imports them), fetched together with its modules."""
LIVE_FILES_ID = "yinsh-live-files"
"""The built page names its live room's files (their versioned URLs) in ``<script
type="application/json" id="yinsh-live-files">``: ``{"bundle": url, "scripts": {url: versioned}}``;
the development page has none and loads the sources."""
LIVE_CONFIG = "./live.json"
"""Where the site names its relay (``{"relay": "wss://…"}``); ``?relay=`` in the room's link
wins (a site that names none, tests)."""


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
        self._draw_later = guarded(self._draw, self.recover)  # called back by JavaScript
        self.controls = BoardInput(session, self.view)
        self.dialogs = Dialogs(session, self.begin, self.client.start)
        self.keeper = GameKeeper(session, self.show, self.refresh)
        self.learning = Learning(session)
        self.saved_generation = session.generation
        self.holding = False
        """While a link's question is open, the saved game in progress is not overwritten."""
        self.live: Any = None
        self.before_live: tuple | None = None
        """The game and players shown before the room opened (back to them if it cannot)."""
        """The live room shown (:class:`yinsh.web.live.LiveRoom`, loaded when one opens), or ``None``."""
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
        if self.live is not None and self.live.after_input(self._draw_later):
            return  # a move made here leaves first: the page is drawn once it is sent
        self._draw()

    def _draw(self) -> None:
        self.view.draw(status(self.session))
        if self.live is not None:
            self.live.draw()
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
        if self.live is not None:  # the room keeps the game: the address is the room's link
            self.live.keep_url()
            return
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
            for notice in setup.notices:
                session.notice(notice)
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
        listen(document, "pointerdown", self.on_press)
        listen(window, "hashchange", self.on_hash_change)
        listen(document.getElementById("live-chat"), "submit", self.on_live_chat)
        listen(document.getElementById("live-dialog"), "click", self.on_live_dialog)
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
        elif action.startswith("live-"):
            if action == "live-new":
                document.getElementById("game-menu").removeAttribute("open")
                self.show_live_dialog()
            elif self.live is not None:
                self.live.act(action)
        elif action in ACTIONS:
            self.keeper.act(action)
        elif action == "pause":
            session.toggle_pause()

    # ------------------------------------------------------------------ live rooms (on demand)

    def open_live(self, room: str, relay: str = "", colours: str = "white", clock: str = "none") -> None:
        """Open the live room ``room`` (``"new"``: a new one, its first seat ``colours``, its
        time control ``clock``); its modules and the relay's address are fetched first, in the
        background."""
        if self.live is not None:
            return
        self.session.message = "Opening the live room…"

        async def run() -> None:
            built = _built_live_files()
            scripts = {url: built.get("scripts", {}).get(url, url) for url in LIVE_SCRIPTS}
            # the NATS client and the key helper download while the room's modules load
            window.eval("window.__yinshLive = Promise.all([" + ", ".join(
                f"import(new URL('{url}', document.baseURI).href)" for url in scripts.values()) +
                "]).catch(() => null)")
            try:
                if built:
                    await _add_bundle(built.get("bundle", ""))
                else:
                    await _load_modules(LIVE_MODULES)
                module = __import__("yinsh.web.live", None, None, ["LiveRoom"])
            except Exception as exc:
                warn("the live room's code could not be loaded", exc)
                self.session.message = "The live room could not be opened: its code did not load."
                self.save()
                self.refresh()
                return
            if relay and not relay.startswith(("ws://", "wss://")):
                self.session.notice("The link's relay is not a ws:// or wss:// address: no live room.")
                self.save()
                self.refresh()
                return
            address = relay or await _site_relay()
            if not address:
                self.session.message = ("No relay is named for live rooms on this site: play here, against "
                                        "the computer, or by link.")
                self.save()
                self.refresh()
                return
            if room == "new":  # 128 random bits: an unguessable name
                name = _b64url(str(window.eval("[...crypto.getRandomValues(new Uint8Array(16))]"
                                               ".map(b => String.fromCharCode(b)).join('')")))
            elif module.valid_room(room):
                name = room
            else:
                self.session.notice("The link's live room is not a room's name (8 to 32 letters, digits, "
                                            "'_' or '-'): the game here is kept.")
                self.save()
                self.refresh()
                return
            self.session.message = ""
            self.before_live = (self.session.game, self.session.settings)
            self.live = module.LiveRoom(self, name, address, bool(relay), colours if room == "new" else None,
                                        scripts, clock)
            self.live.start()
            self.refresh()

        asyncio.create_task(run())

    def live_failed(self) -> None:
        """The room could not open (its card says why): the game shown before it, playable."""
        self.live = None
        if self.before_live is not None:
            game, settings = self.before_live
            self.show(game, settings, [])
        self.save()
        self.refresh()

    def show_live_dialog(self) -> None:
        """"Play someone online": the dialog, its "Open a room" held until the site's relay is
        known; a site that names none says so there, and the button stays off."""
        dialog = document.getElementById("live-dialog")
        create = dialog.querySelector("[data-action=live-create]")
        note = document.getElementById("live-dialog-relay")
        create.disabled = True
        note.textContent = "Looking for the site's relay…"
        note.hidden = False
        dialog.showModal()

        async def look() -> None:
            if await _site_relay():
                note.hidden = True
                create.disabled = False
            else:
                note.textContent = ("This site names no relay for live rooms, so no room can open here: "
                                    "play on this device, against the computer, or by link.")
        asyncio.create_task(look())

    def on_live_dialog(self, event) -> None:
        action = pressed_action(event)
        if not action:
            return
        dialog = document.getElementById("live-dialog")
        if action == "live-create":
            chosen = element(dialog.querySelector("input[name=colours]:checked"))
            clock = element(dialog.querySelector("select[name=clock]"))
            dialog.close()
            self.open_live("new", "", str(chosen.value) if chosen is not None else "white",
                           str(clock.value) if clock is not None else "none")
        elif action == "cancel-live":
            dialog.close()

    def on_live_chat(self, event) -> None:
        event.preventDefault()
        if self.live is not None:
            self.live.chat(str(event.target.elements["text"].value))

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

    def on_press(self, event) -> bool:
        """A press anywhere on the page: the words are the pointer's again (a press on the
        board is its own, and draws the board). Whether they changed (the page is drawn)."""
        if self.session.input_mode != self.controls.pointer_mode and find(event.target, "#board") is None:
            self.controls.note_pointer()
            return True
        return False

    def on_key(self, event) -> None:
        target = event.target
        if find(target, "input, textarea, select, [contenteditable], dialog[open]") is not None:
            return  # typing, or a dialog: its keys are its own
        self.controls.note_key(event)
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


async def _load_modules(paths: tuple[str, ...]) -> None:
    """Fetch the page's on-demand modules (all at once) and write them beside the ones it
    started with, where ``import`` finds them."""
    import os

    missing = []
    for path in paths:
        try:
            os.stat(path)  # there already (loaded before)
        except OSError:
            missing.append(path)
    responses = [window.fetch("./" + path) for path in missing]  # the requests go out together
    for path, pending in zip(missing, responses):
        response = await pending
        if not response.ok:
            raise OSError(f"{path}: {response.status}")
        text = str(await response.text())
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            try:
                os.mkdir("/".join(parts[:i]))
            except OSError:
                pass
        with open(path, "w") as out:
            out.write(text)


def _built_live_files() -> dict:
    """What the built page says of its live room's files (:data:`LIVE_FILES_ID`), or ``{}``."""
    named = document.getElementById(LIVE_FILES_ID)
    if is_none(named):
        return {}
    data = load_json(str(named.textContent))
    return data if isinstance(data, dict) and isinstance(data.get("scripts"), dict) else {}


# The bundle's bytes cross from JavaScript as hexadecimal text: one string, which bytes.fromhex
# reads in C (a typed array crosses MicroPython's proxy byte by byte: about 2 ms a kilobyte).
_FETCH_HEX = """(async (url) => {
  const response = await fetch(new URL(url, document.baseURI).href);
  if (!response.ok) throw new Error(url + ": " + response.status);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const digits = Array.from({length: 256}, (_, i) => i.toString(16).padStart(2, "0"));
  const parts = new Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = digits[bytes[i]];
  return parts.join("");
})"""


async def _add_bundle(url: str) -> None:
    """Fetch the built site's live bundle and add its modules to the mounted bundle (once)."""
    import bundle  # mpy/bundle.py: the built page's modules, mounted before the package

    try:
        __import__("yinsh.live")
        return  # added before (a room opened, then left)
    except ImportError:
        pass
    bundle.add(bytes.fromhex(str(await window.eval(_FETCH_HEX)(url))))


async def _site_relay() -> str:
    """The relay the site names in ``live.json``, or ``""``."""
    try:
        response = await window.fetch(LIVE_CONFIG, to_js({"cache": "no-cache"}))
        if not response.ok:
            return ""
        data = load_json(str(await response.text()))
    except Exception:
        return ""
    relay = data.get("relay") if isinstance(data, dict) else None
    return relay if isinstance(relay, str) and relay.startswith(("ws://", "wss://")) else ""


def _b64url(raw: str) -> str:
    """``raw`` (bytes as a string of code points below 256) in base64url without padding."""
    import binascii

    return binascii.b2a_base64(bytes(ord(c) for c in raw)).decode().strip().replace("+", "-").replace(
        "/", "_").rstrip("=")


def start() -> App:
    """Build the page from the URL (or the saved game), draw it, listen, and flag
    ``data-yinsh-ready``; a computer player's worker starts at once (or is the one the page's
    ``<head>`` started), and that one is closed if no computer plays after all."""
    live = live_link(str(window.location.search), str(window.location.hash))
    app = App()
    app.attach()
    game, settings = app.session.game, app.session.settings
    if live.room:  # the room's link stays the address while the room opens
        app.refresh()
        app.open_live(live.room, live.relay, live.colours, live.clock)
    else:
        if app.setup.previous is not None:
            app.ask_link(app.setup, shown=True)
        if game.moves or game.ply or settings.query():
            app.save()
        app.refresh()
        app.dialogs.greet()
    app.client.close_early_worker()
    document.documentElement.setAttribute("data-yinsh-ready", "")
    window.performance.mark("yinsh:ready")
    return app
