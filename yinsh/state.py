"""The position between turns, and the trusted, fast transitions of the rules.

A :class:`State` is an immutable tuple of bitboards and counters. Nothing here
checks its input: these functions serve the search, perft and playouts, and the
checked entry points in :mod:`yinsh.game` call them only with moves they have
verified.

The turn's phases, named as in the rulebook::

    PLACEMENT (10 rings, White first)
        │
        ▼
    ┌─► REMOVE ROWS the opponent made for me (one at a time, rescanning)
    │     │ third ring ──────────────────────────────► game over
    │     ▼
    │   MOVE RING: a marker at the origin, slide, flip every crossed marker
    │     │ (no ring can move: PASS; two passes in a row end the game)
    │     ▼
    │   REMOVE ROWS of my own colour (one at a time, rescanning)
    │     │ third ring ──────────────────────────────► game over
    │     ▼
    │   pool empty and no rows left for the opponent ──► game over on rings
    └─────┘ next player
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from .board import (
    ALL_POINTS,
    BETWEEN,
    BIT,
    DIRECTIONS,
    RAYS,
    SIZE,
    STEPS,
    WINDOW_INDEX,
    WINDOW_MASKS,
    WINDOWS,
    line_step,
    parse_point,
    points_of,
)
from .compat import bit_count, bit_length
from .limits import MAX_MOVES
from .move import Move, Removal
from .outcome import Outcome

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "WHITE",
    "BLACK",
    "MARKERS",
    "RINGS_PER_PLAYER",
    "State",
    "initial_state",
    "make_state",
    "pool",
    "outcome",
    "result",
    "termination",
    "why_unreachable",
    "slides",
    "slide_targets",
    "flips",
    "markers_after",
    "ring_moves",
    "rows",
    "has_row",
    "removal_sequences",
    "legal_moves",
    "count_legal_moves",
    "apply_move",
    "after_ring_move",
    "after_removal",
    "after_placement",
    "end_turn",
    "empty_points",
]

WHITE: Final = 0
BLACK: Final = 1
MARKERS: Final = 51
RINGS_PER_PLAYER: Final = 5


class State(NamedTuple("State", [
    ("white_markers", int), ("black_markers", int), ("white_rings", int), ("black_rings", int),
    ("turn", int), ("placed", int), ("white_score", int), ("black_score", int), ("passes", int),
    ("rings_to_win", int),
])):
    """The whole position at the start of a turn (or inside one, for the search).

    The four bitboards use the point indices of :mod:`yinsh.board`. ``turn`` is ``WHITE`` (0)
    or ``BLACK`` (1), the player to move; ``placed`` counts the rings placed so far (placement
    ends at 10); ``white_score`` and ``black_score`` the rings each has removed; ``passes`` the
    passes made in a row just before this state; ``rings_to_win`` is 3 in the standard game,
    1 in Blitz.
    """

    __slots__ = ()

    @property
    def in_placement(self) -> bool:
        """Whether rings are still being placed."""
        return self.placed < 2 * RINGS_PER_PLAYER


def initial_state(rings_to_win: int = 3) -> State:
    """The empty board, White to place the first ring."""
    return State(0, 0, 0, 0, WHITE, 0, 0, 0, 0, rings_to_win)


def make_state(
    white_rings: Iterable[str] = (),
    black_rings: Iterable[str] = (),
    white_markers: Iterable[str] = (),
    black_markers: Iterable[str] = (),
    *,
    turn: int = WHITE,
    score: tuple[int, int] = (0, 0),
    rings_to_win: int = 3,
    passes: int = 0,
    in_placement: bool = False,
) -> State:
    """A state drawn from lists of point names (for diagrams, puzzles and tests).

    Rings are taken as all placed unless ``in_placement`` is true.

    >>> s = make_state(["e5"], ["f6"], ["e6"], turn=BLACK)
    >>> pool(s), s.in_placement, len(ring_moves(s))
    (50, False, 17)
    """
    def bits(names: Iterable[str]) -> int:
        return sum(BIT[parse_point(n)] for n in set(names))

    wr, br = bits(white_rings), bits(black_rings)
    placed = bit_count(wr) + bit_count(br) if in_placement else 2 * RINGS_PER_PLAYER
    return State(bits(white_markers), bits(black_markers), wr, br, turn, placed, score[0], score[1], passes,
                 rings_to_win)


def pool(s: State) -> int:
    """Markers left in the common pool."""
    return MARKERS - bit_count(s.white_markers | s.black_markers)


def rows(markers: int) -> list[int]:
    """The five-windows (indices into ``WINDOWS``) full of the given markers."""
    out = []
    for step in STEPS:
        m = markers & (markers >> step)
        m &= m >> 2 * step
        m &= markers >> 4 * step
        while m:
            low = m & -m
            out.append(WINDOW_INDEX[(bit_length(low) - 1) << 8 | step])
            m ^= low
    return out


def has_row(markers: int) -> bool:
    """Whether the given markers hold at least one row of five."""
    for step in STEPS:
        m = markers & (markers >> step)
        m &= m >> 2 * step
        if m & (markers >> 4 * step):
            return True
    return False


def termination(s: State) -> str | None:
    """Why the game is over (``'rings'``, ``'markers'`` or ``'passes'``), or ``None``."""
    if s.white_score >= s.rings_to_win or s.black_score >= s.rings_to_win:
        return "rings"
    if s.passes >= 2:
        return "passes"
    if not s.in_placement and pool(s) == 0:
        mine = s.black_markers if s.turn else s.white_markers
        if not has_row(mine):  # rows still owed to the player to move return markers first
            return "markers"
    return None


_COLORS: Final = ("White", "Black")


def why_unreachable(s: State, ply: int | None = None) -> str | None:
    """Why no game can reach ``s`` (after ``ply`` moves, when given), or ``None`` if one may.

    The readers of positions (codes, links, records' ``Position`` tags) refuse what this
    refuses, so that a board no game holds — dozens of rows standing, a pass before the rings
    are placed — never reaches the page. It checks what follows from the rules, cheaply
    (docs/FORMATS.md lists the invariants); the move number is free (a study may start at any
    move) except that it is at most ``MAX_MOVES`` and counts the rings placed.

    >>> why_unreachable(initial_state(), 0) is None
    True
    >>> why_unreachable(initial_state()._replace(passes=1))
    'a pass while rings are still being placed'
    """
    if ply is not None and ply > MAX_MOVES:
        return f"its move number {ply} is past the {MAX_MOVES} moves a game can last"
    win = s.rings_to_win
    mover, other = s.turn, s.turn ^ 1
    scores = (s.white_score, s.black_score)
    rings = (s.white_rings, s.black_rings)
    markers = (s.white_markers, s.black_markers)
    if max(scores) > win:
        return f"more rings removed than the {win} that win"
    if scores[mover] >= win:
        return f"{_COLORS[mover]} is to move but has already won (a winning removal ends the game)"
    if bit_count(s.white_markers | s.black_markers) > MARKERS:
        return f"more than the {MARKERS} markers of the pool on the board"
    on_board = (bit_count(s.white_rings), bit_count(s.black_rings))
    if s.in_placement:
        if s.white_markers | s.black_markers or s.white_score or s.black_score:
            return "markers or removed rings before all rings are placed"
        if s.passes:
            return "a pass while rings are still being placed"
        if on_board[0] - on_board[1] != s.turn or (ply is not None and ply != s.placed):
            return "the rings placed do not match the player to move"
        return None
    if on_board[0] + scores[0] != RINGS_PER_PLAYER or on_board[1] + scores[1] != RINGS_PER_PLAYER:
        return "each player must have five rings, on the board or removed"
    if ply is not None and ply < s.placed:
        return "fewer moves played than rings placed"
    if scores[other] < win and has_row(markers[other]):
        return f"{_COLORS[other]} moved last but left a row of five of their markers on the board"
    if s.passes:
        if slides(s.white_rings | s.black_rings, s.white_markers | s.black_markers, rings[other]):
            return f"{_COLORS[other]} passed but has a ring that can move"
        if has_row(markers[mover]):
            return f"{_COLORS[other]} passed, which makes no row, yet {_COLORS[mover]} has one"
        return None
    found = rows(markers[mover])
    if found and not _one_move_made(found, s.white_rings | s.black_rings, s.white_markers | s.black_markers,
                                    scores[other] > 0):
        return (f"{_COLORS[mover]} has {len(found)} rows of five that no single move of {_COLORS[other]} "
                "could have made")
    return None


def _one_move_made(found: list[int], rings: int, markers: int, removed: bool) -> bool:
    """Whether the rows ``found`` of the player to move could all have been made by the
    opponent's last ring move. That move turned over one run of markers along one line, with
    no ring in it, and none of them was a row of the opponent's (resolved before moving), so
    every such row crosses that line at one point, and the points where they cross lie in
    one stretch of it holding no ring and no empty point — unless the opponent then removed a
    row of theirs (``removed``), which may have emptied points of the run. The line runs
    through a point of the first row, in one of the three directions."""
    masks = [WINDOW_MASKS[w] for w in found]
    first = WINDOWS[found[0]]
    along = first[1] - first[0]
    for q in first:
        for step in STEPS:
            if step == along:
                continue  # five markers turned over along the line were a row of the mover's, resolved before
            line = [q]
            for ray in RAYS[q]:
                way = line_step(q, ray[0])
                if way == step:
                    line += ray
                elif way == -step:
                    line = list(reversed(ray)) + line
            line_mask = 0
            for r in line:
                line_mask |= BIT[r]
            if not all(bit_count(mask & line_mask) == 1 for mask in masks):
                continue
            met = 0
            for mask in masks:
                met |= mask & line_mask
            inside = [r for r in line if met & BIT[r]]
            hull = line[line.index(inside[0]):line.index(inside[-1]) + 1]
            if all(not rings & BIT[r] and (removed or markers & BIT[r]) for r in hull):
                return True
    return False


def outcome(s: State) -> Outcome | None:
    """How the game ended, or ``None`` while it goes on: more rings removed wins, equal is a draw."""
    how = termination(s)
    if how is None:
        return None
    winner = "white" if s.white_score > s.black_score else "black" if s.black_score > s.white_score else None
    return Outcome(how, winner, (s.white_score, s.black_score), s.rings_to_win)


def result(s: State) -> str | None:
    """``'1-0'``, ``'0-1'``, ``'1/2-1/2'``, or ``None`` while the game goes on."""
    done = outcome(s)
    return None if done is None else done.result


def slides(rings: int, markers: int, mine: int) -> list[int]:
    """Every ring move of the rings ``mine``, each written ``source << 8 | target`` (what it
    turns over is then ``flips(move, markers)``); ``rings`` and ``markers`` are all of them.

    The rule of the slide: a ring moves along one of six directions over any empty points;
    once it enters a run of markers it must cross the whole run and stop on the first empty
    point after it; it never crosses or lands on a ring. Rings come in point order, each
    ring's directions in the order of ``DIRECTIONS``, nearer targets first.

    >>> from yinsh.board import parse_point as p, point_name
    >>> [point_name(m & 255) for m in slides(BIT[p("e5")], BIT[p("e6")], BIT[p("e5")])][:3]
    ['e7', 'f5', 'g5']
    """
    occupied = rings | markers
    out: list[int] = []
    append = out.append
    while mine:
        low = mine & -mine
        src = bit_length(low) - 1
        mine ^= low
        base = src << 8
        for ray in _RAY_BITS[src]:
            steps = iter(ray)
            for q, b in steps:  # slide over empty points
                if occupied & b:
                    break
                append(base | q)
            else:
                continue
            if rings & b:
                continue
            for q, b in steps:  # cross the run of markers, stop just after it
                if not markers & b:
                    if not rings & b:
                        append(base | q)
                    break
    return out


_RAY_BITS: Final = [tuple(tuple((q, BIT[q]) for q in ray) for ray in RAYS[p]) if p in RAYS else ()
                    for p in range(SIZE)]
"""For each point (a list indexed by it), its rays as (point, bit) pairs."""


def slide_targets(mine: int, empty: int, markers: int) -> list[int]:
    """:func:`slides` for all the rings ``mine`` at once, one direction at a time: for each
    direction of ``DIRECTIONS``, the bitboard of the points some ring of ``mine`` reaches by
    moving that way (``empty``: the empty points). A ring blocks every ring behind it, so in
    a direction each target belongs to one ring. Counting and sampling moves this way is
    about twice as fast as listing them (the random playouts; the AI's ``reach_both`` fuses it
    with the flips); a property test holds both to :func:`slides`.

    >>> from yinsh.board import parse_point as p
    >>> sum(bit_count(t) for t in slide_targets(BIT[p("e5")], ALL_POINTS & ~BIT[p("e5")], 0))
    26
    """
    out = []
    for step in DIRECTIONS:
        reached = 0
        if step > 0:
            front = (mine << step) & empty
            while front:
                reached |= front
                front = (front << step) & empty
            run = ((mine | reached) << step) & markers
            if run:
                crossed = run
                while run:
                    run = (run << step) & markers
                    crossed |= run
                reached |= (crossed << step) & empty
        else:
            back = -step
            front = (mine >> back) & empty
            while front:
                reached |= front
                front = (front >> back) & empty
            run = ((mine | reached) >> back) & markers
            if run:
                crossed = run
                while run:
                    run = (run >> back) & markers
                    crossed |= run
                reached |= (crossed >> back) & empty
        out.append(reached)
    return out


def flips(move: int, markers: int) -> int:
    """The markers the ring move ``move`` (``source << 8 | target``) turns over: every marker
    it crosses (``markers``: all of them)."""
    return BETWEEN[move] & markers



def flipped(s: State, source: int, target: int) -> int:
    """The markers of ``s`` that the ring move from ``source`` to ``target`` turns over (or, in
    the position after it, turned over): every marker between the two points."""
    return flips(source << 8 | target, s.white_markers | s.black_markers)


def markers_after(move: int, mine: int, markers: int) -> int:
    """The mover's markers (``mine``; ``markers``: everyone's) after the ring move ``move``: a
    marker left where the ring stood, and every marker it crossed turned over."""
    return (mine ^ flips(move, markers)) | BIT[move >> 8]


def ring_moves(s: State) -> list[tuple[int, int]]:
    """Every (origin, destination) ring move of the player to move."""
    moves = slides(s.white_rings | s.black_rings, s.white_markers | s.black_markers,
                   s.black_rings if s.turn else s.white_rings)
    return [(move >> 8, move & 255) for move in moves]


def empty_points(s: State) -> list[int]:
    """The points with neither ring nor marker."""
    return points_of(ALL_POINTS & ~(s.white_rings | s.black_rings | s.white_markers | s.black_markers))


def after_placement(s: State, point: int) -> State:
    """The state after the player to move places a ring (the turn passes)."""
    wr, br = s.white_rings, s.black_rings
    if s.turn:
        br |= BIT[point]
    else:
        wr |= BIT[point]
    return State(s.white_markers, s.black_markers, wr, br, s.turn ^ 1, s.placed + 1,
                 s.white_score, s.black_score, 0, s.rings_to_win)


def after_ring_move(s: State, src: int, dst: int) -> State:
    """The state inside the turn after a ring moves: same player, rows not yet removed."""
    wm, bm = s.white_markers, s.black_markers
    flipped = flips(src << 8 | dst, wm | bm)
    wm ^= flipped
    bm ^= flipped
    if s.turn:
        bm |= BIT[src]
        return State(wm, bm, s.white_rings, s.black_rings ^ BIT[src] ^ BIT[dst], 1, s.placed,
                     s.white_score, s.black_score, s.passes, s.rings_to_win)
    wm |= BIT[src]
    return State(wm, bm, s.white_rings ^ BIT[src] ^ BIT[dst], s.black_rings, 0, s.placed,
                 s.white_score, s.black_score, s.passes, s.rings_to_win)


def after_removal(s: State, color: int, row: int, ring: int) -> State:
    """The state after ``color`` returns the row's markers and removes a ring."""
    mask = WINDOW_MASKS[row]
    if color:
        return State(s.white_markers, s.black_markers & ~mask, s.white_rings, s.black_rings ^ BIT[ring],
                     s.turn, s.placed, s.white_score, s.black_score + 1, s.passes, s.rings_to_win)
    return State(s.white_markers & ~mask, s.black_markers, s.white_rings ^ BIT[ring], s.black_rings,
                 s.turn, s.placed, s.white_score + 1, s.black_score, s.passes, s.rings_to_win)


def end_turn(s: State, passed: bool) -> State:
    """The state after the player to move ends their turn (``passed`` if it was a pass)."""
    return State(s.white_markers, s.black_markers, s.white_rings, s.black_rings, s.turn ^ 1,
                 s.placed, s.white_score, s.black_score, s.passes + 1 if passed else 0, s.rings_to_win)


def _won(s: State, color: int) -> bool:
    return (s.black_score if color else s.white_score) >= s.rings_to_win


def removal_sequences(s: State, color: int) -> Iterator[tuple[tuple[Removal, ...], State]]:
    """Every way for ``color`` to resolve all their rows, one at a time, rescanning.

    Yields (removals, state after them). With no row, yields ``((), s)`` once. A
    sequence stops early when a removal wins the game.
    """
    markers = s.black_markers if color else s.white_markers
    found = rows(markers)
    if not found:
        yield (), s
        return
    for row in found:
        for ring in points_of(s.black_rings if color else s.white_rings):
            nxt = after_removal(s, color, row, ring)
            if _won(nxt, color):
                yield (Removal(row, ring),), nxt
                continue
            for rest, final in removal_sequences(nxt, color):
                yield (Removal(row, ring),) + rest, final


def legal_moves(s: State) -> list[Move]:
    """Every complete legal move (every distinct decision sequence) of the player to move."""
    if termination(s) is not None:
        return []
    if s.in_placement:
        return [Move("place", None, p) for p in empty_points(s)]
    color = s.turn
    out: list[Move] = []
    for before, s1 in removal_sequences(s, color):
        if _won(s1, color):
            out.append(Move("remove", None, None, before))
            continue
        markers = s1.white_markers | s1.black_markers
        actions = slides(s1.white_rings | s1.black_rings, markers, s1.black_rings if color else s1.white_rings)
        if not actions:
            out.append(Move("pass", None, None, before))
        mine = s1.black_markers if color else s1.white_markers
        for action in actions:
            src, dst = action >> 8, action & 255
            if not has_row(markers_after(action, mine, markers)):
                out.append(Move("move", src, dst, before))
                continue
            for after, _ in removal_sequences(after_ring_move(s1, src, dst), color):
                out.append(Move("move", src, dst, before, after))
    return out


def count_legal_moves(s: State) -> int:
    """``len(legal_moves(s))``, computed without building the moves (perft's last ply)."""
    if termination(s) is not None:
        return 0
    if s.in_placement:
        return 85 - bit_count(s.white_rings | s.black_rings)
    color = s.turn
    total = 0
    for _, s1 in removal_sequences(s, color):
        if _won(s1, color):
            total += 1
            continue
        markers = s1.white_markers | s1.black_markers
        actions = slides(s1.white_rings | s1.black_rings, markers, s1.black_rings if color else s1.white_rings)
        if not actions:
            total += 1
        mine = s1.black_markers if color else s1.white_markers
        for action in actions:
            if has_row(markers_after(action, mine, markers)):
                total += sum(1 for _ in removal_sequences(after_ring_move(s1, action >> 8, action & 255), color))
            else:
                total += 1
    return total


def apply_move(s: State, move: Move) -> State:
    """The state after a complete move, which must be legal (nothing is checked)."""
    if move.kind == "place":
        return after_placement(s, move.target)  # type: ignore[arg-type]
    color = s.turn
    for removal in move.before:
        s = after_removal(s, color, removal.row, removal.ring)
    if move.kind == "move":
        s = after_ring_move(s, move.source, move.target)  # type: ignore[arg-type]
        for removal in move.after:
            s = after_removal(s, color, removal.row, removal.ring)
    return end_turn(s, move.kind == "pass")
