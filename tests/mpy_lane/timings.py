"""The work of a click on the page, timed under either interpreter (scripts/bench_micropython.py).

Runs unchanged on CPython and MicroPython, like probes.py. Nothing of the package is imported
before :func:`import_times` runs, so that it times the imports of a fresh interpreter. Times
are microseconds (ints), averaged over batches: MicroPython's clock here counts milliseconds.
"""

import time

_ticks_us = getattr(time, "ticks_us", None)


def _now():
    """Microseconds on a monotonic clock (MicroPython's ticks, CPython's perf_counter)."""
    return _ticks_us() if _ticks_us else int(time.perf_counter() * 1_000_000)


def import_times(modules):
    """For each module in order, the microseconds its import took (what it needs and no
    earlier module imported, included)."""
    out = []
    for name in modules:
        start = _now()
        __import__(name)
        out.append([name, _now() - start])
    return out


def _best(work, repeat, setup=None, batch=10):
    """The fastest of ``repeat`` runs of ``work()`` (of ``work(setup())`` when ``setup`` is given,
    the setup untimed), in microseconds: each run times ``batch`` calls at once, since
    MicroPython's clock here counts whole milliseconds."""
    best = None
    for _ in range(repeat):
        given = [setup() for _ in range(batch)] if setup else None
        start = _now()
        if given is None:
            for _ in range(batch):
                work()
        else:
            for item in given:
                work(item)
        took = (_now() - start) // batch
        best = took if best is None or took < best else best
    return best


def clicks(codes, repeat):
    """For each mid-game position code: the microseconds of each piece of a click's work,
    best of ``repeat``: starting a ``Turn``, the legal moves, the board as the page draws it
    (highlights and point names), the guide's line; then two whole clicks as the page handles
    them: picking a ring (the turn's step and the board redrawn), and choosing where it goes
    when that ends the turn (the move played, the next turn started, the board redrawn, the
    guide's line, the announcement); and the mouse moving onto a lit destination, as the page
    handles it: what the page shows (its status, the move previewed) and the preview drawn."""
    from yinsh import Game
    from yinsh.page.access import Announcer, point_labels
    from yinsh.page.estimate import quick_value
    from yinsh.page.guide import guide_line
    from yinsh.page.session import Session
    from yinsh.page.settings import Settings
    from yinsh.page.status import status
    from yinsh.page.words import prompt
    from yinsh.render import board_svg, preview_layer
    from yinsh.state import legal_moves
    from yinsh.turn import Turn

    def redraw(game, turn):
        return board_svg(game, point_labels=point_labels(turn), destinations=turn.destinations,
                         rows=turn.candidate_rows, selected_row=turn.selected_row, selected_ring=turn.selected_ring,
                         removable=turn.removable_rings, movable=turn.movable_rings, clickable=turn.clickable_points)

    out = []
    for code in codes:
        game = Game.from_position(code)
        turn = Turn(game)
        # A ring and a destination that end the turn (no row made), when there is one.
        quiet = [(m.source, m.target) for m in game.legal_moves() if m.kind == "move" and not m.after]
        if not quiet:
            continue
        ring, target = min(quiet)

        def picked(game=game, ring=ring):
            turn = Turn(game)
            turn.click_point(ring)
            announcer = Announcer()
            announcer.update(game, prompt(turn))  # it has heard the game so far
            return turn, announcer

        def pick(turn, game=game, ring=ring):
            turn.click_point(ring)
            redraw(game, turn)

        def finish(given, game=game, target=target):
            turn, announcer = given
            turn.click_point(target)
            after = game.copy()
            after.play(turn.move)
            following = Turn(after)
            redraw(after, following)
            guide_line(following)
            announcer.update(after, prompt(following))

        page = Session(game.copy(), Settings())
        page.click_point(ring)

        def hover(page=page, target=target):
            page.point_to(target)
            shown = status(page)
            preview_layer(shown.board)

        out.append({
            "hover": _best(hover, repeat),
            "estimate": _best(lambda state=game.state: quick_value(state), repeat),
            "turn": _best(lambda game=game: Turn(game), repeat),
            "legal_moves": _best(lambda game=game: legal_moves(game.state), repeat),
            "board": _best(lambda game=game, turn=turn: redraw(game, turn), repeat),
            "guide": _best(lambda turn=turn: guide_line(turn), repeat),
            "pick": _best(pick, repeat, lambda game=game: Turn(game)),
            "move": _best(finish, repeat, picked),
        })
    return out
