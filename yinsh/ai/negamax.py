"""Negamax with alpha-beta over whole turns, iterative deepening under a deadline.

The tree's nodes are plain tuples ``(white markers, black markers, white rings,
black rings, turn, white score, black score, passes)`` — the start of a turn, as
in :class:`yinsh.state.State` without the constant fields — because building
``State`` objects and ``Move`` values is most of what a pure-Python search would
otherwise spend its time on. The same tuple is the transposition table's key.

A move inside the tree is one int, ``source << 8 | target`` (``PASS`` for a pass).
It stands for a whole turn: rows the opponent made for the mover and rows the
mover makes are resolved by :meth:`Searcher.resolve`, which picks each row and
ring by the static evaluation instead of branching on every window × ring (the
removal combinatorics rarely change the verdict and would multiply the tree).
The root is different: it searches every complete legal :class:`~yinsh.move.Move`
of :func:`yinsh.state.legal_moves`, so the move returned is always fully legal.

Ordering: the transposition table's move, moves that complete a row (a ring
leaving the fifth point of a four, or a jump flipping it), two killers per ply,
then the history heuristic. Principal variation search re-searches only when a
null window fails high.

Most of the time goes into the static evaluation at the frontier, so each value
is cached per position (iterative deepening and transpositions meet the same
leaves again). Late move reductions and null-move pruning were tried and did not
pay: neither gained strength at equal time. A lazy evaluation (the ring-move terms
skipped where they could not matter) paid until the evaluation's weights were
fitted (see :mod:`yinsh.ai.evaluation`).
"""

from __future__ import annotations

from collections.abc import Iterator
from time import perf_counter
from typing import Final

from ..board import BIT, SIZE, WINDOW_MASKS, points_of
from ..move import Move
from ..state import MARKERS, State, apply_move, flips, has_row, legal_moves, rows, slides, termination
from .evaluation import DEFAULT_WEIGHTS, RING, WIN, Weights, evaluate_node, node_of
from .features import completion_points

__all__ = ["Searcher", "Timeout", "search", "evaluate", "PASS", "INFINITY"]

PASS: Final = -1
INFINITY: Final = 10 * WIN
_EXACT, _LOWER, _UPPER = 0, 1, 2



class Timeout(Exception):
    """The deadline passed inside the search."""


class Searcher:
    """One search's tables (transposition, killers, history) and its settings.

    ``noise`` adds a deterministic pseudo-random amount in ±noise to every static
    value (a weaker, fallible player); ``seed`` chooses which.
    """

    def __init__(self, rings_to_win: int = 3, weights: Weights = DEFAULT_WEIGHTS, *,
                 deadline: float = float("inf"), noise: int = 0, seed: int = 0) -> None:
        self.rings_to_win = rings_to_win
        self.weights = weights
        self.deadline = deadline
        self.noise = noise
        self.seed = seed * 0x9E3779B1 + 12345
        self.tt: dict[tuple, tuple[int, int, int, int | None]] = {}
        self.history = [0] * (SIZE << 8)
        self.killers = [[PASS, PASS] for _ in range(128)]
        self.evals: dict[tuple, int] = {}
        self.nodes = 0

    # Moves -------------------------------------------------------------------------

    @staticmethod
    def moves(node: tuple) -> list[int]:
        """The ring moves of the player to move, encoded ``source << 8 | target``."""
        wm, bm, wr, br, turn = node[:5]
        return slides(wr | br, wm | bm, br if turn else wr)

    def play(self, node: tuple, move: int) -> tuple[tuple, bool]:
        """The next turn's node after ``move`` and the mover's rows; and whether the mover won."""
        wm, bm, wr, br, turn, ws, bs, passes = node
        if move == PASS:
            return (wm, bm, wr, br, turn ^ 1, ws, bs, passes + 1), False
        src = move >> 8
        dst = move & 255
        flipped = flips(move, wm | bm)
        wm ^= flipped
        bm ^= flipped
        if turn:
            bm |= BIT[src]
            br ^= BIT[src] | BIT[dst]
            if has_row(bm):
                wm, bm, wr, br, ws, bs = self.resolve(wm, bm, wr, br, ws, bs, 1, 0)
                if bs >= self.rings_to_win:
                    return (wm, bm, wr, br, 0, ws, bs, 0), True
        else:
            wm |= BIT[src]
            wr ^= BIT[src] | BIT[dst]
            if has_row(wm):
                wm, bm, wr, br, ws, bs = self.resolve(wm, bm, wr, br, ws, bs, 0, 1)
                if ws >= self.rings_to_win:
                    return (wm, bm, wr, br, 1, ws, bs, 0), True
        return (wm, bm, wr, br, turn ^ 1, ws, bs, 0), False

    def resolve(self, wm: int, bm: int, wr: int, br: int, ws: int, bs: int, color: int,
                next_turn: int) -> tuple[int, int, int, int, int, int]:
        """``color`` removes all their rows, each row and ring chosen by the evaluation.

        ``next_turn`` is who moves after the removals (``color`` itself when it
        resolves rows the opponent made for it). Stops at a winning removal.
        """
        rtw = self.rings_to_win
        weights = self.weights
        while True:
            found = rows(bm if color else wm)
            if not found:
                return wm, bm, wr, br, ws, bs
            best_value = -INFINITY
            best = None
            for row in found:
                mask = WINDOW_MASKS[row]
                for ring in points_of(br if color else wr):
                    if color:
                        after = (wm, bm & ~mask, wr, br ^ BIT[ring], next_turn, ws, bs + 1, 0)
                        if bs + 1 >= rtw:
                            return after[:4] + after[5:7]
                    else:
                        after = (wm & ~mask, bm, wr ^ BIT[ring], br, next_turn, ws + 1, bs, 0)
                        if ws + 1 >= rtw:
                            return after[:4] + after[5:7]
                    value = evaluate_node(after, rtw, weights)
                    if next_turn != color:
                        value = -value
                    if value > best_value:
                        best_value, best = value, after
            wm, bm, wr, br, _, ws, bs, _ = best  # type: ignore[misc]

    # Values ------------------------------------------------------------------------

    def terminal(self, node: tuple, ply: int) -> int | None:
        """The value of a finished game for the player to move, or ``None``."""
        wm, bm, wr, br, turn, ws, bs, passes = node
        rtw = self.rings_to_win
        if (ws < rtw and bs < rtw and passes < 2
                and ((wm | bm).bit_count() < MARKERS or has_row(bm if turn else wm))):
            return None
        mine, theirs = (bs, ws) if turn else (ws, bs)
        if mine == theirs:
            return 0
        return WIN - ply if mine > theirs else ply - WIN

    def static(self, node: tuple, ply: int = 0) -> int:
        """The static value of ``node`` for its player to move (finished games included)."""
        done = self.terminal(node, ply)
        if done is not None:
            return done
        wm, bm, wr, br, turn, ws, bs, passes = node
        if has_row(bm if turn else wm):
            wm, bm, wr, br, ws, bs = self.resolve(wm, bm, wr, br, ws, bs, turn, turn)
            if (bs if turn else ws) >= self.rings_to_win:
                return WIN - ply - 1
            node = (wm, bm, wr, br, turn, ws, bs, passes)
        value = self.evals.get(node)
        if value is None:
            value = evaluate_node(node, self.rings_to_win, self.weights)
            if self.noise:
                value += (hash((node, self.seed)) % (2 * self.noise + 1)) - self.noise
            self.evals[node] = value
        return value

    # Search --------------------------------------------------------------------------

    def negamax(self, node: tuple, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of ``node`` searched ``depth`` more turns, within (alpha, beta)."""
        self.nodes += 1
        if perf_counter() > self.deadline:
            raise Timeout
        done = self.terminal(node, ply)
        if done is not None:
            return done
        if depth <= 0:
            return self.static(node, ply)
        entry = self.tt.get(node)
        tt_move = None
        if entry is not None:
            tt_depth, flag, value, tt_move = entry
            if tt_depth >= depth:
                if flag == _EXACT:
                    return value
                if flag == _LOWER:
                    if value >= beta:
                        return value
                elif value <= alpha:
                    return value
        key = node
        wm, bm, wr, br, turn, ws, bs, passes = node
        if has_row(bm if turn else wm):  # rows the opponent made for the mover
            wm, bm, wr, br, ws, bs = self.resolve(wm, bm, wr, br, ws, bs, turn, turn)
            if (bs if turn else ws) >= self.rings_to_win:
                return WIN - ply - 1
            node = (wm, bm, wr, br, turn, ws, bs, passes)
        moves = self.moves(node)
        if not moves:
            child = (wm, bm, wr, br, turn ^ 1, ws, bs, passes + 1)
            value = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            self.tt[key] = (depth, _EXACT if alpha < value < beta else (_LOWER if value >= beta else _UPPER),
                            value, PASS)
            return value
        moves, quiet = self.order(node, moves, tt_move, ply)
        best_value = -INFINITY
        best_move = moves[0]
        a = alpha
        for i, move in enumerate(moves):
            child, won = self.play(node, move)
            if won:
                value = WIN - ply - 1
            elif depth == 1:  # the frontier: its children's static values, no null windows
                self.nodes += 1
                value = -self.static(child, ply + 1)
            elif i == 0:
                value = -self.negamax(child, depth - 1, -beta, -a, ply + 1)
            else:
                value = -self.negamax(child, depth - 1, -a - 1, -a, ply + 1)
                if a < value < beta:
                    value = -self.negamax(child, depth - 1, -beta, -value, ply + 1)
            if value > best_value:
                best_value = value
                best_move = move
                if value > a:
                    a = value
                    if a >= beta:
                        if move != tt_move and i >= quiet:
                            killers = self.killers[ply]
                            if killers[0] != move:
                                killers[1] = killers[0]
                                killers[0] = move
                        self.history[move] += depth * depth
                        break
        if best_value <= alpha:
            flag = _UPPER
        elif best_value >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        self.tt[key] = (depth, flag, best_value, best_move)
        return best_value

    def order(self, node: tuple, moves: list[int], tt_move: int | None, ply: int) -> tuple[list[int], int]:
        """``moves`` best first: the table's move, row-making moves, killers, then by history;
        and how many come before the quiet ones (only a quiet move becomes a killer)."""
        moves.sort(key=self.history.__getitem__, reverse=True)
        wm, bm, wr, br, turn = node[:5]
        mine, theirs, rings = (bm, wm, br) if turn else (wm, bm, wr)
        completes = completion_points(mine)
        makers = completes & rings  # rings standing on the fifth point of a four
        targets = completes & theirs  # opponent markers whose flip completes a four
        front = [m for m in moves if BIT[m >> 8] & makers or flips(m, targets)] if completes else []
        for killer in self.killers[ply]:
            if killer in moves and killer not in front:
                front.append(killer)
        if tt_move is not None and tt_move in moves:
            if tt_move in front:
                front.remove(tt_move)
            front.insert(0, tt_move)
        if not front:
            return moves, 0
        chosen = set(front)
        return front + [m for m in moves if m not in chosen], len(front)


def _root_value(searcher: Searcher, child: State, depth: int, alpha: int, beta: int) -> int:
    if termination(child) is not None:
        return -searcher.terminal(node_of(child), 1)  # type: ignore[operator]
    return -searcher.negamax(node_of(child), depth - 1, -beta, -alpha, 1)


def search(state: State, *, max_depth: int = 64, deadline: float = float("inf"),
           searcher: Searcher | None = None, moves: list[Move] | None = None) -> Iterator[tuple[int, int, Move]]:
    """Iterative deepening: yields (depth, value, best move) after each completed depth.

    Depth 0 is the static order of the moves (the best child by the evaluation),
    yielded before any search so that a caller out of time still has a sound move.

    ``value`` is for the player to move, in evaluation units (``RING`` per ring).
    The caller stops iterating when it likes (a fixed depth in tests, a time budget
    in play). When ``deadline`` (a ``time.perf_counter()`` instant) passes inside a
    depth, that depth is abandoned and a last result is yielded only if some move
    had been searched to that depth and beat the previous best. A given
    ``searcher`` brings its own deadline.
    """
    if searcher is None:
        searcher = Searcher(state.rings_to_win, deadline=deadline)
    moves = legal_moves(state) if moves is None else moves
    if not moves:
        return
    children = [apply_move(state, m) for m in moves]
    order = list(range(len(moves)))
    scores = [0] * len(moves)
    # A first ordering by the static value of each child (for the mover).
    for i, child in enumerate(children):
        scores[i] = -searcher.static(node_of(child), 1)
    order.sort(key=lambda i: -scores[i])
    yield 0, scores[order[0]], moves[order[0]]
    for depth in range(1, max_depth + 1):
        alpha, beta = -INFINITY, INFINITY
        best = None
        new_scores = {}
        try:
            for rank, i in enumerate(order):
                if rank == 0:
                    value = _root_value(searcher, children[i], depth, alpha, beta)
                else:
                    value = _root_value(searcher, children[i], depth, alpha, alpha + 1)
                    if value > alpha:
                        value = _root_value(searcher, children[i], depth, alpha, beta)
                new_scores[i] = value
                if value > alpha:
                    alpha = value
                    best = i
        except Timeout:
            if best is not None and best != order[0]:
                yield depth, new_scores[best], moves[best]
            return
        assert best is not None
        # Moves that failed low keep their bound as a score: good enough to order by.
        order.sort(key=lambda i: -new_scores[i])
        order.remove(best)
        order.insert(0, best)
        yield depth, new_scores[best], moves[best]
        if abs(new_scores[best]) >= WIN - 64:
            return  # a forced result: deeper search cannot change it


def evaluate(s: State) -> float:
    """The value of ``s`` for the player to move, in rings (one ring removed = 1.0).

    Finished games score ±100 (a draw 0). Rows the opponent made for the player to
    move are counted as removed. Usable for an evaluation graph.
    """
    return Searcher(s.rings_to_win).static(node_of(s)) / RING
