"""The page's configuration: pyscript.toml (the main thread, MicroPython), worker.json (the
computer player's worker, Pyodide), index.html and the URL parameters they read.

The module lists are derived from the imports, so a module the browser could not import fails
here, not in a user's browser; and so does one mapped for nothing (every mapped file is a
download before the page is interactive).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path, PurePosixPath

import pytest
from helpers import PAGE_BARE_PACKAGES, config_files, imported_modules, page_modules

from yinsh.game import Game
from yinsh.page.links import game_url, open_page
from yinsh.page.settings import PLAYER_KINDS, ai_level
from yinsh.page.urls import read_params
from yinsh.web.client import WORKER_CONFIG

ROOT = Path(__file__).resolve().parents[1]
PAGE_CONFIG = ROOT / "pyscript.toml"
WORKER = ROOT / WORKER_CONFIG.removeprefix("./")
STUBS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "mpy").glob("*.py"))
"""The stand-ins for the standard modules MicroPython lacks (docs/PORTABILITY.md)."""
#: Modules the browser never imports: the command line, the static server, the site builder, benchmarks, perft.
NOT_IN_BROWSER = {"yinsh/__main__.py", "yinsh/serve.py", "yinsh/bench.py", "yinsh/perft.py"}
NOT_IN_BROWSER_PACKAGES = ("yinsh/site/",)


def kept_out(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m in NOT_IN_BROWSER or m.startswith(NOT_IN_BROWSER_PACKAGES))


class TestPageConfig:
    config = tomllib.loads(PAGE_CONFIG.read_text(encoding="utf-8"))
    files = config_files(PAGE_CONFIG)

    def test_interpreter_is_the_self_hosted_micropython(self):
        assert self.config["interpreter"] == "./static/vendor/micropython/micropython.mjs"
        assert "packages" not in self.config, "the page needs no package beyond the standard library"

    def test_maps_what_the_main_thread_imports_and_nothing_more(self):
        needed = page_modules("yinsh/web/main.py")
        assert {"yinsh/turn.py", "yinsh/render.py", "yinsh/page/session.py", "yinsh/ai/placement.py"} <= needed
        assert not kept_out(needed)
        missing = sorted(needed - set(self.files))
        entries = [f'"./{m}" = "./{PurePosixPath(m).parent}/"' for m in missing]
        assert not missing, "add to [files] in pyscript.toml: " + ", ".join(entries)
        assert set(self.files) == needed | set(STUBS), "mapped for nothing: " + ", ".join(
            sorted(set(self.files) - needed - set(STUBS)))

    def test_a_live_room_s_modules_load_on_demand(self):
        """A live room's modules are not mapped (a game at one device never loads them): the page
        fetches ``LIVE_MODULES`` when a room opens, which must be exactly what the room's page
        part imports beyond the start-up modules (one missing would fail in a player's browser)."""
        from yinsh.web.main import LIVE_MODULES

        needed = page_modules("yinsh/web/live.py")
        assert not kept_out(needed)
        assert set(LIVE_MODULES) == needed - set(self.files)
        assert "yinsh/web/live.py" not in imported_modules("yinsh/web/main.py")

    def test_of_the_computer_player_only_its_placements(self):
        """The page makes the computer's ring placements itself with the worker's own rule;
        the search (``yinsh/ai``'s ``__init__`` and what it imports) stays the worker's."""
        assert [m for m in self.files if m.startswith("yinsh/ai/")] == ["yinsh/ai/placement.py"]
        assert "yinsh/web/worker.py" not in self.files

    def test_the_stubs_stand_at_the_root_and_the_package_keeps_its_layout(self):
        for source, dest in self.files.items():
            assert (ROOT / source).is_file(), f"{source} is mapped but does not exist (a 404 in the page)"
            expected = PurePosixPath(source).name if source in STUBS else source
            assert dest == expected, f"{source} would land at {dest}"
        for folder in {str(PurePosixPath(f).parent) for f in self.files if f.startswith("yinsh/")}:
            assert (f"{folder}/__init__.py" in self.files) != (folder in PAGE_BARE_PACKAGES), folder


class TestWorkerConfig:
    config = json.loads(WORKER.read_text(encoding="utf-8"))
    files = config_files(WORKER)

    def test_interpreter_is_the_self_hosted_pyodide(self):
        # The project's module beside Pyodide's own loader (setup copies it there): the worker's
        # script (the page starts it as a module worker), which starts Pyodide (from a memory
        # snapshot when one is kept) and runs the worker's modules.
        assert self.config["interpreter"] == "./static/vendor/pyodide/yinsh-pyodide.mjs"
        start = (ROOT / "static/js/yinsh-pyodide.mjs").read_text(encoding="utf-8")
        assert 'from "./pyodide.mjs"' in start and "export async function loadPyodide" in start
        assert 'pyodide.pyimport("yinsh.web.worker")' in start
        assert set(self.config) == {"interpreter", "files"}, "no packages, nothing for PyScript"

    def test_maps_what_the_worker_imports_and_nothing_more(self):
        needed = imported_modules("yinsh/web/worker.py")  # the module yinsh-pyodide.mjs imports
        assert {"yinsh/ai/negamax.py", "yinsh/web/worker.py"} <= needed and not kept_out(needed)
        assert set(self.files) == needed
        assert all(dest == source for source, dest in self.files.items())


class TestIndexHtml:
    html = (ROOT / "index.html").read_text(encoding="utf-8")

    def test_loads_the_runtime_and_the_config_from_this_origin(self):
        urls = re.findall(r'(?:src|href)="([^"]+)"', self.html)
        assert urls and all(u.startswith("./") for u in urls), [u for u in urls if not u.startswith("./")]
        for url in urls:
            if "/vendor/" not in url:
                assert (ROOT / url[2:]).is_file(), url
        assert '<script type="mpy" config="./pyscript.toml">' in self.html
        assert "pyodide" not in self.html, "the page itself never names Pyodide: only its worker loads it"
        assert 'href="./static/favicon.svg"' in self.html

    def test_preloads_name_real_files(self):
        vendor = ROOT / "static" / "vendor"
        if not vendor.is_dir():
            pytest.skip("static/vendor not made (make setup)")
        for url in re.findall(r'<link rel="(?:module)?preload" href="\./([^"]+)"', self.html):
            assert (ROOT / url).is_file(), f"index.html preloads {url}, which `make setup` did not produce"

    def test_page_hooks(self):
        assert 'id="board"' in self.html and 'class="yb-dots"' in self.html  # the board is drawn before Python starts
        for element_id in ("prompt", "hint", "pool-count", "moves", "banner", "player-white", "player-black"):
            assert f'id="{element_id}"' in self.html


@pytest.mark.parametrize("page, config", [("index.html", "pyscript.toml"), ("embed.html", "embed.toml")])
def test_the_plugins_are_turned_off_for_both_interpreter_types_alike(page, config):
    """PyScript imports its plugins once per interpreter type, each by its own config: the
    page's <py-config> (Pyodide's type, never run on the main thread) must turn off the same
    ones as its MicroPython config, or PyScript imports them anyway."""
    html = (ROOT / page).read_text(encoding="utf-8")
    (py_config,) = re.findall(r"<py-config hidden>(.*?)</py-config>", html, re.S)
    plugins = tomllib.loads((ROOT / config).read_text(encoding="utf-8"))["plugins"]
    assert json.loads(py_config) == {"plugins": plugins}
    assert plugins and all(p.startswith("!") for p in plugins)


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
