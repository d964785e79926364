"""The computer player's client (PyScript, main thread): the worker, started when needed.

The computer player, the hint and the evaluation graph run in a web worker on Pyodide
(:mod:`yinsh.web.worker`), so that the page stays responsive while it thinks and a game
between people never downloads Pyodide at all. :meth:`ComputerClient.sync` asks the worker
the questions the session wants answered (:meth:`~yinsh.page.session.Session.requests`),
each once, and hands every answer back to the session, which drops the stale ones. A ring
placement is not the worker's: the session answers it itself
(:meth:`~yinsh.page.computer.ComputerPlayer.answer_here`), in the task that follows the
person's move, so it is drawn within a frame of it even while the worker starts. The
worker starts at once when a computer plays, else with the first question (or when the
Hint button is about to be pressed). When the link names a computer, the page's ``<head>`` has
started it already, before this Python was up (``window.yinshEarlyWorker``): the client takes
that one, and closes it once the page has opened if no computer plays after all.

The worker is a plain module worker, not PyScript's: ``window.yinshStartComputer`` (a script
in ``index.html``'s ``<head>``) starts it from ``worker.json`` (the self-hosted Pyodide's
module, ``static/js/yinsh-pyodide.mjs``, and the modules the worker imports) and answers its
functions, strings in and a promise of a string out; it never touches the page, so it needs no
SharedArrayBuffer.

Testing hooks: ``<html data-yinsh-ai-ready>`` once it is up, and ``window.yinshAI`` its
exports (``scripts/bench_ai_web.py`` calls ``bench`` through it).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from ..page.computer import Request
from ..page.session import Session
from .dom import document, element, warn, window

if TYPE_CHECKING:
    from typing import Any

__all__ = ["ComputerClient", "WORKER_CONFIG", "BOOT_SECONDS"]

WORKER_CONFIG = "./worker.json"
"""The worker's configuration, as the page's ``<head>`` names it (``#yinsh-worker``)."""
BOOT_SECONDS = 120
"""How long the worker may take to start before the page gives up on it."""


class WorkerFailure(Exception):
    """The worker could not answer (it did not start, or it said why)."""


def _early_worker():
    """What the page's ``<head>`` left when the link named a computer (``take()``, ``close()``),
    or ``None``."""
    return element(getattr(window, "yinshEarlyWorker", None))


class ComputerClient:
    """Asks the worker what ``session`` wants to know; ``refresh()`` draws the page again
    after every change it makes to the session."""

    def __init__(self, session: Session, refresh) -> None:
        self.session = session
        self.refresh = refresh
        self.exports = None
        self.ready = asyncio.Event()
        self.asked: set[tuple] = set()
        """The questions under way (their keys)."""
        self.last_move_at = 0.0
        """When (``performance.now()``) the last computer move was shown."""

    def start(self) -> None:
        """Start the worker (once); it boots on its own thread while the page is used."""
        if self.session.computer.state == "off":
            self.session.computer.set_state("starting")
            asyncio.create_task(self._boot())

    def sync(self) -> None:
        """Ask every question the session wants answered that is not under way."""
        requests = self.session.computer.requests()
        if requests or self.session.plays_computer():
            self.start()
        for request in requests:
            if request.key not in self.asked:
                self.asked.add(request.key)
                asyncio.create_task(self._ask(request))

    async def _boot(self) -> None:
        try:
            exports = await asyncio.wait_for(self._start_worker(), BOOT_SECONDS)
            answer = json.loads(str(await exports.hello()))
            if not answer.get("ok"):
                raise WorkerFailure(answer.get("error", "no answer"))
        except Exception as exc:
            late = isinstance(exc, asyncio.TimeoutError)
            if not late and not isinstance(exc, WorkerFailure):
                warn("the AI worker did not start", exc)
            self.session.computer.set_state("failed", "it did not start in time" if late else "it could not start")
        else:
            self.exports = exports
            window.yinshAI = exports
            document.documentElement.setAttribute("data-yinsh-ai-ready", "")
            self.session.computer.set_state("ready")
        self.ready.set()
        self.refresh()

    def close_early_worker(self) -> None:
        """Close the worker the page's ``<head>`` started on the link's word if the page opened
        without a computer (called once it has); taken already, or none, nothing to do."""
        early = _early_worker()
        if early is not None and self.session.computer.state == "off":
            early.close()

    async def _start_worker(self):
        """The worker's functions once it has started: the one the page's ``<head>`` started
        early, else (none, or it failed) a new one (``window.yinshStartComputer``)."""
        early = _early_worker()
        if early is not None:
            functions = element(await early.take())
            if functions is not None:
                return functions
        functions = element(await window.yinshStartComputer())
        if functions is None:
            raise WorkerFailure("it could not start")
        return functions

    async def _ask(self, request: Request) -> None:
        session = self.session
        try:
            exports: Any = None
            if not request.here:  # a ring placement is answered here, at once: no worker needed
                await self.ready.wait()
                exports = self.exports
                if exports is None:
                    return  # the session knows: the worker failed
            if request.kind == "evaluate":
                session.computer.receive_values(request, str(await exports.evaluate(request.text)))
                return
            if not session.computer.current(request):
                return
            if exports is None:
                answer = session.computer.answer_here(request)
            else:
                answer = str(await exports.think(request.text, request.level, request.seed))
            if request.kind == "hint":
                session.computer.receive_hint(request, answer)
                return
            wait = self.last_move_at + request.pause_ms - float(window.performance.now())
            if wait > 0:  # the last move's animation and the viewer's chosen pause
                await asyncio.sleep(wait / 1000)
            played = session.generation
            session.computer.receive_move(request, answer)
            if session.generation != played:
                self.last_move_at = float(window.performance.now())
        except Exception as exc:
            warn(f"the computer's {request.kind} failed", exc)
            session.computer.request_failed(request, "something went wrong")
        finally:
            self.asked.discard(request.key)
            self.refresh()
