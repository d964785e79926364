"""``yinsh serve`` (issue 13, item 7): only the site's files, only for this machine, no dropped connections.

The reproductions: the server showed everything in the working directory (``/.git/config``,
``/.venv/``, ``/node_modules/``, directory listings), followed symbolic links out of its folder,
answered any ``Host`` (DNS rebinding), and ``/%00`` dropped the connection on a ValueError.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from processes import STOP_BOUND

from yinsh.serve import KILL_SWITCH_SW, Handler, make_server

ROOT = Path(__file__).resolve().parents[1]


class Server:
    """``make_server`` on a free port, in a thread; ``get`` sends one request with any Host."""

    def __init__(self, root: Path, handler: type[Handler] = Handler, host: str = "127.0.0.1") -> None:
        self.server = make_server(root, 0, host=host, quiet=True, handler=handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def get(self, target: str, host: str | None = "here", method: str = "GET",
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """Status and body of ``method target`` with ``Host: host`` (``here``: this server's; ``None``: none)."""
        return self.answer(target, host, method, headers)[:2]

    def answer(self, target: str, host: str | None = "here", method: str = "GET",
               headers: dict[str, str] | None = None) -> tuple[int, bytes, http.client.HTTPMessage]:
        """Status, body and headers of the answer to ``method target`` with ``headers``."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
            if host is not None:
                connection.putheader("Host", f"127.0.0.1:{self.port}" if host == "here" else host)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            connection.endheaders()
            response = connection.getresponse()
            return response.status, response.read(), response.headers
        finally:
            connection.close()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A source checkout in miniature, with what must never be served next to what must."""
    tmp_path = tmp_path_factory.mktemp("checkout")
    files = {
        "index.html": "<!doctype html>game", "embed.html": "embed", "pyscript.toml": "x = 1",
        "pyproject.toml": "[project]", "package.json": "{}", "README.md": "# readme", "Makefile": "all:",
        ".git/config": "[core]", ".venv/bin/python": "#!", "node_modules/x/index.js": "x",
        "yinsh/game.py": "# game", "yinsh/__pycache__/game.cpython-311.pyc": "pyc", "yinsh/notes.txt": "notes",
        "static/css/board.css": "a{}", "static/vendor/pyodide/pyodide.mjs": "export {}",
        "examples/embed.html": "tutorial", "tests/test_x.py": "test", "bench/bare.html": "bare",
    }
    for name, text in files.items():
        path = tmp_path / "site" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    (tmp_path / "site" / "static" / "out.txt").symlink_to(tmp_path / "secret.txt")
    (tmp_path / "site" / "static" / "git").symlink_to(tmp_path / "site" / ".git")
    server = Server(tmp_path / "site")
    yield server
    server.close()


@pytest.mark.parametrize("target", ["/", "/index.html", "/embed.html", "/pyscript.toml", "/yinsh/game.py",
                                    "/static/css/board.css", "/static/vendor/pyodide/pyodide.mjs?v=1",
                                    "/examples/embed.html", "/bench/bare.html"])
def test_the_files_the_pages_load_are_served(checkout, target):
    assert checkout.get(target)[0] == 200


@pytest.mark.parametrize("target", ["/.git/config", "/.venv/bin/python", "/node_modules/x/index.js",
                                    "/pyproject.toml", "/package.json", "/README.md", "/Makefile",
                                    "/tests/test_x.py", "/yinsh/__pycache__/game.cpython-311.pyc",
                                    "/yinsh/notes.txt", "/nothing.html"])
def test_nothing_else_of_the_checkout_is(checkout, target):
    status, body = checkout.get(target)
    assert status == 404 and b"[core]" not in body


@pytest.mark.parametrize("target", ["/static/", "/yinsh/", "/.git/", "/static/css/"])
def test_no_folder_is_listed(checkout, target):
    status, body = checkout.get(target)
    assert status == 404 and b"board.css" not in body and b"game.py" not in body


@pytest.mark.parametrize("target", ["/static/out.txt", "/static/git/config"])
def test_no_link_leads_out_of_the_root_or_into_a_hidden_folder(checkout, target):
    status, body = checkout.get(target)
    assert status == 404 and b"secret" not in body and b"[core]" not in body


@pytest.mark.parametrize("target", ["/%00", "/a%00b.html", "/%ff", "/..%2f.git/config", "/%2e%2e/secret.txt",
                                    "/static/../.git/config", "/a\\b", "*"])
def test_odd_paths_are_a_400_and_the_connection_stays_up(checkout, target):
    status, body = checkout.get(target)
    assert status == 400 and b"[core]" not in body and b"secret" not in body
    assert checkout.get("/")[0] == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", None])
def test_a_host_that_is_not_this_machine_is_refused(checkout, host):
    status, body = checkout.get("/index.html", host=host)
    assert status == 403 and b"game" not in body


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "yinsh.localhost", "127.0.0.1", "[::1]:8000"])
def test_this_machine_by_any_of_its_names_is_answered(checkout, host):
    assert checkout.get("/index.html", host=host)[0] == 200


def test_a_server_on_every_address_answers_addresses_but_no_dns_name(tmp_path):
    (tmp_path / "index.html").write_text("game", encoding="utf-8")
    server = Server(tmp_path, host="0.0.0.0")
    try:
        assert server.get("/", host="192.168.1.20:8000")[0] == 200
        assert server.get("/", host="attacker.example")[0] == 403
    finally:
        server.close()


def test_an_error_while_answering_is_a_500_not_a_dropped_connection(tmp_path):
    (tmp_path / "index.html").write_text("game", encoding="utf-8")

    class Failing(Handler):
        def send_head(self):  # type: ignore[no-untyped-def]
            if self.path == "/fail":
                raise RuntimeError("a bug")
            return super().send_head()

    server = Server(tmp_path, handler=Failing)
    try:
        assert server.get("/fail")[0] == 500
        assert server.get("/")[0] == 200
    finally:
        server.close()


def test_a_built_site_serves_every_file_but_hidden_ones(tmp_path):
    for name in ("build.json", "index.html", "sw.js", "docs/notes.txt", ".nojekyll", ".well-known/x"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name, encoding="utf-8")
    server = Server(tmp_path)
    try:
        assert [server.get(t)[0] for t in ("/", "/sw.js", "/docs/notes.txt", "/build.json")] == [200] * 4
        assert [server.get(t)[0] for t in ("/.nojekyll", "/.well-known/x", "/docs/")] == [404] * 3
    finally:
        server.close()


def test_a_file_replaced_within_the_second_is_not_answered_not_modified(tmp_path):
    # sw.js replaced by the hosting guide's kill switch in the same second it was first fetched:
    # revalidating by modification time (to the second) would keep the old service worker.
    (tmp_path / "build.json").write_text("{}", encoding="utf-8")
    worker = tmp_path / "sw.js"
    worker.write_text("// release 1", encoding="utf-8")
    server = Server(tmp_path)
    try:
        status, body, headers = server.answer("/sw.js")
        assert status == 200 and headers["ETag"]
        cached = {"If-None-Match": headers["ETag"], "If-Modified-Since": headers["Last-Modified"]}
        assert server.answer("/sw.js", headers=cached)[:2] == (304, b"")
        mtime = worker.stat().st_mtime_ns
        worker.write_text(KILL_SWITCH_SW, encoding="utf-8")
        os.utime(worker, ns=(mtime, mtime))
        assert server.get("/sw.js", headers=cached) == (200, KILL_SWITCH_SW.encode())
    finally:
        server.close()


def test_a_checkout_without_a_service_worker_answers_the_one_that_removes_a_stale_one(checkout):
    assert checkout.get("/sw.js") == (200, KILL_SWITCH_SW.encode())


def test_a_checkout_without_a_relay_says_it_has_none(checkout):
    """The page asks ``/live.json`` for the relay when "Play someone online" opens: an answer
    naming none, not a 404 (which the browser reports as an error)."""
    status, body = checkout.get("/live.json")
    assert status == 200 and json.loads(body) == {"relay": ""}


def test_the_repository_itself(tmp_path):
    server = Server(ROOT)
    try:
        assert server.get("/index.html")[0] == 200 and server.get("/yinsh/game.py")[0] == 200
        assert server.get("/.git/config")[0] == 404 and server.get("/pyproject.toml")[0] == 404
    finally:
        server.close()


def test_hosting_gives_the_same_kill_switch_to_retire_the_offline_copy():
    text = (ROOT / "docs" / "HOSTING.md").read_text(encoding="utf-8")
    block = text.split("## Retiring the offline copy", 1)[1].split("```js\n", 1)[1].split("```", 1)[0]
    assert block == KILL_SWITCH_SW


def test_a_dozen_connections_at_once_are_all_taken_in_before_any_is_answered(tmp_path):
    """Issue 23: with the default backlog of 5, connections past the sixth arriving together were
    dropped by the kernel and retried a second later. Here the server accepts none until all
    have connected: each must complete on its own, well within the second of a retry."""
    import socket

    server = make_server(tmp_path, 0, quiet=True)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    sockets = []
    try:
        for _ in range(12):
            sockets.append(socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=0.5))
        serving.start()
        for s in sockets:
            s.sendall(b"GET /nothing HTTP/1.0\r\nHost: localhost\r\n\r\n")
            s.settimeout(2)  # a dropped connection is retried after 1 s, then 2, 4…
            assert s.recv(64).split(b" ")[1] == b"404"
    finally:
        for s in sockets:
            s.close()
        if serving.is_alive():
            server.shutdown()
        server.server_close()


def _page_port(line: str) -> int:
    assert line.startswith("Serving YINSH at http://localhost:"), line
    return int(line.split(":")[2].split("/")[0])


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_serve_ends_cleanly_on_each_stop_signal(tmp_path, started, how):
    """`yinsh serve` started as a non-interactive shell starts a background job, SIGINT ignored
    (so Python raises no KeyboardInterrupt of its own), ends with status 0 on SIGINT, SIGTERM
    (systemd, a container) and SIGHUP (the terminal closed) alike. With a relay: test_live_relay.py."""
    serve = started.serve("--port", "0", "--root", str(tmp_path))
    port = _page_port(started.line(serve))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/nothing", headers={"Host": f"localhost:{port}"})
    assert connection.getresponse().status == 404
    connection.close()
    os.kill(serve.pid, signal.Signals[how])
    status = started.wait(serve, STOP_BOUND, f"yinsh serve (pid {serve.pid}), sent {how},")
    assert status == 0, f"yinsh serve ended with status {status} on {how}:\n{started.stderr(serve)}"
    assert "Traceback" not in started.stderr(serve), started.stderr(serve)


def _dispositions(pid: int) -> tuple[set[int], set[int]]:
    """The signals a process ignores and those it handles (Linux's /proc/PID/status)."""
    masks = dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                 if line.startswith(("SigIgn:", "SigCgt:")))

    def numbers(mask: str) -> set[int]:
        return {n for n in range(1, 65) if int(mask, 16) >> (n - 1) & 1}
    return numbers(masks["SigIgn"]), numbers(masks["SigCgt"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the signal dispositions from /proc")
def test_serve_under_nohup_keeps_sighup_ignored(tmp_path, started):
    """`nohup yinsh serve &` asks the server to outlive its terminal: SIGHUP stays ignored, while
    SIGINT and SIGTERM stop it (their handlers are in place once it has said where it serves)."""
    serve = started.serve("--port", "0", "--root", str(tmp_path), ignore_sighup=True)
    _page_port(started.line(serve))
    ignored, handled = _dispositions(serve.pid)
    assert signal.SIGHUP in ignored and {signal.SIGINT, signal.SIGTERM} <= handled, (ignored, handled)
    os.kill(serve.pid, signal.SIGTERM)
    assert started.wait(serve, STOP_BOUND, f"yinsh serve (pid {serve.pid}), sent SIGTERM,") == 0
