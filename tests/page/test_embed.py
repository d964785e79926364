"""The embeddable diagram: embed.html, its PyScript config, its URL parameters, and the
example tutorial page (examples/embed.html) whose puzzle must really be solvable.

Golden file: the static board inside embed.html (shown before Python starts) is the
renderer's own output; rewrite it with ``UPDATE_GOLDEN=1 pytest tests/page/test_embed.py``.
"""

from __future__ import annotations

import doctest
import html
import os
import re
import tomllib
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urlsplit

import pytest
from helpers import config_files, imported_modules
from hypothesis import given, settings
from hypothesis import strategies as hs

import yinsh.page.embed as embedding
from yinsh.errors import YinshError
from yinsh.game import Game
from yinsh.link import encode_game
from yinsh.move import Move
from yinsh.page.embed import PARAMETERS, EmbedError, parse_embed
from yinsh.record import read_records
from yinsh.render import static_board_svg

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
EMBED_HTML = ROOT / "embed.html"
EMBED_TOML = ROOT / "embed.toml"
EXAMPLE = ROOT / "examples" / "embed.html"
UPDATE = os.environ.get("UPDATE_GOLDEN", "") not in ("", "0")
GAMES = {r.tags["Game"]: r.game for r in read_records((DATA / "games.ygn").read_text(encoding="utf-8"))}
SCENARIOS = {r.tags["Scenario"]: r.game for r in read_records((DATA / "scenarios.ygn").read_text(encoding="utf-8"))}
NOTATION_EXAMPLE = SCENARIOS["official notation example"]


def test_doctests():
    """pytest's doctest run skips yinsh/web (its glue needs a browser); this module needs none."""
    failures, tried = doctest.testmod(embedding, optionflags=doctest.ELLIPSIS)
    assert tried and not failures


# --------------------------------------------------------------------------- parameters


class TestGame:
    def test_nothing_is_the_empty_board(self):
        spec = parse_embed("")
        assert spec.game.state == Game().state and spec.ply == 0 and not spec.steps and not spec.puzzle

    def test_record_in_query_or_hash_long_or_short(self):
        assert parse_embed("?record=1.e3+2.a5").game.record() == "1.e3 2.a5"
        assert parse_embed("", "#record=1.e3%202.a5").game.record() == "1.e3 2.a5"
        assert parse_embed("?record=1.e3", "#record=1.f5").game.record() == "1.f5"  # the hash wins

    def test_position_and_game_code(self):
        spec = parse_embed(f"?position={NOTATION_EXAMPLE.position()}")
        assert spec.game.state == NOTATION_EXAMPLE.state and spec.moves == 0 and spec.ply == 0
        spec = parse_embed(f"?g={encode_game(NOTATION_EXAMPLE)}")
        assert spec.game.record() == NOTATION_EXAMPLE.record() and spec.ply == spec.moves == 10

    def test_ply_chooses_the_move_shown(self):
        spec = parse_embed(f"?record={quote(NOTATION_EXAMPLE.record())}&ply=4&steps=1")
        assert spec.ply == 4 and spec.steps and spec.moves == 10
        assert spec.game_at(4).record() == "1.e3 2.a5 3.b5 4.c6"
        assert spec.game_at(0).state == Game().state and spec.game_at(99).state == NOTATION_EXAMPLE.state

    def test_a_record_from_a_position_steps_from_there(self):
        start = NOTATION_EXAMPLE.position()
        spec = parse_embed("?record=" + quote(f'[Position "{start}"]\n11.h7-g7 12.a5-a4'))
        assert spec.moves == 2 and spec.game_at(0).state == NOTATION_EXAMPLE.state

    @pytest.mark.parametrize("query, words", [
        ("?record=1.e3+2.e3", "record= cannot be read"),
        ("?record=hello", "record= cannot be read"),
        ("?position=Y1nonsense", "position= cannot be read"),
        ("?g=G1zzz", "g= cannot be read"),
        ("?record=1.e3&position=Y1abc", "Give one game, not position and record"),
        ("?record=1.e3&ply=2", "ply=2 is out of range"),
        ("?record=1.e3&ply=-1", "not a move number"),
        ("?record=1.e3&ply=x", "not a move number"),
        ("?steps=1", "steps=1 needs moves"),
        ("?record=1.e3&steps=maybe", "not a switch"),
        ("?hightlight=e4", "Unknown parameter 'hightlight'"),
    ])
    def test_bad_values_name_the_parameter(self, query, words):
        with pytest.raises(EmbedError, match=re.escape(words)) as info:
            parse_embed(query)
        assert "Traceback" not in str(info.value)


class TestHighlights:
    def test_points_and_rows(self):
        spec = parse_embed("?highlight=E4,e5,,e3-e7&rows=e3-e7,b2-f6")
        assert spec.marked == ("e4", "e5") and spec.rows == ("e3-e7", "b2-f6")

    @pytest.mark.parametrize("query, words", [
        ("?highlight=z9", "highlight= cannot highlight 'z9'"),
        ("?highlight=e3-e9", "is not a row"),
        ("?rows=e3-e8", "rows= 'e3-e8' is not a row"),
        ("?rows=e4", "rows= lists rows"),
    ])
    def test_bad_highlights(self, query, words):
        with pytest.raises(EmbedError, match=re.escape(words)):
            parse_embed(query)


class TestPuzzle:
    single_row = SCENARIOS["single row"]

    def query(self, expect: str, extra: str = "") -> str:
        return f"?position={self.single_row.position()}&play=1&expect={quote(expect)}{extra}"

    def test_moves_are_compared_as_values(self):
        spec = parse_embed(self.query("E3-F3 ; xf7"))  # short form, upper case, spaces
        assert spec.puzzle and spec.expected == (Move.from_text("e3-f3;xe3-e7xf7"),)
        assert spec.accepts(Move.from_text("e3-f3;xe3-e7xf7"))
        assert not spec.accepts(Move.from_text("e3-f3;xe3-e7xf6"))

    def test_alternatives(self):
        spec = parse_embed(self.query("e3-f3;xf7|e3-f3;xf6|e3-f3;xf7"))
        assert spec.expected == (Move.from_text("e3-f3;xe3-e7xf7"), Move.from_text("e3-f3;xe3-e7xf6"))

    def test_a_ring_move_alone_accepts_every_way_to_finish_it(self):
        spec = parse_embed(self.query("e3-f3"))  # it makes the row e3-e7: which ring goes is free
        assert spec.puzzle and spec.expected == () and spec.ring_moves == (Move.from_text("e3-f3"),)
        position = spec.game_at(spec.ply)
        finishes = [m for m in position.legal_moves() if (m.source, m.target) == (spec.ring_moves[0].source,
                                                                                  spec.ring_moves[0].target)]
        assert len(finishes) > 1 and all(m.after for m in finishes)
        assert all(spec.accepts(m) for m in finishes)
        assert not any(spec.accepts(m) for m in position.legal_moves() if m not in finishes)

    def test_the_whole_move_when_the_row_matters(self):
        spec = parse_embed(self.query("e3-f3;xf7|e3-e1"))
        assert spec.accepts(Move.from_text("e3-f3;xe3-e7xf7"))
        assert not spec.accepts(Move.from_text("e3-f3;xe3-e7xf6"))
        assert spec.accepts(Move.from_text("e3-e1;xe3-e7xf6"))

    @pytest.mark.parametrize("expect, extra, words", [
        ("", "", "play=1 needs the answer"),
        ("e3-e9", "", "expect= is not a legal move here"),  # a marker on e9
        ("e4-e1", "", "expect= is not a legal move here"),  # no ring on e4
        ("e3-f3;xf6-f2xf3", "", "expect= is not a legal move here"),  # no such row
        ("e3-f3;xf7|", "", "empty alternative"),
        ("e3-f3;xf7", "&steps=1&record=1.e3", "Give one game"),
    ])
    def test_bad_puzzles(self, expect, extra, words):
        with pytest.raises(EmbedError, match=re.escape(words)):
            parse_embed(self.query(expect, extra))

    def test_expect_needs_play_and_play_excludes_steps(self):
        with pytest.raises(EmbedError, match="add play=1"):
            parse_embed("?record=1.e3&expect=a5")
        with pytest.raises(EmbedError, match="do not go together"):
            parse_embed("?record=1.e3&steps=1&play=1&expect=a5")

    def test_the_puzzle_is_played_where_ply_says(self):
        spec = parse_embed("?record=1.e3+2.a5&ply=1&play=1&expect=a4")
        assert spec.accepts(Move.from_text("a4"))
        with pytest.raises(EmbedError, match="not a legal move"):
            parse_embed("?record=1.e3+2.a5&play=1&expect=e3")  # at move 2, e3 is taken

    def test_no_puzzle_in_a_finished_game(self):
        over = SCENARIOS["out of markers"]
        with pytest.raises(EmbedError, match="the game is over"):
            parse_embed(f"?position={over.position()}&play=1&expect=pass")


def test_caption_is_one_line_of_bounded_length():
    assert parse_embed("?caption=White+to%0Amove").caption == "White to move"
    with pytest.raises(EmbedError, match="characters long"):
        parse_embed("?caption=" + "x" * 501)


@settings(max_examples=300, deadline=None)
@given(hs.dictionaries(hs.sampled_from(PARAMETERS + ("other", "PLY", "Steps")),
                       hs.one_of(hs.text(max_size=30), hs.sampled_from(
                           ["1", "0", "e4,e5", "e3-e7", "1.e3 2.a5", "G1HDl_vAAADMw", "Y1", "e3-f3;xf7", "a5|a4"])),
                       max_size=6),
       hs.booleans())
def test_fuzzed_parameters_raise_only_embed_errors(params, in_hash):
    text = "&".join(f"{quote(k)}={quote(v)}" for k, v in params.items())
    try:
        spec = parse_embed("", "#" + text) if in_hash else parse_embed("?" + text)
    except EmbedError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        return
    assert 0 <= spec.ply <= spec.moves
    assert all(spec.game_at(spec.ply).parse_move(str(m)) == m for m in spec.expected)


@settings(max_examples=200, deadline=None)
@given(hs.text(max_size=60))
def test_fuzzed_text_in_every_parameter(text):
    for key in PARAMETERS:
        try:
            parse_embed("?" + key + "=" + quote(text))
        except EmbedError:
            pass


def test_embed_error_is_a_project_error():
    assert issubclass(EmbedError, YinshError) and issubclass(EmbedError, ValueError)


# --------------------------------------------------------------------------- the example page


def example_frames() -> dict[str, str]:
    """The example page's iframes: title → the ``src`` query of ../embed.html."""
    page = EXAMPLE.read_text(encoding="utf-8")
    frames = {}
    for tag in re.findall(r"<iframe\b[^>]*>", page):
        src = html.unescape(re.search(r'\bsrc="([^"]*)"', tag)[1])
        title = html.unescape(re.search(r'\btitle="([^"]*)"', tag)[1])
        assert urlsplit(src).path == "../embed.html", src
        frames[title] = "?" + urlsplit(src).query
    return frames


class TestExamplePage:
    def test_three_diagrams_that_open(self):
        specs = [parse_embed(query) for query in example_frames().values()]
        assert len(specs) == 3
        assert any(s.marked and s.rows for s in specs), "one diagram highlights points and a row"
        assert any(s.steps and s.moves for s in specs), "one diagram steps through a record"
        assert any(s.puzzle for s in specs), "one diagram is a puzzle"

    def test_the_puzzle_is_solved_by_a_move_that_makes_a_row(self):
        (puzzle,) = [s for s in map(parse_embed, example_frames().values()) if s.puzzle]
        position = puzzle.game_at(puzzle.ply)
        legal = position.legal_moves()
        # the answer is the ring move alone: every way of completing the row is accepted (the
        # ring removed is the reader's choice), and no other move
        assert puzzle.ring_moves and not puzzle.expected
        makes_row = [m for m in legal if m.after]
        assert [m for m in legal if puzzle.accepts(m)] == makes_row
        # and it is a puzzle: most moves make no row
        assert len(legal) > 10 * len(makes_row)

    def test_links_stay_on_this_site(self):
        page = EXAMPLE.read_text(encoding="utf-8")
        for url in re.findall(r'(?:src|href)="([^"]+)"', page):
            assert not urlsplit(url).scheme and not url.startswith("//"), url
            target = (EXAMPLE.parent / urlsplit(html.unescape(url)).path).resolve()
            assert target.is_file(), url


# --------------------------------------------------------------------------- embed.html and embed.toml


def embed_files() -> dict[str, str]:
    return config_files(EMBED_TOML)


class TestEmbedConfig:
    def test_self_hosted_micropython_and_no_packages(self):
        """The page's MicroPython: a frame starts at once, and never loads Pyodide."""
        config = tomllib.loads(EMBED_TOML.read_text(encoding="utf-8"))
        assert config["interpreter"] == "./static/vendor/micropython/micropython.mjs"
        assert "packages" not in config

    def test_every_module_the_embed_imports_is_mapped(self):
        needed = imported_modules("yinsh/web/embed.py")
        assert {"yinsh/__init__.py", "yinsh/page/__init__.py", "yinsh/render.py", "yinsh/turn.py"} <= needed
        missing = sorted(needed - set(embed_files()))
        assert not missing, "add to [files] in embed.toml: " + ", ".join(
            f'"./{m}" = "./{PurePosixPath(m).parent}/"' for m in missing)

    def test_nothing_else_is_mapped(self):
        """The frame loads only what it imports and MicroPython's stubs (three frames on a page
        load it three times)."""
        stubs = {p.relative_to(ROOT).as_posix() for p in (ROOT / "mpy").glob("*.py")}
        extra = sorted(set(embed_files()) - imported_modules("yinsh/web/embed.py") - stubs)
        assert not extra, f"embed.toml maps files the embed never imports: {extra}"
        assert stubs <= set(embed_files())
        for source, dest in embed_files().items():
            expected = source.rsplit("/", 1)[1] if source in stubs else source
            assert dest == expected, f"{source} would land at {dest}"


class TestEmbedHtml:
    text = EMBED_HTML.read_text(encoding="utf-8")

    def test_loads_everything_from_this_origin(self):
        urls = re.findall(r'(?:src|href)="([^"]+)"', self.text)
        assert urls and all(u.startswith("./") for u in urls), [u for u in urls if not u.startswith("./")]
        for url in urls:
            if "/vendor/" not in url:
                assert (ROOT / url[2:]).is_file(), url
        assert '<script type="mpy" config="./embed.toml">' in self.text
        assert "from yinsh.web.embed import start" in self.text and "pyodide" not in self.text

    def test_preloads_are_the_game_pages(self):
        """The same runtime files as index.html: a reader who played the game has them cached."""
        preloads = re.findall(r'<link rel="(?:module)?preload" href="([^"]+)"', self.text)
        index = (ROOT / "index.html").read_text(encoding="utf-8")
        assert preloads and preloads == re.findall(r'<link rel="(?:module)?preload" href="([^"]+)"', index)

    def test_hooks(self):
        for element_id in ("board", "message", "caption", "status", "steps", "step-label", "controls"):
            assert f'id="{element_id}"' in self.text
        for step in ("first", "prev", "next", "last"):
            assert f'data-step="{step}"' in self.text

    def test_static_board_is_the_renderers(self):
        expected = static_board_svg()
        m = re.search(r"(<!-- board:begin[^>]*-->\n)(.*?)(<!-- board:end -->)", self.text, re.S)
        assert m, "embed.html lost its <!-- board:begin --> … <!-- board:end --> markers"
        if UPDATE:
            EMBED_HTML.write_text(self.text[: m.start(2)] + expected + "\n" + self.text[m.end(2):], encoding="utf-8")
            return
        assert m.group(2).strip() == expected, "embed.html's board is stale: UPDATE_GOLDEN=1 pytest " + __file__
