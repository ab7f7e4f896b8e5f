"""One table's asyncio driver: a task that feeds the table's core and performs its
outputs.

The rules of the table live in ``table_core.TableCore`` (sans-I/O). Here: connection
tasks put commands on ``Table.queue``; the table task hands them to the core one at a
time with the time (so there are no locks), sends what it says to whom, closes what
it says, and sleeps until the core's next deadline (a ``_WAKE`` on the same queue, so
a timer waits behind the commands already queued). The host's console asks through
the same queue (``request_start``, ``request_stop``, ``request_seat_answer``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, cast

from president.events import Event
from president.rules import HouseRules
from president.state import State

from .limits import PinGuard
from .protocol import Message, Numbered, SeatAnswer, StartRequest, TableInfo
from .table_core import (
    HOST_PEER,
    Attach,
    Broadcast,
    Changed,
    Close,
    Command,
    Detach,
    Gone,
    Join,
    JournalHook,
    Log,
    Output,
    Seat,
    Send,
    Stop,
    TableCore,
    TableOptions,
)

__all__ = ["Command", "Gone", "Join", "JournalHook", "Peer", "Seat", "Stop", "Table",
           "TableCore", "TableOptions"]

log = logging.getLogger("president.net.table")


class Peer(Protocol):
    """What the driver needs of a connection (``host.Connection``)."""

    seat: int | None
    table: Table | None
    attached: bool

    def send(self, msg: Message | Numbered) -> bool: ...
    def close(self, code: str, **params: Any) -> None: ...
    def done(self) -> None: ...


class _Wake:
    """On the queue: the core's deadline has come."""


_WAKE = _Wake()


class Table:
    """A table served over asyncio: ``run`` is its task; the rest reads its core."""

    def __init__(self, options: TableOptions, journal: JournalHook | None = None,
                 on_log: Callable[[str, dict[str, Any]], None] | None = None, *,
                 core: TableCore | None = None) -> None:
        self.core = core if core is not None else TableCore(options, journal)
        self.on_log = on_log
        self.on_change: Callable[[Table], None] | None = None  # seats taken / started / over
        self.queue: asyncio.Queue[Join | Command | Gone | Stop | _Wake] = asyncio.Queue()
        self.closed = asyncio.Event()   # set when the table task has finished
        self._wake: asyncio.TimerHandle | None = None
        self._wake_at: float | None = None

    @classmethod
    def restore(cls, options: TableOptions, state: State, version: int,
                seats: list[dict[str, Any]], journal: JournalHook | None = None,
                on_log: Callable[[str, dict[str, Any]], None] | None = None,
                elapsed: float = 0.0) -> Table:
        """A table resumed from its journal (``TableCore.restore``)."""
        return cls(options, journal, on_log,
                   core=TableCore.restore(options, state, version, seats, journal, elapsed))

    # ------------------------------------------------------------ the core, read

    @property
    def options(self) -> TableOptions:
        return self.core.options

    @property
    def late_seat_open(self) -> bool:
        """A newcomer would get a bot's seat (from the next hand)."""
        return self.core.late_seat is not None

    @property
    def journal(self) -> JournalHook | None:
        return self.core.journal

    @property
    def rules(self) -> HouseRules:
        return self.core.rules

    @property
    def seats(self) -> list[Seat]:
        return self.core.seats

    @property
    def state(self) -> State | None:
        return self.core.state

    @property
    def version(self) -> int:
        return self.core.version

    @property
    def seed(self) -> int:
        return self.core.seed

    @property
    def over(self) -> bool:
        return self.core.over

    @property
    def started(self) -> bool:
        return self.core.started

    @property
    def taken(self) -> int:
        return self.core.taken

    @property
    def close_code(self) -> str | None:
        return self.core.close_code

    @property
    def sessions(self) -> int:
        return self.core.sessions

    @property
    def awaiting_again(self) -> bool:
        return self.core.awaiting_again

    @property
    def spectators(self) -> list[Any]:
        return self.core.spectators

    @property
    def pin_guard(self) -> PinGuard:
        return self.core.pin_guard

    @pin_guard.setter
    def pin_guard(self, guard: PinGuard) -> None:
        self.core.pin_guard = guard

    def info(self) -> TableInfo:
        return self.core.info()

    @property
    def recent(self) -> Sequence[tuple[int, Event, str]]:
        """The last events as a spectator saw them: (number, event, by), oldest first."""
        return self.core.recent

    def tokens(self) -> list[str]:
        return self.core.tokens()

    def knows_token(self, token: str) -> bool:
        return self.core.knows_token(token)

    def recall(self, moves: Iterable[tuple[State, int]]) -> None:
        self.core.recall(moves)

    # ------------------------------------------------------------ the host's requests

    def request_seat_answer(self, name: str, give: bool) -> bool:
        """The host's console answers the seat request of ``name`` (from any task)."""
        seat = self.core.seat_request_of(name)
        if seat is None:
            return False
        self.queue.put_nowait(Command(HOST_PEER, SeatAnswer(id=0, seat=seat, give=give)))
        return True

    def request_start(self) -> None:
        """Start now (empty seats get bots), from any task."""
        self.queue.put_nowait(Command(HOST_PEER, StartRequest(id=0)))

    def request_stop(self, now: bool = False) -> None:
        """End the session at the next hand boundary (``now``: close at once)."""
        self.queue.put_nowait(Stop(now))

    # ------------------------------------------------------------ the task

    async def run(self) -> None:
        """The table task: feed the core until the session is over and closed."""
        self.perform(self.core.open(time.monotonic()))
        self._arm()
        try:
            while not self.core.over:
                item = await self.queue.get()
                self._handle(item)
                if isinstance(item, Command) and item.conn is not HOST_PEER:
                    cast(Peer, item.conn).done()
        finally:
            if self._wake is not None:
                self._wake.cancel()
            self.closed.set()

    def _handle(self, item: Join | Command | Gone | Stop | _Wake) -> None:
        """One input to the core, its outputs performed (also called directly by tests
        and benches, without the task)."""
        core = self.core
        now = time.monotonic()  # the clock of asyncio's loop.time()
        try:
            if isinstance(item, _Wake):
                self._wake = self._wake_at = None
                self.perform(core.wake(now))
            else:
                self.perform(core.handle(item, now))
        except Exception:  # a bug of ours: log it, keep the table alive
            log.exception("table %s: error handling %r", self.options.table_id, item)
            self.perform(core.flush())  # what it had decided before
        if not core.over:
            self._arm()

    def perform(self, outputs: list[Output]) -> None:
        """Do what the core decided, in its order."""
        for out in outputs:
            if isinstance(out, Broadcast):      # the hot path
                for conn, frames in out.sends:
                    conn.send(frames)           # type: ignore[attr-defined]
            elif isinstance(out, Send):
                out.peer.send(out.msg)          # type: ignore[attr-defined]
            elif isinstance(out, Close):
                closing = cast(Peer, out.peer)
                closing.attached = False
                closing.close(out.code)
            elif isinstance(out, Attach):
                joined = cast(Peer, out.peer)
                joined.seat, joined.table, joined.attached = out.seat, self, True
            elif isinstance(out, Detach):
                cast(Peer, out.peer).attached = False
            elif isinstance(out, Log):
                if self.on_log is not None:
                    self.on_log(out.what, out.params)
                log.debug("%s %s", out.what, out.params)
            elif isinstance(out, Changed) and self.on_change is not None:
                self.on_change(self)

    def _arm(self) -> None:
        """Be woken at the core's next deadline (behind the commands queued by then)."""
        deadline = self.core.next_deadline
        if deadline is None or (self._wake_at is not None and self._wake_at <= deadline):
            return
        if self._wake is not None:
            self._wake.cancel()
        self._wake_at = deadline
        self._wake = asyncio.get_running_loop().call_at(deadline, self.queue.put_nowait, _WAKE)
