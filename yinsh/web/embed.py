"""The embeddable diagram's glue (``embed.html``, PyScript, main thread).

A straight line, as on the game page: the URL → :func:`~yinsh.page.embed.parse_embed` →
:func:`~yinsh.render.board_svg`; the step buttons and arrow keys change the move shown; in a
puzzle, clicks (or Enter on a focused point) → :class:`~yinsh.turn.Turn` → the move is
compared with the expected ones. Bad parameters show their message in the frame; a handler
never lets an exception escape (a warning in the console, never an error or a traceback).

Testing hooks: ``<html data-yinsh-ready>`` once started (also when the frame shows a
message); ``#board`` carries ``data-record`` and ``data-position`` (the game on the board),
``data-ply`` and ``data-moves`` (the step shown, out of how many), ``data-highlight`` and
``data-rows`` (the author's highlights), ``data-puzzle`` (``solving``, ``correct``, ``wrong``,
or empty outside a puzzle), ``data-phase`` and, for a bad URL, ``data-error``.
"""

from __future__ import annotations

from ..board import parse_point
from ..game import Game
from ..move import Move, parse_row_name
from ..page.embed import EmbedError, EmbedSpec, parse_embed, step_label
from ..render import board_svg, picture
from ..turn import Turn
from .dom import document, element, find, listen, window

__all__ = ["Embed", "start"]

STEP_KEYS = {"ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last"}
VERDICTS = {True: ("Correct!", "Play again"), False: ("Not quite — try again.", "Try again")}


class Embed:
    """The frame's state: what the URL asks for, the move shown, and a puzzle's turn."""

    def __init__(self) -> None:
        self.root = document.documentElement
        self.board = document.getElementById("board")
        self.open_from_url()

    # ---------------------------------------------------------------- what is shown

    def open_from_url(self) -> None:
        """Read the URL (at start, and when the hash changes); a bad one shows its message."""
        self.spec: EmbedSpec | None = None
        self.ply, self.error = 0, ""
        try:
            self.spec = parse_embed(str(window.location.search), str(window.location.hash))
            self.ply = self.spec.ply
        except EmbedError as exc:
            self.error = str(exc)
        self.reset_puzzle()

    def reset_puzzle(self) -> None:
        """The puzzle's position again, nothing decided (outside a puzzle: nothing to do)."""
        self.hint = ""
        self.correct = False
        self.answer: Game | None = None
        """The game after the reader's move, once made."""
        self.turn = Turn(self.spec.game_at(self.ply)) if self.spec and self.spec.puzzle else None
        self.judge()

    def judge(self) -> None:
        """Once the reader's decisions make a whole move, play it and keep the verdict."""
        if self.spec is None or self.turn is None or self.turn.move is None:
            return
        move: Move = self.turn.move
        self.answer = self.turn.game.copy()
        self.answer.push(move)
        self.correct = self.spec.accepts(move)

    def step(self, where: str) -> None:
        spec = self.spec
        if spec is None or not spec.steps:
            return
        target = {"first": 0, "prev": self.ply - 1, "next": self.ply + 1, "last": spec.moves}[where]
        target = max(0, min(target, spec.moves))
        if target != self.ply:
            self.ply = target
            self.draw()

    # ---------------------------------------------------------------- drawing

    def draw(self) -> None:
        board = self.board
        board.classList.remove("loading")
        board.removeAttribute("aria-busy")
        spec, turn = self.spec, self.turn
        if spec is None:
            self.draw_error()
            return
        board.removeAttribute("data-error")
        document.getElementById("message").hidden = True
        status, again = "", ""
        if turn is not None and self.answer is None:  # a puzzle being solved
            # the opponent's last move, until this turn changes the board
            last_move = turn.ring_move or (turn.game.moves[-1] if turn.game.moves and not turn.removals else None)
            shown: Game = turn.game
            svg = board_svg(picture(turn.state, last_move=last_move, destinations=turn.destinations,
                                    rows=turn.candidate_rows or spec.rows, selected_row=turn.selected_row,
                                    selected_ring=turn.selected_ring, removable=turn.removable_rings,
                                    movable=turn.movable_rings, marked=spec.marked, clickable=turn.clickable_points))
            phase, puzzle = str(turn.phase), "solving"
            status, again = self.hint or turn.prompt, "Reset"
        else:
            shown = self.answer or spec.game_at(self.ply)
            svg = board_svg(shown, rows=spec.rows, marked=spec.marked)
            phase, puzzle = "view", "" if turn is None else "correct" if self.correct else "wrong"
            if puzzle:
                verdict, again = VERDICTS[self.correct]
                status = f'{verdict} <span class="played">{shown.moves[-1]}</span>'  # notation: no markup
        focused = self.focused_target()
        board.innerHTML = svg
        choosing_row = puzzle == "solving" and turn is not None and bool(turn.candidate_rows)
        board.classList.toggle("passive-rows", not choosing_row)
        if puzzle == "solving":
            self.make_focusable(focused, rows=choosing_row)
        for name, value in (("record", shown.record()), ("position", shown.position()), ("ply", self.ply),
                            ("moves", spec.moves), ("highlight", ",".join(spec.marked)),
                            ("rows", ",".join(spec.rows)), ("phase", phase), ("puzzle", puzzle)):
            board.setAttribute(f"data-{name}", str(value))
        caption = document.getElementById("caption")
        caption.textContent = spec.caption
        caption.hidden = not spec.caption
        self.draw_steps(spec)
        self.draw_puzzle(puzzle, status, again)

    def draw_steps(self, spec: EmbedSpec) -> None:
        nav = document.getElementById("steps")
        nav.hidden = not spec.steps
        if not spec.steps:
            return
        document.getElementById("step-label").textContent = step_label(self.ply, spec.moves)
        for button in nav.querySelectorAll("button[data-step]"):
            where = str(button.getAttribute("data-step"))
            button.disabled = self.ply == 0 if where in ("first", "prev") else self.ply == spec.moves

    def draw_puzzle(self, puzzle: str, status_text: str, again: str) -> None:
        """The prompt (text) or the verdict (markup), and the button that starts the puzzle again."""
        status = document.getElementById("status")
        reset = document.querySelector("button[data-action=reset]")
        status.classList.remove("correct", "wrong")
        status.hidden = reset.hidden = not puzzle
        if not puzzle:
            return
        if puzzle == "solving":
            status.textContent = status_text
        else:
            status.innerHTML = status_text
            status.classList.add(puzzle)
        reset.textContent = again
        reset.disabled = puzzle == "solving" and not (self.turn and self.turn.decisions)

    def draw_error(self) -> None:
        self.board.setAttribute("data-error", self.error)
        self.board.setAttribute("data-puzzle", "")
        message = document.getElementById("message")
        message.textContent = self.error
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

    # ---------------------------------------------------------------- events

    def act_on(self, target) -> None:
        """A click (or Enter) on a point or a row of the puzzle's board."""
        turn = self.turn
        if turn is None or self.answer is not None:
            return
        row_el = find(target, "[data-row]")
        point_el = find(target, "[data-point]")
        if row_el is not None and turn.candidate_rows:
            self.hint = turn.click_row(parse_row_name(str(row_el.getAttribute("data-row")))) or ""
        elif point_el is not None:
            self.hint = turn.click_point(parse_point(str(point_el.getAttribute("data-point")))) or ""
        elif turn.cancel():  # a click on the board between the points
            self.hint = ""
        self.judge()
        self.draw()

    def on_board_click(self, event) -> None:
        self.act_on(event.target)

    def on_key(self, event) -> None:
        key = str(event.key)
        if self.spec is None:
            return
        if self.spec.steps and key in STEP_KEYS:
            event.preventDefault()
            self.step(STEP_KEYS[key])
        elif self.turn is not None and key in ("Enter", " ") and find(event.target, "#board") is not None:
            event.preventDefault()
            self.act_on(event.target)
        elif self.turn is not None and key == "Escape" and self.answer is None and self.turn.cancel():
            self.hint = ""
            self.draw()

    def on_controls_click(self, event) -> None:
        button = find(event.target, "button")
        if button is None or button.disabled:
            return
        where = element(button.getAttribute("data-step"))
        if where is not None:
            self.step(str(where))
        elif str(button.getAttribute("data-action")) == "reset":
            self.reset_puzzle()
            self.draw()

    def on_hash_change(self, event) -> None:
        self.open_from_url()
        self.draw()

    # ---------------------------------------------------------------- wiring

    def attach(self) -> None:
        for target, event, handler in ((self.board, "click", self.on_board_click), (document, "keydown", self.on_key),
                                       (document.getElementById("controls"), "click", self.on_controls_click),
                                       (window, "hashchange", self.on_hash_change)):
            listen(target, event, handler)  # a failure: a console warning, never a traceback in the frame


def start() -> Embed:
    """Read the URL, draw, listen, and flag ``data-yinsh-ready``."""
    embed = Embed()
    embed.attach()
    embed.draw()
    embed.root.setAttribute("data-yinsh-ready", "")
    return embed
