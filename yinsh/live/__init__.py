"""Live rooms: two people on two devices play through a NATS relay while others watch.

:mod:`yinsh.live.protocol` is the wire format (subjects, the stream, messages, what a signature
covers) and :mod:`yinsh.live.room` the room as a pure state machine folded from the stream:
both browser-free and standard library only, shared by the page's MicroPython and CPython.
:mod:`yinsh.live.client` is the reference transport (asyncio and ``nats-py``, CPython only:
the tests and ``make bench-live`` drive rooms through it; the page's transport mirrors it).
"""
