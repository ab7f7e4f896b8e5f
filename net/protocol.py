"""The wire protocol, sans-I/O (like h11): frames in, messages out, no sockets.

A frame is a 4-byte big-endian length followed by that many bytes of one
msgpack map; the map's ``type`` names the message. ``encode(msg, sender)``
validates and frames a message; ``Decoder(sender).feed(data)`` returns the
complete messages received so far (an empty list: it needs more bytes).
Every field is type- and range-checked and unknown types or fields are refused
with ``ProtocolError(code, **params)``. Frame by frame: rules-docs/protocol.md.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from typing import Any

import msgpack

from president.actions import DECREE_MAX_LENGTH
from president.net.errors import LocalProtocolError, ProtocolError

PROTOCOL_VERSION = 2
HEADER = struct.Struct(">I")
MAX_FRAME = 256 * 1024          # host -> client (a view is a few KiB)
MAX_CLIENT_FRAME = 8 * 1024     # client -> host: the host's limit on what it reads

CLIENT, HOST = "client", "host"  # who sends a message

NAME_MAX = 32
CHAT_MAX = 300
PIN_MAX = 16
CARDS_MAX = 160                 # characters of a card list (two decks: 27 cards at most)
MAX_ID = 2**31 - 1
MAX_SEQ = 2**53
MAX_NONCE = 2**32 - 1
MAX_SEATS = 8

ACTION_TYPES = ("play", "pass", "give_back", "ready", "decree")

Check = Callable[[Any], bool]


# ---------------------------------------------------------------- field checks


def _int(low: int, high: int) -> Check:
    return lambda v: type(v) is int and low <= v <= high


def _bool(v: Any) -> bool:
    return type(v) is bool


def _text(low: int, high: int, printable: bool = True) -> Check:
    def check(v: Any) -> bool:
        return (type(v) is str and low <= len(v) <= high
                and (not printable or v.isprintable()))
    return check


def _pattern(regex: str) -> Check:
    compiled = re.compile(regex)
    return lambda v: type(v) is str and compiled.fullmatch(v) is not None


def _optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _str_map(v: Any) -> bool:
    return type(v) is dict and all(type(key) is str for key in v)


def _list_of(check: Check, high: int) -> Check:
    return lambda v: type(v) is list and len(v) <= high and all(check(x) for x in v)


def _name(v: Any) -> bool:
    return _text(1, NAME_MAX)(v) and v.strip() == v


_seat = _int(0, MAX_SEATS - 1)
_seq = _int(0, MAX_SEQ)
_id = _int(0, MAX_ID)
_nonce = _int(0, MAX_NONCE)
_code = _pattern(r"[a-z][a-z0-9_]{0,39}")
_token = _pattern(r"[0-9a-f]{32}")
_language = _pattern(r"[a-z]{2,3}([_-][A-Za-z0-9]{2,8})?")
_cards = _text(0, CARDS_MAX)


def _table_info(v: Any) -> bool:
    """The table as a lobby shows it (``welcome`` and ``table`` messages)."""
    return _checked_map(v, TABLE_INFO) is None


TABLE_INFO: dict[str, Check] = {
    "id": _text(1, 64),
    "name": _text(1, 64),
    "preset": _text(1, 32),
    "rules": _str_map,
    "seats": _int(1, MAX_SEATS),
    "players": _list_of(_optional(_text(1, NAME_MAX)), MAX_SEATS),  # None: a free seat
    "bots": _list_of(_bool, MAX_SEATS),        # seat played by a bot (for now)
    "connected": _list_of(_bool, MAX_SEATS),   # a human is connected to the seat
    "started": _bool,
    "over": _bool,
    "pin": _bool,
    "spectators": _int(0, 2**16),
    "proto": _int(0, 0xFFFF),
    "turn_timer": _int(0, 3600),               # seconds a player has to move; 0 = no timer
}


# ---------------------------------------------------------------- schemas

# sender -> type -> field -> check. Every field is required ("type" aside).
SCHEMAS: dict[str, dict[str, dict[str, Check]]] = {
    CLIENT: {
        "hello": {
            "version": _int(0, 0xFFFF), "name": _name, "language": _language,
            "token": _optional(_token), "pin": _optional(_text(0, PIN_MAX)),
            "spectate": _bool, "table": _optional(_text(1, 64)),
        },
        "play": {"id": _id, "cards": _cards},
        "pass": {"id": _id},
        "give_back": {"id": _id, "cards": _cards},
        "ready": {"id": _id},
        "decree": {"id": _id, "text": _text(0, DECREE_MAX_LENGTH * 2, printable=False)},
        "start": {"id": _id},
        "chat": {"text": _text(1, CHAT_MAX)},
        "snapshot_request": {},
        "leave": {},
        "ping": {"nonce": _nonce},
        "pong": {"nonce": _nonce},
    },
    HOST: {
        "welcome": {
            "version": _int(0, 0xFFFF), "seat": _optional(_seat), "token": _optional(_token),
            "table": _table_info,
        },
        "refused": {"id": _optional(_id), "code": _code, "params": _str_map},
        "accepted": {"id": _id},
        "state": {"seq": _seq, "view": _str_map},
        "event": {"seq": _seq, "event": lambda v: _str_map(v) and _code(v.get("type"))},
        "table": {"table": _table_info},
        "chat": {"seat": _optional(_seat), "name": _text(1, NAME_MAX), "text": _text(1, CHAT_MAX)},
        "ping": {"nonce": _nonce},
        "pong": {"nonce": _nonce},
        "bye": {"code": _code, "params": _str_map},
    },
}


def _checked_map(data: Any, schema: dict[str, Check]) -> tuple[str, dict[str, Any]] | None:
    """None if ``data`` fits ``schema`` exactly, else (code, params) of the first fault."""
    if type(data) is not dict:
        return "not_a_map", {}
    for key in data:
        if key not in schema and key != "type":
            return "unknown_field", {"field": str(key)[:40]}
    for key, check in schema.items():
        if key not in data:
            return "missing_field", {"field": key}
        if not check(data[key]):
            return "bad_field", {"field": key}
    return None


def validate(msg: Any, sender: str) -> dict[str, Any]:
    """``msg`` if it is a valid message from ``sender``; else ``ProtocolError``."""
    if type(msg) is not dict:
        raise ProtocolError("not_a_map")
    kind = msg.get("type")
    schemas = SCHEMAS[sender]
    if type(kind) is not str or kind not in schemas:
        raise ProtocolError("unknown_type", type=str(kind)[:40])
    if kind == "hello" and msg.get("version") != PROTOCOL_VERSION:
        version = msg.get("version")
        raise ProtocolError("bad_version", got=version if type(version) is int else None,
                            want=PROTOCOL_VERSION)
    fault = _checked_map(msg, schemas[kind])
    if fault is not None:
        code, params = fault
        raise ProtocolError(code, type=kind, **params)
    return msg


def make(kind: str, sender: str, **fields: Any) -> dict[str, Any]:
    """A message dict (not yet checked; ``encode`` checks it)."""
    return {"type": kind, **fields}


# ---------------------------------------------------------------- frames


def encode(msg: dict[str, Any], sender: str, check: bool = True) -> bytes:
    """One frame. Raises ``LocalProtocolError`` if ``msg`` is invalid (our bug).

    ``check=False`` skips the field checks (the size limit stays): for the host's hot
    ``state``/``event`` frames, built from ``View.to_dict`` and ``project_event``.
    """
    if check:
        try:
            validate(msg, sender)
        except ProtocolError as error:
            raise LocalProtocolError(error.code, **error.params) from None
    body = msgpack.packb(msg, use_bin_type=True)
    limit = MAX_FRAME if sender == HOST else MAX_CLIENT_FRAME
    if len(body) > limit:
        raise LocalProtocolError("frame_too_large", size=len(body), limit=limit)
    return HEADER.pack(len(body)) + body


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ProtocolError("bad_msgpack", detail="ext_type")


class Decoder:
    """Streaming frame decoder for messages sent by ``sender``.

    ``feed(data)`` returns every complete, valid message (possibly none). A bad
    frame raises ``ProtocolError``; the decoder is then dead (the connection
    should be closed), and every later ``feed`` raises the same error.
    """

    def __init__(self, sender: str, max_frame: int | None = None) -> None:
        if sender not in SCHEMAS:
            raise ValueError(sender)
        self.sender = sender
        self.max_frame = max_frame or (MAX_CLIENT_FRAME if sender == CLIENT else MAX_FRAME)
        self._buffer = bytearray()
        self._error: ProtocolError | None = None

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        if self._error is not None:
            raise self._error
        self._buffer += data
        messages: list[dict[str, Any]] = []
        try:
            while True:
                msg = self._next()
                if msg is None:
                    return messages
                messages.append(msg)
        except ProtocolError as error:
            self._error = error
            self._buffer.clear()
            raise

    def _next(self) -> dict[str, Any] | None:
        buffer = self._buffer
        if len(buffer) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(buffer)
        # The limit is checked on the header alone, before waiting for (or keeping) the body.
        if size > self.max_frame:
            raise ProtocolError("frame_too_large", size=size, limit=self.max_frame)
        if size == 0:
            raise ProtocolError("empty_frame")
        if len(buffer) < HEADER.size + size:
            return None
        body = bytes(buffer[HEADER.size:HEADER.size + size])
        del buffer[:HEADER.size + size]
        try:
            data = msgpack.unpackb(
                body, raw=False, use_list=True, strict_map_key=True, ext_hook=_refuse_ext,
                timestamp=0,
            )
        except ProtocolError:
            raise
        except Exception as error:  # msgpack raises many types for bad input
            raise ProtocolError("bad_msgpack", detail=type(error).__name__) from None
        return validate(data, self.sender)
