"""The wire protocol, sans-I/O (like h11): typed messages in, frames out, no sockets.

Every message is a frozen dataclass (``Hello``, ``PlayRequest``, ``Welcome``,
``StateUpdate``…); its fields and their checks are the schema (``SCHEMAS`` is
derived from them). ``encode(msg)`` checks and frames a message; a
``Decoder(sender)`` is fed bytes and returns the complete messages received so far
(an empty list: it needs more bytes). A frame is a 4-byte big-endian length and
that many bytes of one msgpack map whose ``type`` names the message. Every field is
type- and range-checked; unknown types or fields are refused with
``ProtocolError(code, **params)``. ``pack`` and ``Decoder.feed_maps`` work on the
plain maps (for tests that speak raw frames). Frame by frame: rules-docs/protocol.md.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Self

import msgpack

from president.actions import DECREE_MAX_LENGTH, Action, action_from_dict, action_to_dict
from president.errors import LocalProtocolError, PresidentError, ProtocolError
from president.events import Event
from president.rules import HouseRules

PROTOCOL_VERSION = 7

# A seat as the table shows it: free; a bot's seat; a player connected; a player whose
# connection dropped (grace period); away or left while a stand-in bot plays the seat.
SEAT_STATES = ("free", "bot", "playing", "disconnected", "away", "left")
# Who acted for a seat, when not its player: a stand-in bot, or the turn timer ran out.
EVENT_BY = ("", "standin", "timeout")
HEADER = struct.Struct(">I")
HELLO_PART = struct.Struct("<Q")
MAX_FRAME = 256 * 1024          # host -> client (a view is a few KiB)
MAX_CLIENT_FRAME = 8 * 1024     # client -> host: the host's limit on what it reads

CLIENT, HOST = "client", "host"  # who sends a message

NAME_MAX = 64                   # a frame's sanity bound; the name policy is limits.NAME_MAX
CHAT_MAX = 300
CARDS_MAX = 160                 # characters of a card list (two decks: 27 cards at most)
MAX_ID = 2**31 - 1
MAX_SEQ = 2**53
MAX_NONCE = 2**32 - 1
MAX_SEATS = 8
ELEMENT_SIZE = 65               # a point of the join handshake (net/pake.py: SEC 1, P-256)
MAC_SIZE = 32                   # a proof of the join handshake

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


def _bytes(size: int) -> Check:
    return lambda v: type(v) is bytes and len(v) == size


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
_hint = _pattern(r"[0-9a-f]{16}")
_element = _bytes(ELEMENT_SIZE)
_mac = _bytes(MAC_SIZE)
_language = _pattern(r"[a-z]{2,3}([_-][A-Za-z0-9]{2,8})?")
_cards = _text(0, CARDS_MAX)
_version = _int(0, 0xFFFF)


def _event(v: Any) -> bool:
    return _str_map(v) and _code(v.get("type"))


HINTS_MAX = 5  # ideas in one hint reply (``president.bots.advice.SUGGESTED``)


def _suggestion(v: Any) -> bool:
    """One idea of a hint: {"action": an action's map, "reason": code, "params": texts}."""
    return (type(v) is dict and set(v) == {"action", "reason", "params"}
            and _str_map(v["action"]) and _code(v["reason"]) and _str_map(v["params"])
            and all(type(value) is str and len(value) <= CARDS_MAX
                    for value in v["params"].values()))


def checked(check: Check, *, dump: Callable[[Any], Any] | None = None,
            load: Callable[[Any], Any] | None = None, default: Any = MISSING) -> Any:
    """A message field: its wire check, and how its value is dumped to / loaded from
    the wire when it is not plain data (a table, an event, the rules). ``default`` is
    for the sender's convenience only: on the wire every field is present."""
    return field(default=default, metadata={"check": check, "dump": dump, "load": load})


# ---------------------------------------------------------------- messages


def _dump(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, dump in _dumpers(type(obj)):
        value = getattr(obj, name)
        out[name] = dump(value) if dump is not None and value is not None else value
    return out


def _dumpers(cls: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Each field's name and wire dump of a message class, found once."""
    found = _DUMPERS.get(cls)
    if found is None:
        found = _DUMPERS[cls] = tuple((f.name, f.metadata["dump"]) for f in fields(cls))
    return found


_DUMPERS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def _load(cls: type[Any], data: Mapping[str, Any]) -> Any:
    values = {}
    for f in fields(cls):
        value = data[f.name]
        load = f.metadata["load"]
        values[f.name] = load(value) if load is not None and value is not None else value
    return cls(**values)


class Message:
    """Base of every wire message. ``TYPE`` is the wire ``type``; ``SENDERS`` who sends it."""

    __slots__ = ()
    TYPE: ClassVar[str]
    SENDERS: ClassVar[tuple[str, ...]]

    def to_wire(self) -> dict[str, Any]:
        """The plain map sent (with ``type``)."""
        return {"type": self.TYPE, **_dump(self)}

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Self:
        """The message of a map that passed the checks (``validate``)."""
        message: Self = _load(cls, data)
        return message


@dataclass(frozen=True, slots=True)
class TableInfo:
    """The table as a lobby shows it (``welcome`` and ``table`` messages)."""

    id: str = checked(_text(1, 64))
    name: str = checked(_text(1, 64))
    preset: str = checked(_text(1, 32))
    rules: HouseRules = checked(_str_map, dump=HouseRules.to_dict, load=HouseRules.from_dict)
    seats: int = checked(_int(1, MAX_SEATS))
    players: tuple[str | None, ...] = checked(  # None: a free seat
        _list_of(_optional(_text(1, NAME_MAX)), MAX_SEATS), dump=list, load=tuple)
    bots: tuple[bool, ...] = checked(  # a bot plays the seat (for now)
        _list_of(_bool, MAX_SEATS), dump=list, load=tuple)
    connected: tuple[bool, ...] = checked(  # a human is connected to the seat
        _list_of(_bool, MAX_SEATS), dump=list, load=tuple)
    started: bool = checked(_bool)
    over: bool = checked(_bool)
    pin: bool = checked(_bool)
    spectators: int = checked(_int(0, 2**16))
    proto: int = checked(_int(0, 0xFFFF))
    turn_timer: int = checked(_int(0, 3600))  # seconds a player has to move; 0 = no timer
    states: tuple[str, ...] = checked(  # each seat's SEAT_STATES
        _list_of(lambda v: v in SEAT_STATES, MAX_SEATS), dump=list, load=tuple, default=())
    standin_hands: tuple[int, ...] = checked(  # hands a stand-in bot played for the seat
        _list_of(_int(0, 2**31), MAX_SEATS), dump=list, load=tuple, default=())
    seat_requests: tuple[int, ...] = checked(  # seats asked for by name, the owner to answer
        _list_of(_seat, MAX_SEATS), dump=list, load=tuple, default=())
    # by seat: a late arrival who asks for that bot's seat (None: none), the owner to answer
    late_askers: tuple[str | None, ...] = checked(
        _list_of(_optional(_text(1, NAME_MAX)), MAX_SEATS), dump=list, load=tuple, default=())
    again: bool = checked(_bool, default=False)  # session over: the owner may play again
    hints: bool = checked(_bool, default=True)   # players may ask for a hint (issue 28)

    def to_wire(self) -> dict[str, Any]:
        return _dump(self)

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> TableInfo:
        info: TableInfo = _load(cls, data)
        return info

    @property
    def taken(self) -> int:
        """Seats with a player (a bot included)."""
        return sum(name is not None for name in self.players)


def _table_info(v: Any) -> bool:
    return _checked_map(v, _schema(TableInfo)) is None


def _event_from_wire(data: Mapping[str, Any]) -> Event:
    params = {key: value for key, value in data.items() if key != "type"}
    return Event(str(data["type"]), params)


# client -> host


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Asks to join (net/pake.py: the PIN and the seat's token are never sent)."""

    TYPE, SENDERS = "hello", (CLIENT,)
    version: int = checked(_version)
    name: str = checked(_name)
    language: str = checked(_language)
    share: bytes = checked(_element)               # the client's key share, PIN-blinded
    seat_hint: str | None = checked(_optional(_hint))  # finds a returning seat's table
    spectate: bool = checked(_bool)
    table: str | None = checked(_optional(_text(1, 64)))
    knock: bool = checked(_bool, default=False)  # no PIN: asks the owner to be let in

    @property
    def identity(self) -> bytes:
        """The client's identity in the handshake's transcript (RFC 9382's A): every field
        but the share, each after its 8-byte little-endian length."""
        parts = ("president hello", str(self.version), self.name, self.language,
                 self.seat_hint or "", "1" if self.spectate else "0", self.table or "",
                 "1" if self.knock else "0")
        return b"".join(HELLO_PART.pack(len(data)) + data
                        for data in (part.encode() for part in parts))


@dataclass(frozen=True, slots=True)
class Proof(Message):
    """The answer to the host's ``challenge``: proof of the password (the PIN, or the
    token of the seat the hello's ``seat_hint`` names)."""

    TYPE, SENDERS = "proof", (CLIENT,)
    proof: bytes = checked(_mac)


class ActionRequest(Message):
    """A request to act at the table (``id`` comes back in the reply)."""

    __slots__ = ()
    id: int

    def action(self, seat: int) -> Action:
        """The engine's action for ``seat`` (the host's idea of who sends it).
        Raises ``NotationError`` for cards that are not cards."""
        return action_from_dict({**self.to_wire(), "seat": seat})


@dataclass(frozen=True, slots=True)
class PlayRequest(ActionRequest):
    TYPE, SENDERS = "play", (CLIENT,)
    id: int = checked(_id)
    cards: str = checked(_cards)
    declared: str = checked(_cards, default="")  # what its jokers stand for (wild jokers)


@dataclass(frozen=True, slots=True)
class PassRequest(ActionRequest):
    TYPE, SENDERS = "pass", (CLIENT,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class CardsRequest(ActionRequest):
    """An action that names cards of the player's choice (not a message of its own)."""

    id: int = checked(_id)
    cards: str = checked(_cards)


@dataclass(frozen=True, slots=True)
class GiveBackRequest(CardsRequest):
    """The tax: the cards returned to the giver."""

    TYPE, SENDERS = "give_back", (CLIENT,)


@dataclass(frozen=True, slots=True)
class GiveRequest(CardsRequest):
    """7-pass: the cards given to the next player (``seven_pass``)."""

    TYPE, SENDERS = "give", (CLIENT,)


@dataclass(frozen=True, slots=True)
class DiscardRequest(CardsRequest):
    """10-discard: the cards discarded (``ten_discard``)."""

    TYPE, SENDERS = "discard", (CLIENT,)


@dataclass(frozen=True, slots=True)
class ReadyRequest(ActionRequest):
    TYPE, SENDERS = "ready", (CLIENT,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class DecreeRequest(ActionRequest):
    TYPE, SENDERS = "decree", (CLIENT,)
    id: int = checked(_id)
    text: str = checked(_text(0, DECREE_MAX_LENGTH * 2, printable=False))


@dataclass(frozen=True, slots=True)
class StartRequest(Message):
    """Start now: bots take the free seats."""

    TYPE, SENDERS = "start", (CLIENT,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class SeatAnswer(Message):
    """The owner's answer to a seat request (``TableInfo.seat_requests``): give the seat
    to the player who asked by its name, or refuse."""

    TYPE, SENDERS = "seat_answer", (CLIENT,)
    id: int = checked(_id)
    seat: int = checked(_seat)
    give: bool = checked(_bool)


@dataclass(frozen=True, slots=True)
class RulesChange(Message):
    """The owner changes the table's house rules before the first deal."""

    TYPE, SENDERS = "rules", (CLIENT,)
    id: int = checked(_id)
    preset: str = checked(_text(1, 32))
    rules: HouseRules = checked(_str_map, dump=HouseRules.to_dict, load=HouseRules.from_dict)


@dataclass(frozen=True, slots=True)
class EndRequest(Message):
    """The owner ends the session: at once before the first deal, else after this hand
    (everyone gets the standings)."""

    TYPE, SENDERS = "end_session", (CLIENT,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class AgainRequest(Message):
    """The owner, at the end of a session (``TableInfo.again``): a new session at the
    same table, the same players in the same seats, a new deal, the scores from the
    start (a seat whose player left goes to a bot)."""

    TYPE, SENDERS = "play_again", (CLIENT,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class DuplicateRequest(Message):
    """The owner, at the end of a session: play again with the same deals, every player
    one seat on (each plays the cards another had); at its end the standings compare
    the players who held the same seat's cards (a ``duplicate`` event)."""

    TYPE, SENDERS = "play_duplicate", (CLIENT,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class ChatRequest(Message):
    TYPE, SENDERS = "chat", (CLIENT,)
    text: str = checked(_text(1, CHAT_MAX))


@dataclass(frozen=True, slots=True)
class HintRequest(Message):
    """What the medium bot would do from the asker's seat, and why (issue 28); refused
    with ``hints_off`` when the table's owner turned hints off."""

    TYPE, SENDERS = "hint_request", (CLIENT,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class SnapshotRequest(Message):
    TYPE, SENDERS = "snapshot_request", (CLIENT,)


@dataclass(frozen=True, slots=True)
class Leave(Message):
    TYPE, SENDERS = "leave", (CLIENT,)


# both ways


@dataclass(frozen=True, slots=True)
class Ping(Message):
    TYPE, SENDERS = "ping", (CLIENT, HOST)
    nonce: int = checked(_nonce)


@dataclass(frozen=True, slots=True)
class Pong(Message):
    TYPE, SENDERS = "pong", (CLIENT, HOST)
    nonce: int = checked(_nonce)


# host -> client


@dataclass(frozen=True, slots=True)
class Challenge(Message):
    """The host's answer to a hello: its long-term key and its key share."""

    TYPE, SENDERS = "challenge", (HOST,)
    key: bytes = checked(_element)
    share: bytes = checked(_element)


@dataclass(frozen=True, slots=True)
class Confirm(Message):
    """The host's answer to a right ``proof``: its own (cB). The last frame in clear: the
    sealed channel (net/channel.py) carries everything after it, both ways."""

    TYPE, SENDERS = "confirm", (HOST,)
    proof: bytes = checked(_mac)


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    TYPE, SENDERS = "welcome", (HOST,)
    version: int = checked(_version)
    seat: int | None = checked(_optional(_seat))       # None: a spectator
    token: str | None = checked(_optional(_token))     # the seat's proof for a return
    table: TableInfo = checked(_table_info, dump=TableInfo.to_wire, load=TableInfo.from_wire)


@dataclass(frozen=True, slots=True)
class Refused(Message):
    TYPE, SENDERS = "refused", (HOST,)
    id: int | None = checked(_optional(_id))           # None: not an answer to a request
    code: str = checked(_code)
    params: dict[str, Any] = checked(_str_map)


@dataclass(frozen=True, slots=True)
class Accepted(Message):
    TYPE, SENDERS = "accepted", (HOST,)
    id: int = checked(_id)


@dataclass(frozen=True, slots=True)
class HintReply(Message):
    """The answer to a ``HintRequest``: the bot's ideas, its choice first (each an action's
    map, a reason code of ``president.bots.advice.REASONS`` and its params)."""

    TYPE, SENDERS = "hint", (HOST,)
    id: int = checked(_id)
    hints: tuple[dict[str, Any], ...] = checked(_list_of(_suggestion, HINTS_MAX), dump=list,
                                                load=tuple)


@dataclass(frozen=True, slots=True)
class StateUpdate(Message):
    """A seat's whole ``View.to_dict()`` (read back with ``View.from_dict``)."""

    TYPE, SENDERS = "state", (HOST,)
    seq: int = checked(_seq)
    view: dict[str, Any] = checked(_str_map)


@dataclass(frozen=True, slots=True)
class ViewDelta(Message):
    """What changed in the seat's view since the last ``state`` or ``view_delta`` it was
    sent: the keys of ``View.to_dict()`` whose values are new (any other key keeps its
    value). Applied only right after the frame before it (no gap in ``seq``)."""

    TYPE, SENDERS = "view_delta", (HOST,)
    seq: int = checked(_seq)
    view: dict[str, Any] = checked(_str_map)


@dataclass(frozen=True, slots=True)
class EventUpdate(Message):
    """One event, as the seat may see it (``project_event``)."""

    TYPE, SENDERS = "event", (HOST,)
    seq: int = checked(_seq)
    event: Event = checked(_event, dump=Event.to_dict, load=_event_from_wire)
    by: str = checked(lambda v: v in EVENT_BY, default="")  # who acted, when not the player


@dataclass(frozen=True, slots=True)
class TableUpdate(Message):
    TYPE, SENDERS = "table", (HOST,)
    table: TableInfo = checked(_table_info, dump=TableInfo.to_wire, load=TableInfo.from_wire)


@dataclass(frozen=True, slots=True)
class Chat(Message):
    TYPE, SENDERS = "chat", (HOST,)
    seat: int | None = checked(_optional(_seat))
    name: str = checked(_text(1, NAME_MAX))
    text: str = checked(_text(1, CHAT_MAX))


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """The host closes the connection, and says why."""

    TYPE, SENDERS = "bye", (HOST,)
    code: str = checked(_code)
    params: dict[str, Any] = checked(_str_map)


MESSAGES: tuple[type[Message], ...] = (
    Hello, Proof, PlayRequest, PassRequest, GiveBackRequest, GiveRequest, DiscardRequest,
    ReadyRequest, DecreeRequest,
    StartRequest, EndRequest, AgainRequest, DuplicateRequest, SeatAnswer, RulesChange,
    ChatRequest,
    HintRequest, SnapshotRequest, Leave,
    Ping, Pong,
    Challenge, Confirm, Welcome, Refused, Accepted, HintReply, StateUpdate, ViewDelta,
    EventUpdate, TableUpdate, Chat, Bye,
)
ACTION_REQUESTS: dict[str, Callable[..., ActionRequest]] = {
    cls.TYPE: cls for cls in (PlayRequest, PassRequest, GiveBackRequest, GiveRequest,
                              DiscardRequest, ReadyRequest, DecreeRequest)
}
ACTION_TYPES = tuple(ACTION_REQUESTS)
CLASSES: dict[str, dict[str, type[Message]]] = {
    sender: {cls.TYPE: cls for cls in MESSAGES if sender in cls.SENDERS}
    for sender in (CLIENT, HOST)
}


def action_request(action: Action, request_id: int) -> ActionRequest:
    """The request for ``action`` (its seat stays home: the host knows who asks)."""
    data = action_to_dict(action)
    cls = ACTION_REQUESTS[data.pop("type")]
    data.pop("seat")
    return cls(id=request_id, **data)


@dataclass(frozen=True, slots=True)
class Reply:
    """The host's answer to a request: accepted (``code`` None) or refused with a reason.
    A request the client could not get answered has the client's code (timeout, …)."""

    code: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def accepted(self) -> bool:
        return self.code is None


# ---------------------------------------------------------------- schemas


def _schema(cls: type) -> dict[str, Check]:
    return {f.name: f.metadata["check"] for f in fields(cls)}


# sender -> type -> field -> check, derived from the classes. Every field is required.
SCHEMAS: dict[str, dict[str, dict[str, Check]]] = {
    sender: {kind: _schema(cls) for kind, cls in classes.items()}
    for sender, classes in CLASSES.items()
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
    """``msg`` if it is a valid message map from ``sender``; else ``ProtocolError``."""
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


def parse(data: dict[str, Any], sender: str) -> Message:
    """The typed message of a map from ``sender`` (checked here)."""
    validate(data, sender)
    cls = CLASSES[sender][data["type"]]
    try:
        return cls.from_wire(data)
    except (PresidentError, KeyError, TypeError, ValueError):  # e.g. the table's rules
        raise ProtocolError("bad_field", type=cls.TYPE) from None


# ---------------------------------------------------------------- frames


def encode(msg: Message, check: bool = True) -> bytes:
    """One frame. Raises ``LocalProtocolError`` if ``msg`` is invalid (our bug).

    ``check=False`` skips the field checks (the size limit stays): for the host's hot
    ``state``/``event`` frames, built from ``View.to_dict`` and ``project_event``.
    """
    sender = CLIENT if CLIENT in msg.SENDERS else HOST  # ping and pong: the same either way
    return pack(msg.to_wire(), sender, check)


def pack(data: dict[str, Any], sender: str, check: bool = True) -> bytes:
    """One frame of a plain message map (``encode`` on a typed message is the usual way)."""
    if check:
        try:
            validate(data, sender)
        except ProtocolError as error:
            raise LocalProtocolError(error.code, **error.params) from None
    body = msgpack.packb(data, use_bin_type=True)
    limit = MAX_FRAME if sender == HOST else MAX_CLIENT_FRAME
    if len(body) > limit:
        raise LocalProtocolError("frame_too_large", size=len(body), limit=limit)
    return HEADER.pack(len(body)) + body


_MAP_HEADER = msgpack.Packer().pack_map_header


@dataclass(frozen=True, slots=True)
class Pairs:
    """The key/value pairs of a msgpack map, packed: a map is the header of its count
    followed by its pairs, so maps packed apart are joined by joining their pairs."""

    count: int
    data: bytes

    @classmethod
    def of(cls, mapping: Mapping[str, Any]) -> Pairs:
        packed = msgpack.packb(mapping, use_bin_type=True)
        return cls(len(mapping), packed[len(_MAP_HEADER(len(mapping))):])


class Packed:
    """One or more ``state``/``view_delta``/``event`` frames packed once for every
    connection they go to, but for their sequence numbers (``frames(first)``: the
    frames ``encode`` would make of the messages numbered from ``first``, their maps'
    keys perhaps in another order; ``numbered(first)``: those bytes, to be sent).
    ``a + b``: ``a``'s frames, then ``b``'s. Like ``encode(msg, check=False)`` it
    checks the size (when packed), not the fields."""

    __slots__ = ("TYPE", "count", "_parts")

    def __init__(self, type_: str, count: int, *pieces: bytes) -> None:
        """A frame of ``type_`` whose fields after ``type`` and ``seq`` are ``count``
        packed key/value pairs, the ``pieces`` joined (joined only as it is sent)."""
        self.TYPE = type_       # the wire type, as a message's (``Connection.send`` reads it)
        head = _HEADS.get((type_, count))
        if head is None:
            head = _HEADS[type_, count] = (_MAP_HEADER(count + 2) + msgpack.packb(
                "type") + msgpack.packb(type_) + msgpack.packb("seq"))
        size = len(head) + sum(map(len, pieces))
        if size + _SEQ_MAX_SIZE > MAX_FRAME:
            raise LocalProtocolError("frame_too_large", size=size, limit=MAX_FRAME)
        self._parts: tuple[tuple[int, bytes, tuple[bytes, ...]], ...] = ((size, head, pieces),)
        self.count = 1

    def __add__(self, other: Packed) -> Packed:
        joined = Packed.__new__(Packed)
        joined.TYPE, joined.count = self.TYPE, self.count + other.count
        joined._parts = self._parts + other._parts
        return joined

    def frames(self, first: int) -> bytes:
        out: list[bytes] = []
        for seq, (size, head, pieces) in enumerate(self._parts, first):
            number = _packed_seq(seq)
            out += (_FRAME_HEADER(size + len(number)), head, number, *pieces)
        return b"".join(out)

    def numbered(self, first: int) -> Numbered:
        """The frames numbered from ``first``, as sent."""
        return Numbered(self.TYPE, first, self.count, self.frames(first))


@dataclass(frozen=True, slots=True)
class Numbered:
    """A broadcast's frames for one or more connections, numbered (``Packed.numbered``):
    the same bytes for every connection they go to. ``TYPE`` is the first's wire type."""

    TYPE: str
    first: int              # the first frame's sequence number
    count: int              # frames
    data: bytes


def _packed_seq(seq: int) -> bytes:
    """``msgpack.packb(seq)`` for a sequence number (0 <= seq <= MAX_SEQ), without
    making a packer each time."""
    if seq < 0x80:
        return _FIXINTS[seq]
    if seq <= 0xFFFF:
        return b"\xcc" + bytes((seq,)) if seq <= 0xFF else b"\xcd" + seq.to_bytes(2, "big")
    return b"\xce" + seq.to_bytes(4, "big") if seq <= 0xFFFFFFFF else b"\xcf" + seq.to_bytes(
        8, "big")


_FIXINTS = [bytes((n,)) for n in range(0x80)]
_SEQ_MAX_SIZE = 9
_FRAME_HEADER = HEADER.pack
_HEADS: dict[tuple[str, int], bytes] = {}  # a packed map's start, up to the seq's value
_VIEW_KEY = msgpack.packb("view")


def packed_state(*parts: Pairs) -> Packed:
    """``StateUpdate`` of the view whose pairs are the ``parts`` (e.g. what every seat
    shares, then the seat's own part)."""
    count = sum(part.count for part in parts)
    return Packed(StateUpdate.TYPE, 1, _VIEW_KEY + _MAP_HEADER(count),
                  *(part.data for part in parts))


class StateFrames:
    """The ``StateUpdate``s (or ``ViewDelta``s: ``kind``) of one moment for every seat:
    the pairs every seat is shown alike (``public``) joined once, then each seat's own
    pairs (``with_own``), as ``packed_state(public, own)`` makes them."""

    __slots__ = ("_public", "_starts", "_kind")

    def __init__(self, public: Pairs, kind: str = "state") -> None:
        self._public, self._kind = public, kind
        self._starts: dict[int, bytes] = {}     # by the own part's count of pairs

    def with_own(self, own: Pairs) -> Packed:
        start = self._starts.get(own.count)
        if start is None:
            public = self._public
            start = self._starts[own.count] = (
                _VIEW_KEY + _MAP_HEADER(public.count + own.count) + public.data)
        return Packed(self._kind, 1, start, own.data)


def packed_event(event: Event, by: str = "") -> Packed:
    """``packed(EventUpdate(seq=0, event=event, by=by))``, without making the message."""
    return Packed(EventUpdate.TYPE, 2, Pairs.of({"event": event.to_dict(), "by": by}).data)


def packed(msg: StateUpdate | EventUpdate) -> Packed:
    """``msg`` packed once, for any sequence number."""
    wire = msg.to_wire()
    del wire["type"], wire["seq"]
    return Packed(msg.TYPE, len(wire), Pairs.of(wire).data)


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ProtocolError("bad_msgpack", detail="ext_type")


_PLAIN = (str, int, float, bool, bytes, type(None))


def _only_plain_data(value: Any) -> bool:
    """No msgpack ext value anywhere (a Timestamp, ext type -1, never reaches
    ``ext_hook``): only maps, lists and scalars."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif not isinstance(item, _PLAIN):
            return False
    return True


class Decoder:
    """Streaming frame decoder for messages sent by ``sender``.

    ``feed(data)`` returns every complete, valid message (possibly none). A bad
    frame raises ``ProtocolError``; the decoder is then dead (the connection
    should be closed), and every later ``feed`` raises the same error.
    """

    def __init__(self, sender: str, max_frame: int | None = None,
                 last: str | None = None) -> None:
        if sender not in SCHEMAS:
            raise ValueError(sender)
        self.sender = sender
        self.last = last        # a frame of this type ends a feed: what follows may be records
        self.max_frame = max_frame or (MAX_CLIENT_FRAME if sender == CLIENT else MAX_FRAME)
        self._buffer = bytearray()
        self._error: ProtocolError | None = None

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def rest(self) -> bytes:
        """The bytes received after the last frame returned (then none): at the switch to
        the sealed channel, its first records."""
        rest = bytes(self._buffer)
        self._buffer.clear()
        return rest

    def feed(self, data: bytes) -> list[Message]:
        return [parse(msg, self.sender) for msg in self.feed_maps(data)]

    def feed_maps(self, data: bytes) -> list[dict[str, Any]]:
        """Like ``feed``, as plain maps (still checked)."""
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
                if msg["type"] == self.last:
                    return messages
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
        # A Timestamp's header always holds its type byte 0xff (-1), which UTF-8 text never
        # uses: most frames have no 0xff at all and skip the walk.
        if b"\xff" in body and not _only_plain_data(data):
            raise ProtocolError("bad_msgpack", detail="ext_type")
        return validate(data, self.sender)
