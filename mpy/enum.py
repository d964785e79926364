"""``enum`` for MicroPython, which has none: the ``StrEnum`` the turn's phases are.

MicroPython has no metaclasses to turn class attributes into members, so a ``StrEnum``'s
members stay the plain strings they are written as. What the shared modules do with a member
works the same on both: compare it with ``is`` or ``==``, use it as a key, and ``str(member)``
for its value (``member.value`` and iterating over the class are CPython's only).
"""


class StrEnum(str):
    """A base class whose members are its class attributes: plain strings here."""
