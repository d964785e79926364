"""A tiny static web server for playing YINSH locally (standard library only).

``python -m yinsh.serve [--port 8000] [--open] [ROOT]`` serves ROOT (default: the current
directory) on http://localhost:PORT/. The page is fully static, so any static host works as
well; this one just gets the MIME types right for Pyodide (``.mjs``, ``.wasm``) and PyScript
(``.toml``, ``.py``) whatever the machine's ``/etc/mime.types`` says.

The tests reuse :func:`make_server` (with ``port=0``) so they serve exactly like ``make play``.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
import webbrowser
from pathlib import Path

__all__ = ["MIME_TYPES", "Handler", "make_server", "serve"]

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


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves files with :data:`MIME_TYPES`; ``quiet`` silences the per-request log."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    quiet: bool = False

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (base name)
        if not self.quiet:
            super().log_message(format, *args)


class _Server(http.server.ThreadingHTTPServer):
    """A threading server that ignores clients hanging up mid-response."""

    daemon_threads = True

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
) -> http.server.ThreadingHTTPServer:
    """Return a threading HTTP server bound to ``host:port`` (0 = any free port) serving ``root``.

    The caller runs it (``serve_forever()``, e.g. in a thread) and closes it
    (``shutdown()`` then ``server_close()``). ``server.server_address[1]`` is the bound port.
    Raises ``OSError`` if the port is taken.
    """
    directory = str(Path(root).resolve())
    handler = type("QuietHandler" if quiet else "Handler", (Handler,), {"quiet": quiet})
    return _Server((host, port), functools.partial(handler, directory=directory))


def serve(root: str | Path = ".", port: int = 8000, open_browser: bool = False) -> None:
    """Serve ``root`` on localhost, trying ``port`` and then up to 20 following ports.

    Blocks until Ctrl+C. With ``open_browser`` the default browser opens the page.
    """
    last_error: OSError | None = None
    for candidate in range(port, port + 21) if port else [0]:
        try:
            server = make_server(root, candidate)
            break
        except OSError as error:  # address in use: try the next port
            last_error = error
    else:
        raise SystemExit(f"no free port in {port}..{port + 20}: {last_error}")

    url = f"http://localhost:{server.server_address[1]}/"
    print(f"Serving YINSH at {url} (Ctrl+C to stop)", flush=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print()


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
