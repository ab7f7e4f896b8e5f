"""The sealed channel after the join handshake, sans-I/O: records of AES-256-GCM.

Once the handshake is confirmed (net/pake.py), each direction's bytes (the same stream
of frames as before it, net/protocol.py) travel in **records**: a 4-byte big-endian
length, then that many bytes of AES-256-GCM ciphertext and tag (NIST SP 800-38D, the
``cryptography`` package's) under that direction's key, the nonce the record's number
(0, 1, 2… as 12 big-endian bytes), the length bytes as associated data. A record that
fails to open (changed, cut, replayed, out of order, of another connection) ends the
connection: ``ProtocolError`` (bad_record); the opener is dead from then on.
"""

from __future__ import annotations

import struct
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from president.errors import ProtocolError

from .protocol import CLIENT, HOST, Decoder, Message

HEADER = struct.Struct(">I")
_HEADER = HEADER.pack
TAG = 16
# The most plaintext one record holds: what a host sends (a frame of 256 KiB and its
# header), what a client sends (its frames are 8 KiB at most).
HOST_RECORD = 256 * 1024 + 4
CLIENT_RECORD = 16 * 1024
LAST_CLEAR = {CLIENT: "proof", HOST: "confirm"}


def _nonce(number: int) -> bytes:
    return number.to_bytes(12, "big")


class Sealer:
    """Seals one direction's bytes into records."""

    __slots__ = ("_encrypt", "_number", "_limit")

    def __init__(self, key: bytes, limit: int) -> None:
        self._encrypt = AESGCM(key).encrypt
        self._number = 0
        self._limit = limit

    def seal(self, data: bytes) -> bytes:
        """The records of ``data`` (one unless it is longer than a record holds)."""
        if len(data) <= self._limit:  # the usual case, once for every connection: short
            if not data:
                return b""
            header = _HEADER(len(data) + TAG)
            number = self._number
            self._number = number + 1
            return header + self._encrypt(number.to_bytes(12, "big"), data, header)
        out: list[bytes] = []
        for start in range(0, len(data), self._limit):
            piece = data[start:start + self._limit]
            header = HEADER.pack(len(piece) + TAG)
            out += (header, self._encrypt(_nonce(self._number), piece, header))
            self._number += 1
        return b"".join(out)


class Opener:
    """Opens one direction's records: ``open(data)`` is the plaintext of every record
    completed so far (``b""``: it needs more bytes)."""

    __slots__ = ("_aead", "_number", "_limit", "_buffer", "_dead")

    def __init__(self, key: bytes, limit: int) -> None:
        self._aead = AESGCM(key)
        self._number = 0
        self._limit = limit + TAG
        self._buffer = bytearray()
        self._dead = False

    def push(self, data: bytes) -> None:
        """Bytes to open with the next ``open``."""
        self._buffer += data

    def open(self, data: bytes) -> bytes:
        if self._dead:
            raise ProtocolError("bad_record")
        buffer = self._buffer
        buffer += data
        out: list[bytes] = []
        while len(buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(buffer)
            if not TAG < size <= self._limit:  # from the header alone, as for frames
                self._die()
            if len(buffer) < HEADER.size + size:
                break
            header = bytes(buffer[:HEADER.size])
            sealed = bytes(buffer[HEADER.size:HEADER.size + size])
            del buffer[:HEADER.size + size]
            try:
                out.append(self._aead.decrypt(_nonce(self._number), sealed, header))
            except InvalidTag:
                self._die()
            self._number += 1
        return b"".join(out)

    def _die(self) -> None:
        self._dead = True
        self._buffer.clear()
        raise ProtocolError("bad_record")


class Incoming:
    """One direction's frames in (from ``sender``): in clear up to the handshake's last
    clear frame (the client's ``proof``, the host's ``confirm``), then, once ``seal``
    is called, inside records."""

    def __init__(self, sender: str, max_frame: int | None = None) -> None:
        self.decoder = Decoder(sender, max_frame, last=LAST_CLEAR[sender])
        self.opener: Opener | None = None

    @property
    def sealed(self) -> bool:
        return self.opener is not None

    def feed(self, data: bytes) -> list[Message]:
        """The messages of ``data`` and of what came before it; they stop after the last
        clear frame (what follows waits for ``seal``, or the next ``feed``)."""
        if self.opener is not None:
            data = self.opener.open(data)
        return self.decoder.feed(data)

    def feed_maps(self, data: bytes) -> list[dict[str, Any]]:
        """Like ``feed``, as plain maps (still checked)."""
        if self.opener is not None:
            data = self.opener.open(data)
        return self.decoder.feed_maps(data)

    def seal(self, key: bytes, limit: int) -> None:
        """The channel starts: the bytes after the last clear frame are records."""
        self.opener = Opener(key, limit)
        self.opener.push(self.decoder.rest())
        self.decoder.last = None
