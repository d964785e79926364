"""End-to-end test fixtures: a local static server and headless Chromium (Playwright, sync API).

Fixtures (named so they never clash with pytest-playwright's ``browser``/``context``/``page``):

- ``site_url``: session-wide ``http://127.0.0.1:PORT`` serving the repository root through
  :func:`yinsh.serve.make_server` (the same handler as ``make play``).
- ``chromium_browser``: session-wide headless Chromium: ``/usr/bin/chromium`` when it exists
  (Playwright cannot download its own browser on these machines), else Playwright's own.
- ``yinsh_page``: a fresh context (cold cache) and page per test, as a :class:`BrowserPage`;
  a returning visitor's (the first visit's question answered), unless the test is marked
  ``first_visit``.
  It records console errors, uncaught page errors and every request that leaves the server's
  origin, and fails the test at teardown if any were seen. Opt out per test with
  ``yinsh_page.allow_error(r"regex")`` or ``yinsh_page.allow_offsite(r"regex")``.
- ``game_page``: one :class:`pages.GamePage` per module (a cold boot costs seconds), set to a
  1000 × 800 light screen for each test and checked after it the same way (a failure leaves
  a screenshot in ``test-artifacts/``).

Every test in this directory gets the ``e2e`` marker. When ``static/vendor/`` (made by
``make setup``) is missing the directory is skipped, except under CI (``CI`` set), where that
is an error. A failing test leaves a screenshot in ``test-artifacts/``.
"""

from __future__ import annotations

import importlib.util
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import RETURNING_VISITOR, SYSTEM_CHROMIUM, launch_options
from helpers import in_ci, unavailable
from pages import GamePage, is_offsite, origin, shared_page_fixtures

ROOT = Path(__file__).resolve().parents[2]
E2E_DIR = Path(__file__).resolve().parent
VENDOR = ROOT / "static" / "vendor"
VENDOR_REQUIRED = (VENDOR / "pyodide" / "pyodide.mjs", VENDOR / "pyscript" / "core.js")
#: The worker's interpreter: the project's own module, which setup copies beside Pyodide's loader.
PYODIDE_START = ("static/js/yinsh-pyodide.mjs", "static/vendor/pyodide/yinsh-pyodide.mjs")
ARTIFACTS = ROOT / "test-artifacts"


def _missing_vendor() -> list[Path]:
    missing = [path for path in VENDOR_REQUIRED if not path.is_file()]
    source, copy = (ROOT / p for p in PYODIDE_START)
    if not missing and (not copy.is_file() or copy.read_bytes() != source.read_bytes()):
        missing.append(copy)  # vendored before the module was added or last changed
    return missing


# --------------------------------------------------------------------------- collection


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark this directory's tests ``e2e``; skip them (outside CI) without static/vendor."""
    missing = _missing_vendor()
    skip = pytest.mark.skip(
        reason=f"browser runtime not vendored ({missing[0].relative_to(ROOT)} missing or out of date): "
        "run `make setup` (npm ci + scripts/vendor.py)"
    ) if missing and not in_ci() else None
    for item in items:
        if E2E_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.e2e)
            if skip is not None:
                item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _vendored_runtime() -> None:
    """In CI a missing static/vendor/ fails every e2e test instead of skipping it."""
    missing = _missing_vendor()
    if missing:
        unavailable(f"{missing[0].relative_to(ROOT)} is missing or out of date: run `make setup`")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Remember each phase's report on the item, so fixtures can tell a failed test."""
    report = yield
    setattr(item, f"_e2e_report_{report.when}", report)
    return report


# --------------------------------------------------------------------------- server


def _load_serve_module() -> Any:
    """``yinsh.serve``; loaded from its file if the package itself does not import yet."""
    try:
        import yinsh.serve as serve_module

        return serve_module
    except Exception:  # the rules package may be mid-edit: the server must not depend on it
        spec = importlib.util.spec_from_file_location("_yinsh_serve", ROOT / "yinsh" / "serve.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Base URL (no trailing slash) of a quiet static server on the repository root."""
    server = _load_serve_module().make_server(ROOT, 0, host="127.0.0.1", quiet=True)
    thread = threading.Thread(target=server.serve_forever, name="e2e-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def _playwright_instance(request: pytest.FixtureRequest) -> Iterator[Any]:
    """One Playwright per session: pytest-playwright's if it is loaded, else our own.

    Sharing it matters: two sync Playwright instances cannot run in one thread, so a test
    elsewhere using pytest-playwright's ``page`` must not collide with these fixtures.
    """
    if request.config.pluginmanager.hasplugin("playwright"):
        yield request.getfixturevalue("playwright")
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def chromium_browser(_playwright_instance: Any) -> Iterator[Any]:
    """Session-wide headless Chromium (``/usr/bin/chromium`` if present, else Playwright's)."""
    options = launch_options()
    if "executable_path" not in options and not Path(
        _playwright_instance.chromium.executable_path
    ).exists():
        unavailable(
            f"no Chromium: neither {SYSTEM_CHROMIUM} (apt-get install chromium, or "
            "`make chromium`) nor Playwright's own browser is installed"
        )
    browser = _playwright_instance.chromium.launch(**options)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's own ``browser``/``page`` get the same Chromium and flags."""
    return {**browser_type_launch_args, **launch_options()}


# --------------------------------------------------------------------------- page


def save_screenshot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of ``page`` as ``test-artifacts/<name>.png`` and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "screenshot"
    path = ARTIFACTS / f"{safe}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


class BrowserPage:
    """A Playwright page in its own fresh context, with what went wrong recorded.

    Attribute access falls through to the Playwright ``Page`` (``yinsh_page.goto(...)``,
    ``yinsh_page.locator(...)``); the page itself is ``.page``, its context ``.context``.
    Set ``check = False`` to switch all teardown checks off for one test.
    """

    def __init__(self, context: Any, base_url: str, test_name: str) -> None:
        self.context = context
        self.base_url = base_url
        self.origin = origin(base_url)
        self.test_name = test_name
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.offsite_requests: list[str] = []
        self.allowed_errors: list[re.Pattern[str]] = []
        self.allowed_offsite: list[re.Pattern[str]] = []
        self.check = True
        context.on("request", self._on_request)
        self.page = context.new_page()
        self.page.on("console", self._on_console)
        self.page.on("pageerror", self._on_pageerror)

    def __getattr__(self, name: str) -> Any:
        # Only reached for names this class lacks; never for ``page`` itself before it is set.
        if name.startswith("_") or "page" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.page, name)

    # recording ------------------------------------------------------------------------
    def _on_console(self, message: Any) -> None:
        if message.type == "error":
            location = message.location or {}
            where = location.get("url", "")
            if where:
                where = f" ({where}:{location.get('lineNumber', '?')})"
            self.console_errors.append(f"{message.text}{where}")

    def _on_pageerror(self, error: Any) -> None:
        self.page_errors.append(str(error))

    def _on_request(self, request: Any) -> None:
        url = request.url
        if is_offsite(url, self.origin):
            self.offsite_requests.append(f"{request.method} {url}")

    # opting out ----------------------------------------------------------------------
    def allow_error(self, pattern: str) -> None:
        """Do not fail on console/page errors matching ``pattern`` (``re.search``)."""
        self.allowed_errors.append(re.compile(pattern))

    def allow_offsite(self, pattern: str) -> None:
        """Do not fail on off-origin requests whose ``METHOD URL`` matches ``pattern``."""
        self.allowed_offsite.append(re.compile(pattern))

    # helpers -------------------------------------------------------------------------
    def url(self, path: str = "/") -> str:
        """Absolute URL of ``path`` on the test server."""
        return self.base_url + "/" + path.lstrip("/")

    def open(self, path: str = "/", **kwargs: Any) -> Any:
        """Navigate to ``path`` on the test server; returns the main response."""
        return self.page.goto(self.url(path), **kwargs)

    def screenshot_to_artifacts(self, name: str | None = None, **kwargs: Any) -> Path:
        """Save a screenshot in ``test-artifacts/`` (default name: the test's name)."""
        return save_screenshot(self.page, name or self.test_name, **kwargs)

    def problems(self) -> list[str]:
        """Everything recorded that is not allowed, one line each."""
        def unexpected(items: list[str], allowed: list[re.Pattern[str]]) -> list[str]:
            return [item for item in items if not any(p.search(item) for p in allowed)]

        return (
            [f"console error: {e}" for e in unexpected(self.console_errors, self.allowed_errors)]
            + [f"page error: {e}" for e in unexpected(self.page_errors, self.allowed_errors)]
            + [
                f"off-origin request: {r}"
                for r in unexpected(self.offsite_requests, self.allowed_offsite)
            ]
        )


@pytest.fixture
def yinsh_page(
    request: pytest.FixtureRequest, chromium_browser: Any, site_url: str
) -> Iterator[BrowserPage]:
    """A fresh context and page; fails at teardown on console/page errors or off-origin requests."""
    context = chromium_browser.new_context(viewport={"width": 1000, "height": 800})
    if not request.node.get_closest_marker("first_visit"):
        context.add_init_script(RETURNING_VISITOR)
    wrapped = BrowserPage(context, site_url, request.node.name)
    try:
        yield wrapped
    finally:
        call_report = getattr(request.node, "_e2e_report_call", None)
        if call_report is not None and call_report.failed:
            try:
                wrapped.screenshot_to_artifacts(f"FAILED-{request.node.name}")
            except Exception:  # the page may be gone; the test's own failure matters more
                pass
        context.close()
    problems = wrapped.problems() if wrapped.check else []
    if problems:
        pytest.fail(
            f"{len(problems)} problem(s) recorded in the browser during "
            f"{request.node.nodeid}:\n  " + "\n  ".join(problems),
            pytrace=False,
        )


#: ``game_page``: the module's one game page, checked after each test (see ``pages``).
shared_game_page, game_page = shared_page_fixtures(GamePage, "game_page", screenshot_failures=True)
