"""The page's configuration: pyscript.toml, index.html and the URL parameters they read.

The module list is derived from the file system, so a new module of ``yinsh/`` that the
browser could not import fails here, not in a user's browser.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path, PurePosixPath

import pytest
from helpers import config_files, imported_modules

from yinsh.game import Game
from yinsh.web import PLAYER_KINDS, ai_level, game_url, open_page, read_params

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyscript.toml"
#: Modules the browser never imports: the command line, the static server, the site builder, benchmarks, perft.
NOT_IN_BROWSER = {"yinsh/__main__.py", "yinsh/serve.py", "yinsh/bench.py", "yinsh/perft.py"}
NOT_IN_BROWSER_PACKAGES = ("yinsh/site/",)
#: Modules only the embeddable diagram (embed.html) imports: embed.toml maps them (tests/test_embedding.py).
EMBED_ONLY = {"yinsh/web/embed.py", "yinsh/web/embedding.py"}


def load_config() -> dict:
    return tomllib.loads(CONFIG.read_text(encoding="utf-8"))


def mapped_files() -> dict[str, str]:
    """Source file (relative to the repository) → its path in the browser's file system."""
    return config_files(CONFIG)


def package_modules() -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "yinsh").rglob("*.py")
        if "__pycache__" not in p.parts and not p.relative_to(ROOT).as_posix().startswith(NOT_IN_BROWSER_PACKAGES)
    } - NOT_IN_BROWSER - EMBED_ONLY


class TestPyscriptToml:
    def test_interpreter_is_the_self_hosted_pyodide(self):
        interpreter = load_config()["interpreter"]
        assert interpreter.startswith("./"), "a relative URL: resolved against the page, never a CDN"
        assert interpreter == "./static/vendor/pyodide/pyodide.mjs"
        assert "packages" not in load_config(), "the page needs no package beyond the standard library"

    def test_every_module_of_the_package_is_mapped(self):
        missing = sorted(package_modules() - set(mapped_files()))
        entries = [f'"./{m}" = "./{PurePosixPath(m).parent}/"' for m in missing]
        assert not missing, "add to [files] in pyscript.toml: " + ", ".join(entries)

    def test_the_page_imports_nothing_left_unmapped(self):
        """What the page and its AI worker may import (at any depth) is mapped; the modules kept
        out of the browser (command line, server, site builder, benchmark, perft, the embed's
        glue) are not among it."""
        needed = imported_modules("yinsh/web/main.py", "yinsh/web/worker.py")
        assert {"yinsh/turn.py", "yinsh/render.py", "yinsh/ai/negamax.py"} <= needed
        assert not sorted(needed - set(mapped_files()))
        kept_out = {m for m in needed if m in NOT_IN_BROWSER | EMBED_ONLY or m.startswith(NOT_IN_BROWSER_PACKAGES)}
        assert not kept_out, f"the page imports modules pyscript.toml leaves out: {sorted(kept_out)}"

    def test_every_mapped_file_exists_and_keeps_its_path(self):
        for source, dest in mapped_files().items():
            assert (ROOT / source).is_file(), (
                f"{source} is mapped in pyscript.toml but does not exist (a 404 in the page)"
            )
            assert dest == source, f"{source} would land at {dest}: the package must keep its layout"

    def test_every_package_directory_has_an_init(self):
        dirs = {str(PurePosixPath(f).parent) for f in mapped_files()}
        for d in dirs:
            assert f"{d}/__init__.py" in mapped_files(), d


class TestIndexHtml:
    html = (ROOT / "index.html").read_text(encoding="utf-8")

    def test_loads_the_runtime_and_the_config_from_this_origin(self):
        urls = re.findall(r'(?:src|href)="([^"]+)"', self.html)
        assert urls and all(u.startswith("./") for u in urls), [u for u in urls if not u.startswith("./")]
        for url in urls:
            if "/vendor/" not in url:
                assert (ROOT / url[2:]).is_file(), url
        assert 'config="./pyscript.toml"' in self.html
        assert 'href="./static/favicon.svg"' in self.html

    def test_preloads_name_real_files(self):
        vendor = ROOT / "static" / "vendor"
        if not vendor.is_dir():
            pytest.skip("static/vendor not made (make setup)")
        for url in re.findall(r'<link rel="(?:module)?preload" href="\./([^"]+)"', self.html):
            assert (ROOT / url).is_file(), f"index.html preloads {url}, which `make setup` did not produce"

    def test_page_hooks(self):
        assert 'id="board"' in self.html and "data-point=" in self.html  # the board is drawn before Python starts
        for element_id in ("prompt", "hint", "pool-count", "moves", "banner", "player-white", "player-black"):
            assert f'id="{element_id}"' in self.html


class TestUrlParameters:
    def test_players(self):
        assert open_page("?white=human&black=ai-3").players == {"white": "human", "black": "ai-3"}
        assert open_page("").players == {"white": "human", "black": "human"}
        assert open_page("?WHITE=AI-5").players["white"] == "ai-5"
        assert [ai_level(k) for k in PLAYER_KINDS] == [None, 1, 2, 3, 4, 5]

    def test_bad_player_gives_a_notice(self):
        setup = open_page("?black=robot")
        assert setup.players["black"] == "human"
        assert "Unknown player 'robot'" in setup.notices[0]

    def test_record_in_query_or_hash(self):
        assert open_page("?record=1.e3+2.a5").game.record() == "1.e3 2.a5"
        assert open_page("", "#record=1.e3%202.a5").game.record() == "1.e3 2.a5"
        # the hash wins: it is where the page keeps the game it plays
        assert open_page("?record=1.e3", "#record=1.f5").game.record() == "1.f5"

    def test_position(self):
        game = Game.from_record("1.e3 2.a5 3.b5")
        setup = open_page(f"?position={game.position()}")
        assert setup.game.state == game.state and setup.game.ply == 3 and not setup.notices

    @pytest.mark.parametrize("query", ["?record=1.e3+2.e3", "?record=hello", "?position=Y1nonsense", "?position=%00",
                                       "?record=" + "1.e3 " * 3, "?record=1.e3+2.a5+3.a5-a6"])
    def test_bad_values_give_a_notice_and_a_fresh_game(self, query):
        setup = open_page(query)
        assert setup.game.ply == 0 and setup.game.state == Game().state
        assert len(setup.notices) == 1 and "A new game has started" in setup.notices[0]
        assert "Traceback" not in setup.notices[0]

    def test_link_reopens_the_game(self):
        game = Game.from_record("1.e3 2.a5 3.b5")
        url = game_url("/", {"white": "ai-2", "black": "human"}, game)
        path, _, rest = url.partition("?")
        search, _, hash_ = rest.partition("#")
        setup = open_page("?" + search, "#" + hash_)
        assert setup.game.record() == game.record() and setup.players["white"] == "ai-2"
        from_position = Game.from_position(game.position())
        assert "#position=" in game_url("/", {}, from_position)
        assert game_url("/", {}, Game()) == "/"

    def test_read_params_keeps_first_value(self):
        assert read_params("?a=1&a=2") == {"a": "1"}
