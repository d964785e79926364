"""Conformance probes: what the shared modules answer, as plain data, under either interpreter.

tests/test_micropython.py calls each function here under CPython (in the pytest process) and
under the pinned MicroPython (in Node.js, through tests/mpy_lane/run.mjs) with the same
arguments, and requires equal answers. So this file keeps to the Python both run (see
docs/PORTABILITY.md): its answers are JSON (lists, strings, ints, no floats: MicroPython
prints floats its own way; no record types: they are tuples on CPython only), in an order
that never comes from a dict or a set.
"""

import datetime

from yinsh import Game, YinshError
from yinsh.board import POINTS, WINDOWS, point_name
from yinsh.compat import decode_utf8, now_ms
from yinsh.diagram import diagram_svg
from yinsh.lessons import lessons
from yinsh.link import decode_game, encode_game
from yinsh.page.access import KEY_DIRECTIONS, Announcer, neighbour, point_labels, row_for_key, spoken_prompt
from yinsh.page.embed import EmbedError, parse_embed, step_label
from yinsh.page.graph import eval_graph_svg
from yinsh.page.guide import guide_line
from yinsh.page.history import History
from yinsh.page.links import game_url, open_page, opponent_url
from yinsh.page.prefs import THEMES, applied_theme, guide_on, sound_on, theme_choice, welcome_choice, welcome_due
from yinsh.page.preview import preview, preview_note, row_at
from yinsh.page.records import export_record, import_error_message, list_import, read_import, record_title
from yinsh.page.rules_panel import rules_html
from yinsh.page.saved import SavedGameError, saved_from_json, saved_to_json
from yinsh.page.session import Session
from yinsh.page.settings import Settings, settings_from_json, settings_to_json
from yinsh.page.sounds import move_cues, schedule
from yinsh.page.status import status
from yinsh.page.urls import read_params
from yinsh.page.words import TOUCH, detail, prompt
from yinsh.position import decode_position, encode_position
from yinsh.record import read_record, read_records
from yinsh.render import board_svg, nearest_point, point_xy, ring_icon_svg
from yinsh.state import count_legal_moves
from yinsh.turn import Turn, decisions_of, result_text


def choices(turn) -> dict:
    """A turn's choices as :func:`yinsh.render.picture` takes them."""
    return {"destinations": turn.destinations, "rows": turn.candidate_rows, "selected_row": turn.selected_row,
            "selected_ring": turn.selected_ring, "removable": turn.removable_rings, "movable": turn.movable_rings,
            "clickable": turn.clickable_points}

def imports(modules):
    """Import every module named (``yinsh.page.access``, …); their names once imported."""
    for name in modules:
        __import__(name)
    return modules


def perft(record, depth):
    """The number of move sequences of ``depth`` from the end of ``record``."""
    from yinsh.perft import perft as count

    return count(Game.from_record(record).state, depth)


def values():
    """The record types behave as tuples do: equality, hashing, order, unpacking, ``_replace``,
    ``_asdict`` (in field order), ``repr``, defaults and keywords."""
    from yinsh.move import Move, Removal
    from yinsh.state import initial_state
    from yinsh.turn import Decision

    state = initial_state()
    move = Move("move", 40, 41, (Removal(3, 4),))
    settings = Settings(black="ai-3")
    white_markers, *rest = state
    return [
        repr(state), list(state), white_markers, len(rest), state == tuple(state),
        hash(state) == hash(tuple(state)),
        repr(state._replace(turn=1, placed=5)), list(state._replace(turn=1)) == list(state), state[4], list(state[2:5]),
        repr(move), str(move), [list(r) for r in move.before], move == Move("move", 40, 41, (Removal(3, 4),), ()),
        move != Move("pass"),
        Move("pass") in {Move("pass"): 1}, repr(Move("pass")._replace(before=(Removal(1, 2),))),
        [list(r) for r in sorted([Removal(5, 1), Removal(2, 9), Removal(2, 3)])], str(Removal(2, 3)),
        repr(settings), list(settings._asdict().items()), repr(settings._replace(delay=250)), settings.players,
        repr(Decision("pass")), Decision("row", 3) == ("row", 3), [list(d) for d in sorted([Decision("row", 3),
                                                                                            Decision("pass")])],
        Settings(variant="blitz") == Settings("human", "human", "blitz"), Settings._fields,
    ]


def legal_moves(codes):
    """For each position code: its legal moves in order, and the count without building them."""
    out = []
    for code in codes:
        game = Game.from_position(code)
        out.append([[str(move) for move in game.legal_moves()], count_legal_moves(game.state)])
    return out


def replay(text):
    """Every game of a record text (or an SGF file): its record, tags in order, result, codes,
    and the round trips of the record, the position code and the game code."""
    out = []
    for record in read_records(text):
        game = record.game
        written = game.record(record.tags)
        code, link = game.position(), encode_game(game)
        out.append({
            "record": written, "tags": list(record.tags.items()), "result": game.result,
            "termination": game.termination, "score": list(game.score), "pool": game.pool, "ply": game.ply,
            "to_move": game.to_move, "position": code, "link": link, "title": record_title(record),
            "result_text": result_text(game),
            "outcome": [game.outcome.result, game.outcome.termination, game.outcome.winner,
                        game.outcome.text(short=True)] if game.outcome else None,
            "record_again": read_record(written).game.record(),
            "position_again": Game.from_position(code).position() == code,
            "state_again": list(decode_position(code)[0]) == list(game.state),
            "link_again": decode_game(link).record() == game.record(),
            "codes": [encode_position(game.state_at(n), game.start_ply + n) for n in range(len(game.moves) + 1)],
        })
    return out


def errors(cases):
    """What each bad input raises: for ``[kind, text]`` pairs, where kind is ``record``,
    ``move`` (after the notation example), ``position``, ``game`` or ``import``."""
    example = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")
    readers = {"record": read_record, "move": lambda text: example.copy().play(text), "position": decode_position,
               "game": decode_game, "import": read_import}
    out = []
    for kind, text in cases:
        try:
            readers[kind](text)
            out.append(["read", kind, text])
        except YinshError as exc:
            out.append([type(exc).__name__, str(exc), exc.move_number, exc.mover, exc.move_text, exc.reason,
                        import_error_message(exc)])
    return out


def _turn_facts(turn):
    options = sorted([d.kind, d.value] for d in turn.options)
    return [str(turn.phase), prompt(turn), detail(turn), detail(turn, TOUCH), options, sorted(turn.clickable_points),
            list(turn.candidate_rows), sorted(turn.destinations), sorted(turn.movable_rings),
            turn.rows_pending_for, repr(turn)]


def _moves_between(text, first, last):
    """The moves ``first`` to ``last`` of a record's game, each with its index and the game
    before it (a replay, played on as the caller goes to the next)."""
    game = read_record(text).game
    replay = Game.from_state(game.start_state, game.start_ply)
    for index, move in enumerate(game.moves[:last]):
        if index >= first:
            yield index, move, replay
        replay.play(move)


def turns(text, first, last):
    """Moves ``first`` to ``last`` of a record's game made by clicks on a ``Turn``: what it
    says and offers before each move and after each click, and what wrong clicks answer."""
    out = []
    for index, move, replay in _moves_between(text, first, last):
        turn = Turn(replay)
        steps = [_turn_facts(turn)]
        # A wrong click first (every point in turn would be slow): it must change nothing.
        wrong = [p for p in POINTS if p not in turn.clickable_points][index % 7::7][:3]
        for point in wrong:
            steps.append(["wrong", point_name(point), turn.click_point(point), str(turn.phase)])
            if turn.phase != "move-ring" and turn.decisions:
                turn.reset()
        turn.reset()
        while turn.move is None and turn.options:
            step = decisions_of(move)[len(turn.decisions)]
            hint = turn.click_row(step.value) if step.kind == "row" else turn.click_point(step.value)
            steps.append(["click", step.kind, step.value, hint] + _turn_facts(turn))
        steps.append(["move", str(turn.move), turn.move == move, turn.passed])
        out.append(steps)
    return out


def boards(text, every):
    """The board of every ``every``-th position of a record's game, as the page draws it (the
    highlights of the turn, the names of the points), and as diagrams and animations."""
    game = read_record(text).game
    replay = Game.from_state(game.start_state, game.start_ply)
    out = []
    for index, move in enumerate(game.moves + (None,)):
        if index % every == 0:
            turn = Turn(replay)
            out.append(board_svg(replay, point_labels=point_labels(turn), **choices(turn)))
            out.append(board_svg(replay, animate=True, labels=index % 2 == 0))
            out.append(board_svg(replay.state, animate="flips", marked=["e5", "f6"], title="A <board> & \"more\""))
            out.append(diagram_svg(replay, highlight=["e4", "e3-e7"], size=300))
        if move is not None:
            replay.play(move)
    return out


def pictures():
    """The pictures that need no game: the empty board, the ring icons, point coordinates."""
    points = [[point_name(p)] + [round(v * 100) for v in point_xy(p)] for p in POINTS]
    nearest = [nearest_point(x * 7 - 300, y * 7 - 300) for x in range(0, 90, 7) for y in range(0, 90, 7)]
    return [board_svg(Game()), board_svg(Game(), standalone=True, size=200), ring_icon_svg("white"),
            ring_icon_svg("black", filled=False), points, nearest]


def lesson_texts():
    """The rules as the panel shows them, and each lesson's fields."""
    return [rules_html(), [list(lesson) for lesson in lessons()]]


def pages(cases):
    """What the page opens for ``[search, hash]`` pairs: the game, players, notices, settings,
    where the game came from, and its links."""
    out = []
    for search, hash_ in cases:
        setup = open_page(search, hash_)
        game = setup.game
        out.append([game.record(), setup.players["white"], setup.players["black"], setup.notices,
                    list(setup.settings), setup.source, setup.set_aside, read_params(search, hash_) == {},
                    game_url("/index.html", setup.players, game), game_url("/", {}, game, setup.settings),
                    opponent_url("/", game, setup.settings)])
    return out


def keeping(records, stored_settings, saved_texts):
    """Settings and saved games to and from JSON, and record files out and back in."""
    day = datetime.date(2026, 11, 29)
    out = []
    for text in stored_settings:
        settings = settings_from_json(text)
        out.append([list(settings), settings_to_json(settings), settings.query()])
    for text in records:
        game = read_records(text)[-1].game
        for settings in (Settings(), Settings("ai-2", "human", game.variant, 250), Settings("human", "remote")):
            saved = saved_to_json(game, settings, 1764400000000)
            again = saved_from_json(saved)
            exported = export_record(game, settings, day)
            out.append([saved, again.game.record(), list(again.settings), again.time, exported,
                        [[r.game.record(), list(r.tags.items())] for r in read_import(exported)]])
    for text in saved_texts:
        try:
            saved = saved_from_json(text)
            out.append(["read", saved.game.record(), list(saved.settings), saved.time])
        except SavedGameError as exc:
            out.append(["refused", str(exc)])
    return out


def access(text, first, last):
    """What a screen reader hears and the keyboard does through moves of a record's game."""
    game = read_record(text).game
    replay = Game.from_state(game.start_state, game.start_ply)
    announcer = Announcer()
    out = [[[point_name(neighbour(p, key, shift)) for p in POINTS] for key, shift in sorted(KEY_DIRECTIONS)]]
    for index, move in enumerate(game.moves):
        if index >= last:
            break
        if index >= first:
            turn = Turn(replay)
            labels = point_labels(turn)
            keys = [row_for_key(turn, p) for p in POINTS]
            out.append([[labels[p] for p in POINTS], keys, spoken_prompt(prompt(turn), turn),
                        announcer.update(replay, prompt(turn)), guide_line(turn)])
        replay.play(move)
    out.append(announcer.update(replay, "over"))
    return out


def history(text, computers):
    """Undo and redo of whole turns through a record's game, for the colours the computer plays."""
    game = read_record(text).game
    kept = History(Game.from_state(game.start_state, game.start_ply))
    out = [[game.mover(i) for i in range(len(game.moves))]]
    for move in game.moves:
        kept.play(move)
    while kept.can_undo(computers):
        out.append([str(m) for m in kept.undo(computers)] + [kept.game.ply])
    while kept.can_redo():
        out.append([str(m) for m in kept.redo(computers)] + [kept.game.ply])
    return out


def graphs(cases):
    """Evaluation graphs for ``[thousandths, current, first number]``: the values are made here,
    by division, so both interpreters draw the same floats (parsing them might differ)."""
    return [eval_graph_svg([n / 1000 for n in thousandths], current, first) for thousandths, current, first in cases]


def embeds(cases):
    """What ``embed.html`` shows for ``[search, hash]`` pairs, or what it says is wrong."""
    out = []
    for search, hash_ in cases:
        try:
            spec = parse_embed(search, hash_)
        except EmbedError as exc:
            out.append(["refused", str(exc)])
            continue
        out.append([spec.game.record(), spec.ply, spec.steps, list(spec.marked), list(spec.rows),
                    [str(m) for m in spec.expected], spec.caption, spec.game_at(spec.ply).position(),
                    step_label(spec.ply, spec.moves), spec.puzzle])
    return out


def preferences(stored):
    """Theme, guide, sound and first-visit choices read back from what ``localStorage`` holds,
    and when the first visit's question is asked."""
    links = [{}, {"n": "1"}, {"record": "1.e3"}, {"white": "ai-2"}, {"black": "human"}, {"you": "black"}]
    return [list(THEMES)] + [[theme_choice(s), applied_theme(theme_choice(s), True),
                              applied_theme(theme_choice(s), False), guide_on(s), sound_on(s), welcome_choice(s),
                              [welcome_due(s, params, returning) for params in links for returning in (False, True)]]
                             for s in stored]


def utf8(byte_lists):
    """Bytes decoded as UTF-8 with U+FFFD for what is ill-formed."""
    return [decode_utf8(bytes(b)) for b in byte_lists]


def hostile(door, text):
    """What a hostile input of issue 13 (``yinsh.bench.hostile_inputs``) comes to at its door:
    ``[door, "refused", the error's type, its message]``, or ``[door, "opened", what]``."""
    try:
        if door == "record":
            opened = read_record(text).game.record()
        elif door == "import":  # as the Open record dialog: every game listed, the one opened replayed
            listed = list_import(text)
            opened = [len(listed), listed[0].record().game.record()]
        elif door == "position":
            opened = list(decode_position(text)[0])
        elif door == "code":
            opened = decode_game(text).record()
        elif door == "saved":
            opened = saved_from_json(text).game.record()
        elif door == "embed":  # a puzzle's first turn built, as the frame builds it
            search, _, hash_ = text.partition("#")
            spec = parse_embed(search, "#" + hash_ if hash_ else "")
            opened = spec.game.record()
            if spec.puzzle:
                opened = [opened, str(Turn(spec.game_at(spec.ply)).phase)]
        else:  # a link to the page: what it opens, what it says, and its first turn
            search, _, hash_ = text.partition("#")
            setup = open_page(search, "#" + hash_ if hash_ else "")
            return [door, setup.source, setup.game.record(), setup.notices, str(Turn(setup.game).phase)]
    except (YinshError, SavedGameError) as exc:
        return [door, "refused", type(exc).__name__, str(exc)]
    return [door, "opened", opened]


def previews(text, first, last):
    """What the board previews through moves ``first`` to ``last`` of a record's game: for each
    ring of the mover and each of its destinations, the markers flipped, the rows made and the
    note; in a row choice, the row under a pointer on and round every candidate row's points;
    and what each move sounds like."""
    out = []
    for _, move, replay in _moves_between(text, first, last):
        turn = Turn(replay)
        for source in sorted(turn.movable_rings):
            turn.click_point(source)
            for target in sorted(turn.destinations):
                shown = preview(turn, target)
                out.append([point_name(source), point_name(target), [point_name(p) for p in shown.flips],
                            list(shown.rows), preview_note(turn, shown)])
            turn.reset()
        for step in decisions_of(move):
            if turn.phase in ("remove-row", "remove-ring"):
                for window in turn.candidate_rows:
                    for point in WINDOWS[window]:
                        x, y = point_xy(point)
                        out.append(["row", point_name(point), row_at(turn, point)]
                                   + [row_at(turn, point, x + dx, y + dy) for dx, dy in ((9, 4), (-7, -9))]
                                   + [preview(turn, point, by_key=True).row])
            if step.kind == "row":
                turn.click_row(step.value)
            elif step.kind != "pass":
                turn.click_point(step.value)
        out.append(["cues", list(move_cues(replay.state, move)),
                    [[start, note.hz, note.ms] for start, note in schedule(move_cues(replay.state, move))]])
    return out


def _shown(session):
    """What the page shows, as plain data (the board as its SVG)."""
    s = status(session)
    return [s.prompt, s.detail, s.spoken, s.guide, s.message, list(s.notices), s.record, s.position, s.result,
            s.phase, s.turn_color, s.to_move, s.hint, s.ai, s.discarded, s.pool, s.pool_warning,
            [list(m) for m in s.moves], s.can_undo, s.can_redo, s.hint_hidden, s.hint_disabled, s.hint_busy,
            s.pause_hidden, s.pause_label, s.send_link, s.by_link, [list(r) for r in s.row_choices],
            list(s.banner) if s.banner else None,
            [[p.color, p.active, p.thinking, p.kind, p.score, p.need, p.rings, p.on_board] for p in s.players],
            None if s.review is None else [s.review.at, s.review.count, s.review.first_number, s.review.label,
                                           s.review.values],
            s.motion.animate, len(s.motion.frames), board_svg(s.board), list(s.motion.sounds),
            s.preview_note, None if s.board.preview is None else [s.board.preview.ring, list(s.board.preview.flips),
                                                                  list(s.board.preview.rows), s.board.preview.row]]


def placements(codes, seeds):
    """The ring each level places in each position (codes of positions in placement), for
    each seed, as the page makes it (:meth:`~yinsh.page.computer.ComputerPlayer.answer_here`)
    with the worker's rule: the same everywhere, so the page chooses what the worker would."""
    from yinsh.ai.placement import placement_move

    out = []
    for code in codes:
        game = Game.from_position(code)
        out.append([str(placement_move(game.state, seed, level)) for seed in seeds for level in (1, 3, 5)])
    page = Session(Game(), Settings(white="ai-2", black="ai-4"), seed=seeds[-1])
    while page.game.state.in_placement:  # a game between two computers, placed by the page alone
        (request,) = page.computer.requests()
        page.computer.receive_move(request, page.computer.answer_here(request))
    out.append(page.game.record())
    return out


def reasons(text):
    """Why each move of ``text`` would be a good hint, in the page's words (every move, the
    placements too)."""
    from yinsh.page.reasons import hint_reason

    game = Game.from_record(text)
    return [hint_reason(game.state_at(i), move) for i, move in enumerate(game.moves)]


def session(text, black, answers):
    """A game at the page against a computer playing Black at ``black``: the moves of ``text``,
    White's clicked decision by decision, Black's given as the worker's JSON answers (the
    ``answers`` list says which of them, by index, answer with an illegal move instead); then
    undo, redo, review and a stale answer. What the page shows after every step."""
    target = Game.from_record(text)
    page = Session(Game(), Settings(black=black), seed=7)
    page.computer.set_state("ready")
    out = [_shown(page)]
    for i, move in enumerate(target.moves):
        if page.game.result is not None or page.players[page.game.to_move] == "human" and page.game.to_move == "black":
            break
        if page.person_to_move():
            for decision in decisions_of(move):
                if decision.kind == "row":
                    page.click_row(decision.value)
                elif decision.kind != "pass":
                    page.click_point(decision.value)
                destinations = sorted(page.turn.destinations)
                page.point_to(destinations[len(destinations) // 2] if destinations else None)
                out.append(_shown(page))
        else:
            (request,) = page.computer.requests()
            answer = "e3-e10" if i in answers else str(move)
            page.computer.receive_move(request, '{"ok": true, "move": "' + answer + '"}')
            out.append(_shown(page) + [[r.kind, r.level, r.seed, r.pause_ms] for r in page.computer.requests()])
    page.undo()
    out.append(_shown(page))
    page.redo()
    out.append(_shown(page))
    if page.game.moves:
        page.review(1)
        out.append(_shown(page) + [[r.kind, r.text] for r in page.computer.requests()])
        page.step_review("last")
        page.leave_review()
    page.computer.ask_hint()
    stale = page.computer.requests()
    page.undo()
    for request in stale:
        page.computer.receive_hint(request, '{"ok": true, "move": "pass"}')
    out.append(_shown(page))
    return out


def _read_direct(text):
    record = read_record(text)
    return record.game, record.tags


def _read_file(text):
    from yinsh.record import read_records

    record = read_records(text)[0]
    return record.game, record.tags


def _read_dialog(text):
    record = list_import(text)[0].record()
    return record.game, record.tags


def _read_link(text):
    from yinsh.page.urls import quote as _quote

    setup = open_page("?record=" + _quote(text), "")
    if setup.source != "link":
        raise YinshError(setup.notices[-1])
    return setup.game, {}


def _read_embed(text):
    from yinsh.page.urls import quote as _quote

    return parse_embed("?record=" + _quote(text)).game, {}


def readers(texts):
    """What every reader of records makes of each text: ``read_record`` (``Game.from_record``),
    a file (the command line), the Open dialog, the page's ``record=`` link and the embed's;
    each ``["ok", record, tags]`` or ``["refused", message]``."""
    out = []
    for text in texts:
        answers = []
        for read in (_read_direct, _read_file, _read_dialog, _read_link, _read_embed):
            try:
                game, tags = read(text)
                answers.append(["ok", game.record(), sorted([k, v] for k, v in tags.items())])
            except YinshError as exc:
                answers.append(["refused", str(exc)])
        out.append(answers)
    return out

def splits(texts, max_games):
    """Each text cut into games by ``split_records`` (at most ``max_games``), or its refusal."""
    from yinsh.record import split_records

    out = []
    for text in texts:
        try:
            out.append(["ok", split_records(text, 1_000_000, max_games)])
        except YinshError as exc:
            out.append(["refused", str(exc)])
    return out


def listings(texts):
    """Each text as the Open dialog lists it (``list_import``'s labels), or its refusal."""
    out = []
    for text in texts:
        try:
            out.append(["ok", [listed.label() for listed in list_import(text)]])
        except YinshError as exc:
            out.append(["refused", str(exc)])
    return out


def tag_pairs(lines):
    """Each tag pair line's name and value, and the head of 3 characters that a list reads of
    it in the line's bytes; or its refusal."""
    from yinsh.pgn import tag_pair, tag_pair_head

    def read(line, head):
        data = b"\n" + line.encode() + b"\n"
        try:
            return ["ok", list(tag_pair_head(data, 1, len(data) - 1, 3) if head else tag_pair(line))]
        except YinshError as exc:
            return ["refused", str(exc)]

    return [read(line, head) for line in lines for head in (False, True)]


def positions_read(codes):
    """Each position code as ``Game.from_position`` reads it: its record, or the refusal."""
    out = []
    for code in codes:
        try:
            out.append(["ok", Game.from_position(code).position()])
        except YinshError as exc:
            out.append(["refused", str(exc)])
    return out


def spaces(texts):
    """What :mod:`yinsh.scan` makes of each text: stripped, its words, lower case, made visible."""
    from yinsh.scan import lower, strip, visible, words

    return [[strip(t), words(t), lower(t), visible(t)] for t in texts]


def clocks(controls, timings):
    """Each control of ``controls`` read, written and described, and a game's clocks folded
    from ``timings`` ([wait, think] a move) under it: every move's answer, both clocks and
    quotas after it, the record's comments, a clock's text; the error of what cannot be read."""
    from yinsh.live.clock import Clocks, TimeControl, clock_text
    from yinsh.pgn import clock_comment

    out = []
    for text in controls:
        try:
            control = TimeControl.parse(text)
        except YinshError as exc:
            out.append(["error", str(exc)])
            continue
        clock = Clocks(control)
        clock.start(0)
        now, steps = 0, []
        for wait, think in timings:
            ok = clock.move(now + wait, think)
            now += wait if ok else 0
            steps.append([ok, list(clock.left), list(clock.quota), clock.out_of_time(now + 60_000),
                          clock_text(clock.remaining(clock.to_move, now + 5_000))])
        out.append([str(control), control.tag(), str(TimeControl.from_tag(control.tag())), control.describe(),
                    steps, [clock_comment(ms) for ms in clock.spent]])
    return out


def live_room(text, colours, junk):
    """A live room folded from a scripted stream (yinsh.live): created with ``colours``, two
    seats, a start, the moves of ``text`` by whoever is to move, every item of ``junk`` stored
    between two moves, a replay, a forgery, chat (a watcher, a seat, over the rate), a
    resignation and a rematch; what the room shows after each step, and the wire's text."""
    from yinsh.live.protocol import BadMessage, decode
    from yinsh.live.room import LiveError, Room
    from yinsh.live.status import live_status

    room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
    ana, ben, cleo, sig = "A" * 43, "B" * 43, "C" * 43, "s" * 86
    stream = [0]
    out = []

    def store(data, subject="game", verified=True, dt=1000):
        stream[0] += 1
        try:
            message = decode(data)
        except BadMessage as exc:
            room.junk(subject, stream[0], exc.reason)
            return exc.reason
        event = room.apply(subject, stream[0], stream[0] * dt, message, verified)
        return event.kind if event is not None else None

    def send(draft, key, verified=True):
        data = draft.signed(key, sig)
        out.append([decode_utf8(draft.text()), decode_utf8(data)])
        return store(data, "chat" if draft.kind == "chat" else "game", verified)

    def shown():
        return [room.phase, room.version, room.game_seq, room.chat_seq, room.white, room.games,
                room.game.record() if room.game else None, room.result(), room.ending,
                [[k, room.ignored[k]] for k in sorted(room.ignored)], [[c.author, c.text] for c in room.chat],
                [s.name if s else None for s in room.seats], room.role_of(ana), room.role_of(cleo)] + [
                    [st.live, st.seat, [[p.seat, p.name, p.colour, p.connected, p.you] for p in st.players],
                     st.watchers, st.actions, st.prompt, st.result, st.chat, st.ignored]
                    for st in (live_status(room, who, who != ben, 5000) for who in (ana, ben, cleo))]

    send(room.draft_create(ana, colours), ana)
    room.presence(decode(room.draft_presence("here", 7).signed(ana, sig)), True, 4000)
    room.presence(decode(room.draft_presence("here", 9).signed(cleo, sig)), True, 100)
    send(room.draft_join(ana, "Ana", "nonce-of-ana"), ana)
    send(room.draft_join(ben, "Bén 🙂", "nonce-of-ben"), ben)
    try:
        room.draft_join(cleo, "Cleo", "nonce-of-cleo")
    except LiveError as exc:
        out.append(str(exc))
    send(room.draft_start(ben), ben)
    out.append(shown())
    game = Game.from_record(text)
    for i, move in enumerate(game.moves):
        if room.phase != "playing":
            break
        if str(move) == "pass":
            continue
        key = room.to_move_key()
        draft = room.draft_move(key, str(move))
        out.append([send(draft, key), store(junk[i % len(junk)].encode("utf-8")) if junk else None])
        if i == 12:  # the same move again, by a watcher, and forged
            out.append([store(draft.signed(key, sig)), send(draft, cleo), send(draft, key, False)])
    out.append(shown())
    for i in range(7):
        out.append(send(room.draft_chat(cleo, "line " + str(i) + " ✓"), cleo))
    out.append(send(room.draft_chat(ana, "  gg  "), ana))
    if room.phase == "playing":
        send(room.draft_resign(ana), ana)
    send(room.draft_start(ana), ana)
    out.append(shown())
    return out


def live_page(text, other_tab_at):
    """A live room at Ana's page (yinsh.page.live): the session follows the room, her moves made
    on the board go out (Follower.outgoing), Ben's come in; at ply ``other_tab_at`` another tab
    of her seat wins the turn and the session is put back to the room's game. What the panel
    shows at each step."""
    from yinsh.live.protocol import decode
    from yinsh.live.room import Room
    from yinsh.page.live import Follower, live_settings, room_view

    room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
    ana, ben, sig = "A" * 43, "B" * 43, "s" * 86
    seq = [0]
    out = []

    def store(draft, key):
        seq[0] += 1
        return room.apply("game", seq[0], seq[0] * 1000, decode(draft.signed(key, sig)), True) is not None

    def view():
        v = room_view(room, ana, 0, "open")
        return [v.live, v.seat, v.line, [s.label() for s in v.seats], v.can_join, v.can_start, v.start_label,
                v.can_resign, v.can_leave]

    session = Session(Game(), live_settings(room, ana))
    follower = Follower(session, ana)
    follower.follow(room)
    store(room.draft_create(ana, "black"), ana)
    store(room.draft_join(ana, "Ana", "nonce-of-ana"), ana)
    out.append(view())
    store(room.draft_join(ben, "Ben", "nonce-of-ben"), ben)
    out.append(view())
    store(room.draft_start(ben), ben)
    out.append([follower.follow(room), session.players, view()])
    game = Game.from_record(text)
    for i, move in enumerate(game.moves):
        if room.phase != "playing":
            break
        if str(move) == "pass":
            continue
        if room.to_move_key() == ana:
            if i == other_tab_at:  # another tab of this seat played first: the room keeps its move
                store(room.draft_move(ana, str(move)), ana)
                other = [m for m in session.game.legal_moves() if str(m) != str(move)][0]
                session.commit(other)
                out.append([follower.outgoing(room), follower.follow(room), session.notices,
                            session.game.record() == room.game.record()])
                continue
            session.commit(move)  # clicked on the board
            sent = follower.outgoing(room)
            follower.sent(sent)
            out.append([sent, follower.outgoing(room), store(room.draft_move(ana, sent), ana)])
            follower.follow(room)
        else:
            store(room.draft_move(ben, str(move)), ben)
            out.append([follower.follow(room), session.motion.animate, len(session.motion.frames)])
        out.append(session.game.record() == room.game.record())
    out.append(view())
    if room.phase == "playing":
        store(room.draft_resign(ben), ben)
        follower.follow(room)
        out.append([view(), session.players])
    store(room.draft_start(ben), ben)
    out.append([follower.follow(room), session.game.record(), session.players, view()])
    return out


def clock():
    """Whether the page's clock reads a date of this century (in 32 bits it would wrap) and ticks."""
    first = now_ms()
    while now_ms() == first:
        pass
    return [1_700_000_000_000 < first < 4_102_444_800_000, now_ms() > first]


def live_offers(text, seed):
    """A timed room (1+1) playing the moves of ``text`` with offers between them, chosen by
    ``seed``: takebacks accepted and declined, the gone player's question answered and not, an
    abort in the rematch; what the room shows after each step (the clocks included)."""
    from yinsh.live.protocol import decode
    from yinsh.live.room import ABSENCE_MS, LiveError, Room
    from yinsh.page.live import room_view

    room = Room("k3JH_x-9aZ0qLw2mNb7cQe")
    keys, sig = ["A" * 43, "B" * 43], "s" * 86
    clock = [0]
    out = []

    def send(build, key, dt=700):
        try:
            draft = build()
        except LiveError as exc:
            out.append(str(exc))
            return
        clock[0] += dt
        event = room.apply("game", room.seq + 1, clock[0], decode(draft.signed(key, sig)), True)
        view = room_view(room, key, clock[0], "open", relay_ms=clock[0])
        out.append([event.kind if event else None, room.phase, room.ending, room.result(),
                    room.game.record() if room.game else None, room.offer, room.absent_since, room.takebacks,
                    list(room.clocks.left) if room.clocks else None, view.offer, view.can_takeback,
                    view.can_answer, view.can_claim, view.can_abort])

    send(lambda: room.draft_create(keys[0], "white", "1+1"), keys[0])
    send(lambda: room.draft_join(keys[0], "Ana", "nonce-of-ana"), keys[0])
    send(lambda: room.draft_join(keys[1], "Ben", "nonce-of-ben"), keys[1])
    send(lambda: room.draft_start(keys[0]), keys[0])
    state = [seed]

    def pick(n):  # the same numbers under both interpreters (MicroPython's random has no Random)
        state[0] = (state[0] * 1103515245 + 12345) % 2**31
        return state[0] % n

    game = Game.from_record(text)
    for move in game.moves:
        if room.phase != "playing":
            break
        mover = room.to_move_key()
        other = keys[1 - keys.index(mover)]
        if str(move) != "pass":
            send(lambda mover=mover, move=move: room.draft_move(mover, str(move), 500), mover, dt=200 + pick(2800))
        choice = pick(6)
        if choice == 0:
            send(lambda mover=mover: room.draft_takeback(mover), mover)
            send(lambda other=other: room.draft_answer(other, pick(2) == 0), other)
        elif choice == 1 and room.phase == "playing":
            waiter = room.seats[1 - room.seat_of(room.to_move_key())].key
            send(lambda waiter=waiter: room.draft_absent(waiter, clock[0]), waiter)
            send(lambda: room.draft_back(room.to_move_key()), room.to_move_key())
    if room.phase == "playing":
        waiter = room.seats[1 - room.seat_of(room.to_move_key())].key
        send(lambda: room.draft_absent(waiter, clock[0]), waiter)
        send(lambda: room.draft_absent(waiter, clock[0] + ABSENCE_MS), waiter, dt=ABSENCE_MS)
    send(lambda: room.draft_start(keys[1]), keys[1])
    send(lambda: room.draft_abort(keys[0]), keys[0])
    return out
