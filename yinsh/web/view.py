"""The game page's view (PyScript, main thread): it draws a :class:`~yinsh.page.session.Status`.

:meth:`View.draw` is the only way the page changes what it shows. It starts no work of its
own: it compares each part of the status with what it drew last (one cache, :attr:`View.shown`)
and touches the DOM only where something changed. The board is redrawn when its
:class:`~yinsh.picture.Picture` changes, but for its preview (the move under the pointer),
whose layer alone is drawn again (:func:`~yinsh.render.preview_layer`); a change's animation (a ring sliding,
markers flipping, a computer's move drawn step by step) plays once, by the status's
:class:`~yinsh.page.session.Motion` token. What a screen reader is told goes through one
polite live region (:class:`~yinsh.page.access.Announcer` says what happened).

Testing hooks, updated at every draw (docs/ARCHITECTURE.md lists them all): on ``<html>``
``data-to-move``, ``data-ai``, ``data-ai-discarded``, ``data-sounds``; on ``#board``
``data-record``, ``data-position``, ``data-result``, ``data-phase``, ``data-to-move``,
``data-hint`` and ``data-review``, and in its SVG ``data-preview`` (:meth:`View.draw_preview`);
``data-ply`` on the moves of the list and the points of the graph, ``data-choice`` on the row
buttons.
"""

from __future__ import annotations

import asyncio

from ..board import WINDOWS, point_name
from ..page.access import START_POINT, Announcer
from ..page.graph import eval_graph_svg
from ..page.status import Status
from ..render import Animation, board_svg, escape, point_xy, preview_layer
from .audio import AUDIO
from .dom import create_proxy, document, element, warn, window

__all__ = ["View", "FOCUS_HALF"]

FOCUS_HALF = 24
"""Half the side of the keyboard focus's square around a point (SVG units: points are 50 apart)."""


def _get(element_id: str):
    return document.getElementById(element_id)


class View:
    """What the page shows, drawn from statuses; ``status`` gives the current one (to draw
    the board again once a computer's move has been shown step by step)."""

    def __init__(self, status) -> None:
        self.status = status
        self.root = document.documentElement
        self.board = _get("board")
        self.live = _get("announcer")
        self.announcer = Announcer()
        self.announcements: list[str] = []
        self._flush = create_proxy(self.flush_announcements)
        self.shown: dict[str, object] = {}
        """What each part of the page shows now, part by part (the one cache)."""
        self.board_drawn = 0
        """Grows whenever the board's markup is replaced: a step-by-step drawing stops then."""
        self.motion_seen = 0
        self.focus_point = START_POINT
        """The point the keyboard acts on (ringed while the board has the keyboard's focus)."""

    def _changed(self, part: str, value: object) -> bool:
        """Whether ``part`` must be drawn again to show ``value`` (and remember it)."""
        if part in self.shown and self.shown[part] == value:
            return False
        self.shown[part] = value
        return True

    # ------------------------------------------------------------------ the whole page

    def draw(self, status: Status) -> None:
        self.draw_board(status)
        self.draw_preview(status)
        board = self.board
        if self._changed("record", status.record):
            board.setAttribute("data-record", status.record)
            board.setAttribute("data-position", status.position)
            board.setAttribute("data-result", status.result)
        board.setAttribute("data-phase", status.phase)
        board.setAttribute("data-to-move", status.turn_color)
        board.setAttribute("data-hint", status.hint)
        board.setAttribute("data-review", "" if status.reviewing is None else str(status.reviewing))
        board.classList.toggle("reviewing", status.reviewing is not None)
        self.root.setAttribute("data-to-move", status.to_move)
        if self._changed("ai", status.ai):
            self.root.setAttribute("data-ai", status.ai)
        if status.discarded and self._changed("discarded", status.discarded):
            self.root.setAttribute("data-ai-discarded", str(status.discarded))
        self.draw_texts(status)
        self.draw_players(status)
        self.draw_buttons(status)
        self.draw_row_choices(status)
        self.draw_pool(status)
        self.draw_moves(status)
        self.draw_review(status)
        self.draw_banner(status)
        self.announce(self.announcer.update(status.game, status.spoken))

    def draw_texts(self, status: Status) -> None:
        if self._changed("prompt", (status.prompt, status.detail)):
            _get("prompt").textContent = status.prompt
            _get("detail").textContent = status.detail
        if self._changed("preview-note", status.preview_note):
            note = _get("preview-note")
            note.textContent = status.preview_note
            note.hidden = not status.preview_note
        if self._changed("guide", status.guide):
            _get("guide-text").textContent = status.guide
            _get("guide").hidden = not status.guide
        if self._changed("message", status.message):
            message = _get("hint")
            message.textContent = status.message
            message.hidden = not status.message
            self.announce(status.message)
        if self._changed("notices", status.notices):
            notices = _get("notices")
            notices.innerHTML = "".join(f"<p>{escape(n)}</p>" for n in status.notices)
            notices.hidden = not status.notices
        if self._changed("send-link", status.send_link):
            _get("send-link").hidden = not status.send_link

    # ------------------------------------------------------------------ the board

    def draw_board(self, status: Status) -> None:
        """Redraw the board if what it shows changed, with the change's animation once."""
        motion = status.motion
        fresh = motion.token != self.motion_seen
        self.motion_seen = motion.token
        if fresh and status.sounds:
            AUDIO.play(status.sounds)
            self.root.setAttribute("data-sounds", " ".join(status.sounds))
        resting = status.board._replace(preview=None)  # the preview's layer is drawn on its own
        if not self._changed("board", resting) and not fresh:
            return
        if fresh and motion.frames and status.reviewing is None:
            asyncio.create_task(self.play_frames(motion.frames))
            return
        self.set_board(board_svg(resting._replace(animation=motion.animate if fresh else Animation.NONE)))

    def forget_board(self) -> None:
        """Draw the board again at the next :meth:`draw` (something else changed it)."""
        self.shown.pop("board", None)

    def set_board(self, markup: str) -> None:
        self.board_drawn += 1
        self.board.innerHTML = markup
        self.shown.pop("preview", None)  # the new markup has none
        self.show_focus()

    def draw_preview(self, status: Status) -> None:
        """Draw what the move or row under the pointer (or the keyboard's focus) would do over
        the board, without redrawing it (a dragged ring stays lifted): the picture's preview
        layer (:func:`~yinsh.render.preview_layer`, where :func:`~yinsh.render.board_svg` draws
        it: after the pieces, before the points), and the testing hooks ``data-preview="ring"``
        on the landing point, ``"flip"`` on each marker it would flip, ``"row"`` on the row's five."""
        preview = status.board.preview
        if not self._changed("preview", preview):
            return
        svg = element(self.board.querySelector("svg"))
        if svg is None:
            return
        old = element(svg.querySelector(".yb-preview"))
        if old is not None:
            old.remove()
        for marked in svg.querySelectorAll("[data-preview]"):
            marked.removeAttribute("data-preview")
        hits = element(svg.querySelector(".yb-hits"))
        if preview is None or hits is None:
            return
        hits.insertAdjacentHTML("beforebegin", preview_layer(status.board))
        marks = [(f'[data-marker="{point_name(p)}"]', "flip") for p in preview.flips]
        if preview.ring is not None:
            marks.append((f'[data-point="{point_name(preview.ring)}"]', "ring"))
        if preview.row is not None:
            marks += [(f'[data-marker="{point_name(p)}"]', "row") for p in WINDOWS[preview.row]]
        for selector, what in marks:
            found = element(svg.querySelector(selector))
            if found is not None:
                found.setAttribute("data-preview", what)

    async def play_frames(self, frames: list) -> None:
        """A computer's move step by step: the rows it removes, the ring move, its own rows;
        then the position after it. Any other drawing of the board meanwhile wins."""
        try:
            for shown, ms in frames:
                self.set_board(board_svg(shown))
                token = self.board_drawn
                await asyncio.sleep(ms / 1000)
                if self.board_drawn != token:
                    return
        except Exception as exc:
            warn("drawing the computer's move failed", exc)
        self.forget_board()
        self.draw(self.status())

    def show_focus(self) -> None:
        """Ring the focused point and point ``aria-activedescendant`` at it (after a redraw,
        or when the focus moves): the board itself keeps the DOM focus, so a redraw never
        loses it. The ring is a rounded square (no piece is square), the SVG's last element,
        above the candidate rows; CSS shows it while the board has the keyboard's focus."""
        svg = element(self.board.querySelector("svg"))
        if svg is None:
            return
        ring = element(svg.querySelector(".focus-ring"))
        if ring is None:
            side = 2 * FOCUS_HALF
            svg.insertAdjacentHTML("beforeend", f'<rect class="focus-ring" width="{side}" height="{side}" rx="9"/>')
            ring = svg.lastElementChild
        name = point_name(self.focus_point)
        x, y = point_xy(self.focus_point)
        ring.setAttribute("x", f"{x - FOCUS_HALF:.2f}")
        ring.setAttribute("y", f"{y - FOCUS_HALF:.2f}")
        ring.setAttribute("data-point-focus", name)
        if element(_get(f"yb-pt-{name}")) is not None:
            self.board.setAttribute("aria-activedescendant", f"yb-pt-{name}")
        else:  # a computer move drawn in steps has no named points
            self.board.removeAttribute("aria-activedescendant")

    # ------------------------------------------------------------------ the panel

    def draw_players(self, status: Status) -> None:
        for player in status.players:
            key = (player.active, player.thinking, player.kind, player.score, player.need, player.on_board, player.at)
            if not self._changed("player-" + player.color, key):
                continue
            el = _get("player-" + player.color)
            el.classList.toggle("active", player.active)
            el.classList.toggle("thinking", player.thinking)
            el.querySelector(".kind").textContent = player.kind
            at = " " + player.at if player.at else ""
            el.querySelector(".rings").innerHTML = player.rings
            el.querySelector(".score-count").textContent = f"{player.score}/{player.need}"
            score = el.querySelector(".score")
            score.setAttribute("aria-label", f"{player.score} of {player.need} rings removed{at}")
            score.setAttribute("title", f"{player.score} of {player.need} ring{'s' * (player.need != 1)} removed{at}")
            el.querySelector(".on-board").textContent = player.on_board
            strip = _get("strip-" + player.color)  # a phone's strip above the board
            strip.classList.toggle("active", player.active)
            strip.querySelector(".strip-score").textContent = f"{player.score}/{player.need}"

    def draw_buttons(self, status: Status) -> None:
        key = (status.can_undo, status.can_redo, status.hint_hidden, status.hint_disabled, status.hint_busy,
               status.pause_hidden, status.pause_label, status.by_link, status.opponent_link)
        if not self._changed("buttons", key):
            return
        panel = _get("panel")
        panel.querySelector("button[data-action=undo]").disabled = not status.can_undo
        panel.querySelector("button[data-action=redo]").disabled = not status.can_redo
        hint = panel.querySelector("button[data-action=hint]")
        hint.hidden = status.hint_hidden  # nobody to give a hint to: Pause takes its place
        hint.disabled = status.hint_disabled
        hint.textContent = "Thinking…" if status.hint_busy else "Hint"
        hint.setAttribute("aria-busy", "true" if status.hint_busy else "false")
        pause = panel.querySelector("button[data-action=pause]")
        pause.hidden = status.pause_hidden
        pause.textContent = status.pause_label
        opponent = panel.querySelector("#game-menu button[data-action=copy-opponent-link]")
        opponent.hidden = not status.opponent_link  # offered only where it means something
        opponent.disabled = not status.by_link

    def draw_row_choices(self, status: Status) -> None:
        """Several candidate rows: each is also a button by the prompt (the keyboard's and the
        screen reader's way to them, and a sure one on a small screen)."""
        if not self._changed("row-choices", status.row_choices):
            return
        box = _get("row-choices")
        box.innerHTML = "".join(
            f'<button type="button" data-action="choose-row" data-choice="{name}" '
            f'aria-pressed="{"true" if chosen else "false"}">Row {name}</button>'
            for name, chosen in status.row_choices)
        box.hidden = not status.row_choices

    def draw_pool(self, status: Status) -> None:
        if not self._changed("pool", (status.pool, status.pool_warning, status.pool_at)):
            return
        _get("pool-at").textContent = " " + status.pool_at if status.pool_at else ""
        _get("strip-at").textContent = " " + status.pool_at if status.pool_at else ""
        _get("pool").classList.toggle("past", bool(status.pool_at))
        _get("pool").classList.toggle("low", bool(status.pool_warning))
        _get("pool-count").textContent = str(status.pool)
        _get("strip-pool").textContent = str(status.pool)
        warning = _get("pool-warning")
        warning.hidden = not status.pool_warning
        warning.textContent = status.pool_warning

    def draw_moves(self, status: Status) -> None:
        """The move list, numbered as in a record; new moves are appended, not redrawn."""
        moves = status.moves
        before = self.shown.get("moves")
        if before == moves:
            return
        self.shown["moves"] = moves
        listed = _get("moves")
        if before and moves[: len(before)] == before:  # type: ignore[arg-type]
            listed.insertAdjacentHTML("beforeend", _move_items(moves, len(before)))  # type: ignore[arg-type]
        else:
            listed.innerHTML = _move_items(moves, 0)
        _get("moves-empty").hidden = bool(moves)

    def draw_review(self, status: Status) -> None:
        """The review area (the move shown, the way back, the evaluation graph) and the move
        shown marked in the list (``aria-current``, scrolled into view)."""
        review = status.review
        area = _get("review")
        opens = area.hidden and review is not None
        area.hidden = review is None
        self._roving_tab_stop(len(status.moves) if review is None else max(review.at, 1))
        current = element(document.querySelector("#moves [aria-current]"))
        if current is not None and (review is None or current.getAttribute("data-ply") != str(review.at)):
            current.removeAttribute("aria-current")
        if review is None:
            return
        if self._changed("review-label", review.label):
            _get("review-label").textContent = review.label
            self.announce(review.label)
        area.querySelector("button[data-action=review-prev]").disabled = review.at == 0
        area.querySelector("button[data-action=review-next]").disabled = review.at == review.count
        graph = eval_graph_svg(review.values, current=review.at or None, first_number=review.first_number)
        if self._changed("graph", graph):
            _get("eval-graph").innerHTML = graph
        if self._changed("graph-note", review.note):  # a quick estimate, until the computer's evaluation comes
            note = _get("eval-note")
            note.textContent = review.note
            note.hidden = not review.note
            _get("eval-graph").setAttribute("data-graph", "estimate" if review.note else "engine")
        if opens:  # the panel may scroll (a phone, a low window): the review area in view
            _reveal(area, document.querySelector("#panel .panel-body"))
        button = element(document.querySelector(f'#moves [data-ply="{review.at}"]')) if review.at else None
        if button is not None and button.getAttribute("aria-current") != "step":
            button.setAttribute("aria-current", "step")
            _reveal(button, document.querySelector("#panel .move-scroll"))

    def _roving_tab_stop(self, ply: int) -> None:
        """One Tab stop for the whole list (the move shown, else the last; arrow keys go on
        from there), instead of one per move."""
        stop = element(document.querySelector("#moves [tabindex='0']"))
        if stop is not None:
            if stop.getAttribute("data-ply") == str(ply):
                return
            stop.setAttribute("tabindex", "-1")
        button = element(document.querySelector(f'#moves [data-ply="{ply}"]'))
        if button is not None:
            button.setAttribute("tabindex", "0")

    def draw_banner(self, status: Status) -> None:
        if not self._changed("banner", status.banner):
            return
        banner = _get("banner")
        banner.hidden = status.banner is None
        if status.banner is not None:
            _get("banner-title").textContent = status.banner[0]
            _get("banner-text").textContent = status.banner[1]

    # ------------------------------------------------------------------ the screen reader

    def announce(self, text: str) -> None:
        """Say ``text`` to a screen reader (the one polite live region). What one input says
        (a hint, then the new prompt) is said together, once the handler is done: a second
        write would cut the first short."""
        if text:
            self.announcements.append(text)
            if len(self.announcements) == 1:
                window.queueMicrotask(self._flush)

    def flush_announcements(self) -> None:
        text = ". ".join(self.announcements)
        self.announcements = []
        said = str(self.live.textContent)
        self.live.textContent = text + ("\u00a0" if said == text else "")  # said again


def _reveal(shown, box) -> None:
    """Scroll ``box`` (and nothing else: not the page, unlike ``scrollIntoView``) so that
    ``shown``, inside it, is in view."""
    outer, inner = box.getBoundingClientRect(), shown.getBoundingClientRect()
    if float(inner.top) < float(outer.top):
        box.scrollTop = float(box.scrollTop) - (float(outer.top) - float(inner.top))
    elif float(inner.bottom) > float(outer.bottom):
        box.scrollTop = float(box.scrollTop) + min(float(inner.bottom) - float(outer.bottom),
                                                   float(inner.top) - float(outer.top))


def _move_items(moves: list[tuple[int, str, str]], first: int) -> str:
    return "".join(
        f'<li class="{color}" value="{number}"><button type="button" class="move" data-ply="{i + 1}" '
        f'tabindex="-1"><span class="num">{number}.</span><span class="mv">{_move_parts(text)}</span></button></li>'
        for i, (number, color, text) in enumerate(moves) if i >= first)


def _move_parts(text: str) -> str:
    """A move's notation in parts that never break inside: its ring move (``i9-e9``) and each
    removal (``xf9-j9xd8``: a row, then a ring), a ``;`` kept with what it ends; a long move
    wraps only between parts."""
    pieces: list[str] = []
    for part in text.split(";"):
        if part.startswith("x"):
            fields = part[1:].split("x")  # row, ring, row, ring, …
            pieces += ["x" + "x".join(fields[i:i + 2]) for i in range(0, len(fields), 2)]
        else:
            pieces.append(part)
        pieces[-1] += ";"
    pieces[-1] = pieces[-1][:-1]
    return "<wbr>".join(f'<span class="part">{escape(piece)}</span>' for piece in pieces)
