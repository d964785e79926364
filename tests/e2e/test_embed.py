"""The embeddable diagram (embed.html) in a browser, through the example tutorial page
(examples/embed.html), on its own at a small size, and in a tutorial on another site.

The example page's three frames boot once for the module (each frame runs a MicroPython of its
own); every test checks that the browser reported no error and no request left the origin.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from pages import RecordedPage, guard_caught, guard_problem, origin, shared_page_fixtures

from yinsh.board import point_name
from yinsh.game import Game
from yinsh.page.embed import parse_embed
from yinsh.serve import make_server

BOOT_TIMEOUT_MS = 60_000
EXAMPLE = "examples/embed.html"
HIGHLIGHTS, STEPS, PUZZLE = "A row about to be made", "The opening of a game", "Puzzle: make a row"


class ExamplePage(RecordedPage):
    """The example page, open once for the module, with what went wrong recorded."""

    def __init__(self, browser: Any, base_url: str) -> None:
        super().__init__(browser, base_url)
        self.page.goto(f"{base_url}/{EXAMPLE}")
        self.ready: dict[str, Any] = {}

    def guard_problems(self) -> list[str]:
        """The report of each diagram whose guard caught an exception."""
        return [guard_problem(f"the guard of {title!r}") for title, frame in self.ready.items() if guard_caught(frame)]

    def frame(self, title: str) -> Any:
        """The diagram titled ``title``, scrolled into view and ready."""
        if title not in self.ready:
            iframe = self.page.locator(f'iframe[title="{title}"]')
            iframe.scroll_into_view_if_needed(timeout=BOOT_TIMEOUT_MS)
            frame = iframe.element_handle(timeout=BOOT_TIMEOUT_MS).content_frame()
            wait_ready(frame, lambda: self.problems)
            self.ready[title] = frame
        return self.ready[title]

    def spec(self, title: str):
        src = self.page.get_attribute(f'iframe[title="{title}"]', "src")
        return parse_embed("?" + urlsplit(src).query)


def wait_ready(frame: Any, problems: Callable[[], list[str]]) -> None:
    """Wait for ``data-yinsh-ready``, giving up at once if the browser reports an error."""
    for _ in range(BOOT_TIMEOUT_MS // 200):
        if frame.evaluate("document.documentElement.hasAttribute('data-yinsh-ready')"):
            return
        if problems():
            break
        frame.wait_for_timeout(200)
    pytest.fail(f"the diagram did not become ready: {'; '.join(problems()) or 'timed out'}", pytrace=False)


def board(frame: Any, name: str) -> str:
    return frame.get_attribute("#board", f"data-{name}") or ""


def wait_board(frame: Any, name: str, value: str) -> None:
    frame.wait_for_function("([n, v]) => document.getElementById('board').getAttribute('data-' + n) === v",
                            arg=[name, value], timeout=10_000)


#: ``tutorial``: the example page, failing the test on anything the browser or a frame's guard reported.
shared_tutorial, tutorial = shared_page_fixtures(ExamplePage, "tutorial")


# --------------------------------------------------------------------------- the example page


def test_the_example_shows_three_diagrams(tutorial: ExamplePage):
    assert tutorial.page.locator("iframe").count() == 3
    for title in (HIGHLIGHTS, STEPS, PUZZLE):
        frame = tutorial.frame(title)
        spec = tutorial.spec(title)
        assert frame.locator("#board svg [data-point]").count() == 85, title
        assert board(frame, "position") == spec.game_at(spec.ply).position(), title
        assert not frame.locator("#message").is_visible(), title
        assert frame.evaluate("indexedDB.databases()") == [], f"{title}: the diagram keeps nothing in the browser"
    highlights = tutorial.frame(HIGHLIGHTS)
    assert board(highlights, "highlight") == "e3,f3" and board(highlights, "rows") == "e3-e7"
    assert highlights.locator("#board .yb-mark").count() == 2
    assert highlights.locator('#board [data-row="e3-e7"]').count() == 1
    assert "e3-f3 completes e3–e7" in highlights.inner_text("#caption")


def test_step_controls_move_through_the_record(tutorial: ExamplePage):
    frame = tutorial.frame(STEPS)
    game = tutorial.spec(STEPS).game
    record_at = lambda ply: " ".join(game.record().split()[:ply])  # noqa: E731 (moves are numbered tokens)
    assert board(frame, "ply") == "10" and board(frame, "record") == record_at(10)
    assert "Move 10 of 16" in frame.inner_text("#step-label")
    frame.click('button[data-step="next"]')
    wait_board(frame, "record", record_at(11))
    assert board(frame, "ply") == "11" and "Move 11 of 16" in frame.inner_text("#step-label")
    frame.locator("#board").click(position={"x": 5, "y": 5})  # the keys act once the frame has focus
    frame.press("body", "ArrowRight")
    wait_board(frame, "record", record_at(12))
    frame.press("body", "ArrowLeft")
    wait_board(frame, "record", record_at(11))
    frame.click('button[data-step="last"]')
    wait_board(frame, "record", game.record())
    assert frame.is_disabled('button[data-step="next"]') and frame.is_disabled('button[data-step="last"]')
    frame.click('button[data-step="first"]')
    wait_board(frame, "ply", "0")
    assert board(frame, "position") == Game().position() and frame.is_disabled('button[data-step="prev"]')
    frame.press("body", "End")
    wait_board(frame, "ply", "16")


def test_the_puzzle_says_try_again_then_correct(tutorial: ExamplePage):
    frame = tutorial.frame(PUZZLE)
    spec = tutorial.spec(PUZZLE)
    position = spec.game_at(spec.ply)
    assert board(frame, "puzzle") == "solving" and "White" in frame.inner_text("#status")
    # a legal move that makes no row, by clicks
    wrong = next(m for m in position.legal_moves() if m.kind == "move" and not m.after)
    frame.click(f'#board [data-point="{point_name(wrong.source)}"]')
    frame.click(f'#board [data-point="{point_name(wrong.target)}"]')
    wait_board(frame, "puzzle", "wrong")
    assert "try again" in frame.inner_text("#status").lower()
    position.push(wrong)
    assert board(frame, "position") == position.position()
    frame.click("button[data-action=reset]")
    wait_board(frame, "puzzle", "solving")
    # the expected move, by keyboard: Enter on each focused point (the row is the only one).
    # The puzzle names the ring move alone (expect=c5-a3): whichever ring the reader gives up
    # with the row counts, the first and the last alike
    assert spec.ring_moves and not spec.expected
    finishes = [m for m in spec.game_at(spec.ply).legal_moves() if spec.accepts(m)]
    assert len(finishes) > 1
    for solution in (finishes[-1], finishes[0]):
        assert len(solution.after) == 1
        for point in (solution.source, solution.target, solution.after[0].ring):
            frame.focus(f'#board [data-point="{point_name(point)}"]')
            frame.press(f'#board [data-point="{point_name(point)}"]', "Enter")
        wait_board(frame, "puzzle", "correct")
        assert "Correct!" in frame.inner_text("#status")
        assert frame.inner_text("button[data-action=reset]") == "Play again"
        frame.click("button[data-action=reset]")
        wait_board(frame, "puzzle", "solving")


# --------------------------------------------------------------------------- embed.html on its own


def open_embed(yinsh_page: Any, query: str) -> None:
    yinsh_page.open("embed.html?" + query)
    wait_ready(yinsh_page.page, yinsh_page.problems)


def test_a_small_frame_shows_a_bad_parameters_message_then_the_whole_board(yinsh_page: Any):
    """One boot for both (a frame follows its hash): the message, then a good game at 300×340."""
    yinsh_page.set_viewport_size({"width": 300, "height": 340})
    open_embed(yinsh_page, "record=" + quote("1.e3 2.e3") + "&steps=1")
    message = yinsh_page.locator("#message")
    assert message.is_visible()
    assert re.search(r"record= cannot be read: move 2: .*e3", message.inner_text())
    assert yinsh_page.get_attribute("#board", "data-error") == message.inner_text()
    assert not yinsh_page.locator("#steps").is_visible()

    good = "record=" + quote("1.e3 2.a5 3.b5") + "&steps=1&caption=" + quote("Three rings placed")
    yinsh_page.evaluate("h => { location.hash = h; }", good)
    yinsh_page.wait_for_function("() => document.getElementById('board').dataset.record === '1.e3 2.a5 3.b5'")
    assert not message.is_visible() and not yinsh_page.get_attribute("#board", "data-error")
    sizes = yinsh_page.evaluate("""() => {
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const svg = document.querySelector('#board svg');
        return {svg: box(svg), board: box(svg.querySelector('.yb-bg')), steps: box(document.getElementById('steps')),
                caption: box(document.getElementById('caption')),
                width: innerWidth, height: innerHeight,
                scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight]};
    }""")
    width, height = sizes["width"], sizes["height"]
    for part in ("svg", "board", "steps", "caption"):
        left, top, right, bottom = sizes[part]
        assert 0 <= left < right <= width and 0 <= top < bottom <= height, (part, sizes)
    assert sizes["scroll"] == [width, height], "no scrollbars"
    board_left, board_top, board_right, board_bottom = sizes["board"]
    assert board_right - board_left > 0.6 * width, "the board fills most of the frame's width"
    assert board_bottom <= sizes["caption"][1], "the controls are under the board"


# --------------------------------------------------------------------------- in a tutorial on another site

TUTORIAL = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A tutorial elsewhere</title><link rel="icon" href="data:,"></head>
<body>
<h1>Rows in YINSH</h1>
<iframe title="{title}" src="{src}" style="width:26rem;aspect-ratio:20/23;border:0"></iframe>
</body>
</html>
"""


class TutorialElsewhere(RecordedPage):
    """A tutorial served on one host name, holding a diagram of the site served on another:
    what a tutorial author's page is, a site of its own. Requests to both are the page's own;
    the console's warnings are recorded too (a diagram on another site logs nothing)."""

    def __init__(self, browser: Any, site_url: str, tutorial_url: str) -> None:
        super().__init__(browser, site_url)
        self.tutorial_origin = origin(tutorial_url)
        self.warnings: list[str] = []
        self.page.on("console", lambda message: message.type == "warning" and self.warnings.append(message.text))

    def _on_request(self, request: Any) -> None:
        if origin(request.url) != self.tutorial_origin:
            super()._on_request(request)


@contextmanager
def tutorial_on(folder: Path, site_url: str, query: str) -> Iterator[str]:
    """Serve a tutorial page from ``folder`` on ``localhost``, another site than ``site_url``'s
    ``127.0.0.1``, holding one diagram (titled :data:`STEPS`): ``site_url``'s embed.html with
    ``query``. Yields the page's URL."""
    assert urlsplit(site_url).hostname == "127.0.0.1"
    src = f"{site_url.rstrip('/')}/embed.html?{query}"
    (folder / "tutorial.html").write_text(TUTORIAL.format(title=STEPS, src=src), encoding="utf-8")
    server = make_server(folder, 0, host="127.0.0.1", quiet=True)
    thread = threading.Thread(target=server.serve_forever, name="e2e-tutorial", daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}/tutorial.html"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def tutorial_elsewhere(tmp_path: Path, site_url: str) -> Iterator[str]:
    """A tutorial on another site holding a stepping diagram of this one (:func:`tutorial_on`)."""
    with tutorial_on(tmp_path, site_url, "record=" + quote("1.e3 2.a5 3.b5") + "&steps=1") as url:
        yield url


def test_a_diagram_on_another_site_runs_without_storage_and_logs_nothing(chromium_browser, site_url,
                                                                          tutorial_elsewhere):
    """A frame whose parent is another site may be denied storage (third-party storage blocked,
    as here): PyScript's core would still open an IndexedDB database as it loads, and report
    the denial as two uncaught errors. The diagram opens none, works, and logs nothing."""
    with TutorialElsewhere(chromium_browser, site_url, tutorial_elsewhere) as tutorial:
        tutorial.page.goto(tutorial_elsewhere)
        frame = tutorial.page.locator(f'iframe[title="{STEPS}"]').element_handle().content_frame()
        wait_ready(frame, lambda: tutorial.problems)
        assert origin(frame.url) == origin(site_url) != origin(tutorial_elsewhere)
        denied = frame.evaluate("() => { try { localStorage.length; return ''; } catch (e) { return e.name; } }")
        assert denied == "SecurityError", "this browser gives a frame on another site its storage: " \
            "the test needs one that denies it (headless Chromium's default)"
        assert board(frame, "ply") == "3" and "Move 3 of 3" in frame.inner_text("#step-label")
        frame.click('button[data-step="first"]')
        wait_board(frame, "ply", "0")
        frame.wait_for_timeout(500)  # anything the core reports late, after the diagram's first use
        assert tutorial.take_problems() == [] and guard_caught(frame) is False
        assert tutorial.warnings == []
