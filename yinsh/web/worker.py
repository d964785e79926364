"""The computer player, in a PyScript web worker: a position in, a move out, as text.

The page starts this worker after it is interactive (``yinsh.web.main``) and calls the
functions named in ``__export__``; every argument and every answer is a plain string or
number, so the boundary needs no SharedArrayBuffer, no COOP/COEP headers and no service
worker. Answers are JSON text, and no exception ever crosses the boundary: a failure is
an answer too (``{"error": "..."}``), which the page shows as a notice.

>>> import json
>>> answer = json.loads(think("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8", 1, 7, 0.05))
>>> answer["ok"], answer["ply"], answer["move"] in {str(m) for m in game_from_text(
...     "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8").legal_moves()}
(True, 10, True)
>>> json.loads(think("nonsense", 3))["ok"]
False

``evaluate`` gives White's value after every move of a record, for the page's evaluation
graph. It imports only the rules core and :mod:`yinsh.ai` (never ``pyscript`` or ``js``), so it
runs and is tested under CPython as well.
"""

from __future__ import annotations

import gc
import json
import sys
from time import perf_counter

from yinsh.ai import RING
from yinsh.ai import think as _think
from yinsh.ai.evaluation import node_of
from yinsh.ai.negamax import Searcher
from yinsh.game import Game
from yinsh.state import State, apply_move, legal_moves, termination

__all__ = ["hello", "think", "bench", "evaluate", "white_value"]
__export__ = ["hello", "think", "bench", "evaluate"]

_VALUES: dict[State, float] = {}
"""White's value of positions already evaluated: a record that grows by a move costs one more."""
_VALUES_KEPT = 4096

_DIGITS = frozenset("0123456789")
_CODE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def game_from_text(text: str) -> Game:
    """The game a record or a position code describes (what the page sends).

    >>> game_from_text("1.e3 2.a5").ply, game_from_text(Game().position()).ply
    (2, 0)
    """
    text = text.strip()
    if text[:1] == "Y" and text[1:2] in _DIGITS and len(text) > 2 and all(c in _CODE for c in text[2:]):
        return Game.from_position(text)
    return Game.from_record(text)


def _answer(**fields) -> str:
    return json.dumps(fields, separators=(",", ":"))


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def hello() -> str:
    """That the worker is up, under which Python, and in the browser how Pyodide started
    (``"start"``: ``"snapshot"`` or ``"fresh"``, set by ``static/js/yinsh-pyodide.mjs``; the
    page's first call)."""
    return _answer(ok=True, python=sys.version.split()[0], platform=sys.platform, start=_pyodide_start())


def _pyodide_start() -> str | None:
    if sys.platform != "emscripten":
        return None
    import js  # Pyodide's module of the worker's globals

    return getattr(js, "yinshPyodideStart", None)


def think(game: str, level: int = 3, seed: int = 0, seconds: float | None = None) -> str:
    """The move ``level`` plays in ``game`` (a record or a position code), as JSON text.

    ``{"ok": true, "move": "h7-g7", "ply": 10, "depth": 3, "value": 0.4, "nodes": 812,
    "seconds": 0.41}`` (``ply``: the moves played before it, so that the page can tell an
    answer about another position), or ``{"ok": false, "error": "..."}``.
    ``seconds``, when given, overrides the level's time budget (benchmarks).
    """
    start = perf_counter()
    try:
        current = game_from_text(str(game))
        if current.result is not None:
            return _answer(ok=False, error="the game is over")
        move, info = _think(current, int(level), None if seconds is None else float(seconds), int(seed))
        return _answer(ok=True, move=str(move), ply=current.ply, depth=info["depth"],
                       value=round(float(info["value"]), 3), nodes=info["nodes"],
                       seconds=round(perf_counter() - start, 4))
    except Exception as exc:  # noqa: BLE001 (the boundary: a failure is an answer, never a traceback)
        return _answer(ok=False, error=_short(exc))


def bench(positions: str, level: int = 3, seed: int = 0) -> str:
    """Think time of ``level`` over position codes (one a line), measured here, as JSON.

    ``{"ok": true, "seconds": [...], "depths": [...], "moves": [...]}``; used by
    ``scripts/bench_ai_web.py`` to time the search where it really runs.
    """
    times: list[float] = []
    depths: list[int] = []
    moves: list[str] = []
    try:
        for code in str(positions).split():
            current = Game.from_position(code)
            start = perf_counter()
            move, info = _think(current, int(level), None, int(seed))
            times.append(round(perf_counter() - start, 5))
            depths.append(info["depth"])
            moves.append(str(move))
        return _answer(ok=True, seconds=times, depths=depths, moves=moves, python=sys.version.split()[0])
    except Exception as exc:  # noqa: BLE001
        return _answer(ok=False, error=_short(exc), seconds=times)


def white_value(state: State, searcher: Searcher) -> float:
    """How good ``state`` is for White, in rings (a finished game ±100), clamped to ±100.

    One turn of look-ahead (the best reply of the player to move by the static evaluation)
    rather than the bare static value: that value swings with whose turn it is (a row the
    player to move can make counts almost as a ring), one ply evens it out. While rings are
    placed it is the static value, near 0.
    """
    if state.in_placement or termination(state) is not None:
        value = searcher.static(node_of(state)) / RING
    else:
        children = [apply_move(state, move) for move in legal_moves(state)]
        value = max(-searcher.static(node_of(child), 1) for child in children) / RING
    value = max(-100.0, min(100.0, value))
    return round(value if state.turn == 0 else -value, 3)


def evaluate(game: str) -> str:
    """White's value (in rings) after each move of ``game`` (a record), as JSON text:
    ``{"ok": true, "values": [0.0, ...]}``, one number per move played since the start
    (for the page's evaluation graph), or ``{"ok": false, "error": "..."}``.

    >>> values = json.loads(evaluate("1.e3 2.a5 3.b5"))["values"]
    >>> len(values), all(abs(v) < 0.1 for v in values)  # placing rings changes little
    (3, True)
    """
    try:
        current = game_from_text(str(game))
        searcher = Searcher(current.state.rings_to_win)
        values = []
        collecting = gc.isenabled()
        gc.disable()  # the evaluation makes many tuples and no cycles: collections only stall it
        try:
            state = current.start_state
            for move in current.moves:
                state = apply_move(state, move)
                value = _VALUES.get(state)
                if value is None:
                    value = _VALUES[state] = white_value(state, searcher)
                values.append(value)
        finally:
            if collecting:
                gc.enable()
        if len(_VALUES) > _VALUES_KEPT:
            _VALUES.clear()
        return _answer(ok=True, values=values)
    except Exception as exc:  # noqa: BLE001 (the boundary)
        return _answer(ok=False, error=_short(exc))
