"""``yinsh bench``: the engine's speed under the running Python, as figures.

Prints random playouts per second (whole games of uniformly random moves and
removals), perft leaves per second (perft 3 of the official notation example) and
complete legal-move generations per second over fixed mid-game positions; then how
long each door of the package takes to refuse (or read) the hostile inputs of
:func:`hostile_inputs`, so that a parser turning slow shows as a figure.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

from .perft import perft
from .playout import midgame_positions, random_move, random_playout
from .state import BLACK, initial_state, legal_moves, make_state

if TYPE_CHECKING:
    from .game import Game

__all__ = ["run", "machine", "midgame_positions", "NOTATION_EXAMPLE", "Hostile", "hostile_inputs", "open_door",
           "hostile_times", "longest_game", "UNREACHABLE_ROWS", "MOST_ROWS", "MOST_ROWS_MOVE"]

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


def machine() -> str:
    """A one-line description of the Python and the machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
            f"{platform.machine()}, {os.cpu_count()} cores ({cpu})")


def _rate(work: Callable[[], int], seconds: float) -> tuple[float, int, float]:
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done, elapsed


def run(seconds: float = 3.0, print_: Callable[[str], None] = print, ai: bool = False) -> dict[str, float]:
    """Run the three measurements and print them; returns the figures.

    With ``ai``, also the computer opponent's think time per level (p50 and p95 over
    the mid-game positions; about a minute and a half).
    """
    from .game import Game

    print_(f"yinsh bench — {machine()}")
    rng = random.Random(1)
    plies = 0

    def playout() -> int:
        nonlocal plies
        plies += random_playout(initial_state(), rng)[1]
        return 1

    rate, games, _ = _rate(playout, seconds)
    print_(f"random playouts:        {rate:10,.0f} games/s   ({games} games, {plies / games:.1f} moves each)")

    example = Game.from_record(NOTATION_EXAMPLE).state
    start = time.perf_counter()
    leaves = perft(example, 3)
    perft_time = time.perf_counter() - start
    print_(f"perft 3 (notation ex.): {leaves / perft_time:10,.0f} leaves/s  ({leaves} leaves in {perft_time:.2f} s)")

    positions = midgame_positions()
    moves = 0

    def generate() -> int:
        nonlocal moves
        for s in positions:
            moves += len(legal_moves(s))
        return len(positions)

    gen_rate, generations, _ = _rate(generate, seconds)
    print_(f"legal-move generation:  {gen_rate:10,.0f} positions/s ({moves / generations:.0f} moves each, "
           f"{len(positions)} mid-game positions)")
    figures = {"playouts_per_s": rate, "perft3_s": perft_time, "perft_leaves_per_s": leaves / perft_time,
               "generations_per_s": gen_rate}
    for name, seconds in hostile_times(print_).items():
        figures[f"hostile: {name}"] = seconds
    if ai:
        from .ai.bench import run as think_times

        for level, times in think_times(positions=positions, print_=print_).items():
            figures[f"ai{level}_p50_s"] = times["p50"]
            figures[f"ai{level}_p95_s"] = times["p95"]
    return figures


# --------------------------------------------------------------------------- hostile input


class Hostile(NamedTuple):
    """An input that once froze, broke or replaced a game (issue 13), or the largest one a
    limit lets through, and the door it comes in by."""

    name: str
    door: str
    """``record`` (``Game.from_record``), ``import`` (pasted or opened text), ``position``,
    ``code`` (a whole-game code), ``link`` (the page's URL: ``?query#hash``), ``embed``
    (``embed.html``'s URL) or ``saved`` (the saved game's JSON)."""
    text: str


def longest_game(tries: int = 40) -> Game:
    """The longest of ``tries`` seeded random games, as a ``Game`` (about 80 moves)."""
    from .game import Game

    best = Game()
    for seed in range(tries):
        rng, game = random.Random(seed), Game()
        while game.result is None:
            game.push(random_move(game.state, rng))
        if len(game.moves) > len(best.moves):
            best = game
    return best


def hostile_inputs() -> list[Hostile]:
    """The reproductions of issue 13, then the largest inputs the limits accept."""
    from .game import Game
    from .limits import (
        MAX_GAMES,
        MAX_LINES,
        MAX_LINK_CHARS,
        MAX_MOVES,
        MAX_RECORD_CHARS,
        MAX_SAVED_CHARS,
        MAX_SGF_PROPERTIES,
        MAX_TAG_CHARS,
        MAX_TEXT_CHARS,
        MAX_WORDS,
    )
    from .link import encode_game
    from .page.saved import saved_to_json
    from .page.settings import Settings
    from .page.urls import quote
    from .position import check_digits, encode_position

    placed = Game.from_record(NOTATION_EXAMPLE)
    far = encode_position(placed.state, 10 ** 4400)  # a move number no game reaches, and a valid check
    far_game = f"G1{far}.A"
    far_game += check_digits(far_game)
    huge_code = "G1" + "A" * 200_000
    huge_code += check_digits(huge_code)
    won = Game.from_state(make_state(["a2", "b2"], ["e5", "f6", "g7", "h8", "i9"], ["c3"], ["d4"], score=(3, 0),
                                    turn=BLACK), 40)
    one_game = '[White "A"]\n1.e3\n'
    sgf_garbage = "(;" + "".join(chr(33 + (i * 7919) % 90) for i in range(300))
    long_game = longest_game()
    long_record = long_game.record()
    comment = "{" + "a remark " * ((MAX_RECORD_CHARS - len(long_record) - 10) // 9) + "}"
    games = "\n\n".join(f'[Game "{number}"]\n{long_record}' for number in range(MAX_GAMES))
    link_record = quote(long_record + " {")
    link_record += "x" * (MAX_LINK_CHARS - len("?record=") - len(link_record) - 1) + "}"
    saved = saved_to_json(long_game, Settings(), 0)[:-1] + ', "note": "'
    saved += "[" * (MAX_SAVED_CHARS - len(saved) - 2) + '"}'
    sgf = "(;" + "P0[" * 8000
    per_game_chars = MAX_TEXT_CHARS // MAX_GAMES - 20
    per_game_words = min(MAX_WORDS, (per_game_chars - 20) // 2)
    per_game_tags = MAX_LINES // MAX_GAMES - 3
    per_game_lines = MAX_LINES // MAX_GAMES
    escaped_tags = per_game_chars // (2 * MAX_TAG_CHARS + 12)
    cjk_chars = per_game_chars // 3 // len(_SHOWN_TAGS) - 10  # three bytes each
    return [
        Hostile("position code at move 10^4400", "position", far),
        Hostile("game code from a position at move 10^4400", "link", "#g=" + far_game),
        Hostile("record numbered 9…9 (5,000 digits)", "record", "9" * 5000 + ".e3"),
        Hostile("SGF '(;' + 'P0[' × 8000", "import", sgf),
        Hostile("SGF '(;' + 'P0[' × 8000 in ?record=", "link", "?record=" + sgf),
        Hostile("SGF '(;' + 'P0[' × 8000 in embed.html", "embed", "?record=" + sgf),
        Hostile("game code of 200 KB", "link", "#g=" + huge_code),
        Hostile("'{' × 50,000 pasted", "import", "{" * 50_000),
        Hostile("a 5 MB tag", "import", '[Event "' + "x" * 5_000_000 + '"]\n1.e3'),
        Hostile("20,000 games", "import", one_game * 20_000),
        Hostile("saved game code 'G1\\ud800AA'", "saved", '{"version": 1, "game": "G1\\ud800AA", "settings": {}}'),
        Hostile("saved data '[' × 20,000", "saved", "[" * 20_000),
        Hostile("White has won 3-0, no move played", "link", "#g=" + encode_game(won)),
        Hostile("play by link from a set-up position", "link", "?you=black#g=" + encode_game(won)),
        Hostile("SGF '(;P0[1 place wr'", "import", "(;P0[1 place wr"),
        Hostile("?record=(; and garbage", "link", "?record=" + quote(sgf_garbage)),
        Hostile(f"largest: the longest random game ({len(long_game.moves)} moves) as a code", "code",
                encode_game(long_game)),
        Hostile(f"largest: {MAX_GAMES} such games pasted", "import", games),
        Hostile(f"largest: that game in a record of {MAX_RECORD_CHARS:,} characters", "record", comment + long_record),
        Hostile(f"largest: that game in a link of {MAX_LINK_CHARS:,} characters", "link", "?record=" + link_record),
        Hostile(f"largest: that game saved in {MAX_SAVED_CHARS:,} characters", "saved", saved),
        # Inputs at the limits that a scan of text by position would make quadratic on MicroPython
        Hostile(f"largest: an SGF of {MAX_SGF_PROPERTIES:,} values and {MAX_RECORD_CHARS:,} characters", "import",
                "(;" + "C[x]" * MAX_SGF_PROPERTIES + " " * (MAX_RECORD_CHARS - 4 * MAX_SGF_PROPERTIES - 3) + ")"),
        Hostile("SGF of 25,000 values", "import", "(;" + "C[x]" * ((MAX_RECORD_CHARS - 3) // 4) + ")"),
        Hostile("largest: a record of 50,000 comments", "record", "{}" * ((MAX_RECORD_CHARS - 5) // 2) + " 1.e3"),
        Hostile(f"largest: {MAX_LINES:,} lines of comments", "import", "#\n" * (MAX_LINES - 1) + "1.e3"),
        Hostile(f"largest: a record of {MAX_WORDS:,} words", "record", "1.e3" + " x" * (MAX_WORDS - 1)),
        Hostile(f"largest: a link of {MAX_LINK_CHARS:,} characters of escapes", "link",
                "?record=" + "%41" * ((MAX_LINK_CHARS - 8) // 3)),
        Hostile(f"largest: saved data of {MAX_SAVED_CHARS:,} brackets", "saved",
                "[" + "[]," * ((MAX_SAVED_CHARS - 4) // 3) + "[]]"),
        # Issue 23: boards no game reaches, and the worst one the check lets through
        Hostile("position link: 23 rows no move could make (343,440 moves)", "link", "#position=" + UNREACHABLE_ROWS),
        Hostile("those 23 rows as embed.html's puzzle", "embed",
                f"?position={UNREACHABLE_ROWS}&play=1&expect=xc1-c5xe1xd1-d5xe2xf2-f6xe3"),
        Hostile("largest: a position link of 24 rows for the mover (187,920 moves)", "link",
                "#position=" + MOST_ROWS),
        Hostile("largest: those 24 rows as embed.html's puzzle", "embed",
                f"?position={MOST_ROWS}&play=1&expect={MOST_ROWS_MOVE}"),
        # Issue 23: a paste of MAX_GAMES games, each as long as the text allows, listed by the
        # Open record dialog (4.7 s on the page's MicroPython when each word was a step of Python)
        Hostile(f"largest: {MAX_GAMES} games of {per_game_words:,} words", "import",
                "\n\n".join(f'[Game "{n}"]\n1.e3' + " x" * (per_game_words - 1) for n in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of {per_game_tags} tag pairs", "import",
                "\n\n".join("\n".join(f'[T{i} "' + "v" * (per_game_chars // per_game_tags - 12) + '"]'
                                       for i in range(per_game_tags)) + "\n1.e3" for _ in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of {per_game_chars // 2:,} comments", "import",
                "\n\n".join(f'[Game "{n}"]\n1.e3 ' + "{}" * ((per_game_chars - 30) // 2) for n in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of {MAX_MOVES} numbered moves and words", "import",
                "\n\n".join(f'[Game "{n}"]\n' + " ".join(f"{i}.a" for i in range(1, MAX_MOVES + 1))
                            + " x" * ((per_game_chars - 1400) // 2) for n in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of comments holding dots", "import",
                "\n\n".join(f'[Game "{n}"]\n1.e3 ' + "{1.}" * ((per_game_chars - 30) // 4) for n in range(MAX_GAMES))),
        # Issue 23: the splitting of a paste into games is a step of Python per line; the dearest
        # lines end in a space beyond ASCII (stripped by scan.strip on MicroPython) and hold a comment
        Hostile(f"largest: {MAX_GAMES} games of {per_game_lines} lines, each a comment ending in a no-break space",
                "import", "\n".join(f'[Game "{n}"]\u00a0\n' + "{a remark}\u00a0\n" * (per_game_lines - 2) + "1.e3\u00a0"
                                    for n in range(MAX_GAMES))),
        # Issue 23: each tag pair the list shows read a step of Python per escaped character
        Hostile(f"largest: {MAX_GAMES} games of {escaped_tags} shown tags of {MAX_TAG_CHARS:,} escaped quotes",
                "import", "\n\n".join("\n".join(f'[{name} "' + '\\"' * MAX_TAG_CHARS + '"]'
                                                   for name in ("White", "Black", "Event", "Date")[:escaped_tags])
                                         + "\n1.e3" for _ in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of {per_game_tags} tag pairs, each line ending in a space", "import",
                "\n\n".join("\n".join(f'[T{i} "' + "v" * (per_game_chars // per_game_tags - 13) + '"] '
                                       for i in range(per_game_tags)) + "\n1.e3 " for _ in range(MAX_GAMES))),
        # Issue 23: lines a step of Python costs more to read: spaces at their ends (stepped over,
        # then stripped a chunk at a time), characters beyond ASCII (no pass over the text finds
        # their spaces), lines left out of the moves (made blank for the searches), long names
        Hostile(f"largest: {MAX_GAMES} games of {per_game_tags} tag pairs, each line indented and ending in "
                "nine spaces", "import",
                "\n\n".join("\n".join(f'  [T{i} "' + "v" * (per_game_chars // per_game_tags - 23) + '"]' + " " * 9
                                       for i in range(per_game_tags)) + "\n1.e3" for _ in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of {per_game_tags} tag pairs of en dashes, each line ending in "
                "U+001C U+001F", "import",
                "\n\n".join("\n".join(f'[T{i} "' + "\u2013" * ((per_game_chars // per_game_tags - 15) // 3)
                                       + '"]\x1c\x1f' for i in range(per_game_tags)) + "\n1.e3"
                            for _ in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of {per_game_lines - 3} lines left out of the moves, holding dots",
                "import", "\n".join(f'[Game "{n}"]\n1.e3\n' + ("# " + "x." * (per_game_chars // per_game_lines // 2 - 2)
                                                               + "\n") * (per_game_lines - 3) + "2.a5"
                                    for n in range(MAX_GAMES))),
        Hostile(f"largest: {MAX_GAMES} games of {len(_SHOWN_TAGS)} shown tags of {cjk_chars} CJK characters",
                "import", "\n\n".join("\n".join(f'[{name} "' + "\u4e00" * cjk_chars + '"]' for name in _SHOWN_TAGS)
                                       + "\n1.e3" for _ in range(MAX_GAMES))),
    ]


_SHOWN_TAGS: Final = ("White", "Black", "Event", "Date")
"""The tags a game's line in the Open dialog's list shows its names from."""

UNREACHABLE_ROWS = "Y1Bz0e9PTnOLFULCmiuWfbPDiWO-XoLlg02D3kS6"
"""Issue 23's probe: White to move with 43 markers standing in 23 rows that no single move of
Black's could have made; before the check, the page's first turn enumerated 343,440 moves."""
MOST_ROWS = "Y1Bz8aVNSdFVsPXvyxM0FrFE9eblM29RXG1IAoF2"
"""The most rows for the player to move that a search found among the positions the check
accepts: 24 rows crossing one line, 187,920 legal moves."""
MOST_ROWS_MOVE = "xe2-e6xa2xh3-h7xa5xi4-i8xb1"


def open_door(door: str, text: str) -> str:
    """Put ``text`` through ``door`` (see :class:`Hostile`) as the page or the package would;
    returns what came of it in a few words (``opened``, or the error's first words). A link's
    game and an embedded puzzle also get their first turn built, as the page builds it."""
    from .errors import YinshError
    from .game import Game
    from .link import decode_game
    from .page.embed import parse_embed
    from .page.links import open_page
    from .page.records import list_import
    from .page.saved import SavedGameError, saved_from_json
    from .turn import Turn

    try:
        if door == "record":
            Game.from_record(text)
        elif door == "import":  # as the Open record dialog: every game listed, the one opened replayed
            list_import(text)[0].record()
        elif door == "position":
            Game.from_position(text)
        elif door == "code":
            decode_game(text)
        elif door == "saved":
            saved_from_json(text)
        elif door in ("link", "embed"):
            search, _, hash_ = text.partition("#")
            if door == "embed":
                spec = parse_embed(search, "#" + hash_ if hash_ else "")
                if spec.puzzle:
                    Turn(spec.game_at(spec.ply))
            else:
                setup = open_page(search, "#" + hash_ if hash_ else "")
                if setup.source != "link":
                    return "refused: " + (setup.notices or ["no game"])[-1][:60]
                Turn(setup.game)
        else:
            raise ValueError(f"unknown door {door!r}")
    except (YinshError, SavedGameError) as exc:
        return "refused: " + str(exc)[:60]
    return "opened"


def hostile_times(print_: Callable[[str], None] = print, repeat: int = 3) -> dict[str, float]:
    """Print and return the time (best of ``repeat``, in seconds) each hostile input takes at its door."""
    figures = {}
    print_("hostile input (best of 3):")
    for item in hostile_inputs():
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            outcome = open_door(item.door, item.text)
            best = min(best, time.perf_counter() - start)
        figures[item.name] = best
        print_(f"  {best * 1000:9.2f} ms  {item.door:8} {item.name}: {outcome}")
    return figures
