"""Errors of ``president.net``: a code and parameters, never a sentence.

``ProtocolError`` is the peer's fault (bad bytes, a bad field, a refused
handshake); ``LocalProtocolError`` is ours (we tried to send something the
protocol does not allow: a bug).
"""

from __future__ import annotations

from president.errors import PresidentError


class NetError(PresidentError):
    """Base of every error raised by ``president.net``."""


class ProtocolError(NetError):
    """The peer sent something the protocol does not allow; drop or refuse it."""


class LocalProtocolError(NetError):
    """We were about to send an invalid message: a bug on our side."""


class JoinRefused(NetError):
    """The host refused our ``hello`` (code: wrong_pin, bad_token, seat_taken, ...)."""


class ClientError(NetError):
    """A client-side failure: not_connected, timeout, disconnected, closed."""
