"""The embeddable diagram's glue (``embed.html``, PyScript, main thread).

The same shape as the game page: a model (:class:`~yinsh.page.embed_frame.EmbedFrame`, read
from the URL by :func:`~yinsh.page.embed.parse_embed`), a view (:class:`EmbedView`) that draws
what :func:`~yinsh.page.embed_frame.frame_status` says, and controls
(:class:`EmbedControls`) that turn the step buttons, the arrow keys and, in a puzzle, clicks
(or Enter on a focused point) into the frame's methods; the reader's move is compared with the
expected ones. Bad parameters show their message in the frame; a handler
never lets an exception escape (a warning in the console, never an error or a traceback).

Testing hooks: ``<html data-yinsh-ready>`` once started (also when the frame shows a
message); ``#board`` carries ``data-record`` and ``data-position`` (the game on the board),
``data-ply`` and ``data-moves`` (the step shown, out of how many), ``data-highlight`` and
``data-rows`` (the author's highlights), ``data-puzzle`` (``solving``, ``correct``, ``wrong``,
or empty outside a puzzle), ``data-phase`` and, for a bad URL, ``data-error``.
"""

from __future__ import annotations

from ..board import parse_point
from ..move import parse_row_name
from ..page.embed_frame import EmbedFrame, FrameStatus, frame_status
from .dom import document, element, find, listen, window

__all__ = ["EmbedView", "EmbedControls", "start"]

STEP_KEYS = {"ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last"}


class EmbedView:
    """Draws a :class:`~yinsh.page.embed_frame.FrameStatus` into the frame's page."""

    def __init__(self, frame: EmbedFrame) -> None:
        self.frame = frame
        self.root = document.documentElement
        self.board = document.getElementById("board")

    def draw(self) -> None:
        status = frame_status(self.frame)
        board = self.board
        board.classList.remove("loading")
        board.removeAttribute("aria-busy")
        if not status.svg:
            self.draw_error(status.error)
            return
        board.removeAttribute("data-error")
        document.getElementById("message").hidden = True
        focused = self.focused_target()
        board.innerHTML = status.svg
        board.classList.toggle("passive-rows", not status.choosing_row)
        if status.puzzle == "solving":
            self.make_focusable(focused, rows=status.choosing_row)
        for name in ("record", "position", "ply", "moves", "highlight", "rows", "phase", "puzzle"):
            board.setAttribute(f"data-{name}", str(getattr(status, name)))
        caption = document.getElementById("caption")
        caption.textContent = status.caption
        caption.hidden = not status.caption
        self.draw_steps(status)
        self.draw_puzzle(status)

    def draw_steps(self, status: FrameStatus) -> None:
        nav = document.getElementById("steps")
        nav.hidden = not status.steps
        if not status.steps:
            return
        document.getElementById("step-label").textContent = status.step_label
        for button in nav.querySelectorAll("button[data-step]"):
            where = str(button.getAttribute("data-step"))
            button.disabled = status.first if where in ("first", "prev") else status.last

    def draw_puzzle(self, status: FrameStatus) -> None:
        """The prompt (text) or the verdict (markup), and the button that starts the puzzle again."""
        shown = document.getElementById("status")
        reset = document.querySelector("button[data-action=reset]")
        shown.classList.remove("correct", "wrong")
        shown.hidden = reset.hidden = not status.puzzle
        if not status.puzzle:
            return
        if status.puzzle == "solving":
            shown.textContent = status.status
        else:
            shown.innerHTML = status.status
            shown.classList.add(status.puzzle)
        reset.textContent = status.again
        reset.disabled = status.reset_disabled

    def draw_error(self, error: str) -> None:
        self.board.setAttribute("data-error", error)
        self.board.setAttribute("data-puzzle", "")
        message = document.getElementById("message")
        message.textContent = error
        message.hidden = False
        for element_id in ("steps", "status", "caption"):
            document.getElementById(element_id).hidden = True
        document.querySelector("button[data-action=reset]").hidden = True

    def focused_target(self) -> str | None:
        """The selector of the board's focused point or row, to focus it again after a redraw."""
        active = element(document.activeElement)
        if active is None or not self.board.contains(active):
            return None
        for attr in ("data-row", "data-point"):
            value = element(active.getAttribute(attr))
            if value is not None:
                return f'[{attr}="{value}"]'
        return None

    def make_focusable(self, focused: str | None, rows: bool) -> None:
        """What may be clicked now (``rows``: the rows too) is reached with Tab, and Enter acts on it."""
        for target in self.board.querySelectorAll(".hit.can, .row" if rows else ".hit.can"):
            name = element(target.getAttribute("data-point")) or target.getAttribute("data-row")
            target.setAttribute("tabindex", "0")
            target.setAttribute("role", "button")
            target.setAttribute("aria-label", str(name))
        if focused is not None:
            target = element(self.board.querySelector(f"{focused}[tabindex]"))
            if target is None:
                target = element(self.board.querySelector("[tabindex]"))
            if target is not None:
                target.focus()


class EmbedControls:
    """The frame's input: the board's clicks, the keys, the step and reset buttons, the hash."""

    def __init__(self, frame: EmbedFrame, view: EmbedView) -> None:
        self.frame = frame
        self.view = view

    def act_on(self, target) -> None:
        """A click (or Enter) on a point or a row of the puzzle's board."""
        frame = self.frame
        if not frame.solving():
            return
        row_el = find(target, "[data-row]")
        point_el = find(target, "[data-point]")
        if row_el is not None and frame.turn is not None and frame.turn.candidate_rows:
            frame.click_row(parse_row_name(str(row_el.getAttribute("data-row"))))
        elif point_el is not None:
            frame.click_point(parse_point(str(point_el.getAttribute("data-point"))))
        else:
            frame.cancel()  # a click on the board between the points
        self.view.draw()

    def on_board_click(self, event) -> None:
        self.act_on(event.target)

    def on_key(self, event) -> None:
        key = str(event.key)
        frame = self.frame
        if frame.spec is None:
            return
        if frame.spec.steps and key in STEP_KEYS:
            event.preventDefault()
            if frame.step(STEP_KEYS[key]):
                self.view.draw()
        elif frame.turn is not None and key in ("Enter", " ") and find(event.target, "#board") is not None:
            event.preventDefault()
            self.act_on(event.target)
        elif frame.turn is not None and key == "Escape" and frame.cancel():
            self.view.draw()

    def on_controls_click(self, event) -> None:
        button = find(event.target, "button")
        if button is None or button.disabled:
            return
        where = element(button.getAttribute("data-step"))
        if where is not None:
            if self.frame.step(str(where)):
                self.view.draw()
        elif str(button.getAttribute("data-action")) == "reset":
            self.frame.reset_puzzle()
            self.view.draw()

    def on_hash_change(self, event) -> None:
        self.frame.open(str(window.location.search), str(window.location.hash))
        self.view.draw()

    def attach(self) -> None:
        for target, event, handler in ((self.view.board, "click", self.on_board_click),
                                       (document, "keydown", self.on_key),
                                       (document.getElementById("controls"), "click", self.on_controls_click),
                                       (window, "hashchange", self.on_hash_change)):
            listen(target, event, handler)  # a failure: a console warning, never a traceback in the frame


def start() -> EmbedControls:
    """Read the URL, draw, listen, and flag ``data-yinsh-ready``."""
    frame = EmbedFrame(str(window.location.search), str(window.location.hash))
    view = EmbedView(frame)
    controls = EmbedControls(frame, view)
    controls.attach()
    view.draw()
    view.root.setAttribute("data-yinsh-ready", "")
    return controls
