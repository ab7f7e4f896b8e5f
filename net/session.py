"""The client's side of the protocol as a state machine, sans-I/O (like h11's Connection).

Bytes in, events out; requests in, bytes out. No sockets, no clock, no tasks:
``net/client.py`` drives it over a real connection, tests over a fake link.

    session = ClientSession("Ada", "it")
    link.write(session.hello())                  # (again after every reconnection)
    for event in session.receive(link_bytes):    # Joined, ViewChanged, Replied, ...
        ...
    link.write(session.outgoing())               # pongs, snapshot requests
    request_id, data = session.request(action)   # answered later by Replied(request_id)
    events = session.connection_lost()           # pending requests fail: Replied(code=...)

The handshake (net/pake.py): the hello carries a key share, the host's ``challenge`` is
answered with a ``proof`` of the PIN (queued in ``outgoing``), the host's ``confirm``
proves it knew the PIN and holds its key; from then on every byte either way is sealed
(net/channel.py), the ``welcome`` and its token included. ``host_key`` is the host
key's fingerprint: expected before (a different key ends the session before anything is
proved: ``host_key_changed``), learned after.

The session keeps what the client knows: ``seat``, ``token``, ``table`` (TableInfo),
``view`` (a ``View``, parsed once per frame), the last sequence number and the gaps
repaired (a gap sends a ``snapshot_request``), the pending request ids, the
``bye`` and whether coming back is pointless (``final``: a final refusal or bye).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from president.actions import Action
from president.errors import ClientError, PresidentError, ProtocolError
from president.events import Event
from president.view import View

from .channel import CLIENT_RECORD, HOST_RECORD, Incoming, Sealer
from .pake import (
    KNOCK,
    PIN,
    SEAT,
    ClientHandshake,
    fingerprint,
    matches,
    short_fingerprint,
    token_hint,
)
from .protocol import (
    HOST,
    PROTOCOL_VERSION,
    Accepted,
    Bye,
    Challenge,
    Chat,
    ChatRequest,
    Confirm,
    EventUpdate,
    Hello,
    HintReply,
    Leave,
    Message,
    Ping,
    Pong,
    Proof,
    Refused,
    Reply,
    SnapshotRequest,
    StartRequest,
    StateUpdate,
    TableInfo,
    TableUpdate,
    ViewDelta,
    Welcome,
    action_request,
    encode,
)

# Refusals of a hello after which trying again is pointless.
FINAL_REFUSALS = frozenset({"bad_token", "wrong_pin", "table_full", "table_closed",
                            "bad_version", "no_such_table", "session_over",
                            "seat_request_refused", "spectators_full",
                            "host_key_changed", "host_unproved", "no_pin", "pin_again"})
# A bye after which the client does not come back.
# ("replaced": the seat's token came back on another connection, which now plays it.)
FINAL_BYES = frozenset({"session_over", "left", "host_stopping", "table_closed", "replaced"})


class Status(StrEnum):
    """Where a client stands with its table."""

    NEW = "new"                     # never connected
    CONNECTING = "connecting"       # hello sent, no welcome yet
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"   # the connection dropped; coming back with the token
    CLOSED = "closed"               # for good: closed, a final refusal or bye


# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Joined:
    """The host welcomed us (again): our seat (None: watching), the table, and the
    fingerprint of the key its host proved (``pake.fingerprint``)."""

    seat: int | None
    table: TableInfo
    host_key: str | None = None
    # Set by a client that remembers keys (cli.trust): the other key this table's name
    # was last joined at, when the key changed.
    key_was: str | None = None


@dataclass(frozen=True, slots=True)
class JoinFailed:
    """The host refused our hello; ``final``: trying again is pointless."""

    code: str
    params: Mapping[str, Any]
    final: bool


@dataclass(frozen=True, slots=True)
class TableChanged:
    table: TableInfo


@dataclass(frozen=True, slots=True)
class ViewChanged:
    view: View


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Something happened at the table (as this seat may see it)."""

    event: Event
    by: str = ""            # who acted when not the seat's player (protocol EVENT_BY)


@dataclass(frozen=True, slots=True)
class ChatReceived:
    seat: int | None
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Replied:
    """The answer to request ``request_id``."""

    request_id: int
    reply: Reply


@dataclass(frozen=True, slots=True)
class Closed:
    """The host said goodbye; ``final``: it will not take us back."""

    code: str
    params: Mapping[str, Any]
    final: bool


SessionEvent = (Joined | JoinFailed | TableChanged | ViewChanged | GameEvent | ChatReceived
                | Replied | Closed)


# ---------------------------------------------------------------- the session


@dataclass
class ClientSession:
    """One player's (or spectator's) session with a table, across reconnections."""

    name: str
    language: str = "en"
    pin: str | None = None
    token: str | None = None
    spectate: bool = False
    knock: bool = False             # no PIN: ask the table's owner to be let in
    # The host key's fingerprint we expect (advertised, or remembered from an earlier
    # join): another key is refused before the PIN is even tried. None: trust on first use.
    host_key: str | None = None
    table_id: str | None = None
    seat: int | None = None
    table: TableInfo | None = None
    view: View | None = None
    status: Status = Status.NEW
    bye: Bye | None = None
    last_seq: int = 0
    gaps: int = 0                   # snapshots asked for after a sequence gap
    pending: set[int] = field(default_factory=set)
    pin_tried: bool = False         # a handshake offered the typed PIN (``pin_spent``)
    _pin_confirmed: bool = field(default=False, repr=False)
    _incoming: Incoming = field(default_factory=lambda: Incoming(HOST), repr=False)
    _sealer: Sealer | None = field(default=None, repr=False)
    _outgoing: bytearray = field(default_factory=bytearray, repr=False)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1), repr=False)
    _resyncing: bool = False
    _view_data: dict[str, Any] | None = field(default=None, repr=False)  # ``view`` as sent
    _pake: ClientHandshake | None = field(default=None, repr=False)

    @property
    def resyncing(self) -> bool:
        """A sequence gap was seen: ``view`` is an earlier one until the snapshot comes."""
        return self._resyncing

    @property
    def final(self) -> bool:
        """Whether coming back is pointless: closed, or a final refusal or bye."""
        return self.status is Status.CLOSED

    @property
    def joined(self) -> bool:
        return self.status is Status.CONNECTED

    # ------------------------------------------------------------ sending

    @property
    def pin_spent(self) -> bool:
        """Whether the typed PIN has had its one guess: a handshake with it went out and no
        host confirmed it (cut, refused, another key...). Until the person types it again
        (a new session), no handshake offers it again: a lookalike table that hangs up
        after each hello gets one guess per typed PIN, not one a second. A PIN a host
        confirmed goes again to that host only (its key is pinned from then on)."""
        return self.token is None and bool(self.pin) and self.pin_tried \
            and not self._pin_confirmed

    def refuse_hello(self) -> JoinFailed | None:
        """None when a hello may go out now; else why not (the session is then closed,
        final): ``pin_again``, the typed PIN was spent (``pin_spent``)."""
        if not self.pin_spent:
            return None
        [failed] = self._give_up("pin_again")
        assert isinstance(failed, JoinFailed)
        return failed

    def hello(self) -> bytes:
        """Start a handshake on a new connection (with our token, when we have one).
        ``ClientError`` (pin_again) when the typed PIN was spent (``refuse_hello``)."""
        if self.pin_spent:
            raise ClientError("pin_again")
        self._incoming, self._sealer = Incoming(HOST), None
        self._outgoing.clear()
        self.last_seq, self._resyncing, self._view_data = 0, False, None
        if self.status is not Status.RECONNECTING:
            self.status = Status.CONNECTING
        # Coming back to a seat, its token is the password: no PIN needed.
        hint = token_hint(self.token) if self.token is not None else None
        hello = Hello(version=PROTOCOL_VERSION, name=self.name, language=self.language,
                      share=bytes(65), seat_hint=hint, spectate=self.spectate,
                      table=self.table_id, knock=self.knock and self.token is None)
        if hello.knock:  # the empty password under its own label: it proves nothing
            self._pake = ClientHandshake(None, hello.identity, KNOCK)
        else:
            self._pake = ClientHandshake(self.token if self.token is not None else self.pin,
                                         hello.identity, SEAT if self.token is not None else PIN)
        if self.token is None and self.pin and not hello.knock:
            self.pin_tried = True
        return encode(replace(hello, share=self._pake.share))

    def request(self, action: Action | None) -> tuple[int, bytes]:
        """A new request id and the frame asking for ``action`` (None: start the game
        now); ``Replied(id)`` answers it. ``ClientError`` (not_connected) when not joined."""
        return self.ask(lambda request_id: StartRequest(id=request_id) if action is None
                        else action_request(action, request_id))

    def ask(self, make: Callable[[int], Message]) -> tuple[int, bytes]:
        """A new request id and the frame ``make(id)`` (any request the host answers by
        id: an action, starting early, the owner's requests)."""
        self._need_joined()
        request_id = next(self._ids)
        data = self.seal(encode(make(request_id)))
        self.pending.add(request_id)
        return request_id, data

    def chat(self, text: str) -> bytes:
        self._need_joined()
        return self.seal(encode(ChatRequest(text=text)))

    def leave(self) -> bytes:
        """Leave the table for good (the host closes, with ``bye`` left); nothing to send
        before the channel is sealed."""
        self.status = Status.CLOSED
        return self.seal(encode(Leave())) if self._sealer is not None else b""

    def ping(self, nonce: int) -> bytes:
        """A heartbeat (nothing before the channel is sealed: the host waits for no
        more than the proof)."""
        if self._sealer is None:
            return b""
        return self.seal(encode(Ping(nonce=nonce & 0xFFFFFFFF)))

    def seal(self, data: bytes) -> bytes:
        """Bytes of frames as sent now: sealed once the channel is."""
        return self._sealer.seal(data) if self._sealer is not None else data

    def outgoing(self) -> bytes:
        """What the session wants sent now (pongs, snapshot requests), then empty."""
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    def abandon(self, code: str) -> list[SessionEvent]:
        """The client's own decision to stop (e.g. ``close``): pending requests fail."""
        self.status = Status.CLOSED
        return self._fail_pending(code)

    # ------------------------------------------------------------ receiving

    def receive(self, data: bytes) -> list[SessionEvent]:
        """Events for the bytes received. A bad frame raises ``ProtocolError``: the
        connection is then useless (drop it and reconnect)."""
        events: list[SessionEvent] = []
        while not self.final and (messages := self.decode(data)):  # a feed stops at the
            data = b""                                                 # switch to the channel
            for msg in messages:
                events.extend(self.handle(msg))
        return events

    def decode(self, data: bytes) -> list[Message]:
        """The messages of ``data`` (and of bytes received before): they stop after the
        host's ``confirm``, once handled decode again (``b""``) for the sealed rest."""
        return self._incoming.feed(data)

    def handle(self, msg: Message) -> list[SessionEvent]:
        """The events of one decoded message."""
        if self.status is Status.CONNECTING or self.status is Status.RECONNECTING:
            return self._handshake(msg)
        match msg:
            case StateUpdate(seq=seq, view=data):
                self.last_seq = seq
                self._resyncing = False
                return self._new_view(data, "state")
            case ViewDelta(seq=seq, view=changes):
                # A change of the view we have; after a gap, of one we missed: wait for
                # the snapshot (``state``) asked for.
                if not self._in_sequence(seq) or self._resyncing or self._view_data is None:
                    return []
                return self._new_view({**self._view_data, **changes}, "view_delta")
            case EventUpdate(seq=seq, event=event, by=by):
                self._in_sequence(seq)
                return [GameEvent(event, by)]
            case Accepted(id=request_id):
                return self._reply(request_id, Reply())
            case HintReply(id=request_id, hints=hints):
                return self._reply(request_id, Reply(params={"hints": list(hints)}))
            case Refused(id=request_id, code=code, params=params):
                if request_id is None:
                    return []  # e.g. a chat line refused: nothing waits for it
                return self._reply(request_id, Reply(code, params))
            case TableUpdate(table=table):
                self.table = table
                return [TableChanged(table)]
            case Chat(seat=seat, name=name, text=text):
                return [ChatReceived(seat, name, text)]
            case Ping(nonce=nonce):
                self._outgoing += self.seal(encode(Pong(nonce=nonce)))
                return []
            case Bye(code=code, params=params):
                self.bye = msg
                final = code in FINAL_BYES
                if final:
                    self.status = Status.CLOSED
                return [Closed(code, params, final), *self._fail_pending("disconnected")]
        return []  # pong, or a welcome out of place: nothing to do

    def connection_lost(self) -> list[SessionEvent]:
        """The connection is gone: pending requests fail; a client not closed for good
        comes back (``hello`` on the next connection)."""
        if self.status is not Status.CLOSED and self.status is not Status.NEW:
            self.status = Status.RECONNECTING
        return self._fail_pending("disconnected")

    # ------------------------------------------------------------ inside

    def _in_sequence(self, seq: int) -> bool:
        """Whether ``seq`` follows the last frame's; after a gap, ask for a snapshot (once
        until it comes)."""
        gap = seq != self.last_seq + 1
        self.last_seq = seq
        if gap and not self._resyncing:
            self._resyncing = True
            self.gaps += 1
            self._outgoing += self.seal(encode(SnapshotRequest()))
        return not gap

    def _new_view(self, data: dict[str, Any], kind: str) -> list[SessionEvent]:
        """The view of the map ``data`` (the whole ``View.to_dict()``), parsed once."""
        assert self.table is not None
        try:
            self.view = View.from_dict(data, self.table.rules)
        except (PresidentError, KeyError, TypeError, ValueError):
            raise ProtocolError("bad_field", type=kind, field="view") from None
        self._view_data = data
        return [ViewChanged(self.view)]

    def _handshake(self, msg: Message) -> list[SessionEvent]:
        handshake = self._pake
        if isinstance(msg, Challenge) and handshake is not None and handshake.keys is None:
            offered = fingerprint(msg.key)
            # The key is checked before anything is proved (net/pake.py).
            if self.host_key is not None and not matches(self.host_key, offered):
                return self._give_up("host_key_changed", expected=short_fingerprint(
                    self.host_key), got=short_fingerprint(offered))
            proof = handshake.answer(msg.key, msg.share)
            self.host_key = offered
            self._outgoing += encode(Proof(proof=proof))
            return []
        if isinstance(msg, Confirm) and self._sealer is None:
            if handshake is None or handshake.keys is None or not handshake.host_proved(
                    msg.proof):
                return self._give_up("host_unproved")
            keys = handshake.keys
            if self.token is None:  # the PIN is right, and so is the key now pinned
                self._pin_confirmed = True
            self._incoming.seal(keys.host_to_client, HOST_RECORD)
            self._sealer = Sealer(keys.client_to_host, CLIENT_RECORD)
            return []
        if isinstance(msg, Welcome):
            if self._sealer is None:  # a welcome in clear: not from the host that confirmed
                return self._give_up("host_unproved")
            self.seat, self.token, self.table = msg.seat, msg.token, msg.table
            self.status, self.bye = Status.CONNECTED, None
            return [Joined(msg.seat, msg.table, self.host_key)]
        if isinstance(msg, Refused):
            final = msg.code in FINAL_REFUSALS
            if final:  # as good as a goodbye: say why we stop
                self.status, self.bye = Status.CLOSED, Bye(code=msg.code, params=msg.params)
            return [JoinFailed(msg.code, msg.params, final)]
        if isinstance(msg, Bye):
            self.bye = msg
            return []
        return [JoinFailed("unexpected", {}, False)]

    def _give_up(self, code: str, **params: str) -> list[SessionEvent]:
        """A host that is not the one we expect: stop here, for good (nothing more sent)."""
        self.status, self.bye = Status.CLOSED, Bye(code=code, params=params)
        return [JoinFailed(code, params, True)]

    def _reply(self, request_id: int, reply: Reply) -> list[SessionEvent]:
        if request_id not in self.pending:
            return []
        self.pending.discard(request_id)
        return [Replied(request_id, reply)]

    def _fail_pending(self, code: str) -> list[SessionEvent]:
        failed: list[SessionEvent] = [Replied(i, Reply(code)) for i in sorted(self.pending)]
        self.pending.clear()
        return failed

    def _need_joined(self) -> None:
        if self.status is not Status.CONNECTED:
            raise ClientError("not_connected")
