"""What the game page shows, browser-free: :func:`status` reads a :class:`~yinsh.page.session.Session`.

A :class:`Status` is the page as plain values — what the board shows (a
:class:`~yinsh.render.Picture`), the prompt and the guide's line, the players, the pool, the move list, the review
area, which buttons are enabled — so that :mod:`yinsh.web.view` only copies it into the DOM
and everything the page decides is tested under CPython (tests/page/test_session.py).

>>> from yinsh.game import Game
>>> from yinsh.page.settings import Settings
>>> shown = status(Session(Game.from_record("1.e3 2.a5"), Settings(black="ai-2")))
>>> shown.prompt, shown.moves, shown.players[1].kind
('White: place a ring on an empty point', [(1, 'white', 'e3'), (2, 'black', 'a5')], 'AI 2')
"""

from __future__ import annotations

from ..compat import bit_count, capitalize
from ..game import COLORS, Game
from ..move import Move, row_name
from ..render import Picture, picture, ring_icon_svg
from ..state import RINGS_PER_PLAYER, State, pool
from ..turn import result_text
from .access import point_labels, spoken_prompt
from .estimate import quick_values
from .links import from_the_start, opponent_link_use
from .preview import Preview, preview, preview_note
from .session import NAMES, NOTICES_KEPT, Motion, Session
from .settings import REMOTE, player_label
from .words import detail, plural, prompt

__all__ = ["Status", "PlayerStatus", "ReviewStatus", "status", "POOL_WARNING"]

POOL_WARNING = 10
"""From this many markers left, the pool says that the game may end on markers."""


class _Parts:
    """Plain attributes given by keyword (MicroPython has no dataclasses)."""

    def __init__(self, **parts: object) -> None:
        for name, value in parts.items():
            setattr(self, name, value)


class PlayerStatus(_Parts):
    """One player in the panel."""

    color: str
    active: bool
    """Whether it is this player's turn."""
    thinking: bool
    """Whether this player is the computer, searching its move."""
    kind: str
    """Who plays: ``by hand``, ``AI 3``, ``Opponent (by link)``."""
    score: int
    need: int
    """Rings removed, and how many win (in the position shown: a past one under review)."""
    at: str
    """``at move 12`` while a past position is shown (the score is that position's), else ''."""
    rings: str
    """The score as ring icons (SVG)."""
    on_board: str
    """How many rings are left to place, during the placement ('' once all are placed)."""


class ReviewStatus(_Parts):
    """The review area, while a past position is shown."""

    at: int
    """How many moves the position shown has played (0: the start)."""
    count: int
    first_number: int
    """The record's number of the game's first move."""
    label: str
    values: list[float]
    """The evaluation graph's values: the computer's, else a quick estimate."""
    note: str
    """What the graph is while it is a quick estimate, and why ('' for the computer's)."""


class Status(_Parts):
    """What the page shows now (:meth:`Session.status`); the view draws it."""

    game: Game
    board: Picture
    """What the board shows (drawn by :func:`~yinsh.render.board_svg`)."""
    motion: Motion
    reviewing: int | None
    prompt: str
    detail: str
    spoken: str
    """The prompt as a screen reader hears it."""
    guide: str
    message: str
    """The answer to the last input (the ``#hint`` line)."""
    notices: tuple[str, ...]
    record: str
    position: str
    result: str
    phase: str
    turn_color: str
    """Whose turn is being built (also when the game is over)."""
    to_move: str
    """Who is to move, empty once the game is over."""
    hint: str
    """The hint's move, empty when none is shown."""
    ai: str
    discarded: int
    players: list[PlayerStatus]
    pool: int
    """Markers left in the pool (in the position shown: a past one under review)."""
    pool_warning: str
    pool_at: str
    """``at move 12`` while a past position is shown, else ''."""
    moves: list[tuple[int, str, str]]
    review: ReviewStatus | None
    banner: tuple[str, str] | None
    can_undo: bool
    can_redo: bool
    hint_hidden: bool
    hint_disabled: bool
    hint_busy: bool
    pause_hidden: bool
    pause_label: str
    send_link: bool
    by_link: bool
    """Whether the game can be played by link (it started from the first move)."""
    opponent_link: bool
    """Whether a link for the opponent means something here (:func:`~yinsh.page.links.opponent_link_use`)."""
    row_choices: list[tuple[str, bool]]
    preview_note: str
    """What the prompt says beside the board's preview (``board.preview``): the rows the move
    previewed would make."""
    sounds: tuple[str, ...]
    """What the motion sounds like, when sound is on (played once, as the motion is)."""


def last_move(session: Session) -> Move | tuple[int, int] | None:
    """What the board marks as the last move: the ring moved in this turn, else the last
    move played (not once this turn's removals have changed the board)."""
    if session.turn.ring_move is not None:
        return session.turn.ring_move
    if session.turn.decisions and session.turn.removals:
        return None
    return session.game.moves[-1] if session.game.moves else None

def suggested_points(session: Session) -> list[int]:
    """The points of the hint shown: the ring and where it goes, the rings removed."""
    move = session.computer.suggestion
    if move is None:
        return []
    points = [r.ring for r in move.before + move.after]
    return points + [p for p in (move.source, move.target) if p is not None]

def pointer_preview(session: Session) -> Preview | None:
    """What the board previews under the pointer or the keyboard's focus: only for the person
    here to move, never over a past position."""
    if session.pointer is None or session.reviewing is not None or not session.person_to_move():
        return None
    return preview(session.turn, *session.pointer)

def board_picture(session: Session) -> Picture:
    """What the board shows now: a past position under review, else the turn being built —
    with its choices and the move under the pointer when the person here is to move — and the
    hint."""
    if session.reviewing is not None:
        shown = session.reviewing
        state = session.game.state_at(shown)
        return Picture(state, session.game.moves[shown - 1] if shown else None, point_labels=point_labels(None, state))
    turn = session.turn
    labels = point_labels(turn if session.person_to_move() else None, turn.state)
    if not session.person_to_move():
        return picture(turn.state, last_move=last_move(session), marked=suggested_points(session), point_labels=labels)
    return picture(turn.state, last_move=last_move(session), destinations=turn.destinations, rows=turn.candidate_rows,
                   selected_row=turn.selected_row, selected_ring=turn.selected_ring, removable=turn.removable_rings,
                   movable=turn.movable_rings, marked=suggested_points(session), clickable=turn.clickable_points,
                   point_labels=labels, preview=pointer_preview(session))

def prompt_lines(session: Session) -> tuple[str, str]:
    """The prompt and the line under it."""
    turn, game = session.turn, session.game
    if in_the_past(session):
        state = shown_state(session)
        return (f"{capitalize(reviewed_at(session))}: {NAMES[COLORS[state.turn]]} to move",
                "A past position: the score and the pool are as they were then. Back to game returns to the present.")
    level = session.computer_to_move()
    mover = game.to_move
    if game.result is not None:
        return result_text(game) or "", detail(turn, session.input_mode)
    if level is not None and session.paused:
        return f"{session.name_of(mover)} to move: paused", "Press Resume to let the computers play on."
    if session.remote_to_move() and set(session.players.values()) == {REMOTE}:
        return (f"{NAMES[mover]} to move: nobody plays on this page",
                "Both sides play by link on their own devices: this page only shows the game.")
    if session.remote_to_move():
        return (f"{NAMES[mover]} to move, on their own device",
                "Send them the link to this game (Link for the opponent); their move comes back as a link.")
    if level is not None:
        if session.computer.waits_for_worker():
            return "The computer is getting ready…", f"{session.name_of(mover)} moves as soon as it is ready."
        waiting = ("Two computers play: Pause stops them, Undo takes back a move." if session.both_computers()
                   else "The board stays yours to look at; Undo takes back your last move.")
        return f"{session.name_of(mover)} is thinking…", waiting
    if session.computer.suggesting and session.computer.waits_for_worker():
        return prompt(turn), "The computer is getting ready: the hint comes as soon as it is up."
    return prompt(turn), detail(turn, session.input_mode)

def ai_state(session: Session) -> str:
    """``starting`` while a question waits for the worker, ``thinking`` while the computer
    searches, ``failed`` once it cannot, else empty (``<html data-ai>``)."""
    if session.computer.state == "failed":
        return "failed"
    asked = session.computer.suggesting or (session.computer_to_move() is not None and not session.paused)
    if not asked:
        return ""
    return "starting" if session.computer.waits_for_worker() else "thinking"

def in_the_past(session: Session) -> bool:
    """Whether the board shows a position before the game's last move (under review)."""
    return session.reviewing is not None and session.reviewing < len(session.game.moves)


def shown_state(session: Session) -> State:
    """The position the score, the pool and the players show: the one under review, else the
    turn being built."""
    return session.game.state_at(session.reviewing) if in_the_past(session) else session.turn.state  # type: ignore[arg-type]


def reviewed_at(session: Session) -> str:
    """``at move 12`` (``at the start``) while a past position is shown, else ''."""
    shown = session.reviewing
    if shown is None or not in_the_past(session):
        return ""
    return "at the start" if shown == 0 else f"at move {session.game.start_ply + shown}"


def players_shown(session: Session, thinking: bool) -> list[PlayerStatus]:
    s: State = shown_state(session)
    past = in_the_past(session)
    active = COLORS[s.turn] if past else None if session.game.result is not None else session.game.to_move
    thinking = thinking and not past
    out = []
    for color, score in zip(COLORS, (s.white_score, s.black_score)):
        need = s.rings_to_win
        on_board = bit_count(s.white_rings if color == "white" else s.black_rings)
        out.append(PlayerStatus(
            color=color, active=active == color, thinking=thinking and active == color,
            kind=player_label(session.players[color]), score=score, need=need, at=reviewed_at(session),
            rings="".join(ring_icon_svg(color, filled=i < score) for i in range(need)),
            on_board=plural(RINGS_PER_PLAYER - on_board, "ring") + " to place" if s.in_placement else ""))
    return out

def moves_shown(session: Session) -> list[tuple[int, str, str]]:
    """The move list: (number in the record, colour of the player who made it, move)."""
    first = session.game.start_ply
    return [(first + i + 1, session.game.mover(i), str(move)) for i, move in enumerate(session.game.moves)]

def review_shown(session: Session) -> ReviewStatus | None:
    shown = session.reviewing
    if shown is None:
        return None
    game = session.game
    record = game.record()
    values = session.computer.graphs.get(record)
    note = ""
    if not isinstance(values, list):  # not yet, or not at all: a quick estimate meanwhile
        note = (f"A quick estimate (rings, rows, markers). {values}" if isinstance(values, str) else
                "A quick estimate (rings, rows, markers): the computer player is unavailable."
                if session.computer.state == "failed" else
                "A quick estimate (rings, rows, markers) until the computer's evaluation comes, "
                "a few seconds while it starts.")
        values = _quick_values(game, record)
    return ReviewStatus(at=shown, count=len(game.moves), first_number=game.start_ply + 1, values=values, note=note,
                  label="Reviewing the start" if shown == 0 else f"Reviewing move {game.start_ply + shown}")


_QUICK: dict[str, list[float]] = {}
"""The quick estimate of the last record asked (the page asks on every refresh while reviewing)."""


def _quick_values(game: Game, record: str) -> list[float]:
    if record not in _QUICK:
        _QUICK.clear()
        _QUICK[record] = quick_values(game)
    return _QUICK[record]

def status(session: Session) -> Status:
    """What the page shows now for ``session`` (pure: asking twice gives the same answer)."""
    game, turn, computer = session.game, session.turn, session.computer
    over = game.result is not None
    prompt, detail = prompt_lines(session)
    ai = ai_state(session)
    thinking = ai == "thinking" and not session.computer.suggesting
    level = session.computer_to_move()
    left = pool(shown_state(session))
    person = session.person_to_move()
    outcome = game.outcome if session.reviewing is None else None  # not over a past position
    board = board_picture(session)
    return Status(
        game=game, board=board, motion=session.motion, reviewing=session.reviewing,
        prompt=prompt, detail=detail, spoken=spoken_prompt(prompt, turn if level is None else None),
        guide=session.guide_line(), message=session.message, notices=tuple(session.notices[-NOTICES_KEPT:]),
        record=game.record(), position=game.position(), result=game.result or "",
        phase=str(turn.phase), turn_color=COLORS[turn.color], to_move="" if over else game.to_move,
        hint=str(computer.suggestion) if computer.suggestion else "", ai=ai, discarded=computer.discarded,
        players=players_shown(session, thinking),
        pool=left, pool_warning=_pool_warning(left) if not in_the_past(session) else "", pool_at=reviewed_at(session),
        moves=moves_shown(session), review=review_shown(session),
        banner=(outcome.title, _sentence(outcome.reason)) if outcome and not session.result_closed else None,
        can_undo=bool(turn.decisions) or session.history.can_undo(session.not_here()),
        can_redo=session.history.can_redo(),
        hint_hidden=session.both_computers(), hint_busy=session.computer.suggesting,
        hint_disabled=over or level is not None or session.computer.state == "failed",
        pause_hidden=not session.both_computers() or over, pause_label="Resume" if session.paused else "Pause",
        send_link=session.remote_to_move(), by_link=from_the_start(game),
        opponent_link=bool(opponent_link_use(game, session.players)),
        row_choices=row_choices(session) if person else [],
        preview_note=preview_note(turn, board.preview),
        sounds=session.motion.sounds if session.sound else (),
    )

def row_choices(session: Session) -> list[tuple[str, bool]]:
    """Several candidate rows: each is also a button (name, whether it is the one chosen)."""
    rows = session.turn.candidate_rows
    if len(rows) < 2 or session.reviewing is not None:
        return []
    return [(row_name(w), w == session.turn.selected_row) for w in rows]


def _sentence(text: str) -> str:
    """``text`` starting with a capital (the rest as it is: a player's name keeps its own)."""
    return text[:1].upper() + text[1:]


def _pool_warning(left: int) -> str:
    if left > POOL_WARNING:
        return ""
    if left == 0:
        return "The pool is empty: the game ends on rings."
    return (f"Only {plural(left, 'marker')} left: when the pool is empty the game ends and more rings "
            "removed wins.")
