"""Network faults made for real: a TCP proxy between a nats-py client and the relay
(tests/test_live_faults.py).

A client connects to ``nats://127.0.0.1:<proxy.port>`` instead of the relay; every connection it
opens is carried by two pump tasks, one each way, each holding at most one chunk read and the
writer's buffer (drained before the next read). The proxy can

- **cut** every connection at once, both sides closed (:meth:`Proxy.cut`);
- **cut a connection at a chosen moment of a publish** (:meth:`Proxy.cut_on_publish`): before the
  client's ``PUB`` reaches the relay (nothing stored), or once it has, before the relay's answer
  comes back (stored, and the client never heard);
- **stall** (:meth:`Proxy.stall`): nothing goes either way and nothing is closed, as when a phone
  loses its network: each side keeps a half-dead connection until its pings fail. Then either the
  network comes back (:meth:`Proxy.resume`: what was held goes on, late — TCP loses nothing of a
  connection that survives) or it does not (``drop=True``: what arrives meanwhile is thrown away;
  such a connection has a hole in its stream and cannot go on, so :meth:`resume` cuts it, as TCP
  gives up on it). Connections opened during a stall are stalled alike.

A new connection after a cut goes through: clients reconnect as they would to the relay.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

__all__ = ["Proxy", "proxies"]

CHUNK: Final = 16 * 1024
"""The most a pump reads at once (the bound on what it holds while stalled)."""
TAIL: Final = 256
"""Bytes of the previous chunk kept to find a command split between two reads."""
UNANSWERED_CUT: Final = 2.0
"""How long a connection cut after a publish waits for the relay's answer before it is cut anyway."""


class _Trigger:
    """A cut armed for the next publish on ``subject``: ``after`` it reached the relay, else before."""

    def __init__(self, subject: str, after: bool) -> None:
        self.pattern = b"PUB " + subject.encode("ascii") + b" "  # PUB and HPUB alike
        self.after = after
        self.fired: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def fire(self, how: str) -> None:
        if not self.fired.done():
            self.fired.set_result(how)


class _Link:
    """One connection through the proxy: the client's side, the relay's side and their pumps."""

    def __init__(self, client: asyncio.StreamWriter, relay: asyncio.StreamWriter) -> None:
        self.writers = (client, relay)
        self.tasks: list[asyncio.Task[None]] = []
        self.closed = False
        self.broken = False  # bytes were dropped (a stall with drop): it cannot go on
        self.tails = [b"", b""]  # the last bytes seen each way (out to the relay, in to the client)
        self.deaf: _Trigger | None = None  # cut after a publish: what comes back is dropped
        self.reply = b""  # …until the answer to this reply subject shows

    def close(self) -> None:
        """Close both sides at once (unsent bytes are lost, as in a cut)."""
        if self.closed:
            return
        self.closed = True
        for writer in self.writers:
            writer.transport.abort()
        current = asyncio.current_task()
        for task in self.tasks:
            if task is not current:
                task.cancel()


class Proxy:
    """A proxy to the relay's client port ``upstream_port`` (see the module's docstring)."""

    def __init__(self, upstream_port: int, host: str = "127.0.0.1") -> None:
        self.upstream = (host, upstream_port)
        self.host = host
        self.port = 0
        self.state = "open"
        """``open``, ``stalled`` (held) or ``dropping`` (stalled, what arrives thrown away)."""
        self.cuts = 0
        """Connections cut by the proxy (a cut, a publish cut, a dropping stall's end)."""
        self.connections = 0
        """Connections accepted."""
        self._server: asyncio.Server | None = None
        self._links: set[_Link] = set()
        self._changed = asyncio.Event()
        self._trigger: _Trigger | None = None

    async def start(self) -> Proxy:
        self._server = await asyncio.start_server(self._accept, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    # -- faults ------------------------------------------------------------------------

    def cut(self) -> None:
        """Close every connection now, both sides (a stall goes on for the next ones)."""
        for link in list(self._links):
            self._cut(link)

    def stall(self, drop: bool = False) -> None:
        """Stop forwarding both ways, closing nothing; ``drop``: throw away what arrives."""
        self._set("dropping" if drop else "stalled")

    def resume(self) -> None:
        """End a stall: connections that dropped bytes are cut, the others go on with what they held."""
        for link in list(self._links):
            if link.broken:
                self._cut(link)
        self._set("open")

    def cut_on_publish(self, subject: str, after: bool) -> asyncio.Future[str]:
        """Cut the connection that next publishes on ``subject``: before its ``PUB`` goes through
        (``after=False``) or once it went through and before the relay's answer comes back. The
        future says how it went: ``before``, ``after, answered`` (the relay answered: it was
        stored, and the client never heard) or ``after, unanswered`` (cut after
        :data:`UNANSWERED_CUT` without an answer)."""
        self._trigger = _Trigger(subject, after)
        return self._trigger.fired

    def disarm(self) -> None:
        """Forget a publish cut that did not happen (the client did not publish)."""
        if self._trigger is not None:
            self._trigger.fired.cancel()
        self._trigger = None

    def calm(self) -> None:
        """No more faults: disarmed, and any stall ended."""
        self.disarm()
        self.resume()

    async def close(self) -> None:
        """Stop accepting and close every connection."""
        self.disarm()
        if self._server is not None:
            self._server.close()
        tasks = [task for link in self._links for task in link.tasks]
        for link in list(self._links):
            link.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    # -- the pumps -----------------------------------------------------------------------

    def _set(self, state: str) -> None:
        self.state = state
        self._changed.set()
        self._changed = asyncio.Event()

    def _cut(self, link: _Link) -> None:
        if not link.closed:
            self.cuts += 1
        link.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.wait_for(asyncio.open_connection(*self.upstream), 2)
        except (OSError, TimeoutError):  # the relay is down: the client sees its connection close
            writer.transport.abort()
            return
        link = _Link(writer, up_writer)
        self._links.add(link)
        link.tasks = [asyncio.create_task(self._pump(link, reader, up_writer, 0)),
                      asyncio.create_task(self._pump(link, up_reader, writer, 1))]
        try:
            await asyncio.gather(*link.tasks, return_exceptions=True)
        finally:
            link.close()
            self._links.discard(link)

    async def _pump(self, link: _Link, source: asyncio.StreamReader, sink: asyncio.StreamWriter, way: int) -> None:
        """Carry one way (0: client to relay, 1: back) until either side closes or the link is cut."""
        try:
            while not link.closed:
                try:
                    data = await source.read(CHUNK)
                except (ConnectionError, OSError):
                    data = b""
                # Held while stalled: at most this chunk, or the end of the stream (the other side
                # must not hear of a close before the network is back: its connection is half-dead).
                while self.state == "stalled" or (not data and self.state == "dropping"):
                    await self._changed.wait()
                if self.state == "dropping":
                    link.broken = True
                    continue
                if not data or link.closed:
                    break
                data = self._watch(link, data, way)
                if data:
                    sink.write(data)
                    await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            link.close()

    def _watch(self, link: _Link, data: bytes, way: int) -> bytes:
        """What of ``data`` goes on, cutting the link when an armed publish cut says so."""
        window = link.tails[way] + data
        link.tails[way] = window[-TAIL:]
        offset = len(window) - len(data)
        if way == 1:
            if link.deaf is None:
                return data
            if link.reply and link.reply in window:  # the relay's answer to the publish: never heard
                link.deaf.fire("after, answered")
                self._cut(link)
            return b""
        trigger = self._trigger
        if trigger is None or link.deaf is not None:
            return data
        at = window.find(trigger.pattern, max(0, offset - len(trigger.pattern)))
        if at < 0:
            return data
        self._trigger = None
        start = at - 1 if window[at - 1:at] == b"H" else at
        if not trigger.after:  # the chunk holding the publish is lost with the connection
            trigger.fire("before")
            self._cut(link)
            return b""
        line_end = window.find(b"\r\n", at)
        if line_end >= 0:
            words = window[at:line_end].split()  # PUB subject reply size, or (H)PUB subject reply hsize size
            if len(words) == (5 if start < at else 4):
                link.reply = words[2]
        link.deaf = trigger
        asyncio.get_running_loop().call_later(UNANSWERED_CUT, self._unanswered, link, trigger)
        return data

    def _unanswered(self, link: _Link, trigger: _Trigger) -> None:
        if not link.closed:
            trigger.fire("after, unanswered")
            self._cut(link)


@contextlib.asynccontextmanager
async def proxies(upstream_port: int, count: int):  # type: ignore[no-untyped-def]
    """``count`` started proxies to ``upstream_port``, closed at the end."""
    started = [await Proxy(upstream_port).start() for _ in range(count)]
    try:
        yield started
    finally:
        for proxy in started:
            await proxy.close()
