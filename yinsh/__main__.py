"""The command line: ``yinsh replay``, ``perft``, ``bench``, ``match``, ``serve``, ``diagram`` and ``build-site``.

Run ``yinsh --help`` (or ``python -m yinsh --help``) for the list.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from .errors import NotationError, YinshError
from .game import Game
from .limits import MAX_DIAGRAM_SIZE, MAX_FILE_BYTES
from .record import read_records

__all__ = ["main"]


def _read_game(args: argparse.Namespace) -> Game:
    if getattr(args, "position", None):
        return Game.from_position(args.position)
    if getattr(args, "record", None):
        text = args.record
        if _is_file(text):
            text = _read_text(text)
        # a file the user names on their own machine may hold any number of games
        return read_records(text, max_chars=None, max_games=None)[-1].game
    return Game()


def _is_file(name: str) -> bool:
    """Whether ``name`` names a file (a record given as text is rarely one)."""
    try:
        return len(name) < 4096 and Path(name).is_file()
    except (OSError, ValueError):  # a name too long for the system, or with a NUL in it
        return False


def _read_text(name: str) -> str:
    """The text of file ``name`` (``-``: standard input), UTF-8 with or without a byte-order mark.

    At most ``MAX_FILE_BYTES`` are read, so that ``/dev/zero`` or an endless pipe ends in an
    error, not in a full memory. Raises ``NotationError`` for a longer input or bytes that are
    not UTF-8 (``OSError`` for a file that cannot be read).
    """
    where = "standard input" if name == "-" else _shown(name)
    if name == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    else:
        with open(name, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise NotationError(f"{where} is longer than {MAX_FILE_BYTES:,} bytes: at most {MAX_FILE_BYTES:,} are read")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotationError(f"{where} is not UTF-8 text: byte {data[exc.start]:#04x} at position {exc.start} "
                            "cannot be read") from None


def _shown(text: str) -> str:
    """``text`` as the terminal may print it: control, format and line-separator characters
    (escape sequences, a carriage return, bidirectional overrides) and undecodable bytes
    written as ``\\x1b``, ``\\u202e``…, so that a tag cannot move the cursor or forge a line.

    Not :func:`yinsh.scan.visible`, the page's rule, on purpose: that one must run on
    MicroPython, which has neither ``str.isprintable`` nor :mod:`unicodedata`, so it escapes a
    fixed list of characters. The command line runs on CPython only and asks Unicode itself:
    every character that is not printable (controls, format characters, surrogates, private
    use, unassigned code points, line and paragraph separators; spaces of every width are kept)
    is escaped, in Python's own notation, as a terminal user reads it.

    >>> _shown("Ann\\x1b[2J\\nB: 1-0\\u202e")
    'Ann\\\\x1b[2J\\\\nB: 1-0\\\\u202e'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or unicodedata.category(c) == "Zs" else repr(c)[1:-1] for c in text)


def _count(minimum: int, maximum: int | None = None):  # type: ignore[no-untyped-def]
    """An argparse type: a whole number from ``minimum`` to ``maximum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum or (maximum is not None and value > maximum):
            upper = f" to {maximum:,}" if maximum is not None else " or more"
            raise argparse.ArgumentTypeError(f"{value} is out of range: expected {minimum}{upper}")
        return value
    return parse


def _seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"{text} is out of range: expected a positive number of seconds")
    return value


def _cmd_replay(args: argparse.Namespace) -> int:
    records = read_records(_read_text(args.file), max_chars=None, max_games=None)
    for number, record in enumerate(records, 1):
        game = record.game
        fallback = args.file if len(records) == 1 else f"game {number}"
        name = record.tags.get("Game") or record.tags.get("Scenario") or fallback
        white, black = game.score
        done = game.outcome
        status = f"{done.text(short=True)} ({done.result})" if done else f"{game.to_move} to move"
        print(f"{_shown(name)}: {game.ply} moves, rings removed {white}-{black}, pool {game.pool}, {status}")
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    import time

    from .perft import divide, perft

    game = _read_game(args)
    start = time.perf_counter()
    if args.divide:
        total = 0
        for move, count in divide(game.state, args.depth):
            print(f"{move} {count}")
            total += count
        print()
    else:
        total = perft(game.state, args.depth)
    elapsed = time.perf_counter() - start
    print(f"perft {args.depth}: {total}  ({elapsed:.3f} s, {total / max(elapsed, 1e-9):,.0f} leaves/s)")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run

    run(seconds=args.seconds, ai=args.ai)
    return 0


def _cmd_match(args: argparse.Namespace) -> int:
    from .ai.match import game_line, run_match, summary

    try:
        games = run_match(args.white, args.black, args.games, args.seed, args.seconds, args.jobs,
                          report=lambda game: print(game_line(game), flush=True))
    except ValueError as exc:
        print(f"yinsh match: {exc}", file=sys.stderr)
        return 2
    print(summary(args.white, games))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    if not Path(args.root).is_dir():
        print(f"yinsh serve: {args.root} is not a folder", file=sys.stderr)
        return 1
    serve(args.root, args.port, host=args.host, relay=args.relay, relay_url=args.relay_url)
    return 0


def _cmd_diagram(args: argparse.Namespace) -> int:
    from .diagram import diagram_svg, parse_highlight

    game = _read_game(args)
    rows = (args.rows or "").split(",")
    points, _ = parse_highlight(rows)
    if points:
        raise NotationError(f"--rows lists rows like e3-e7, not points: {', '.join(points)} (use --highlight)")
    try:
        (args.title or "").encode("utf-8")
    except UnicodeEncodeError:  # bytes of the command line that are not UTF-8 (a lone surrogate here)
        raise NotationError(f"the title {_shown(args.title)} is not UTF-8 text") from None
    svg = diagram_svg(game, highlight=(args.highlight or "").split(",") + rows, size=args.size, title=args.title)
    _replace_file(Path(args.output), (svg + "\n").encode("utf-8"))
    print(f"wrote {_shown(args.output)} ({len(svg):,} bytes)")
    return 0


def _replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a new file beside it, then renamed
    over it, so that a failure leaves a file already there as it was."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _cmd_build_site(args: argparse.Namespace) -> int:
    from .site import BuildError, build_site

    try:
        summary = build_site(args.dir, root=args.root, release=args.release, relay=args.relay)
    except BuildError as exc:
        print(f"yinsh build-site: {exc}", file=sys.stderr)
        return 1
    print(summary)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="yinsh",
        description="YINSH: replay records, count moves, measure the engine."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a record file and print the score, pool and result")
    p.add_argument("file", help="a record file in official notation ('-' reads standard input)")
    p.set_defaults(run=_cmd_replay)

    p = sub.add_parser("perft", help="count the move sequences of a given depth")
    p.add_argument("depth", type=_count(1), help="how many moves deep to count (1 or more)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--record", help="a record (text or file) to start from")
    where.add_argument("--position", help="a position code to start from")
    p.add_argument("--divide", action="store_true", help="print the count below each first move")
    p.set_defaults(run=_cmd_perft)

    p = sub.add_parser("bench", help="measure the engine: playouts, perft and move generation per second")
    p.add_argument("--seconds", type=_seconds, default=3.0, help="time given to each measurement")
    p.add_argument("--ai", action="store_true", help="also measure the AI's think time per level (about 90 s)")
    p.set_defaults(run=_cmd_bench)

    p = sub.add_parser("match", help="play an engine match: colour-swapped pairs from random ring placements")
    p.add_argument("--white", required=True, help="the first-named player: ai-1 … ai-5, baseline-D or random")
    p.add_argument("--black", required=True, help="the second player (colours alternate from game to game)")
    p.add_argument("--games", type=_count(1), default=40, help="games to play (rounded up to an even number)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random ring placements")
    p.add_argument("--seconds", type=_seconds, default=None, help="think time per AI move (default: the level's)")
    p.add_argument("--jobs", type=_count(1), default=1, help="games played in parallel processes")
    p.set_defaults(run=_cmd_match)

    p = sub.add_parser("serve", help="serve the game page on http://localhost")
    p.add_argument("--port", type=_count(0, 65535), default=8000, help="the first port to try (0: any free port)")
    p.add_argument("--root", default=".", help="the folder to serve (the repository or a built site)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (0.0.0.0: the local network too; default: this machine only)")
    p.add_argument("--relay", action="store_true",
                   help="start a local relay for live rooms (nats-server, from the checkout's .venv or PATH)")
    p.add_argument("--relay-url", default=None, help="the live rooms' relay elsewhere, ws://… or wss://…")
    p.set_defaults(run=_cmd_serve)

    p = sub.add_parser("diagram", help="write a position as a standalone SVG picture")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--record", help="a record (text or file): the position after its last move")
    where.add_argument("--position", help="a position code")
    p.add_argument("--highlight", help="points and rows to point out, e.g. e4,e5,e3-e7")
    p.add_argument("--rows", help="rows to highlight, e.g. e3-e7,b2-f6 (as embed.html's rows=)")
    p.add_argument("--size", type=_count(1, MAX_DIAGRAM_SIZE), help="the width in pixels")
    p.add_argument("--title", help="the picture's accessible name")
    p.add_argument("-o", "--output", required=True, help="the SVG file to write")
    p.set_defaults(run=_cmd_diagram)

    p = sub.add_parser("build-site", help="write the self-contained site (page, package, runtime, offline copy) to DIR")
    p.add_argument("dir", nargs="?", default="dist",
                   help="the folder to write (default: dist; replaced if it holds a site)")
    p.add_argument("--root", default=None, help="the source checkout to build from (default: this package's)")
    p.add_argument("--release", default="", help="a label mixed into the build id")
    p.add_argument("--relay", default="", help="the live rooms' relay, wss://… (written to live.json)")
    p.set_defaults(run=_cmd_build_site)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    if isinstance(sys.stdout, io.TextIOWrapper):  # a name the terminal's encoding lacks: escaped, not a traceback
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        return args.run(args)
    except (YinshError, OSError) as exc:  # bad input, or a file that cannot be read or written
        print(f"yinsh {args.command}: {_shown(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
