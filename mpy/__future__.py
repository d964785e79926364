"""``__future__`` for MicroPython, which has none: ``from __future__ import annotations``
must import, and means nothing there (MicroPython never evaluates annotations)."""

annotations = None
