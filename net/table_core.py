"""The rules of one table, sans-I/O: seats, tokens, the owner, seat requests, timers,
the commit point and what goes to whom, decided here and nowhere else.

No sockets, no tasks, no clock: ``net/table.py`` drives it. Inputs are a connection
that joined (``Join``), its messages (``Command``), its going (``Gone``), a stop
(``Stop``) and the time; each call returns the outputs, in the order they must be
performed (``Send``, ``Broadcast``, ``Close``, ``Attach``, ``Detach``, ``Log``,
``Changed``), and ``next_deadline`` says when to call ``wake`` again (timers are
deadlines, ``net/deadlines.py``: bot moves, turn timers, the pause between hands,
grace, minutes, a late PIN refusal).

    core = TableCore(options, journal)
    outputs = core.open(now)
    outputs = core.handle(Command(peer, msg), now)
    outputs = core.wake(now)                       # at core.next_deadline

A connection is only a handle here (any hashable object, ``Peer``): the core keeps
which seat each one holds. Every action goes through ``_commit``: applied, handed to
the journal hook (the one port the core calls: a record must be written before its
broadcast leaves, and a failed write undoes the action before anyone saw it), then
broadcast. Each seat receives only ``view(state, seat)`` and events projected for it;
spectators get the public view (the frames: ``net/projection.py``). The bots decide
here, synchronously, when their deadline comes.
"""

from __future__ import annotations

import dataclasses
import hmac
import logging
import secrets
from collections import deque
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeAlias

from president import engine
from president.actions import Action, Decree, Pass, Ready, action_to_dict
from president.bots import BOT_KINDS, DEFAULT_BUDGET, DEFAULT_LEVEL, Bot, PlayTracker, make_bot
from president.bots.advice import suggestion_to_dict
from president.bots.medium import MediumBot
from president.errors import IllegalAction, NetError, NotationError, RulesError
from president.events import Event, project_event
from president.rules import HouseRules, check_player_count
from president.seeds import bot_seed, move_seed, new_session_seed
from president.state import Phase, State
from president.view import view

from .deadlines import Deadlines
from .limits import Limits, PinGuard
from .pake import HostHandshake
from .projection import Projection
from .protocol import (
    MAX_SEATS,
    PROTOCOL_VERSION,
    Accepted,
    ActionRequest,
    AgainRequest,
    Chat,
    ChatRequest,
    DuplicateRequest,
    EndRequest,
    EventUpdate,
    Hello,
    HintReply,
    HintRequest,
    Leave,
    Message,
    Numbered,
    Proof,
    Refused,
    RulesChange,
    SeatAnswer,
    SnapshotRequest,
    StartRequest,
    TableInfo,
    TableUpdate,
    Welcome,
)

log = logging.getLogger("president.net.table")
MISSED = 60     # events kept for a returning player's log (the last ones)

Peer: TypeAlias = Hashable
"""A connection as the core knows it: a handle (the driver's ``host.Connection``)."""


class JournalHook(Protocol):
    """What the table tells a crash-safe journal (``persist.TableJournal``), always
    before anything is broadcast."""

    def started(self, table: TableCore) -> None: ...
    def seated(self, table: TableCore, seat: int) -> None: ...
    def accepted(self, table: TableCore, action: dict[str, Any]) -> None: ...


@dataclass
class TableOptions:
    name: str = "President"
    table_id: str = "main"
    preset: str = "classic"
    rules: HouseRules = field(default_factory=HouseRules)
    seats: int = 4
    bots: int = 0                   # the last ``bots`` seats are bots from the start
    pin: str | None = None
    seed: int | None = None         # None: a random session seed
    bot_kind: str = DEFAULT_LEVEL   # the table's level: its stand-ins and bots (bots.BOT_KINDS)
    bot_levels: tuple[str, ...] = ()  # the levels of the first seats given to bots, if not
    bot_budget: float = DEFAULT_BUDGET  # CPU seconds per move for the bots that search
    bot_delay: float = 0.0          # seconds a bot waits before it moves
    grace: float = 30.0             # seconds before a bot plays for an absent player
    turn_timer: float = 0.0         # seconds a human has to play; 0 = no timer
    timer_action: str = "bot"       # on expiry: "bot" move, or "pass" (bot move when leading)
    ready_timeout: float = 30.0     # seconds between hands before humans are made ready; 0 = wait
    auto_start: bool = True         # start as soon as every seat is taken
    # One owner: the seat token of the player who opened the table (given out before
    # they join), or None: the host's console alone may start early.
    owner_token: str | None = None
    max_spectators: int = 32        # watchers past this are refused (spectators_full)
    info_interval: float = 0.25     # seconds between two table-info frames to everyone
    again_wait: float = 0.0         # seconds a finished session waits for its owner to play
                                    # again (a table with an owner; 0: it closes at once)
    hints: bool = True              # players may ask for a hint (the owner may turn them off)
    # A newcomer to a started table: "take" a bot's seat (a bot seat, or one its player
    # left for good), playing it from the next hand; "ask" the owner first; "never":
    # they may only watch
    late_arrivals: str = "take"


@dataclass
class Seat:
    index: int
    name: str | None = None         # None: free
    token: str | None = None        # the returning player's proof (humans only)
    language: str = "en"
    bot: Bot | None = None          # a bot seat
    standin: Bot | None = None      # a bot playing for an absent or departed human
    level: str | None = None        # a bot seat's level (bots.BOT_KINDS)
    memory: PlayTracker = field(default_factory=PlayTracker)  # the hand as its bots saw it
    conn: Peer | None = None         # the connection playing it
    epoch: int = 0                  # bumped on every (dis)connection: stale grace timers
    left: bool = False              # the player left for good (a stand-in plays on)
    standin_hands: set[int] = field(default_factory=set)  # hands a stand-in played in
    # While its player is away: what happened (events, by whom), for the return, and
    # what the stand-in did (moves, tricks won)
    missed: deque[tuple[Event, str]] = field(default_factory=lambda: deque(maxlen=MISSED))
    away_moves: int = 0
    away_tricks: int = 0
    late: bool = False              # a newcomer's: its bot plays on until the next hand

    @property
    def state(self) -> str:
        """What the table shows of the seat (protocol ``SEAT_STATES``)."""
        if self.name is None:
            return "free"
        if self.bot is not None:
            return "bot"
        if self.conn is not None:
            return "playing"
        if self.standin is None:
            return "disconnected"      # within the grace period
        return "left" if self.left else "away"

    @property
    def is_bot(self) -> bool:
        return self.bot is not None

    @property
    def robot(self) -> Bot | None:
        return self.bot or self.standin


# Inputs.
@dataclass(frozen=True, slots=True)
class Join:
    """A connection that said hello and answered the challenge (net/pake.py); ``token``:
    the seat's token the hello named, the handshake's password (else the PIN was)."""

    conn: Peer
    hello: Hello
    handshake: HostHandshake
    proof: Proof
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Command:
    """A joined connection's message for the table (``HOST_PEER``: the host's console)."""

    conn: Peer
    msg: Message


@dataclass(frozen=True, slots=True)
class Gone:
    conn: Peer


@dataclass(frozen=True, slots=True)
class Stop:
    now: bool                       # True: close at once; False: end at the next hand boundary


class _HostPeer:
    """The host itself, for host-side commands (start, a seat request's answer): it is
    sent nothing."""

    def __repr__(self) -> str:
        return "HOST_PEER"


HOST_PEER: Peer = _HostPeer()


# Outputs, to perform in order.
@dataclass(slots=True)
class Send:
    peer: Peer
    msg: Message | Numbered


@dataclass(slots=True)
class Broadcast:
    """A broadcast's frames: each peer's (one ``Numbered`` batch each, shared bytes)."""

    sends: list[tuple[Peer, Numbered]]


@dataclass(slots=True)
class Close:
    """The connection is no longer the table's: say ``bye`` with ``code`` and close it."""

    peer: Peer
    code: str


@dataclass(slots=True)
class Attach:
    """The connection now plays ``seat`` (None: watches)."""

    peer: Peer
    seat: int | None


@dataclass(slots=True)
class Detach:
    """The connection has gone: the table no longer counts it."""

    peer: Peer


@dataclass(slots=True)
class Log:
    """A line of the table's log (``what`` and its params; the table's id among them)."""

    what: str
    params: dict[str, Any]


@dataclass(slots=True)
class Changed:
    """Seats taken, the table started or over: whoever follows the table looks again."""


CHANGED = Changed()
RECENT_EVENTS = 24  # events a table keeps as spectators saw them (``TableCore.recent``)

Output: TypeAlias = Send | Broadcast | Close | Attach | Detach | Log | Changed


class TimerKind(StrEnum):
    BOT = "bot"                     # a bot's move is due (key: seat)
    TURN = "turn"                   # a human's turn timer ran out (key: seat, version)
    READY = "ready"                 # the pause between hands is over (key: hand number)
    GRACE = "grace"                 # an absent player's grace is over (key: seat, epoch)
    MINUTES = "minutes"             # a session of minutes is due to end
    AGAIN = "again"                 # the owner did not play again in time (key: session)
    INFO = "info"                   # the spectators' count is due to everyone (key: its number)
    REFUSE = "refuse"               # a wrong PIN's late refusal (key: the connection)


@dataclass(frozen=True, slots=True)
class Timer:
    kind: TimerKind
    key: Any = None


class TableCore:
    """One table's decisions. Each input returns its outputs; ``next_deadline`` is when
    it wants ``wake``. Not thread-safe: one caller feeds it, one input at a time."""

    def __init__(self, options: TableOptions, journal: JournalHook | None = None) -> None:
        if not 1 <= options.seats or options.bots > options.seats:
            raise ValueError("seats")
        if any(kind not in BOT_KINDS for kind in (options.bot_kind, *options.bot_levels)):
            raise ValueError("bot_kind")
        self.options = options
        self.rules = options.rules
        self.journal = journal
        self.seed = options.seed if options.seed is not None else new_session_seed()
        self._bot_seed = 0
        self.seats = [Seat(i) for i in range(options.seats)]
        for number, seat in enumerate(self.seats[options.seats - options.bots:], start=1):
            self._make_bot_seat(seat, number)
        self.spectators: list[Peer] = []
        self._watcher_names: dict[Peer, str] = {}
        self._members: dict[Peer, int | None] = {}  # the connections in: seat, None: watching
        self.state: State | None = None
        self.version = 0                # accepted actions so far
        self.over = False
        self._stop_requested = False
        self._end_asked = False         # the owner ends this session: the table stays open
        self.close_code: str | None = None     # why the table closed (journal_unwritable…)
        self.pin_guard = PinGuard(Limits())    # the host gives its own limits
        self._info_due: int | None = None      # the table-info flush waiting (its number)
        self._info_flushes = 0
        self._info_sent = float("-inf")
        # Seat requests by name (seat -> answer): a player without their token (another
        # device) asks for their absent seat; the owner gives it (True) or refuses (False).
        self._seat_requests: dict[int, bool | None] = {}
        self._late_asks: dict[int, str] = {}   # a bot's seat -> the late arrival asking for it
        self._deadline: float | None = None    # a session of minutes ends at a hand's end after
        self._bot_pending: set[int] = set()
        self._ready_timer_hand = -1
        self._timers: Deadlines[Timer] = Deadlines()
        self._firing: deque[Timer] = deque()  # due, not fired yet (one failed: the rest)
        self._refusing: list[Peer] = []       # wrong PINs whose refusal waits
        self._elapsed = 0.0             # a resumed session's time already played
        # The last events as a spectator sees them, numbered (the TV view's log and banners).
        self.recent: deque[tuple[int, Event, str]] = deque(maxlen=RECENT_EVENTS)
        self._events_told = 0
        self._now = 0.0                 # the time of the input being handled
        self._out: list[Output] = []
        self.projection = Projection()  # what each peer is shown, numbered
        self.sessions = 1               # sessions played at this table (play again: +1)
        self.awaiting_again = False     # session over: waiting for the owner to play again
        # A duplicate session's first one: its players and final scores, by seat
        self._duplicate_of: tuple[list[str], list[int]] | None = None

    @classmethod
    def restore(cls, options: TableOptions, state: State, version: int,
                seats: list[dict[str, Any]], journal: JournalHook | None = None,
                elapsed: float = 0.0) -> TableCore:
        """A table resumed from its journal: ``state`` after ``version`` actions,
        seats as journaled (``name``, ``token``, ``kind`` bot|human), nobody connected;
        ``elapsed``: seconds the session had already run (for ``session_end = minutes``)."""
        if len(seats) != options.seats or options.seed is None:
            raise ValueError("seats")
        table = cls(options, journal)
        for seat, saved in zip(table.seats, seats, strict=True):
            seat.name, seat.token = saved["name"], saved.get("token")
            if saved["kind"] == "bot":
                seat.level = saved.get("level", options.bot_kind)
                seat.bot = table._new_bot(seat.level)
            else:
                seat.bot = None
        names = tuple(seat.name or name for seat, name in zip(table.seats, state.players,
                                                              strict=True))
        if names != state.players:   # a late arrival's seat, renamed after the deal
            state = dataclasses.replace(state, players=names)
        table.state, table.version = state, version
        table._elapsed = elapsed
        return table

    def recall(self, moves: Iterable[tuple[State, int]]) -> None:
        """Give the bot seats' memories what their bots saw before the table stopped:
        the view before each of their moves (``(state, seat)``, of the hand in play), so
        that a resumed table's card-counting bots decide as the uninterrupted ones."""
        for state, seat in moves:
            place = self.seats[seat]
            if place.bot is not None:
                place.memory.update(view(state, seat))

    # ------------------------------------------------------------ inputs

    def open(self, now: float) -> list[Output]:
        """The table opens (a resumed one: its humans get their grace to return)."""
        self._now = now
        self._log("table_open", name=self.options.name, seats=len(self.seats))
        self._changed()
        if self.state is not None:
            for seat in self.seats:
                if not seat.is_bot:
                    self._after(self.options.grace,
                                Timer(TimerKind.GRACE, (seat.index, seat.epoch)))
            if self.rules.session_end == "minutes":
                delay = max(0.0, self.rules.session_length * 60.0 - self._elapsed)
                self._deadline = now + delay
                self._after(delay, Timer(TimerKind.MINUTES))
            self._settle()
        if self.options.auto_start and self.taken == len(self.seats):
            self._start()  # bots only
        return self.flush()

    def handle(self, command: Join | Command | Gone | Stop, now: float) -> list[Output]:
        """One input from a connection or the host, at ``now``."""
        self._now = now
        match command:
            case Join():
                self._join(command)
            case Command(conn, msg):
                if conn is HOST_PEER or conn in self._members:
                    self._message(conn, msg)
            case Gone(conn):
                self._gone(conn)
            case Stop(at_once):
                self._stop(at_once)
        return self.flush()

    def wake(self, now: float) -> list[Output]:
        """The timers due by ``now`` fire (those that a failed one left first)."""
        self._now = now
        firing = self._firing
        if not firing:
            firing.extend(self._timers.due(now))
        while firing:
            timer = firing.popleft()
            self._timer(timer.kind, timer.key)
        return self.flush()

    @property
    def next_deadline(self) -> float | None:
        """When the core wants ``wake`` (None: only an input changes anything)."""
        if self.over:
            return None
        return self._now if self._firing else self._timers.next

    def flush(self) -> list[Output]:
        """The outputs decided so far (an input's, or what one that failed had decided)."""
        out, self._out = self._out, []
        return out

    # ------------------------------------------------------------ queries

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def taken(self) -> int:
        return sum(seat.name is not None for seat in self.seats)

    def info(self) -> TableInfo:
        """The table as a lobby shows it (no tokens, no cards)."""
        return TableInfo(
            id=self.options.table_id, name=self.options.name, preset=self.options.preset,
            rules=self.rules, seats=len(self.seats),
            players=tuple(seat.name for seat in self.seats),
            bots=tuple(seat.robot is not None for seat in self.seats),
            connected=tuple(seat.conn is not None for seat in self.seats),
            states=tuple(seat.state for seat in self.seats),
            seat_requests=tuple(seat for seat, answer in sorted(self._seat_requests.items())
                                if answer is None),
            late_askers=tuple(self._late_asks.get(s.index) for s in self.seats)
            if self._late_asks else (),
            standin_hands=tuple(len(seat.standin_hands) for seat in self.seats),
            started=self.started, over=self.over, pin=bool(self.options.pin),
            spectators=len(self.spectators), proto=PROTOCOL_VERSION,
            turn_timer=round(self.options.turn_timer), again=self.awaiting_again,
            hints=self.options.hints,
        )

    def seat_request_of(self, name: str) -> int | None:
        """The seat that ``name`` asked for and nobody answered yet (None: no such)."""
        late = self._late_asked_by(name)
        if late is not None:
            return late if self._seat_requests.get(late, True) is None else None
        seat = self._absent_seat_named(name)
        if seat is None or self._seat_requests.get(seat.index, True) is not None:
            return None
        return seat.index

    def tokens(self) -> list[str]:
        """The seats' tokens and the owner's."""
        tokens = [s.token for s in self.seats if s.token is not None]
        owner = self.options.owner_token
        return tokens + [owner] if owner is not None else tokens

    def knows_token(self, token: str) -> bool:
        """Whether a seat of this table (or its owner) has this token."""
        return self._seat_with_token(token) is not None or self._is_owner_token(token)

    # ------------------------------------------------------------ commands

    def _join(self, join: Join) -> None:
        """A hello whose challenge was answered: ``join.token`` is the seat's (or the
        owner's) token the handshake used as its password, else the PIN was."""
        conn = join.conn

        def refuse(code: str, **params: Any) -> None:
            self._refuse_hello(conn, code, **params)

        hello, token = join.hello, join.token
        if self.over:
            return refuse("table_closed")
        proved = join.handshake.pin_proved(join.proof.proof)
        if token is not None and (not proved or not self.knows_token(token)):
            self._log("refused", code="bad_token", name=hello.name)
            return refuse("bad_token")
        if hello.knock:  # proved only the empty password: never a seat without the owner
            if not proved or token is not None or hello.spectate:
                return refuse("bad_token")
            return self._knock(conn, hello)
        pin = self.options.pin
        if token is None and pin and not self.pin_guard.allows(self._now):
            self._log("refused", code="too_many_attempts", name=hello.name)
            return refuse("too_many_attempts")  # past the budget no PIN is checked at all
        if not proved:
            if not pin:  # the client proved a PIN this table does not have
                return refuse("no_pin")
            return self._wrong_pin(conn, hello)
        if hello.spectate:
            if len(self.spectators) >= self.options.max_spectators:
                return refuse("spectators_full", max=self.options.max_spectators)
            self.spectators.append(conn)
            self._watcher_names[conn] = hello.name
            self._members[conn] = None
            self._out.append(Attach(conn, None))
            self._send(conn, Welcome(version=PROTOCOL_VERSION, seat=None, token=None,
                                     table=self.info()))
            self._snapshot(conn)
            self._log("spectator", name=hello.name)
            return self._spectators_changed()
        seat = self._seat_with_token(token) if token is not None else None
        owner_arriving = token is not None and seat is None and self._is_owner_token(token)
        if seat is not None:
            if seat.conn is not None:
                # The token proves the seat: the old connection is a half-open one
                # (Wi-Fi gone) or another window of the same player. The new one wins.
                self._dismiss(seat.conn, "replaced")
                self._log("replaced", seat=seat.index, name=seat.name)
            self._attach(seat, conn, join.hello)
            self._seat_requests.pop(seat.index, None)  # back with the token: nothing to ask
            gave_back = seat.standin is not None
            seat.standin, seat.left = None, False
            self._log("returned", seat=seat.index, name=seat.name, from_bot=gave_back)
            return self._welcome(conn, seat, self._catch_up(seat))
        else:
            seat = next((s for s in self.seats if s.name is None
                         and s.index not in self._late_asks), None)
            asked = self._absent_seat_named(hello.name) if self.started else None
            if asked is not None:
                answer = self._seat_requests.get(asked.index)
                if answer is None:  # ask the owner; the client asks again meanwhile
                    if asked.index not in self._seat_requests:
                        self._seat_requests[asked.index] = None
                        self._log("seat_request", seat=asked.index, name=asked.name)
                        self._broadcast_info()
                    return refuse("seat_request_sent")
                del self._seat_requests[asked.index]
                if not answer:
                    self._broadcast_info()
                    return refuse("seat_request_refused")
                return self._give_seat(asked, conn, hello)
            if self.started:
                return self._late_arrival(conn, hello)
            if seat is None:
                return refuse("table_full")
            return self._seat_new(seat, conn, hello, token if owner_arriving else None)

    def _catch_up(self, seat: Seat) -> list[tuple[Event, str]]:
        """What a returning player missed, as they may see it, and then what the stand-in
        did for them (an ``away`` event: moves, tricks won, the role now); forgotten."""
        missed = [(project_event(event, seat.index), by) for event, by in seat.missed]
        if seat.away_moves and self.state is not None:
            roles = self.state.roles
            missed.append((Event("away", {
                "seat": seat.index, "moves": seat.away_moves, "tricks": seat.away_tricks,
                "role": roles[seat.index].value if roles else None,
                "title_set": self.rules.title_set}), ""))
        seat.missed.clear()
        seat.away_moves = seat.away_tricks = 0
        return missed

    @property
    def late_seat(self) -> Seat | None:
        """A seat a newcomer may take (from the next hand): a bot seat, or one whose
        player left for good; None when there is none or the table says never."""
        if not self.started or self.over or self.options.late_arrivals == "never":
            return None
        return next((s for s in self.seats if self._late_open(s)
                     and s.index not in self._late_asks), None)

    def _late_open(self, seat: Seat) -> bool:
        return not seat.late and seat.conn is None and (
            seat.bot is not None or (seat.left and seat.standin is not None))

    def _late_asked_by(self, name: str) -> int | None:
        folded = name.casefold()
        return next((seat for seat, who in self._late_asks.items()
                     if who.casefold() == folded), None)

    def _late_arrival(self, conn: Peer, hello: Hello) -> None:
        """A newcomer to a started table: a bot's seat if the table offers one (its bot
        finishes the hand in play), else "table_full" (they may watch)."""
        seat = self.late_seat
        if self.options.late_arrivals == "ask":  # the owner decides; the client asks again
            answered = self._owners_answer(conn, hello, seat, "late_request")
            if answered is None:
                return None
            asked, answer = answered
            seat = self.seats[asked] if self._late_open(self.seats[asked]) else None
            if not answer or seat is None:
                self._broadcast_info()
                return self._refuse_hello(conn, "seat_request_refused")
        if seat is None:
            return self._refuse_hello(conn, "table_full")
        self._seat_late(seat, conn, hello)

    def _owners_answer(self, conn: Peer, hello: Hello, seat: Seat | None,
                       log: str) -> tuple[int, bool] | None:
        """The owner's answer to a newcomer who asks for ``seat``: the asked seat and the
        answer, or None once the hello is answered (request noted, still pending, no seat)."""
        asked = self._late_asked_by(hello.name)
        if asked is None:
            if seat is None:
                self._refuse_hello(conn, "table_full")
                return None
            self._late_asks[seat.index] = hello.name
            self._seat_requests[seat.index] = None
            self._log(log, seat=seat.index, name=hello.name)
            self._broadcast_info()
            self._refuse_hello(conn, "seat_request_sent")
            return None
        answer = self._seat_requests.get(asked)
        if answer is None:
            self._refuse_hello(conn, "seat_request_sent")
            return None
        del self._seat_requests[asked], self._late_asks[asked]
        return asked, answer

    def _knock(self, conn: Peer, hello: Hello) -> None:
        """A newcomer without the PIN (its budget spent) asks the owner to be let in: a
        seat request like a late arrival's (listed in ``late_askers``); the knocker asks
        again until answered, and sees nothing of the table before."""
        # The owner answers, so even a table closed to late arrivals may let one in.
        free = next((s for s in self.seats if s.index not in self._late_asks and (
            self._late_open(s) if self.started else s.name is None)), None)
        answered = self._owners_answer(conn, hello, free, "knock")
        if answered is None:
            return None
        asked, answer = answered
        seat = self.seats[asked]
        self._broadcast_info()
        if answer and self.started and self._late_open(seat):
            return self._seat_late(seat, conn, hello)
        if answer and not self.started and seat.name is None:
            return self._seat_new(seat, conn, hello)
        return self._refuse_hello(conn, "seat_request_refused")

    def _seat_new(self, seat: Seat, conn: Peer, hello: Hello, token: str | None = None) -> None:
        """A newcomer takes a free seat before the start (``token``: the owner's)."""
        seat.name = hello.name
        seat.token = token or secrets.token_hex(16)
        self._attach(seat, conn, hello)
        if self.journal is not None:
            self.journal.seated(self, seat.index)
        self._log("joined", seat=seat.index, name=seat.name)
        self._welcome(conn, seat)

    def _seat_late(self, seat: Seat, conn: Peer, hello: Hello) -> None:
        """A newcomer takes a bot's seat of a started table (its bot ends the hand)."""
        robot, was = seat.bot or seat.standin, seat.name
        seat.bot, seat.standin, seat.level, seat.left = None, robot, None, False
        seat.late = True
        seat.name, seat.token = hello.name, secrets.token_hex(16)
        seat.missed.clear()
        seat.away_moves = seat.away_tricks = 0
        if self.state is not None:     # the seat keeps its score, under its new name
            names = list(self.state.players)
            names[seat.index] = hello.name
            self.state = dataclasses.replace(self.state, players=tuple(names))
        self._attach(seat, conn, hello)
        if self.journal is not None:
            self.journal.seated(self, seat.index)
        self._log("late_arrival", seat=seat.index, name=seat.name)
        self._welcome(conn, seat, [(Event("late", {"seat": seat.index, "was": was}), "")])

    def _seat_the_late(self) -> None:
        """A new hand: the newcomers play their seats themselves."""
        for seat in self.seats:
            if seat.late:
                seat.late, seat.standin = False, None
                seat.standin_hands.clear()

    def _refuse_hello(self, conn: Peer, code: str, **params: Any) -> None:
        self._send(conn, Refused(id=None, code=code, params=params))
        self._out.append(Close(conn, code))

    def _welcome(self, conn: Peer, seat: Seat, catch_up: Sequence[tuple[Event, str]] = ()) -> None:
        """``catch_up``: what a returning player missed, sent after the snapshot."""
        self._send(conn, Welcome(version=PROTOCOL_VERSION, seat=seat.index, token=seat.token,
                                 table=self.info()))
        self._snapshot(conn, catch_up)
        self._broadcast_info()
        self._changed()
        if not self.started and self.options.auto_start and self.taken == len(self.seats):
            self._start()
        self._reschedule()

    def _play_again(self, conn: Peer, msg: AgainRequest | DuplicateRequest,
                    duplicate: bool = False) -> None:
        """The owner's new session at this table: the same seats and players, a new
        seed and deal, the scores from the start; a seat whose player left goes to a bot.
        ``duplicate``: the same seed (the same deals), every player one seat on, and at
        the end the players who held the same seat's cards compared."""
        if conn is not HOST_PEER and not self._is_owner(conn):
            return self._refuse(conn, msg.id, "not_owner")
        if not self.awaiting_again:
            return self._refuse(conn, msg.id, "session_not_over")
        assert self.state is not None
        self._duplicate_of = (list(self.state.players), list(self.state.scores)) \
            if duplicate else None
        for seat in self.seats:
            if seat.left:
                self._log("seat_freed", seat=seat.index, name=seat.name)
                self._free(seat)
                seat.left = False
            seat.standin_hands.clear()
            seat.memory = PlayTracker()
        self.sessions += 1
        if duplicate:
            self._seats_one_on()
        else:
            self.seed = (new_session_seed() if self.options.seed is None
                         else self.options.seed + self.sessions - 1)
        self.state, self.version, self.awaiting_again = None, 0, False
        self._stop_requested, self._deadline, self._elapsed = False, None, 0.0
        self._end_asked = False
        self._ready_timer_hand = -1
        self._log("play_again", session=self.sessions)
        self._send(conn, Accepted(id=msg.id))
        self._start()

    def _seats_one_on(self) -> None:
        """Every player (and bot) moves one seat on, with their connection."""
        count = len(self.seats)
        self.seats = [dataclasses.replace(self.seats[(index - 1) % count], index=index)
                      for index in range(count)]
        self._seat_requests.clear()
        self.projection.seats_moved()
        for seat in self.seats:
            seat.epoch += 1                 # a grace timer of the old seat is not this one's
            if seat.conn is not None:
                self._members[seat.conn] = seat.index
                self._out.append(Attach(seat.conn, seat.index))
            elif seat.name is not None and seat.bot is None and seat.standin is None:
                self._after(self.options.grace, Timer(TimerKind.GRACE, (seat.index, seat.epoch)))

    def _tell_duplicate(self) -> None:
        """The end of a duplicate session: each seat's players of both sessions."""
        state = self.state
        if self._duplicate_of is None or state is None:
            return
        names, scores = self._duplicate_of
        self._duplicate_of = None
        self._broadcast([Event("duplicate", {
            "before": names, "before_scores": scores,
            "players": list(state.players), "scores": list(state.scores)})])

    def _change_rules(self, conn: Peer, msg: RulesChange) -> None:
        """The owner's new house rules, before the first deal or (the session over) for
        the next one, for the same seats."""
        if conn is not HOST_PEER and not self._is_owner(conn):
            return self._refuse(conn, msg.id, "not_owner")
        if self.started and not self.awaiting_again:
            return self._refuse(conn, msg.id, "already_started")
        try:
            check_player_count(msg.rules, len(self.seats))
        except RulesError as error:
            return self._refuse(conn, msg.id, error.code, **error.params)
        self.rules = msg.rules
        self.options.preset, self.options.rules = msg.preset, msg.rules
        self._log("rules_changed", preset=msg.preset)
        self._send(conn, Accepted(id=msg.id))
        self._broadcast_info()
        self._changed()

    def _wrong_pin(self, conn: Peer, hello: Hello) -> None:
        """Refuse a wrong PIN, counted against the table's budget and answered later and
        later (``PinGuard``)."""
        self._log("refused", code="wrong_pin", name=hello.name)
        delay = self.pin_guard.failed(self._now)
        if delay <= 0:
            return self._refuse_hello(conn, "wrong_pin")
        self._refusing.append(conn)
        self._after(delay, Timer(TimerKind.REFUSE, conn))
        return None

    def _absent_seat_named(self, name: str) -> Seat | None:
        """A human's seat of that name whose player is not connected."""
        folded = name.casefold()
        return next((s for s in self.seats if s.name is not None and s.bot is None
                     and s.conn is None and s.name.casefold() == folded), None)

    def _give_seat(self, seat: Seat, conn: Peer, hello: Hello) -> None:
        """The owner gave the seat to a player who came back without its token: a new
        token, so the old one (the lost device) no longer works."""
        seat.token = secrets.token_hex(16)
        if self.journal is not None:
            self.journal.seated(self, seat.index)
        self._attach(seat, conn, hello)
        seat.standin, seat.left = None, False
        self._log("seat_given", seat=seat.index, name=seat.name)
        self._welcome(conn, seat, self._catch_up(seat))

    def _answer_seat_request(self, seat: int, give: bool) -> bool:
        """The owner's (or the console's) answer; False when nobody asked for ``seat``."""
        if seat not in self._seat_requests:
            return False
        self._seat_requests[seat] = give
        self._log("seat_answer", seat=seat, give=give)
        self._broadcast_info()
        return True

    def _seat_with_token(self, token: str) -> Seat | None:
        return next((s for s in self.seats if s.token is not None
                     and hmac.compare_digest(s.token, token)), None)

    def _is_owner_token(self, token: str) -> bool:
        owner = self.options.owner_token
        return owner is not None and hmac.compare_digest(owner, token)

    def _owner_seat(self) -> Seat | None:
        """The seat of the player who opened the table (None: no owner, or not seated)."""
        return next((s for s in self.seats if s.token is not None
                     and self._is_owner_token(s.token)), None)

    def _is_owner(self, conn: Peer) -> bool:
        index = self._members.get(conn)
        token = self.seats[index].token if index is not None else None
        return token is not None and self._is_owner_token(token)

    def _attach(self, seat: Seat, conn: Peer, hello: Hello) -> None:
        seat.conn, seat.language, seat.epoch = conn, hello.language, seat.epoch + 1
        self._members[conn] = seat.index
        self._out.append(Attach(conn, seat.index))

    def _dismiss(self, conn: Peer, code: str) -> None:
        """The connection is no longer the table's: its commands are ignored from now."""
        self._members.pop(conn, None)
        self._out.append(Close(conn, code))

    def _message(self, conn: Peer, msg: Message) -> None:
        if isinstance(msg, ActionRequest):
            return self._action(conn, msg)
        if isinstance(msg, StartRequest):
            if conn is not HOST_PEER and self._members.get(conn) is None:
                return self._refuse(conn, msg.id, "spectator")
            if self.started:
                return self._refuse(conn, msg.id, "already_started")
            if conn is not HOST_PEER and not self._is_owner(conn):
                return self._refuse(conn, msg.id, "owner_only")
            self._send(conn, Accepted(id=msg.id))
            return self._start()
        if isinstance(msg, SeatAnswer):
            if conn is not HOST_PEER and not self._is_owner(conn):
                return self._refuse(conn, msg.id, "not_owner")
            if not self._answer_seat_request(msg.seat, msg.give):
                return self._refuse(conn, msg.id, "no_seat_request")
            self._send(conn, Accepted(id=msg.id))
            return None
        if isinstance(msg, RulesChange):
            return self._change_rules(conn, msg)
        if isinstance(msg, EndRequest):
            if conn is not HOST_PEER and not self._is_owner(conn):
                return self._refuse(conn, msg.id, "not_owner")
            self._send(conn, Accepted(id=msg.id))
            self._log("end_requested")
            if conn is HOST_PEER or self.options.again_wait <= 0 or self.state is None:
                return self._stop(now=False)
            self._end_asked = True      # after this hand; then the owner may play again
            if self.state.phase is Phase.HAND_OVER:
                self._end_session()
            return None
        if isinstance(msg, (AgainRequest, DuplicateRequest)):
            return self._play_again(conn, msg, duplicate=isinstance(msg, DuplicateRequest))
        if isinstance(msg, ChatRequest):
            index = self._members.get(conn)
            name = (self.seats[index].name if index is not None
                    else self._watcher_names.get(conn))
            return self._send_all(Chat(seat=index, name=name or "?", text=msg.text))
        if isinstance(msg, HintRequest):
            return self._hint(conn, msg)
        if isinstance(msg, SnapshotRequest):
            return self._snapshot(conn)
        if isinstance(msg, Leave):
            return self._leave(conn)

    def _action(self, conn: Peer, msg: ActionRequest) -> None:
        seat = self._members.get(conn)
        if seat is None:
            return self._refuse(conn, msg.id, "spectator")
        if self.seats[seat].late:
            return self._refuse(conn, msg.id, "late_seat")
        if self.state is None:
            return self._refuse(conn, msg.id, "not_started")
        try:
            action = msg.action(seat)
        except NotationError as error:
            return self._refuse(conn, msg.id, "bad_cards", detail=error.code)
        try:
            self._commit(action, reply=Send(conn, Accepted(id=msg.id)))
        except IllegalAction as error:
            return self._refuse(conn, msg.id, error.code, phase=self.state.phase.value)

    def _hint(self, conn: Peer, msg: HintRequest) -> None:
        """The medium bot's ideas from the asker's own view (what its seat saw played this
        hand: ``Seat.memory``, which its stand-ins read too)."""
        seat = self._members.get(conn)
        if seat is None:
            return self._refuse(conn, msg.id, "spectator")
        if self.state is None:
            return self._refuse(conn, msg.id, "not_started")
        if not self.options.hints:
            return self._refuse(conn, msg.id, "hints_off")
        ideas = MediumBot(memory=self.seats[seat].memory).suggest(view(self.state, seat))
        self._send(conn, HintReply(id=msg.id, hints=tuple(suggestion_to_dict(s) for s in ideas)))

    def _refuse(self, conn: Peer, request_id: int | None, code: str, **params: Any) -> None:
        self._send(conn, Refused(id=request_id, code=code, params=params))

    def _leave(self, conn: Peer) -> None:
        seat = self._seat_of(conn)
        self._dismiss(conn, "left")
        if seat is None:
            self._drop_spectator(conn)
            return
        seat.conn, seat.epoch = None, seat.epoch + 1
        if not self.started:
            self._free(seat)
        elif not self.over:
            seat.standin, seat.left = seat.standin or self._new_bot(), True
            seat.late = False
        self._log("left", seat=seat.index, name=seat.name)
        if self.awaiting_again and seat.token is not None and self._is_owner_token(seat.token):
            return self._close("session_over")      # nobody else may play again
        self._broadcast_info()
        self._changed()
        self._reschedule()

    def _gone(self, conn: Peer) -> None:
        seat = self._seat_of(conn)
        if conn not in self._members:
            return
        del self._members[conn]
        self._out.append(Detach(conn))
        if seat is None:
            self._drop_spectator(conn)
            return
        seat.conn, seat.epoch = None, seat.epoch + 1
        self._log("disconnected", seat=seat.index, name=seat.name)
        self._after(self.options.grace, Timer(TimerKind.GRACE, (seat.index, seat.epoch)))
        self._broadcast_info()

    def _drop_spectator(self, conn: Peer) -> None:
        self._watcher_names.pop(conn, None)
        if conn in self.spectators:
            self.spectators.remove(conn)
            self._spectators_changed()

    def _seat_of(self, conn: Peer) -> Seat | None:
        index = self._members.get(conn)
        if index is None or self.seats[index].conn is not conn:
            return None
        return self.seats[index]

    def _free(self, seat: Seat) -> None:
        seat.name = seat.token = None
        seat.standin = None
        seat.missed.clear()
        seat.away_moves = seat.away_tricks = 0

    def _stop(self, now: bool) -> None:
        if now:
            # A journaled session in progress can be resumed (``president host --resume``):
            # "host_paused" tells the clients to keep trying to come back.
            paused = self.journal is not None and self.state is not None
            return self._close("host_paused" if paused else "host_stopping")
        self._stop_requested = True
        if self.state is None:
            return self._close("host_stopping")
        if self.awaiting_again:
            return self._close("session_over")
        if self.state.phase is Phase.HAND_OVER:
            self._end_session()

    # ------------------------------------------------------------ the game

    def _start(self) -> None:
        if self.state is not None:  # already dealt (a table resumed from its journal)
            return
        taken = {seat.name for seat in self.seats}
        numbers = (n for n in range(self.options.bots + 1, 2 * MAX_SEATS + 1)
                   if f"Bot {n}" not in taken)         # after a play again: not a name twice
        for seat in (s for s in self.seats if s.name is None):
            self._make_bot_seat(seat, next(numbers))
        self._seat_the_late()
        names = [seat.name or "?" for seat in self.seats]
        self.state, events = engine.new_session(self.rules, names, self.seed)
        if self.rules.session_end == "minutes":
            delay = self.rules.session_length * 60.0
            self._deadline = self._now + delay
            self._after(delay, Timer(TimerKind.MINUTES))
        if self.journal is not None:
            try:
                self.journal.started(self)
            except NetError as error:  # locked or unwritable: do not play unrecorded
                self.state = None
                return self._close(error.code)
        self._log("started", players=names)  # never the seed: every hand follows from it
        self._broadcast_info()
        self._changed()
        self._broadcast(events)
        self._settle()

    def _commit(self, action: Action, reply: Send | None = None, by: str = "") -> None:
        """The one place an action is accepted: apply, journal, broadcast, reply.
        ``by`` says who acted when it was not the seat's player (``EVENT_BY``).

        Raises ``IllegalAction`` (state unchanged) before anything is recorded.
        """
        assert self.state is not None
        previous = self.state
        self.state, events = engine.apply(self.state, action)
        self.version += 1
        if not self._journaled(action_to_dict(action), previous):
            return
        if any(event.code == "deal" for event in events):
            self._seat_the_late()
        self._broadcast(events, by)
        if reply is not None:
            self._out.append(reply)
        self._settle()

    def _end_session(self) -> None:
        assert self.state is not None
        previous = self.state
        self.state, events = engine.end_session(self.state)
        self.version += 1
        if not self._journaled({"type": "end_session"}, previous):
            return
        self._broadcast(events)
        self._settle()

    def _journaled(self, action: dict[str, Any], previous: State) -> bool:
        """Hand the action to the journal; if it cannot write, undo it and close the table."""
        if self.journal is None:
            return True
        try:
            self.journal.accepted(self, action)
        except NetError as error:
            log.error("table %s: journal failed (%s): closing", self.options.table_id, error)
            self.state, self.version = previous, self.version - 1
            self._close(error.code)
            return False
        return True

    def _settle(self) -> None:
        """After a change: end the session at a hand boundary if due, close, or reschedule."""
        state = self.state
        assert state is not None
        if state.phase is Phase.SESSION_OVER:
            if self.over or self.awaiting_again:
                return
            self._tell_duplicate()
            owner = self._owner_seat()
            if (owner is None or owner.left or self.options.again_wait <= 0
                    or self._stop_requested):            # ended on purpose: closed
                return self._close("session_over")
            self.awaiting_again = True                 # the owner may play again
            self._after(self.options.again_wait, Timer(TimerKind.AGAIN, self.sessions))
            self._broadcast_info()
            return self._changed()
        if state.phase is Phase.HAND_OVER:
            late = self._deadline is not None and self._now >= self._deadline
            if late or self._stop_requested or self._end_asked:
                return self._end_session()
        self._reschedule()

    def _broadcast(self, events: list[Event], by: str = "") -> None:
        """Each event and then the new view to every peer; ``by`` marks the first
        event (the action itself; what follows from it is the rules' doing)."""
        assert self.state is not None
        for k, event in enumerate(events):
            self._events_told += 1
            self.recent.append((self._events_told, project_event(event, None),
                                by if k == 0 else ""))
            if event.code == "hand_end":
                self._log("hand_end", hand=event.params["hand"], scores=event.params["scores"],
                          order=event.params["order"])
            elif event.code == "session_end":
                self._log("session_end", scores=event.params["scores"],
                          winners=event.params["winners"])
        for place in self.seats:    # kept for the players away (a bot plays for them)
            if place.conn is None and place.bot is None and place.name is not None:
                place.missed.extend((event, by if number == 0 else "")
                                    for number, event in enumerate(events))
                if place.standin is not None:
                    place.away_tricks += sum(1 for event in events if event.code == "clear"
                                             and event.params.get("leader") == place.index)
        self._out.append(Broadcast(self.projection.broadcast(self.state, events, by,
                                                             self._peers())))

    def _close(self, code: str) -> None:
        self.over = True
        self.close_code = code
        self._broadcast_info()
        for conn, _ in self._peers():
            self._dismiss(conn, code)
        for conn in self._refusing:   # no deadline comes any more: answered now
            self._refuse_hello(conn, "wrong_pin")
        self._refusing.clear()
        self._log("table_closed", code=code)
        self._changed()

    # ------------------------------------------------------------ bots and timers

    def _reschedule(self) -> None:
        """After any change: schedule bot moves, the turn timer and the ready timeout."""
        state = self.state
        if state is None or self.over:
            return
        options = self.options
        for index in self._waiting_for():
            seat = self.seats[index]
            if seat.robot is not None:
                if index not in self._bot_pending:
                    self._bot_pending.add(index)
                    self._after(options.bot_delay, Timer(TimerKind.BOT, index))
            elif options.turn_timer > 0 and state.phase in (Phase.PLAY, Phase.TAX):
                self._after(options.turn_timer, Timer(TimerKind.TURN, (index, self.version)))
        if (state.phase is Phase.HAND_OVER and options.ready_timeout > 0
                and self._ready_timer_hand != state.hand_number):
            self._ready_timer_hand = state.hand_number
            self._after(options.ready_timeout, Timer(TimerKind.READY, state.hand_number))

    def _waiting_for(self) -> list[int]:
        """The seats the session waits for: in the tricks the one ``to_act`` names; in
        the tax and between hands each seat that still owes an action (they act in any
        order, so their bots and timers run side by side)."""
        state = self.state
        assert state is not None
        if state.phase is Phase.PLAY:
            seat = engine.to_act(state)
            return [seat] if seat is not None else []
        return [seat for seat in state.seats if any(
            not isinstance(a, Decree) for a in engine.legal_actions(state, seat))]

    def _must_act(self, seat: int) -> bool:
        return seat in self._waiting_for()

    def _timer(self, kind: TimerKind, key: Any) -> None:
        state = self.state
        if kind is TimerKind.REFUSE:
            if key in self._refusing:
                self._refusing.remove(key)
                self._refuse_hello(key, "wrong_pin")
            return None
        if kind is TimerKind.INFO:
            if key == self._info_due:
                self._flush_info()
            return None
        if kind is TimerKind.GRACE:
            index, epoch = key
            seat = self.seats[index]
            if seat.conn is not None or seat.epoch != epoch or self.over:
                return None
            if state is None:
                self._log("seat_freed", seat=index, name=seat.name)
                self._free(seat)
            else:
                seat.standin = self._new_bot()
                self._log("standin", seat=index, name=seat.name)
            self._broadcast_info()
            self._changed()
            return self._reschedule()
        if state is None or self.over:
            return None
        if kind is TimerKind.BOT:
            self._bot_pending.discard(key)
            place = self.seats[key]
            if place.robot is not None and self._must_act(key):
                by = ""
                if place.bot is None:      # a stand-in: everyone is told
                    by = "standin"
                    place.standin_hands.add(state.hand_number)
                    place.away_moves += 1
                self._commit(self._decision_bot(key).choose(view(state, key)), by=by)
        elif kind is TimerKind.TURN:
            index, version = key
            if version == self.version and self.seats[index].robot is None \
                    and self._must_act(index):
                self._log("turn_timeout", seat=index)
                legal = engine.legal_actions(state, index)
                if self.options.timer_action == "pass" and Pass(index) in legal:
                    self._commit(Pass(index), by="timeout")
                else:
                    self._commit(self._decision_bot(index).choose(view(state, index)),
                                 by="timeout")
        elif kind is TimerKind.READY:
            while not self.over and self.state is not None:  # each Ready makes a new state
                state = self.state
                if state.phase is not Phase.HAND_OVER or state.hand_number != key:
                    break
                waiting = [s for s in state.seats if s not in state.ready]
                if not waiting:
                    break
                self._commit(Ready(waiting[0]))
        elif kind is TimerKind.MINUTES and state.phase is Phase.HAND_OVER:
            self._end_session()
        elif kind is TimerKind.AGAIN and self.awaiting_again and key == self.sessions:
            self._close("session_over")
        return None

    def _after(self, delay: float, timer: Timer) -> None:
        self._timers.add(self._now + max(0.0, delay), timer)

    def _new_bot(self, level: str | None = None) -> Bot:
        """A seat's bot (``level``), or a stand-in at the table's level."""
        self._bot_seed += 1
        return make_bot(level or self.options.bot_kind, seed=bot_seed(self.seed, self._bot_seed),
                        budget=self.options.bot_budget)

    def _decision_bot(self, seat: int) -> Bot:
        """A bot for one move, seeded from (session seed, seat, actions so far): a table
        resumed from its journal moves as the uninterrupted one would have. (The levels
        that count cards read what the seat saw this hand from ``Seat.memory``, which a
        resumed table starts afresh, and ``hard`` searches for a CPU time: those may
        then choose otherwise.)"""
        place = self.seats[seat]
        level = place.level if place.bot is not None else None
        return make_bot(level or self.options.bot_kind,
                        seed=move_seed(self.seed, seat, self.version),
                        budget=self.options.bot_budget, memory=place.memory)

    def _make_bot_seat(self, seat: Seat, number: int) -> None:
        levels = self.options.bot_levels
        seat.level = levels[number - 1] if number <= len(levels) else self.options.bot_kind
        seat.name, seat.bot, seat.token = f"Bot {number}", self._new_bot(seat.level), None

    # ------------------------------------------------------------ outputs

    def _peers(self) -> list[tuple[Peer, int | None]]:
        """Every connection in, with the seat it plays (None: watching)."""
        return ([(s.conn, s.index) for s in self.seats if s.conn is not None]
                + [(conn, None) for conn in self.spectators])

    def _send(self, conn: Peer, msg: Message) -> None:
        if conn is not HOST_PEER:
            self._out.append(Send(conn, msg))

    def _send_all(self, msg: Message) -> None:
        self._out.extend(Send(conn, msg) for conn, _ in self._peers())

    def _snapshot(self, conn: Peer, catch_up: Sequence[tuple[Event, str]] = ()) -> None:
        """The table as it is now to ``conn``; with ``catch_up`` (events it missed), the
        view is numbered before them so that they follow it in sequence and the next
        broadcast follows them."""
        if self.state is None:
            self._send(conn, TableUpdate(table=self.info()))
        else:
            seq = self.projection.seq
            catch_up = list(catch_up)[-seq:] if seq else []
            first = seq - len(catch_up)
            self._send(conn, self.projection.snapshot(self.state, self._members.get(conn),
                                                      first))
            for number, (event, by) in enumerate(catch_up, first + 1):
                self._send(conn, EventUpdate(seq=number, event=event, by=by))

    def _broadcast_info(self) -> None:
        """Everyone gets the table's info now (a seat changed: at most a few per hand)."""
        self._flush_info()

    def _spectators_changed(self) -> None:
        """A watcher came or went: everyone learns the count at most once per
        ``info_interval``, so a crowd arriving costs each peer one frame, not one each."""
        if self._info_due is not None:
            return  # one is due: it will carry this change too
        self._info_flushes += 1
        self._info_due = self._info_flushes
        wait = self._info_sent + self.options.info_interval - self._now
        self._after(wait, Timer(TimerKind.INFO, self._info_due))

    def _flush_info(self) -> None:
        self._info_due = None
        self._info_sent = self._now
        self._send_all(TableUpdate(table=self.info()))

    def _changed(self) -> None:
        self._out.append(CHANGED)

    def _log(self, what: str, /, **params: Any) -> None:
        self._out.append(Log(what, {"table": self.options.table_id, **params}))
