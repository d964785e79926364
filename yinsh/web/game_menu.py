"""The page's Game menu (PyScript glue): save, copy and open records, share links, and the
game kept in ``localStorage`` across reloads.

The text it handles is made and read by browser-free modules: :mod:`yinsh.page.records`
(record files), :func:`yinsh.web.game_url` and :func:`yinsh.web.opponent_url` (links),
:mod:`yinsh.page.saved` (the saved game). This module only moves that text between the
game and the browser: a download, the clipboard, a file input, ``localStorage``.

Testing hooks: the "Open record" dialog is ``#open-dialog``, its message ``#open-message``
(empty and hidden when all is well); each copy leaves a notice saying what was copied.
"""

from __future__ import annotations

import asyncio

from ..errors import NotationError, YinshError
from ..limits import MAX_TEXT_CHARS, too_long
from ..page.links import from_the_start, game_url, opponent_link_use, opponent_url
from ..page.records import (
    RECORD_MIME,
    Day,
    Listed,
    export_record,
    import_error_message,
    list_import,
    players_for_record,
    record_filename,
    record_notices,
    record_title,
)
from ..page.saved import SAVED_KEY, SET_ASIDE_KEY, saved_to_json, time_from_iso
from ..page.session import NAMES, Session
from ..render import escape
from .dom import create_proxy, document, find, load, pressed_action, store, to_js, warn, window

__all__ = ["GameKeeper", "ACTIONS"]

ACTIONS = ("save-record", "copy-record", "open-record", "copy-link", "copy-opponent-link")
"""The ``data-action`` values of the Game menu's buttons."""
NOT_SAVED = ("This game is not being saved: the browser's storage for this page is full or switched off. "
             "Play goes on; the page's address still holds the game (bookmark it, or save the record).")
NOT_BY_LINK = ("This game started from a set-up position: it cannot be played by link, where a game always "
               "starts from the first move.")


class GameKeeper:
    """Records, links and the saved game of ``session``'s page: ``show(game, settings,
    notices)`` shows a game opened from a record, ``refresh()`` draws the page again after
    an action that finishes later (the clipboard, a file)."""

    def __init__(self, session: Session, show, refresh) -> None:
        self.session = session
        self.show = show
        self.refresh = refresh
        self.dialog = document.getElementById("open-dialog")
        self.form = self.dialog.querySelector("form")
        self.parsed: tuple[str, list[Listed] | Exception] | None = None
        """The text last read in the dialog and its games (or why it could not be read)."""
        self.storage_warned = False

    # ------------------------------------------------------------------ wiring

    def attach(self, listen) -> None:
        listen(self.dialog, "click", self.on_dialog_click)
        listen(self.field("record"), "input", lambda event: self.forget())
        listen(self.field("record"), "change", lambda event: self.preview())
        listen(self.field("file"), "change", lambda event: self.run(self.load_file()))
        listen(document, "click", self.on_document_click)

    def on_document_click(self, event) -> bool:
        """A click anywhere but in the open Game menu closes it, as menus do (the page itself
        is not drawn again for it: ``False``)."""
        menu = document.getElementById("game-menu")
        if menu.open and find(event.target, "#game-menu") is None:
            menu.open = False
        return False

    def act(self, action: str) -> None:
        """Do what a Game menu button says."""
        document.getElementById("game-menu").open = False
        session = self.session
        if action == "save-record":
            self.save_record()
        elif action == "copy-record":
            self.run(self.copy(self.record_text(), "Copied the record to the clipboard."))
        elif action == "copy-link":
            url = self.absolute(game_url(str(window.location.pathname), session.players, session.game,
                                         session.settings))
            self.run(self.copy(url, "Copied the link to this game: it opens the game with every move so far."))
        elif action == "copy-opponent-link" and not from_the_start(session.game):
            session.notice(NOT_BY_LINK)
        elif action == "copy-opponent-link" and opponent_link_use(session.game, session.players):
            mover = NAMES[session.game.to_move]
            url = self.absolute(opponent_url(str(window.location.pathname), session.game, session.settings))
            self.run(self.copy(url, f"Copied the link for {mover}: send it to them. "
                                    + opponent_link_use(session.game, session.players)))
        elif action == "open-record":
            self.open_dialog()

    def run(self, coroutine) -> None:
        """Run an async step; a failure is a notice and a console warning, never a traceback."""
        async def guarded():
            try:
                await coroutine
            except Exception as exc:
                warn("a Game menu action failed", exc)
                self.session.notice("Something went wrong; the game is unchanged.")
            self.refresh()
        asyncio.create_task(guarded())

    def absolute(self, path: str) -> str:
        return str(window.location.origin) + path

    # ------------------------------------------------------------------ saving and copying

    def today(self) -> Day:
        now = window.Date.new()
        return Day(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))

    def record_text(self) -> str:
        return export_record(self.session.game, self.session.settings, self.today(), self.session.record_extras)

    def save_record(self) -> None:
        """Download the record as a ``.ygn`` file (a Blob and an ``<a download>``)."""
        name = record_filename(self.today())
        blob = window.Blob.new(to_js([self.record_text()]), to_js({"type": RECORD_MIME}))
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = name
        link.hidden = True
        document.body.appendChild(link)
        link.click()
        link.remove()
        window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 10_000)
        self.session.notice(f"Saved the record as {name}.")

    async def copy(self, text: str, done: str) -> None:
        """Put ``text`` on the clipboard: the Clipboard API, else the old ``execCommand``."""
        try:
            await window.navigator.clipboard.writeText(text)
        except Exception:  # no permission, no secure context, no focus: try the old way
            if not self.copy_by_selection(text):
                self.session.notice("This browser did not let the page copy. Select the address or use "
                                            "Save record instead.")
                return
        self.session.notice(done)

    def copy_by_selection(self, text: str) -> bool:
        area = document.createElement("textarea")
        area.value = text
        area.setAttribute("readonly", "")
        area.style.position = "fixed"
        area.style.opacity = "0"
        document.body.appendChild(area)
        try:
            area.select()
            return bool(document.execCommand("copy"))
        except Exception:
            return False
        finally:
            area.remove()

    # ------------------------------------------------------------------ the saved game

    def autosave(self) -> None:
        """Keep the game and settings in ``localStorage``. When the browser refuses (its storage
        full or switched off), the older saved game is removed, so that a new tab never opens it
        as the latest, and the save tried once more in the room it leaves; if that fails too,
        the page says once that the game is not being saved, and play goes on."""
        session = self.session
        text = saved_to_json(session.game, session.settings, time_from_iso(str(window.Date.new().toISOString())))
        if store(SAVED_KEY, text) or (store(SAVED_KEY, None) and store(SAVED_KEY, text)):
            return
        if not self.storage_warned:
            self.storage_warned = True
            session.notice(NOT_SAVED)

    def set_aside(self, text: str) -> None:
        """Keep saved data that could not be read under its own key, for a bug report."""
        if not store(SET_ASIDE_KEY, text):
            self.session.notice("The unreadable saved data could not be kept aside: this browser's "
                                        "storage is full or switched off.")

    @staticmethod
    def read_saved() -> str | None:
        return load(SAVED_KEY)

    # ------------------------------------------------------------------ the Open record dialog

    def field(self, name: str):
        return self.form.elements.namedItem(name)

    def open_dialog(self) -> None:
        self.show_message("")
        self.dialog.showModal()

    def show_message(self, text: str) -> None:
        message = document.getElementById("open-message")
        message.textContent = text
        message.hidden = not text

    def forget(self) -> None:
        """The text changed: what was read from it no longer holds."""
        self.parsed = None
        document.getElementById("open-choice").hidden = True
        self.show_message("")

    def read(self) -> list[Listed] | Exception:
        """The games in the dialog's text, listed (read once per text), a lone game also
        replayed, so that its error shows at once; among several, each is replayed when
        chosen. A text past the limit is refused by its length, before it is copied into
        Python (megabytes take a while)."""
        field = self.field("record")
        length = int(field.textLength)
        if length > MAX_TEXT_CHARS:
            return NotationError(too_long("the text", length, MAX_TEXT_CHARS))
        text = str(field.value)
        if self.parsed is None or self.parsed[0] != text:
            result: list[Listed] | Exception
            try:
                listed = list_import(text)
                if len(listed) == 1:
                    listed[0].record()
                result = listed
            except YinshError as exc:
                result = exc
            self.parsed = (text, result)
        return self.parsed[1]

    def preview(self) -> None:
        """Read the text at once: say what is wrong, or list the games when there are several."""
        if not int(self.field("record").textLength):
            return self.forget()
        records = self.read()
        if isinstance(records, Exception):
            self.show_message(import_error_message(records))
            return
        self.show_message("")
        # One change of the document for the whole list: a call into the browser costs more on
        # the page's MicroPython than writing the markup (a hundred games: four hundred calls).
        self.field("choice").innerHTML = "".join(f'<option value="{index}">{escape(record.label())}</option>'
                                                 for index, record in enumerate(records))
        document.getElementById("open-choice").hidden = len(records) < 2

    async def load_file(self) -> None:
        files = self.field("file").files
        if not files.length:
            return
        file = files.item(0)
        try:
            text = str(await file.text())
        except Exception:
            self.show_message(f"Could not read the file {file.name}.")
            return
        self.field("record").value = text
        self.forget()
        self.preview()

    def on_dialog_click(self, event) -> None:
        action = pressed_action(event)
        if not action:
            return
        if action == "cancel-open":
            self.dialog.close()
        elif action == "open-game":
            self.open_game()

    def open_game(self) -> None:
        """Open the chosen game; on a bad record say what is wrong and change nothing."""
        records = self.read()
        if isinstance(records, Exception):
            self.show_message(import_error_message(records))
            return
        listed = not document.getElementById("open-choice").hidden
        index = min(int(str(self.field("choice").value) or 0) if listed else 0, len(records) - 1)
        try:
            record = records[index].record()
        except YinshError as exc:
            self.show_message(import_error_message(exc))
            return
        which = f"game {index + 1} of {len(records)}: " if len(records) > 1 else ""
        self.dialog.close()
        game = record.game.copy()  # the dialog keeps the games it read; the page plays on a copy
        settings, said = players_for_record(game, self.session.settings)
        self.show(game, settings, [f"Opened {which}{record_title(record)}."] + record_notices(record) + said)
