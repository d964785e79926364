"""Browser pages that several end-to-end tests share, each recording what went wrong.

A cold Pyodide boot costs seconds, so most test modules open one page for the whole module
(a :class:`RecordedPage` or a subclass) and check it after every test, as the ``yinsh_page``
fixture checks its own: :func:`shared_page_fixtures` makes the two fixtures that do it. A test
fails on any console error, uncaught page error, request leaving the site's origin, or error
caught by the page's own guard (``data-yinsh-error`` on ``<html>``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Self
from urllib.parse import quote, urlsplit

import pytest
from browser import RETURNING_VISITOR
from clicks import click_point, row_spot

from yinsh.board import point_name
from yinsh.game import Game
from yinsh.move import Move, row_name

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
#: Schemes that never reach the network.
LOCAL_SCHEMES = frozenset({"data", "blob", "about"})
AI_TIMEOUT_MS = 60_000  # the first answer includes the worker's start (a second Pyodide)
#: A fresh number for every game opened, so that each opening changes the URL hash.
_nonce = itertools.count(1)


def origin(url: str) -> str:
    """``scheme://host:port`` of ``url``, lower case: what "the same origin" compares."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def is_offsite(url: str, site_origin: str) -> bool:
    """True when a request for ``url`` leaves ``site_origin`` (``data:``/``blob:``/``about:`` never do)."""
    return urlsplit(url).scheme not in LOCAL_SCHEMES and origin(url) != site_origin


def guard_caught(frame: Any) -> bool:
    """Whether the guard of ``frame`` (a page or an iframe's frame) caught an exception; its
    flag is reset, so that a test reports only what happened while it ran."""
    if not frame.evaluate("document.documentElement.hasAttribute('data-yinsh-error')"):
        return False
    frame.evaluate("document.documentElement.removeAttribute('data-yinsh-error')")
    return True


def guard_problem(whose: str = "the page's guard") -> str:
    """The line reported when a page's guard caught an exception."""
    return f"{whose} caught an exception (see the console warning)"


#: JavaScript: whether the page asks if a link's game may replace the game in progress.
ASKING_JS = "() => !!document.getElementById('replace-dialog')?.open"
EARLY_WORKER_TAKEN_JS = ("async () => window.yinshEarlyWorker.state === 'taken' && "
                         "(await window.yinshEarlyWorker.started) !== null")
"""Whether the page took the computer's worker that its ``<head>`` started from the link."""


def follow_link(page: Any, fragment: str, expect: str, timeout: float = 10_000) -> None:
    """Open ``#fragment`` in ``page`` as a person pastes a link into the tab; if the page asks
    whether the link's game may replace the game in progress, say yes; wait until the board
    shows the record ``expect``."""
    page.evaluate("f => { location.hash = f; }", fragment)
    page.wait_for_function("([r, asking]) => document.getElementById('board').dataset.record === r || eval(asking)()",
                           arg=[expect, ASKING_JS], timeout=timeout)
    if page.evaluate(ASKING_JS):
        page.click("#replace-dialog button[data-action=open-link]")
    page.wait_for_function("r => document.getElementById('board').dataset.record === r", arg=expect, timeout=timeout)


def save_settled_screenshot(page: Any, name: str, *, full_page: bool = False) -> Path:
    """A PNG of ``page`` in test-artifacts/, once the last move's slide and flips are over."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(400)  # let the last move's slide and flips finish
    path = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9._-]+', '_', name)}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


class RecordedPage:
    """A browser context and page of their own, with every problem recorded in ``problems``.

    A problem is a console error, an uncaught page error or a request leaving the origin of
    ``base_url``. ``context_options`` go to ``browser.new_context`` (the viewport is
    1000 × 800 unless given). The visitor is a returning one (the first visit's question is
    answered), unless ``first_visit``. A subclass sets ``loaded`` once it has opened a page of the
    site: only then is the page's guard checked.
    """

    def __init__(self, browser: Any, base_url: str, first_visit: bool = False, **context_options: Any) -> None:
        self.base_url = base_url
        self.origin = origin(base_url)
        self.context = browser.new_context(**{"viewport": {"width": 1000, "height": 800}, **context_options})
        if not first_visit:
            self.context.add_init_script(RETURNING_VISITOR)
        self.problems: list[str] = []
        self.context.on("request", self._on_request)
        self.page = self.context.new_page()
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.loaded = False

    def _on_request(self, request: Any) -> None:
        if is_offsite(request.url, self.origin):
            self.problems.append(f"off-origin request: {request.url}")

    def _on_console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def guard_problems(self) -> list[str]:
        """The page guard's report, if it caught an exception (see :func:`guard_caught`)."""
        return [guard_problem()] if self.loaded and guard_caught(self.page) else []

    def take_problems(self) -> list[str]:
        """Everything recorded since the last call, the guard's report included; then forget it."""
        problems, self.problems = self.problems, []
        return problems + self.guard_problems()

    def begin_test(self) -> None:
        """Forget what earlier tests recorded (a subclass also resets what tests may change)."""
        self.problems.clear()

    def end_test(self, screenshot_as: str | None = None) -> None:
        """Fail the test on anything recorded since :meth:`begin_test` (leaving a screenshot
        named ``screenshot_as`` in test-artifacts/, if given)."""
        problems = self.take_problems()
        if not problems:
            return
        if screenshot_as is not None:
            try:
                save_settled_screenshot(self.page, screenshot_as)
            except Exception:  # the page may be gone; the problems matter more
                pass
        pytest.fail("\n".join(problems), pytrace=False)

    def close(self) -> None:
        self.context.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class GamePage(RecordedPage):
    """The game page on a touch screen, played through clicks on points and rows.

    A game is opened by changing the URL hash (``#record=…`` or ``#position=…``), which the
    page follows without reloading.
    """

    BOOT_TIMEOUT_MS = 60_000

    def __init__(self, browser: Any, base_url: str, **context_options: Any) -> None:
        super().__init__(browser, base_url, **{"has_touch": True, **context_options})
        self.boot_failure = ""

    def wait_ready(self) -> None:
        """Wait for ``data-yinsh-ready``, giving up at once if the browser reports an error."""
        for _ in range(self.BOOT_TIMEOUT_MS // 100):
            if self.page.evaluate("document.documentElement.hasAttribute('data-yinsh-ready')"):
                return
            if self.problems:
                break
            self.page.wait_for_timeout(100)
        self.boot_failure = "; ".join(self.problems) or f"not ready after {self.BOOT_TIMEOUT_MS} ms"
        pytest.fail(f"the page did not become ready: {self.boot_failure}", pytrace=False)

    def open(self, *, record: str | None = None, position: str | None = None, expect: str | None = None) -> None:
        """Show a game: a fresh one, a record or a position (through the URL hash); wait
        until the board shows it (``expect``: the record it should show, if not that one)."""
        fragment = f"n={next(_nonce)}"
        if record:
            fragment += "&record=" + quote(record)
        elif position:
            fragment += "&position=" + position
        if self.boot_failure:
            pytest.fail(f"the shared page did not boot: {self.boot_failure}", pytrace=False)
        first = not self.loaded
        if first:
            self.page.goto(f"{self.base_url}/index.html#{fragment}")
            self.wait_ready()
            self.loaded = True
        if expect is None:
            expected = Game.from_record(record) if record else Game.from_position(position) if position else Game()
            expect = expected.record()
        if not first:
            follow_link(self.page, fragment, expect)
        self.wait_record(expect)

    def begin_test(self) -> None:
        """Forget earlier problems; back to the light desktop screen the tests expect."""
        super().begin_test()
        self.page.set_viewport_size({"width": 1000, "height": 800})
        self.page.emulate_media(color_scheme="light", reduced_motion="no-preference")

    # reading the page -----------------------------------------------------------------
    def board(self, name: str) -> str:
        return self.page.get_attribute("#board", f"data-{name}") or ""

    def wait_record(self, record: str) -> None:
        self.page.wait_for_function(
            "r => document.getElementById('board').dataset.record === r", arg=record, timeout=10_000)

    def rows(self) -> set[str]:
        return set(self.page.eval_on_selector_all("#board [data-row]", "els => els.map(e => e.dataset.row)"))

    def dests(self) -> set[str]:
        return set(self.page.eval_on_selector_all("#board [data-dest]", "els => els.map(e => e.dataset.dest)"))

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    # acting like a person -------------------------------------------------------------
    def click_point(self, name: str) -> None:
        click_point(self.page, name)

    def click_row(self, row: str) -> None:
        spot = row_spot(self.page, row)
        assert spot is not None, f"the row {row} is not visible and clickable (rows offered: {sorted(self.rows())})"
        self.page.mouse.click(*spot)

    def play(self, move: Move) -> None:
        """The clicks that make ``move``: the point; or the ring then where it goes; and for
        each removal the row, then the ring (a pass is made by the page itself)."""
        for removal in move.before:
            self.remove(removal.row, removal.ring)
        if move.kind == "place":
            self.click_point(point_name(move.target))
        elif move.kind == "move":
            self.click_point(point_name(move.source))
            self.click_point(point_name(move.target))
        for removal in move.after:
            self.remove(removal.row, removal.ring)

    def remove(self, row: int, ring: int) -> None:
        assert row_name(row) in self.rows(), (row_name(row), self.rows())
        self.click_row(row_name(row))
        self.click_point(point_name(ring))


class LinkedGamePage(RecordedPage):
    """The game page, opened at ``#fragment`` links (players, a record) as a person pastes them."""

    BOOT_TIMEOUT_MS = 60_000

    def show(self, fragment: str, expect: str) -> Any:
        """Open ``#fragment`` (players, a record) as a pasted link; wait for ``expect`` on the board."""
        fragment = f"n={next(_nonce)}&{fragment}"
        if not self.loaded:
            self.page.goto(f"{self.base_url}/index.html#{fragment}")
            self.page.wait_for_selector("html[data-yinsh-ready]", state="attached", timeout=self.BOOT_TIMEOUT_MS)
            self.loaded = True
            self.page.wait_for_function("r => document.getElementById('board').dataset.record === r", arg=expect)
        else:
            follow_link(self.page, fragment, expect, timeout=30_000)
        return self.page


def shared_page_fixtures(
    page_class: Callable[[Any, str], RecordedPage], name: str, *, screenshot_failures: bool = False
) -> tuple[Any, Any]:
    """Two fixtures sharing one page made by ``page_class(browser, base_url)`` among a module's tests.

    ``shared_<name>`` (module scope) opens the page and closes it after the module; ``name``
    (per test) hands it to a test after :meth:`RecordedPage.begin_test` and fails the test on
    anything recorded meanwhile (:meth:`RecordedPage.end_test`; with ``screenshot_failures``,
    leaving ``test-artifacts/FAILED-<test>.png``). Bind both at module level so pytest finds
    them: ``shared_ai_page, ai_page = shared_page_fixtures(LinkedGamePage, "ai_page")``.
    """

    @pytest.fixture(scope="module", name=f"shared_{name}")
    def shared_page(chromium_browser: Any, site_url: str) -> Iterator[RecordedPage]:
        with page_class(chromium_browser, site_url) as page:
            yield page

    @pytest.fixture(name=name)
    def checked_page(request: pytest.FixtureRequest) -> Iterator[RecordedPage]:
        page = request.getfixturevalue(f"shared_{name}")
        page.begin_test()
        yield page
        page.end_test(screenshot_as=f"FAILED-{request.node.name}" if screenshot_failures else None)

    return shared_page, checked_page


def serve_failing_worker(page: Any, line: str) -> None:
    """Have ``page`` load the AI worker with ``line`` of its source replaced by a raise of
    ``ValueError('simulated failure')``, keeping the line's indentation."""
    source = (ROOT / "yinsh" / "web" / "worker.py").read_text(encoding="utf-8")
    indent = line[: len(line) - len(line.lstrip())]
    broken = source.replace(line, f"{indent}raise ValueError('simulated failure')\n")
    assert broken != source, f"the worker no longer has the line {line!r}"
    page.route("**/yinsh/web/worker.py", lambda route: route.fulfill(
        status=200, body=broken, content_type="text/x-python; charset=utf-8"))


#: JavaScript: how many moves the board's record holds (tags and move numbers aside).
MOVES_JS = "(b => b.dataset.record ? b.dataset.record.split(/\\s+/).filter(t => /^\\d+\\./.test(t)).length : 0)"


def wait_for_person(page: Any, after: int) -> None:
    """Wait until the computer has answered (the record is longer than ``after`` moves and a
    person is to move again) or the game is over."""
    page.wait_for_function(
        """after => {
            const b = document.getElementById('board'), html = document.documentElement;
            const n = """ + MOVES_JS + """(b);
            return b.dataset.result || (n > after && b.dataset.toMove === 'white' && !html.dataset.ai);
        }""",
        arg=after, timeout=AI_TIMEOUT_MS)
