"""The live rooms' wire protocol: subjects, the stream, message formats and what a signature covers.

Browser-free and standard library only: the page's MicroPython, its Pyodide worker and CPython
(tests, the reference client :mod:`yinsh.live.client`, the benchmark) share it.

**Subjects.** Every room lives in one JetStream stream, :data:`STREAM` (file storage), on two
subjects: ``yinsh.room.<room>.game`` (what changes the game: the room's creation, seats, starts,
moves, resignations, departures) and ``yinsh.room.<room>.chat``. Who is connected goes over core
NATS on ``yinsh.here.<room>``, outside the stream (presence is not worth storing). Clients read
a room by an ordered consumer on ``yinsh.room.<room>.*`` from its first message: never by a
core subscription, which also sees a publish the stream refused.

**Messages** are compact JSON objects, one per NATS message, at most :data:`MAX_MESSAGE_BYTES`::

    {"v":3,"t":"move","n":12,"ply":8,"move":"e4-e10","think":4210,"k":"<public key>","s":"<signature>"}

``v`` is the protocol's version, ``t`` the kind, ``k`` the author's Ed25519 public key and
``s`` its signature (both base64url without padding: 43 and 86 characters). ``n`` is, for the
game subject, the room's *version* the event applies to (how many events the room has accepted
before it, lila's "version per game"), for chat the author's own line counter, and for presence
the author's clock in milliseconds: each strictly increasing, so an old message sent again is
refused. The fields of each kind are :data:`FIELDS`.

**Signatures** cover :func:`signed_text`: the protocol's name and version, the room, the kind,
``n`` and the kind's fields in order, one per line (names and chat lines cannot hold a line
break). A move signed for one room, one version or one ply is worthless anywhere else. The
model cannot do cryptography (MicroPython has none; the page has WebCrypto): the transport
checks that ``s`` is ``k``'s signature of the signed text and tells the model, which decides
whether ``k`` may do what the message asks (:class:`yinsh.live.room.Room`).

>>> draft = Draft("abcdefghijklmnopqrstuv", "move", 12, [("ply", 8), ("move", "e4-e10"), ("think", 4210)])
>>> draft.text()
b'yinsh-live/3\\nabcdefghijklmnopqrstuv\\nmove\\n12\\n8\\ne4-e10\\n4210'
>>> data = draft.signed("K" * 43, "S" * 86)
>>> message = decode(data)
>>> message.kind, message.n, message.get("move"), message.text("abcdefghijklmnopqrstuv") == draft.text()
('move', 12, 'e4-e10', True)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from yinsh.compat import MICROPYTHON, decode_utf8, ordered_dict

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "PROTOCOL", "VERSION", "STREAM", "MAX_MESSAGE_BYTES", "MAX_NAME", "MAX_CHAT", "MAX_MOVE", "MAX_THINK_MS", "FIELDS",
    "GAME_KINDS",
    "COLOURS", "BadMessage", "Message", "Draft", "decode", "signed_text", "valid_room", "game_subject", "chat_subject",
    "presence_subject", "room_filter", "subject_kind", "stream_config", "clean_text", "valid_token",
]

PROTOCOL: Final = "yinsh-live"
VERSION: Final = 3
"""2: rooms have a clock (``room``'s ``clock``, ``move``'s ``think``, ``flag``); 3: offers and
claims (``abort``, ``takeback``, ``accept``, ``decline``, ``absent``, ``back``). A message of
another version is not read (a room opened by an older page is not one of these)."""
STREAM: Final = "YINSH_ROOMS"
"""The JetStream stream that holds every room."""
SUBJECT_PREFIX: Final = "yinsh.room."
PRESENCE_PREFIX: Final = "yinsh.here."

MAX_MESSAGE_BYTES: Final = 2048
"""The largest message a client accepts (the stream refuses larger ones, ``max_msg_size``)."""
MAX_NAME: Final = 24
"""A player's name, in characters."""
MAX_CHAT: Final = 300
"""A chat line, in characters."""
MAX_MOVE: Final = 80
"""A move's text (the longest real move, three removals and a ring move, is about 40)."""
ROOM_LENGTH: Final = (8, 32)
"""A room's name: 8 to 32 of ``A–Z a–z 0–9 _ -`` (the page makes 22: 128 random bits)."""
KEY_LENGTH: Final = 43
SIGNATURE_LENGTH: Final = 86
NONCE_LENGTH: Final = (8, 32)

MAX_AGE_SECONDS: Final = 7 * 24 * 3600
"""How long the stream keeps a message: a room and its games are readable this long after each
was written, then removed (a room is gone once its first message is)."""
MAX_MESSAGES_PER_SUBJECT: Final = 5000
"""A room's game (or its chat) holds at most this many messages; more are refused by the
relay (the stream discards new messages per subject): a dozen whole games, or a flood."""
MAX_STREAM_BYTES: Final = 1 << 30
MAX_CONSUMERS: Final = 100_000
"""Readers of the stream at once (one a page in a room). nats-server 2.15 limits a stream to
1,000 consumers unless its configuration names a limit (and takes no -1 for none)."""

COLOURS: Final = ("white", "black", "random")
"""What a room's creator chooses for their seat: White, Black or decided at the start."""

FIELDS: Final[dict[str, tuple[str, ...]]] = {
    # the game subject: each message applies to the room's version n
    "room": ("colours", "clock"),  # create the room (n = 0): the creator's colour, the time control
    "join": ("name", "nonce"),  # take the first free seat; the nonce feeds a random colour draw
    "start": (),  # either seated player starts a game once both seats are taken (a rematch after one)
    # the move after ``ply`` moves of the game in progress, long form, and how long its player
    # thought by their page's clock (ms: the lag allowance of yinsh.live.clock)
    "move": ("ply", "move", "think"),
    "resign": (),
    "leave": (),  # give up the seat (and the game in progress)
    # the player to move is out of time: this message's own stored time shows it; ``at`` is when
    # its sender's page made the claim (the relay's clock as it estimated it), so that a claim
    # made again is a message of its own, not a duplicate the relay drops
    "flag": ("at",),
    "abort": (),  # end the game with no result, while neither player has placed a second ring
    "takeback": (),  # offer to take back the sender's last move (and any made since): one offer at a time
    "accept": (),  # the other player takes the offer: the moves are taken back
    "decline": (),  # the other player refuses it (a move withdraws it too)
    # the player to move seems gone: the first asks (stored, it starts ABSENCE_MS), a second one
    # stored once that much has passed with no answer and no move wins the game; ``at`` as for flag
    "absent": ("at",),
    "back": (),  # the player to move answers: here
    # the chat subject: n counts the author's lines
    "chat": ("text",),
    # presence, core NATS: n is the author's clock (ms); seq the last stream sequence its room folded
    "here": ("seq",),
    "who": ("seq",),  # arriving: who is there? (every page answers here)
    "gone": (),
}
"""The fields of each kind of message, in the order the signature covers them."""
GAME_KINDS: Final = ("room", "join", "start", "move", "resign", "leave", "flag", "abort", "takeback", "accept",
                      "decline", "absent", "back")
MAX_THINK_MS: Final = 30 * 86_400_000
"""The longest a move may say its player thought (more than any time control gives)."""
_INT_FIELDS: Final = {"ply": 100_000, "seq": (1 << 53) - 1, "think": MAX_THINK_MS, "at": (1 << 53) - 1}
"""The fields that are counts, and their largest value."""
_ROOM_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _json(value: object) -> str:
    """JSON text of ``value``, other than ASCII written as UTF-8, not escaped: an emoji is 4 bytes,
    not 12 (MicroPython's ``json.dumps`` writes it so and knows no ``ensure_ascii``)."""
    return json.dumps(value) if MICROPYTHON else json.dumps(value, ensure_ascii=False)


class BadMessage(ValueError):
    """A message that is not one: ``reason`` is one of ``oversized``, ``malformed``, ``unsigned``."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


def valid_room(name: object) -> bool:
    """Whether ``name`` can name a room (and so be a token of a NATS subject).

    >>> valid_room("k3JH_x-9aZ0qLw2mNb7cQe"), valid_room("a.b*c>d e"), valid_room("short")
    (True, False, False)
    """
    return valid_token(name, ROOM_LENGTH)


def valid_token(text: object, lengths: tuple[int, int]) -> bool:
    """Whether ``text`` is ``lengths[0]`` to ``lengths[1]`` of ``A–Z a–z 0–9 _ -`` (base64url)."""
    return type(text) is str and lengths[0] <= len(text) <= lengths[1] and set(text).issubset(_ROOM_CHARS)


def game_subject(room: str) -> str:
    """The subject of a room's game events: ``yinsh.room.<room>.game``."""
    return SUBJECT_PREFIX + room + ".game"


def chat_subject(room: str) -> str:
    """The subject of a room's chat: ``yinsh.room.<room>.chat``."""
    return SUBJECT_PREFIX + room + ".chat"


def presence_subject(room: str) -> str:
    """The core NATS subject (not stored) of who is in the room: ``yinsh.here.<room>``."""
    return PRESENCE_PREFIX + room


def room_filter(room: str) -> str:
    """The subject filter of a room's consumer: its game and its chat, in the stream's order."""
    return SUBJECT_PREFIX + room + ".*"


def subject_kind(room: str, subject: str) -> str | None:
    """``"game"`` or ``"chat"`` for a subject of ``room``, else ``None``."""
    if subject == game_subject(room):
        return "game"
    if subject == chat_subject(room):
        return "chat"
    return None


def stream_config(replicas: int = 1) -> dict[str, Any]:
    """The stream's configuration, as JetStream's API names it (``jsm.streams.add`` in nats.ws,
    ``StreamConfig`` in nats-py). ``discard_new_per_subject``: a full room refuses new messages
    instead of dropping its oldest (its first moves): a flood can fill one room, never another's."""
    return {
        "name": STREAM,
        "subjects": [SUBJECT_PREFIX + "*.*"],
        "storage": "file",
        "retention": "limits",
        "discard": "new",
        "discard_new_per_subject": True,
        "max_msgs_per_subject": MAX_MESSAGES_PER_SUBJECT,
        "max_msg_size": MAX_MESSAGE_BYTES,
        "max_bytes": MAX_STREAM_BYTES,
        "max_consumers": MAX_CONSUMERS,
        "max_age": MAX_AGE_SECONDS,  # seconds here; the JetStream API itself counts nanoseconds
        "num_replicas": replicas,
        "duplicate_window": 120,  # seconds: a publish retried with the same Nats-Msg-Id is stored once
    }


def clean_text(text: object, limit: int) -> str | None:
    """``text`` without surrounding spaces when it is a string of 1 to ``limit`` characters
    holding no control character (no line break: the signed text is one field a line), else
    ``None``."""
    if type(text) is not str:
        return None
    text = text.strip()
    if not text or len(text) > limit:
        return None
    for c in text:
        if c < " " or "\x7f" <= c <= "\x9f" or c in "\u2028\u2029":
            return None
    return text


def signed_text(room: str, kind: str, n: int, values: Sequence[object]) -> bytes:
    """What the author of a message signs: ``yinsh-live/3``, the room, the kind, ``n`` and the
    kind's fields (:data:`FIELDS`), one per line, in UTF-8."""
    lines = [PROTOCOL + "/" + str(VERSION), room, kind, str(n)]
    for value in values:
        lines.append(str(value))
    return "\n".join(lines).encode("utf-8")


class Message:
    """A decoded, well-formed message. Whether its signature is sound is the transport's to
    check (:meth:`text` is what ``key`` signed); whether its author may do what it asks, the
    room's (:meth:`yinsh.live.room.Room.apply`)."""

    __slots__ = ("kind", "n", "key", "signature", "values")

    def __init__(self, kind: str, n: int, key: str, signature: str, values: list[object]) -> None:
        self.kind = kind
        self.n = n
        self.key = key
        self.signature = signature
        self.values = values

    def get(self, name: str) -> Any:
        """The value of the field ``name`` of this kind."""
        return self.values[FIELDS[self.kind].index(name)]

    def text(self, room: str) -> bytes:
        """The bytes the author signed, in ``room``."""
        return signed_text(room, self.kind, self.n, self.values)

    def __repr__(self) -> str:
        fields = "".join(f" {name}={value!r}" for name, value in zip(FIELDS[self.kind], self.values))
        return f"<Message {self.kind} n={self.n}{fields} key={self.key[:8]}…>"


def decode(data: bytes) -> Message:
    """Read one message from the relay; raise :class:`BadMessage` for anything else (too long,
    not UTF-8 JSON, not an object of this version, a kind unknown, a field missing or of the
    wrong type, no key or signature). Linear in ``data``, which is refused unread past
    :data:`MAX_MESSAGE_BYTES`."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise BadMessage("oversized", f"{len(data)} bytes")
    try:
        obj = json.loads(decode_utf8(bytes(data)))
    except Exception:  # ValueError, or RuntimeError for nesting too deep on MicroPython
        raise BadMessage("malformed", "not JSON") from None
    if type(obj) is not dict or type(obj.get("v")) is not int:
        raise BadMessage("malformed", "not a message")
    if obj.get("v") != VERSION:
        raise BadMessage("other version", f"version {obj.get('v')}, not {VERSION}")
    kind = obj.get("t")
    if type(kind) is not str or kind not in FIELDS:
        raise BadMessage("malformed", "unknown kind")
    n = obj.get("n")
    if type(n) is not int or n < 0 or n >= 1 << 53:
        raise BadMessage("malformed", "no number")
    values: list[object] = []
    for name in FIELDS[kind]:
        value = obj.get(name)
        if name in _INT_FIELDS:
            if type(value) is not int or value < 0 or value > _INT_FIELDS[name]:
                raise BadMessage("malformed", f"{name} is not a count")
        elif type(value) is not str:
            raise BadMessage("malformed", f"{name} is not text")
        values.append(value)
    key, signature = obj.get("k"), obj.get("s")
    if key is None or signature is None:
        raise BadMessage("unsigned")
    if not valid_token(key, (KEY_LENGTH, KEY_LENGTH)) or not valid_token(signature,
                                                                            (SIGNATURE_LENGTH, SIGNATURE_LENGTH)):
        raise BadMessage("malformed", "not a key and a signature")
    return Message(kind, n, key, signature, values)


class Draft:
    """A message to send, before its signature: sign :meth:`text`, then :meth:`signed`."""

    __slots__ = ("room", "kind", "n", "fields")

    def __init__(self, room: str, kind: str, n: int, fields: list[tuple[str, object]]) -> None:
        if [name for name, _ in fields] != list(FIELDS[kind]):
            raise ValueError(f"a {kind} message has the fields {FIELDS[kind]}")
        self.room = room
        self.kind = kind
        self.n = n
        self.fields = fields

    def text(self) -> bytes:
        """The bytes to sign with the author's key."""
        return signed_text(self.room, self.kind, self.n, [value for _, value in self.fields])

    def signed(self, key: str, signature: str) -> bytes:
        """The message on the wire, with the author's public key and signature (base64url)."""
        obj = ordered_dict()
        obj["v"] = VERSION
        obj["t"] = self.kind
        obj["n"] = self.n
        for name, value in self.fields:
            obj[name] = value
        obj["k"] = key
        obj["s"] = signature
        return ("{" + ",".join(_json(name) + ":" + _json(value) for name, value in obj.items())
                + "}").encode("utf-8")

    def __repr__(self) -> str:
        return f"<Draft {self.kind} n={self.n} {self.fields!r}>"
