"""The MicroPython lane: the modules of the page's main thread run under the pinned MicroPython
1.27 (the npm package the page uses, in Node.js) and answer exactly as under CPython.

Each call of :data:`CALLS` runs a probe of tests/mpy_lane/probes.py under both interpreters
with the same arguments: perft of the notation example, the legal moves of random positions,
every fixture game replayed (records, tags, results, position and game codes both ways),
errors and their messages, turns built click by click, boards drawn, and the browser-free
page modules (links, settings and saved games, records out and in, what a screen reader
hears, the guide, undo and redo, the rules panel, the evaluation graph, the embed, and the
page's session: a game against the computer decision by decision, what the page shows after
each). All of
them run in one MicroPython process per session. Without Node.js or the npm package the lane
is skipped here and fails under CI (``make setup`` installs both).

To add a browser-free module: in yinsh/page, the lane takes it by itself (``ENTRY_MODULES`` in
tests/mpy_lane/lane.py lists every module there); elsewhere, add its path to ``ENTRY_MODULES``
(what it imports comes along). Then write a probe in
tests/mpy_lane/probes.py that calls its main functions and returns plain data (lists,
strings, ints; no floats, no dict order), and add a line calling it to :data:`CALLS`.

:func:`test_shared_modules_keep_to_the_subset` needs no interpreter: it refuses, in every
shared module and every DOM module of the MicroPython pages, the calls MicroPython lacks, even
on paths no probe takes.
"""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest
from helpers import DATA, page_modules, unavailable
from hypothesis import given
from hypothesis import strategies as st
from mpy_lane import lane, probes

from yinsh.bench import hostile_inputs
from yinsh.compat import decode_utf8
from yinsh.game import Game
from yinsh.playout import random_positions
from yinsh.position import encode_position
from yinsh.scan import SPACES

ROOT = Path(__file__).resolve().parents[1]
NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"
GAMES = (DATA / "games.ygn").read_text(encoding="utf-8")
SCENARIOS = (DATA / "scenarios.ygn").read_text(encoding="utf-8")
SGF_FILES = sorted((DATA / "boardspace").glob("*.sgf"))
CHUNKS = [c.strip() for c in re.split(r"\n(?=\[Event )", GAMES) if c.strip().startswith("[")]
LONG_GAME = CHUNKS[1]  # 76 moves, removals on both sides, won on rings
SCENARIO = {re.match(r' "([^"]+)"', c).group(1): "[Scenario" + c for c in SCENARIOS.split("[Scenario")[1:]}
SINGLE_ROW = SCENARIO["single row"].strip() + " 19.e3-f3;xe3-e7xf7"
OVERLINE = SCENARIO["overline of six"].strip() + " 21.e3-f3;xe2-e6xf7"
OUT_OF_MARKERS = SCENARIO["out of markers"].strip()
BLITZ = '[Variant "blitz"]\n' + NOTATION_EXAMPLE + " 11.h7-g7 12.e4-e5 13.g3-f3 14.a5-a4"


# What a hostile client stores between two moves (as latin-1 text: the probe re-encodes it as UTF-8).
LIVE_JUNK = [b"junk", b"", b"null", b'{"v":3,"t":"move","n":4,"ply":0,"move":"e3"}', b"[" * 1500, b'{"v":3}',
             b'{"v":3,"t":"start","n":0,"k":"' + b"K" * 43 + b'","s":"' + b"S" * 86 + b'"}', b" " * 2100]


def _positions() -> list[str]:
    """Position codes of 300 seeded random positions, standard and from the fixture games."""
    return [encode_position(s, s.placed if s.in_placement else 40)
            for s in random_positions(300, seed=11, min_plies=0, max_plies=90)]


def _placement_positions() -> list[str]:
    """Position codes of 60 seeded random positions while rings are placed (the empty board
    first), standard and Blitz."""
    states = [s for s in random_positions(400, seed=21, min_plies=0, max_plies=9) if s.in_placement][:60]
    return [encode_position(Game().state, 0), encode_position(Game("blitz").state, 0)] + [
        encode_position(s, s.placed) for s in states]


UNICODE_SPACES = ["\u00a0", "\u2003", "\u3000", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029",
                  "\u200b", "\ufeff"]
"""Characters CPython's ``str.split()``/``strip()`` take for spaces and MicroPython's do not (and
two neither does), each tried between moves, around a record and in a tag."""
READER_TEXTS = [
    '1.e3 {a remark\n[Variant "blitz"]\n} 2.a5', '[White "A"]\n1.e3 {\n[White "B"]\n1.f5\n}', "{\n# }\n1.e3",
    "1.\u212a7", "1.e3 2.\u212a10", '[Variant "BLIT\u212a"]\n1.e3', '[Variant "Blitz"]\n1.e3',
    *["1.e3" + c + "2.a5" for c in UNICODE_SPACES], *[c + "1.e3 2.a5" + c for c in UNICODE_SPACES],
    *['[Variant "blitz' + c + '"]\n1.e3' for c in UNICODE_SPACES],
    *['[Event "x"]' + c + "\n1.e3" for c in UNICODE_SPACES], *["e3" + c + "a5" for c in UNICODE_SPACES],
]
"""Texts that once read differently by reader or by interpreter (issue 23)."""


def _pasted_texts(count: int = 300) -> list[str]:
    """Texts of several records made of the pieces that make cutting them into games hard:
    comments over lines, tag lines inside them, ``#``/``%`` lines, blank lines, every line
    break, and spaces of every kind at the ends of lines (issue 23: the splitter takes a
    different way through a text that MicroPython's ``strip()`` cannot strip)."""
    pieces = ['[White "A"]', '[Game "1"]', "[x{", "[}", "1.e3", "2.a5 3.b5", "{", "}", "{a}", "{ {", "} {", "#",
              "# {", "%", "%}", "[", " ", "\t", "\ufeff", "{c\u00e9}", "1-0", '[Result "1-0"] {', "e3", *UNICODE_SPACES]
    breaks = ["\n", "\r\n", "\r", "\n\n", " \n ", "\n\u00a0\n", "\u3000\n", "\n\x1f"]
    rng = random.Random(23)
    return ["".join(" ".join(rng.choice(pieces) for _ in range(rng.randrange(5))) + rng.choice(breaks)
                    for _ in range(rng.randrange(40))) for _ in range(count)]


def _listed_texts() -> list[str]:
    """Games as the Open dialog lists them, whose glance reads spaces beyond ASCII, lines left
    out of the moves (holding dots and braces), U+001C and comments around move numbers."""
    moves = ["1.e3 2.a5", "e3 a5 b5", "1.e3 {2.} 3.b5", "1.e3\n# 5. {\n2.a5", "e3\x1ca5 {x} b5 1-0",
             "1.e3\u00a02.a5", "\u30001.e3 2.a5\u3000", "1.e3 {a\n[White \"x\"]\n} 2.a5"]
    tags = ['[White "Ann"]\n[Black "Bo"]\n', '  [Event "\u4e00\u4e8c \\"x\\""]\u00a0\n', "", '[Date "2026"]\x1c\n']
    return ["\n\n".join(tag + move for tag in tags for move in moves[i:i + 3]) for i in range(len(moves))]


def _tag_lines(count: int = 300) -> list[str]:
    """Tag pair lines, right and wrong, with escapes (read by searches in C when they read)."""
    pieces = ["[", "]", " ", "\t", '"', "\\", "\\\\", '\\"', "White", "Ev_1", "\u00e9", "\u3000", "x", "{", '\\"]',
              '"]']
    rng = random.Random(6)
    return [rng.choice(["", "[White ", '[Event "']) + "".join(rng.choice(pieces) for _ in range(rng.randrange(14)))
            for _ in range(count)]


CALLS: list[tuple[str, list]] = [
    ("imports", [[lane.module_name(path) for path in lane.shared_modules()]]),
    ("values", []),
    ("perft", [NOTATION_EXAMPLE, 1]),
    ("perft", [NOTATION_EXAMPLE, 2]),
    ("perft", [NOTATION_EXAMPLE, 3]),
    ("legal_moves", [_positions()]),
    ("replay", [GAMES]),
    ("replay", [SCENARIOS]),
    ("replay", [BLITZ]),
    *[("replay", [path.read_text(encoding="utf-8")]) for path in SGF_FILES],
    ("errors", [[
        ["record", "1.e3 2.e3"], ["record", "1.e3 3.a5"], ["record", '[Variant "speedy"]\n1.e3'],
        ["record", "1.e3 2.a5 3.zz"], ["record", "1.e3 {unclosed"], ["record", "[Bad tag]\n1.e3"],
        ["record", "(;GM[1]SU[chess])"], ["record", "(;SU[Yinsh]P0[1 place wr E 6]P1[2 bogus step])"],
        ["record", "(;SU[Yinsh]P0[1 place wr Z 6])"], ["record", "hello"], ["record", "1.e3 2."],
        ["move", "e3-e10"], ["move", "pass"], ["move", "e4"], ["move", "xa2-e6xe3"], ["move", "h7-g7;xe3-e7xe3"],
        ["move", "zz"], ["move", "e3-e4-e5"], ["move", ""], ["move", "a1"], ["move", "a10"], ["move", "e3-e3"],
        ["move", "b5-h5"], ["move", "h7-i9"], ["move", "a5-a4"], ["move", "g2-g1"], ["move", "x"],
        ["move", "h7-g7;;"], ["move", "e12"], ["move", "e3-f3;xe3"], ["move", "e3-f3;xe3-e7"],
        ["position", "Y1"], ["position", "Y1A6M"], ["position", "X1A6L"], ["position", "Y1!!"],
        ["position", "Y1B9jLTTUo5Kt1jOQEOd8LChEU48cbugbW77g9Am"], ["game", "G1"], ["game", "G1HDl_vAAADMx"],
        ["game", "G1HDl_vAAADMw"], ["game", "hello"],
        ["import", "  \n"], ["import", "# only a comment\n"], ["import", '[White "A"]\n1.e3\n\n[White "B"]\n1.e3 2.e3'],
    ]]),
    ("turns", [LONG_GAME, 0, 80]),
    ("turns", [SINGLE_ROW, 8, 30]),
    ("turns", [OVERLINE, 16, 30]),
    ("turns", [OUT_OF_MARKERS, 44, 70]),
    ("turns", [BLITZ, 0, 20]),
    ("boards", [LONG_GAME, 4]),
    ("boards", [OVERLINE, 3]),
    ("pictures", []),
    ("lesson_texts", []),
    ("pages", [[
        ["", ""], ["?white=human&black=ai-3", "#record=1.e3%202.a5"], ["?black=robot", ""],
        ["?record=1.e3+2.e3", ""], ["", "#g=G1HDl_vAAADMw&you=black"],
        ["?variant=blitz&white=ai-1&black=ai-2&delay=250", ""],
        ["?position=Y1A6L", ""], ["?record=1.e3&position=Y1A6L", ""], ["?record=%C3%A9%ff", ""], ["?WHITE=AI-5", ""],
        ["?you=purple", ""], ["?delay=soon", ""], ["", "#record="],
    ]]),
    ("keeping", [[NOTATION_EXAMPLE, LONG_GAME, BLITZ, OUT_OF_MARKERS],
                 [None, "", "{oops", '{"white": "ai-2", "black": "robot", "variant": "blitz", "delay": 250}',
                  '{"black": "ai-5", "delay": "soon"}', "[1, 2]", '{"delay": 1e400}'],
                 ['{"version": 2, "game": "G1"}', "[" * 100, '{"version": true}', '{"version": 1, "game": "G1x"}',
                  '{"version": 1, "game": "G1HDl_vAAADMw", "settings": {}, "time": 5}', "", "null"]]),
    ("access", [LONG_GAME, 0, 80]),
    ("previews", [LONG_GAME, 10, 80]),
    ("previews", [OVERLINE, 16, 30]),
    ("previews", [SINGLE_ROW, 16, 30]),
    ("access", [OVERLINE, 16, 30]),
    ("history", [LONG_GAME, []]),
    ("history", [LONG_GAME, ["black"]]),
    ("history", [OUT_OF_MARKERS, ["white", "black"]]),
    ("graphs", [[[[0, 500, -1000, 2500, 100000, -100000], 2, 1], [[], None, 1], [[123], 1, 41],
                 [[-49, 49, 51, -51, 0, 7], 6, 11]]]),
    ("embeds", [[
        ["?record=1.e3+2.a5+3.b5&ply=2&steps=1&highlight=e4,e3-e7", ""], ["?record=1.e3&play=1&expect=A5", ""],
        ["?position=Y1A6L&caption=White%20to%20move", ""], ["?bogus=1", ""], ["?ply=x", ""], ["?ply=-1", ""],
        ["?caption=%C3%A9t%C3%A9", ""],
        ["?steps=1", ""], ["?record=1.e3&ply=5", ""], ["?highlight=e4,e4,z9", ""], ["?rows=e4", ""],
        ["?record=1.e3&play=1&expect=e3|a5|A5", ""], ["?g=G1HDl_vAAADMw&rows=e3-e7,e3-e7,b2-f6", "#ply=1"],
    ]]),
    ("preferences", [[None, "", " Dark ", "sepia", "high-contrast", "off", "on", "OFF ", "two", " Computer",
                      "other", "three"]]),
    # issue 21: the page makes the computer's ring placements itself, as the worker would
    ("placements", [_placement_positions(), [0, 1, 7, 41, 999_983, 2**31 + 5, 123_456_789_012]]),
    ("reasons", [LONG_GAME]),
    ("reasons", [OVERLINE]),
    ("session", [LONG_GAME, "ai-2", []]),
    ("session", [SINGLE_ROW, "ai-1", [11]]),
    ("session", [OUT_OF_MARKERS, "ai-3", []]),
    ("live_room", [LONG_GAME, "white", [b.decode("latin-1") for b in LIVE_JUNK]]),
    ("live_room", [OUT_OF_MARKERS, "random", []]),
    ("live_room", [BLITZ, "black", ["{}"]]),
    ("clocks", [["3+2", "1+0", "2d", "none", "0+1", "15d", "fast", "180+180"],
                [[1000, 0], [2500, 0], [10_500, 10_000], [700, -5], [59_000, 59_000], [61_000, 0],
                 [3_000, 2_999], [200_000, 0]]]),
    ("clock", []),
    ("live_offers", [LONG_GAME, 3]),
    ("live_offers", [OUT_OF_MARKERS, 8]),
    ("live_page", [LONG_GAME, 13]),
    ("live_page", [OUT_OF_MARKERS, -1]),
    ("utf8", [[[99, 97, 102, 195, 169], [255], [195], [237, 160, 128], [240, 159, 152, 128, 33], [244, 144, 128, 128],
               [0xE0, 0x80, 0x41], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], []]]),
    # issue 23: a line of a comment is never a tag, and spaces beyond ASCII read the same everywhere
    ("readers", [READER_TEXTS]),
    ("spaces", [[c + "a" + c + c + "b\u00e9" + c for c in SPACES + "\u200b\ufeff\u212a\u202e"]
                + ["".join(SPACES), "", "x", SPACES + "K\u212a\u00c9" + SPACES]]),
    ("splits", [_pasted_texts(), 100]),
    ("splits", [_pasted_texts(100), 2]),
    ("tag_pairs", [_tag_lines()]),
    ("listings", [_pasted_texts(200) + _listed_texts()]),
    ("spaces", [["Ann \u2013 Bo" + c + "\u00e9\u00a0" + c * 2 for c in
                 "\x00\x1b\n\x7f\x85\x9f\u061c\u200b\u200f\u2028\u202e\u2060\u2066\u2069\ufeff\u2010\u202f\u206a"]
                + ['"' * 1000 + " \u2013 " + "\u202e" * 500]]),
    ("positions_read", [["Y1A6L" + c for c in UNICODE_SPACES] + [c + "Y1A6L" for c in UNICODE_SPACES]]),
    # issue 13's hostile inputs and the largest the limits let through, each at its door (not
    # those refused by their length alone, the same check everywhere: 5 MB would slow the lane)
    *[("hostile", [item.door, item.text]) for item in hostile_inputs() if len(item.text) < 150_000],
]
"""Every probe call, ``(function of probes.py, arguments)``, in the order MicroPython runs them."""


@pytest.fixture(scope="module")
def micropython() -> list[dict]:
    reason = lane.missing()
    if reason:
        unavailable(reason)
    return lane.run(ROOT / "tests" / "mpy_lane" / "probes.py", CALLS)


def _first_difference(got: object, expected: object, where: str = "") -> str:
    """Where two JSON values first differ, for a readable failure."""
    if isinstance(got, list) and isinstance(expected, list):
        for i, (a, b) in enumerate(zip(got, expected)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
        return f"{where}: {len(got)} items, CPython has {len(expected)}"
    if isinstance(got, dict) and isinstance(expected, dict):
        for key in sorted(set(got) | set(expected)):
            if got.get(key) != expected.get(key):
                return _first_difference(got.get(key), expected.get(key), f"{where}[{key!r}]")
    if isinstance(got, str) and isinstance(expected, str):
        at = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
        return f"{where} at character {at}: MicroPython {got[max(0, at - 60):at + 60]!r}\n" \
               f"{' ' * len(where)}     CPython {expected[max(0, at - 60):at + 60]!r}"
    return f"{where}: MicroPython {got!r}, CPython {expected!r}"


@pytest.mark.parametrize("index", range(len(CALLS)), ids=[f"{i:02d}-{name}" for i, (name, _) in enumerate(CALLS)])
def test_micropython_answers_as_cpython(micropython: list[dict], index: int) -> None:
    name, args = CALLS[index]
    answer = micropython[index + 1]
    assert "error" not in answer, f"probes.{name} failed under MicroPython:\n{answer['error']}"
    expected = json.loads(json.dumps(getattr(probes, name)(*args)))
    if answer["value"] != expected:
        where = _first_difference(answer["value"], expected)
        pytest.fail(f"probes.{name} answers differently under MicroPython: {where}", pytrace=False)


def test_perft_counts_are_the_golden_ones(micropython: list[dict]) -> None:
    perfts = [i for i, (name, _) in enumerate(CALLS) if name == "perft"]
    assert [micropython[i + 1].get("value") for i in perfts] == [86, 6258, 486978]


# Bytes around the edges of UTF-8's sequences, so that ill-formed ones are common.
_UTF8_EDGES = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
               0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]


@given(st.lists(st.sampled_from(_UTF8_EDGES) | st.integers(0, 255), max_size=12).map(bytes))
def test_decode_utf8_replaces_as_cpython_does(data: bytes) -> None:
    """The decoder MicroPython needs (its ``decode`` has no ``errors="replace"``) is CPython's."""
    assert decode_utf8(data) == data.decode("utf-8", "replace")


# Calls of str, int, dict and re that MicroPython 1.27 lacks (docs/PORTABILITY.md), and the
# modules it does not have. yinsh.compat has the portable spelling of those that are needed.
_MISSING_METHODS = {
    "bit_count", "bit_length", "capitalize", "title", "casefold", "swapcase", "removeprefix", "removesuffix",
    "isascii", "isalnum", "isdecimal", "isnumeric", "isidentifier", "isprintable", "ljust", "rjust", "zfill",
    "expandtabs", "translate", "maketrans", "fullmatch", "finditer", "findall", "groups", "groupdict", "span",
    "as_integer_ratio", "is_integer",
}
_MISSING_MODULES = {"importlib", "zlib", "datetime", "dataclasses", "enum", "urllib", "textwrap", "unicodedata",
                    "fractions", "decimal"}


def test_shared_modules_keep_to_the_subset() -> None:
    """No module the MicroPython pages import calls what MicroPython lacks, on any path: the
    probes cannot reach every branch, this reads them all — the shared modules and the pages'
    DOM modules (yinsh/web), which no probe runs. (``from enum import StrEnum`` is allowed:
    mpy/enum.py stands in.)"""
    problems = []
    pages = page_modules("yinsh/web/main.py", "yinsh/web/embed.py")
    assert {"yinsh/web/view.py", "yinsh/web/game_menu.py", "yinsh/web/embed.py"} <= pages
    for path in sorted(set(lane.shared_modules()) | pages):
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        type_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node.test)
                     for n in ast.walk(node)}
        problems += [f"{path}:{node.lineno}: {problem}" for node in ast.walk(tree) if id(node) not in type_only
                     for problem in [_unportable(node, path)] if problem]
    assert not problems, "\n".join(problems)


def _unportable(node: ast.AST, path: str) -> str | None:
    """What MicroPython 1.27 cannot run in ``node`` of the module ``path``, or ``None``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MISSING_METHODS:
        return f".{node.func.attr}() (MicroPython has none)"
    if isinstance(node, ast.Attribute) and node.attr in ("bit_count", "bit_length") and path != "yinsh/compat.py":
        return f".{node.attr} (MicroPython's ints have none: yinsh.compat has it)"
    if isinstance(node, ast.Import | ast.ImportFrom) and not getattr(node, "level", 0):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        for name in names:
            if name == "collections.abc" or name.split(".")[0] in _MISSING_MODULES and not (
                    name == "enum" and [a.name for a in node.names] == ["StrEnum"]):
                return f"import {name} (MicroPython has none)"
    if isinstance(node, ast.Dict) and None in node.keys:
        return "{**…} in a dict display (MicroPython cannot parse it)"
    loaded = not isinstance(getattr(node, "ctx", None), ast.Store)
    displays = ast.List | ast.Tuple | ast.Set
    if isinstance(node, displays) and loaded and any(isinstance(item, ast.Starred) for item in node.elts):
        return "*… in a display (MicroPython cannot parse it)"
    if isinstance(node, ast.Slice) and node.step is not None:
        return "a slice with a step (MicroPython has none for str)"
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def test_the_page_takes_no_date_as_a_javascript_integer() -> None:
    """MicroPython's FFI hands a JavaScript integer to Python in 32 bits: a date's milliseconds
    (``Date.now()``, a stored message's ``timestampNanos``) wrap, and clocks, chat limits and ages
    with them. The page reads the time by :func:`yinsh.compat.now_ms`, a stored time as text."""
    found = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "yinsh" / "web").glob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if any(name in line for name in ("Date.now(", "timestampNanos", ".getTime(", ".valueOf("))]
    assert not found, found
