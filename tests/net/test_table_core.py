"""The table's rules without an event loop: ``TableCore`` driven by inputs and a fake
clock, its outputs read as a driver would perform them (frames decoded per peer)."""

from __future__ import annotations

import ast
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

from netkit import check_no_hidden_cards
from rawpeer import proved_join

from president import engine
from president.actions import Decree
from president.errors import NetError
from president.net.deadlines import Deadlines
from president.net.pake import ClientHandshake, HostHandshake, HostKey, HostSecrets
from president.net.protocol import (
    HOST,
    PROTOCOL_VERSION,
    ActionRequest,
    AgainRequest,
    ChatRequest,
    Decoder,
    EndRequest,
    Hello,
    Leave,
    Message,
    Numbered,
    Proof,
    RulesChange,
    SeatAnswer,
    StartRequest,
    action_request,
    encode,
)
from president.net.table_core import (
    Attach,
    Broadcast,
    Close,
    Command,
    Detach,
    Gone,
    Join,
    Log,
    Output,
    Send,
    Stop,
    TableCore,
    TableOptions,
)
from president.rules import HouseRules
from president.state import Phase

ROOT = Path(__file__).resolve().parents[2]
OWNER = "ab" * 16


class Peer:
    """A connection as the core sees it: a handle."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Peer({self.name})"


class Harness:
    """A core, a fake clock, and what each peer was sent (decoded), closed with, logged."""

    def __init__(self, journal: Any = None, **options: Any) -> None:
        options.setdefault("rules", HouseRules(session_end="open"))
        options.setdefault("seed", 7)
        self.core = TableCore(TableOptions(**options), journal)
        self.now = 1000.0
        self.frames: dict[Peer, list[dict[str, Any]]] = defaultdict(list)
        self.closed: dict[Peer, str] = {}
        self.seat: dict[Peer, int | None] = {}
        self.logs: list[tuple[str, dict[str, Any]]] = []
        self.outputs: list[Output] = []  # every output, in order
        self.perform(self.core.open(self.now))

    def perform(self, outputs: list[Output]) -> list[Output]:
        self.outputs += outputs
        for out in outputs:
            if isinstance(out, Broadcast):
                for peer, frames in out.sends:
                    self.receive(peer, frames)
            elif isinstance(out, Send):
                self.receive(out.peer, out.msg)
            elif isinstance(out, Close):
                assert isinstance(out.peer, Peer)
                self.closed[out.peer] = out.code
            elif isinstance(out, Attach):
                assert isinstance(out.peer, Peer)
                self.seat[out.peer] = out.seat
            elif isinstance(out, Log):
                self.logs.append((out.what, out.params))
        return outputs

    def receive(self, peer: object, msg: Message | Numbered) -> None:
        """``peer`` reads ``msg`` as its client would."""
        if isinstance(msg, Numbered):
            data = msg.data
        else:
            data = encode(msg, check=False)
        assert isinstance(peer, Peer)
        self.frames[peer] += [m.to_wire() for m in Decoder(HOST).feed(data)]

    def join(self, peer: Peer, name: str | None = None, *, token: str | None = None,
             pin: str | None = None, host_pin: str | None = None,
             spectate: bool = False, knock: bool = False) -> dict[str, Any]:
        """Join ``peer`` proving ``token`` or ``pin`` (``host_pin``: the one the host
        checks it against, if not that one; ``knock``: the empty password of a knock);
        its welcome or refusal (None: not yet)."""
        hello = Hello(version=PROTOCOL_VERSION, name=name or peer.name, language="en",
                      share=bytes(65), seat_hint=None, spectate=spectate,
                      table=None, knock=knock)
        join = proved_join(peer, hello, token if token is not None else pin)
        if host_pin is not None:
            client = ClientHandshake(pin, b"raw")
            host = HostHandshake(HostSecrets(HostKey.generate(), host_pin), client.share,
                                 b"raw")
            join = Join(peer, hello, host, Proof(proof=client.answer(host.public, host.share)))
        if token is not None:
            join = Join(peer, hello, join.handshake, join.proof, token)
        self.perform(self.core.handle(join, self.now))
        answers = [f for f in self.frames[peer] if f["type"] in ("welcome", "refused")]
        return answers[-1] if answers else {}

    def say(self, peer: Peer, msg: Message) -> dict[str, Any] | None:
        """``msg`` from ``peer``; the reply to it, if any."""
        before = len(self.frames[peer])
        self.perform(self.core.handle(Command(peer, msg), self.now))
        replies = [f for f in self.frames[peer][before:] if f["type"] in ("accepted", "refused")]
        return replies[-1] if replies else None

    def gone(self, peer: Peer) -> None:
        self.perform(self.core.handle(Gone(peer), self.now))

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass, waking the core at each of its deadlines."""
        end = self.now + seconds
        while (due := self.core.next_deadline) is not None and due <= end:
            self.now = max(self.now, due)
            self.perform(self.core.wake(self.now))
        self.now = end

    def last(self, peer: Peer, *types: str) -> dict[str, Any]:
        return next(f for f in reversed(self.frames[peer]) if f["type"] in types)

    def events(self, peer: Peer) -> list[dict[str, Any]]:
        return [f for f in self.frames[peer] if f["type"] == "event"]

    def to_act(self) -> int | None:
        state = self.core.state
        assert state is not None
        return next((s for s in state.seats if any(
            not isinstance(a, Decree) for a in engine.legal_actions(state, s))), None)

    def play(self, peers: dict[int, Peer], rng: random.Random) -> None:
        """The bots' moves due, then one random legal action of the seat that must act,
        by its peer."""
        self.advance(0)
        seat = self.to_act()
        assert seat is not None
        state = self.core.state
        assert state is not None
        action = rng.choice([a for a in engine.legal_actions(state, seat)
                             if not isinstance(a, Decree)])
        reply = self.say(peers[seat], action_request(action, 1))
        assert reply is not None and reply["type"] == "accepted", reply


def started(harness: Harness, *names: str) -> dict[int, Peer]:
    """Seat ``names`` (the table starts when full): their peers by seat."""
    peers = {}
    for name in names:
        peer = Peer(name)
        welcome = harness.join(peer)
        assert welcome["type"] == "welcome", welcome
        peers[welcome["seat"]] = peer
    assert harness.core.started
    return peers


# ---------------------------------------------------------------- seating


def test_players_take_the_free_seats_in_order_and_the_full_table_deals() -> None:
    table = Harness(seats=3, bots=1, late_arrivals="never")   # (no bot's seat to take)
    ada, bea, cy = Peer("Ada"), Peer("Bea"), Peer("Cy")
    first = table.join(ada)
    assert (first["seat"], table.seat[ada], table.core.started) == (0, 0, False)
    assert table.core.next_deadline is None
    second = table.join(bea)
    assert second["seat"] == 1 and second["token"] != first["token"]
    assert len(first["token"]) == 32
    assert table.core.state is not None and table.core.state.players == ("Ada", "Bea", "Bot 1")
    assert ("started", {"table": "main", "players": ["Ada", "Bea", "Bot 1"]}) in table.logs
    refused = table.join(cy)
    assert refused == {"type": "refused", "id": None, "code": "table_full", "params": {}}
    assert table.closed[cy] == "table_full" and cy not in table.seat


def test_a_late_arrival_takes_the_bots_seat_and_plays_it_from_the_next_hand() -> None:
    table = Harness(seats=3, bots=1)
    ada, bea, cy = Peer("Ada"), Peer("Bea"), Peer("Cy")
    table.join(ada)
    table.join(bea)
    welcome = table.join(cy)                      # Bot 1's seat, its bot still playing
    assert welcome["seat"] == 2 and table.seat[cy] == 2
    seat = table.core.seats[2]
    assert seat.late and seat.standin is not None and seat.bot is None
    assert table.core.state is not None and table.core.state.players[2] == "Cy"
    assert ("late_arrival", {"table": "main", "seat": 2, "name": "Cy"}) in table.logs
    told = [f["event"] for f in table.frames[cy] if f["type"] == "event"]
    assert told[-1] == {"type": "late", "seat": 2, "was": "Bot 1"}
    table.core._seat_the_late()                   # (a new deal)
    assert not seat.late and seat.robot is None


def test_a_seat_left_before_the_deal_is_free_again() -> None:
    table = Harness(seats=3)
    ada, bea = Peer("Ada"), Peer("Bea")
    table.join(ada)
    table.join(bea)
    assert table.say(bea, Leave()) is None
    assert table.closed[bea] == "left"
    assert [s.state for s in table.core.seats] == ["playing", "free", "free"]
    assert table.join(Peer("Cy"))["seat"] == 1


# ---------------------------------------------------------------- reclaim by token


def test_a_token_takes_its_seat_back_and_the_old_connection_is_replaced() -> None:
    table = Harness(seats=3, bots=1, grace=30)
    peers = started(table, "Ada", "Bea")
    ada = peers[0]
    token = table.last(ada, "welcome")["token"]
    again = Peer("Ada, second window")
    welcome = table.join(again, "Ada", token=token)
    assert (welcome["seat"], welcome["token"]) == (0, token)
    assert table.closed[ada] == "replaced"
    before = len(table.frames[ada])
    assert table.say(ada, StartRequest(id=3)) is None  # the old one is no longer heard
    assert len(table.frames[ada]) == before
    table.gone(again)
    assert table.core.seats[0].state == "disconnected"
    assert Detach(again) in table.outputs
    assert table.core.next_deadline == table.now + 30   # the grace period
    assert table.join(Peer("Eve"), "Ada", token="00" * 16)["code"] == "bad_token"


def test_after_the_grace_a_stand_in_plays_and_gives_the_seat_back() -> None:
    table = Harness(seats=3, bots=1, grace=10)
    peers = started(table, "Ada", "Bea")
    token = table.last(peers[0], "welcome")["token"]
    table.gone(peers[0])
    table.advance(9.9)
    assert table.core.seats[0].standin is None
    table.advance(0.2)
    assert table.core.seats[0].state == "away"
    rng = random.Random(1)
    while not table.core.seats[0].standin_hands:       # Bea plays until the stand-in moves
        table.play(peers, rng)
        table.advance(0)
    assert any(e.get("by") == "standin" and e["event"].get("seat") == 0
               for e in table.events(peers[1]))
    back = Peer("Ada again")
    assert table.join(back, "Ada", token=token)["seat"] == 0
    assert table.core.seats[0].state == "playing" and table.core.seats[0].standin is None
    assert ("returned", {"table": "main", "seat": 0, "name": "Ada", "from_bot": True}) \
        in table.logs


# ---------------------------------------------------------------- the owner


def test_only_the_owner_starts_changes_the_rules_and_ends() -> None:
    table = Harness(seats=4, owner_token=OWNER, auto_start=False)
    anna, guest = Peer("Anna"), Peer("Guest")
    assert table.join(anna, token=OWNER)["token"] == OWNER
    table.join(guest)
    rules = HouseRules(session_end="hands", session_length=2)
    assert table.say(guest, RulesChange(id=1, preset="classic", rules=rules))["code"] \
        == "not_owner"
    assert table.say(anna, RulesChange(id=2, preset="classic", rules=rules))["type"] \
        == "accepted"
    assert table.core.rules == rules
    assert table.say(guest, StartRequest(id=3))["code"] == "owner_only"
    assert not table.core.started
    assert table.say(anna, StartRequest(id=4))["type"] == "accepted"
    assert table.core.state is not None
    assert table.core.state.players == ("Anna", "Guest", "Bot 1", "Bot 2")
    assert table.say(guest, EndRequest(id=5))["code"] == "not_owner"
    assert table.say(anna, EndRequest(id=6))["type"] == "accepted"
    assert table.core._stop_requested


def test_a_seat_asked_for_by_name_is_given_by_the_owner_with_a_new_token() -> None:
    table = Harness(seats=3, bots=1, owner_token=OWNER, grace=60)
    anna, bea = Peer("Anna"), Peer("Bea")
    table.join(anna, token=OWNER)
    old_token = table.join(bea)["token"]
    table.gone(bea)
    phone = Peer("Bea's phone")
    assert table.join(phone, "bea")["code"] == "seat_request_sent"   # any case
    assert table.core.info().seat_requests == (1,)
    assert table.say(anna, SeatAnswer(id=1, seat=1, give=True))["type"] == "accepted"
    welcome = table.join(Peer("Bea's phone, again"), "Bea")
    assert welcome["seat"] == 1 and welcome["token"] not in (old_token, None)
    assert table.core.info().seat_requests == ()
    assert table.join(Peer("lost device"), "Bea", token=old_token)["code"] == "bad_token"


def test_a_refused_seat_request_is_final() -> None:
    table = Harness(seats=3, bots=1, owner_token=OWNER, grace=60)
    anna, bea = Peer("Anna"), Peer("Bea")
    table.join(anna, token=OWNER)
    table.join(bea)
    table.gone(bea)
    table.join(Peer("x"), "Bea")
    assert table.say(bea, SeatAnswer(id=1, seat=1, give=True)) is None  # gone: not heard
    assert table.say(anna, SeatAnswer(id=2, seat=1, give=False))["type"] == "accepted"
    assert table.join(Peer("y"), "Bea")["code"] == "seat_request_refused"


def spend_pin_budget(table: Harness) -> None:
    guard = table.core.pin_guard
    while guard.allows(table.now):
        guard.failed(table.now)


def test_past_the_pin_budget_a_knock_waits_for_the_owner_who_lets_them_in() -> None:
    table = Harness(seats=3, bots=1, owner_token=OWNER, pin="1234")
    anna = Peer("Anna")
    table.join(anna, token=OWNER)
    spend_pin_budget(table)
    assert table.join(Peer("Fay"), pin="1234")["code"] == "too_many_attempts"
    knocker = Peer("Fay knocking")
    assert table.join(knocker, "Fay", knock=True)["code"] == "seat_request_sent"
    assert table.seat.get(knocker) is None and table.closed[knocker] == "seat_request_sent"
    assert [f["type"] for f in table.frames[knocker]] == ["refused"]  # nothing of the table
    assert table.core.info().late_askers[1] == "Fay"
    assert table.core.seat_request_of("fay") == 1   # the console's `give Fay`
    assert table.join(Peer("Fay again"), "Fay", knock=True)["code"] == "seat_request_sent"
    assert table.say(anna, SeatAnswer(id=1, seat=1, give=True))["type"] == "accepted"
    welcome = table.join(Peer("Fay let in"), "Fay", knock=True)
    assert welcome["type"] == "welcome" and welcome["seat"] == 1
    assert table.core.seats[1].name == "Fay" and table.core.info().late_askers == ()


def test_a_knock_the_owner_refuses_gets_a_clear_no_and_no_seat() -> None:
    table = Harness(seats=3, bots=1, owner_token=OWNER, pin="1234")
    anna = Peer("Anna")
    table.join(anna, token=OWNER)
    spend_pin_budget(table)
    table.join(Peer("Fay"), knock=True)
    assert table.say(anna, SeatAnswer(id=1, seat=1, give=False))["type"] == "accepted"
    last = Peer("Fay, last")
    assert table.join(last, "Fay", knock=True)["code"] == "seat_request_refused"
    assert table.closed[last] == "seat_request_refused" and table.core.seats[1].name is None


def test_a_knock_at_a_started_table_takes_a_bots_seat_once_let_in() -> None:
    table = Harness(seats=3, bots=1, owner_token=OWNER, pin="1234", late_arrivals="never")
    anna, bea = Peer("Anna"), Peer("Bea")
    table.join(anna, token=OWNER)
    table.join(bea, pin="1234")
    assert table.core.started
    spend_pin_budget(table)
    assert table.join(Peer("Fay"), knock=True)["code"] == "seat_request_sent"
    assert table.say(anna, SeatAnswer(id=1, seat=2, give=True))["type"] == "accepted"
    welcome = table.join(Peer("Fay in"), "Fay", knock=True)
    assert welcome["type"] == "welcome" and welcome["seat"] == 2


def test_a_knock_proving_a_pin_instead_of_the_empty_password_is_refused() -> None:
    table = Harness(seats=3, owner_token=OWNER, pin="1234")
    peer = Peer("Fay")
    assert table.join(peer, pin="1234", host_pin="", knock=True)["code"] == "bad_token"


# ---------------------------------------------------------------- timers


def test_a_turn_timer_runs_out_into_a_bot_move_marked_timeout() -> None:
    table = Harness(seats=3, turn_timer=5)
    peers = started(table, "Ada", "Bea", "Cy")
    seat = table.to_act()
    assert seat is not None
    version = table.core.version
    assert table.core.next_deadline == table.now + 5
    table.advance(4.9)
    assert table.core.version == version
    table.advance(0.2)
    assert table.core.version == version + 1
    assert ("turn_timeout", {"table": "main", "seat": seat}) in table.logs
    (event,) = [e for e in table.events(peers[seat]) if e.get("by") == "timeout"]
    assert event["event"]["seat"] == seat


def test_a_move_in_time_makes_the_old_turn_timer_harmless() -> None:
    table = Harness(seats=3, turn_timer=5)
    peers = started(table, "Ada", "Bea", "Cy")
    table.advance(3)
    table.play(peers, random.Random(2))
    version = table.core.version
    table.advance(2.5)                      # the first timer fires: not for this turn
    assert table.core.version == version
    assert not any(what == "turn_timeout" for what, _ in table.logs)


def test_bots_move_at_their_deadline_and_not_before() -> None:
    table = Harness(seats=3, bots=2, bot_delay=2.0)
    (human,) = started(table, "Ada").values()
    state = table.core.state
    assert state is not None
    if table.to_act() == 0:
        table.play({0: human}, random.Random(3))
    version = table.core.version
    assert table.core.next_deadline == table.now + 2.0
    table.advance(1.9)
    assert table.core.version == version
    table.advance(0.1)
    assert table.core.version == version + 1


def test_the_pause_between_hands_ends_with_everyone_ready() -> None:
    rules = HouseRules(session_end="hands", session_length=3)
    table = Harness(seats=3, ready_timeout=20, rules=rules)
    peers = started(table, "Ada", "Bea", "Cy")
    rng = random.Random(4)
    state = table.core.state
    assert state is not None
    while state.phase is not Phase.HAND_OVER:
        table.play(peers, rng)
        state = table.core.state
        assert state is not None
    assert table.core.next_deadline == table.now + 20
    table.advance(20)
    state = table.core.state
    assert state is not None and state.hand_number == 2 and state.phase is not Phase.HAND_OVER


def test_a_wrong_pin_past_the_free_ones_is_refused_later() -> None:
    table = Harness(seats=4, pin="1234")
    for n in range(3):  # Limits.pin_free: answered at once
        assert table.join(Peer(f"guess{n}"), pin="0000", host_pin="1234")["code"] \
            == "wrong_pin"
    late = Peer("guess3")
    table.join(late, pin="0000", host_pin="1234")
    assert table.frames[late] == [] and table.core.next_deadline == table.now + 0.5
    table.advance(0.5)
    assert table.frames[late][-1]["code"] == "wrong_pin" and table.closed[late] == "wrong_pin"
    assert table.join(Peer("right"), pin="1234")["type"] == "welcome"


def test_a_late_pin_refusal_is_not_lost_when_the_table_closes() -> None:
    table = Harness(seats=4, pin="1234")
    guesses = [Peer(f"guess{n}") for n in range(4)]
    for guess in guesses:
        table.join(guess, pin="0000", host_pin="1234")
    late = guesses[-1]                  # past Limits.pin_free: its refusal waits
    assert table.frames[late] == []
    table.perform(table.core.handle(Stop(now=True), table.now))
    assert table.core.over and table.core.next_deadline is None
    assert table.frames[late][-1]["code"] == "wrong_pin" and table.closed[late] == "wrong_pin"


def test_a_session_of_minutes_ends_at_the_end_of_the_hand_its_deadline_falls_in() -> None:
    rules = HouseRules(session_end="minutes", session_length=1)
    table = Harness(seats=3, ready_timeout=0, rules=rules)
    peers = started(table, "Ada", "Bea", "Cy")
    assert table.core.next_deadline == table.now + 60
    rng = random.Random(9)
    table.play(peers, rng)
    table.advance(61)
    assert not table.core.over      # mid-hand: the hand is finished first
    while not table.core.over:
        table.play(peers, rng)
    state = table.core.state
    assert state is not None and state.phase is Phase.SESSION_OVER and state.hand_number == 1
    assert set(table.closed.values()) == {"session_over"}


def test_a_stop_ends_the_session_at_the_next_hand_boundary() -> None:
    table = Harness(seats=3, ready_timeout=0)
    peers = started(table, "Ada", "Bea", "Cy")
    rng = random.Random(10)
    table.play(peers, rng)
    table.perform(table.core.handle(Stop(now=False), table.now))
    assert not table.core.over
    while not table.core.over:
        table.play(peers, rng)
    state = table.core.state
    assert state is not None and state.phase is Phase.SESSION_OVER and state.hand_number == 1


def test_the_owner_may_play_again_until_the_wait_runs_out() -> None:
    rules = HouseRules(session_end="hands", session_length=1)
    table = Harness(seats=3, bots=1, owner_token=OWNER, again_wait=30, rules=rules)
    anna, bea = Peer("Anna"), Peer("Bea")
    table.join(anna, token=OWNER)
    table.join(bea)
    peers = {0: anna, 1: bea}
    rng = random.Random(11)
    while not table.core.awaiting_again:
        table.play(peers, rng)
    assert table.core.next_deadline == table.now + 30 and not table.core.over
    assert table.say(bea, AgainRequest(id=1))["code"] == "not_owner"
    assert table.say(anna, AgainRequest(id=2))["type"] == "accepted"
    assert table.core.sessions == 2 and table.core.started and not table.core.awaiting_again
    while not table.core.awaiting_again:
        table.play(peers, rng)
    table.advance(29)
    assert not table.core.over
    table.advance(1)
    assert table.core.over and table.closed[anna] == "session_over"


def test_spectators_arriving_together_cost_the_players_one_table_frame() -> None:
    table = Harness(seats=3, info_interval=0.25)
    peers = started(table, "Ada", "Bea", "Cy")
    count = len([f for f in table.frames[peers[0]] if f["type"] == "table"])
    table.advance(1)
    for n in range(3):
        table.join(Peer(f"watcher{n}"), spectate=True)
    infos = [f for f in table.frames[peers[0]] if f["type"] == "table"][count:]
    assert infos == []          # due at the next turn of the driver, one for the three
    table.advance(0.25)
    infos = [f for f in table.frames[peers[0]] if f["type"] == "table"][count:]
    assert [f["table"]["spectators"] for f in infos] == [3]


def test_a_chat_line_goes_to_everyone_under_its_speaker_s_name() -> None:
    table = Harness(seats=3)
    peers = started(table, "Ada", "Bea", "Cy")
    watcher = Peer("w")
    table.join(watcher, "Wendy", spectate=True)
    table.say(watcher, ChatRequest(text="hi"))
    table.say(peers[1], ChatRequest(text="hello"))
    for peer in [*peers.values(), watcher]:
        chats = [(f["seat"], f["name"], f["text"]) for f in table.frames[peer]
                 if f["type"] == "chat"]
        assert chats == [(None, "Wendy", "hi"), (1, "Bea", "hello")]


# ---------------------------------------------------------------- the commit point


class Journal:
    """A journal hook that notes what it was told, or fails to write."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.fail_after = fail_after
        self.accepted_versions: list[int] = []

    def started(self, table: TableCore) -> None:
        pass

    def seated(self, table: TableCore, seat: int) -> None:
        pass

    def accepted(self, table: TableCore, action: dict[str, Any]) -> None:
        if self.fail_after is not None and len(self.accepted_versions) >= self.fail_after:
            raise NetError("journal_unwritable")
        self.accepted_versions.append(table.version)


def test_every_accepted_action_is_journaled_once_with_the_state_applied() -> None:
    journal = Journal()
    table = Harness(journal, seats=3)
    peers = started(table, "Ada", "Bea", "Cy")
    rng = random.Random(5)
    for _ in range(10):
        table.play(peers, rng)
    assert journal.accepted_versions == list(range(1, 11)) == list(range(1, table.core.version + 1))


def test_an_action_the_journal_cannot_write_is_undone_before_anyone_sees_it() -> None:
    journal = Journal(fail_after=2)
    table = Harness(journal, seats=3)
    peers = started(table, "Ada", "Bea", "Cy")
    rng = random.Random(6)
    table.play(peers, rng)
    table.play(peers, rng)
    state, version = table.core.state, table.core.version
    seat = table.to_act()
    assert seat is not None and state is not None
    action = next(a for a in engine.legal_actions(state, seat) if not isinstance(a, Decree))
    mark = len(table.outputs)
    table.say(peers[seat], action_request(action, 9))
    after = table.outputs[mark:]
    assert (table.core.state, table.core.version) == (state, version)
    assert table.core.over and table.core.close_code == "journal_unwritable"
    assert not any(isinstance(o, Broadcast) for o in after)
    assert {o.peer for o in after if isinstance(o, Close)} == set(peers.values())
    assert all(f["type"] != "accepted" for f in table.frames[peers[seat]][-3:])


# ---------------------------------------------------------------- what goes to whom


def test_a_spectator_never_sees_a_hidden_card_and_each_seat_only_its_own() -> None:
    rules = HouseRules(session_end="hands", session_length=3)
    table = Harness(seats=3, ready_timeout=0, rules=rules)
    peers = started(table, "Ada", "Bea", "Cy")
    watcher = Peer("watcher")
    assert table.join(watcher, spectate=True)["seat"] is None
    rng = random.Random(8)
    while table.core.state is not None and table.core.state.phase is not Phase.SESSION_OVER:
        table.play(peers, rng)
    assert check_no_hidden_cards(table.frames[watcher], None) > 10
    for seat, peer in peers.items():
        assert check_no_hidden_cards(table.frames[peer], seat) > 10
    assert table.closed == {peer: "session_over" for peer in [*peers.values(), watcher]}


def test_a_spectator_cannot_act_and_a_stranger_is_not_heard() -> None:
    table = Harness(seats=3)
    peers = started(table, "Ada", "Bea", "Cy")
    watcher, stranger = Peer("w"), Peer("s")
    table.join(watcher, spectate=True)
    state = table.core.state
    assert state is not None
    seat = table.to_act()
    assert seat is not None
    action = next(a for a in engine.legal_actions(state, seat) if not isinstance(a, Decree))
    request = action_request(action, 4)
    assert isinstance(request, ActionRequest)
    assert table.say(watcher, request)["code"] == "spectator"
    assert table.say(stranger, request) is None and table.frames[stranger] == []
    assert table.core.version == 0 and len(peers) == 3


# ---------------------------------------------------------------- sans-I/O


def test_the_core_has_no_io_no_task_and_no_await() -> None:
    for name in ("table_core.py", "deadlines.py", "projection.py"):
        tree = ast.parse((ROOT / "net" / name).read_text(encoding="utf-8"))
        imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, ast.Import) for alias in node.names}
        imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree)
                     if isinstance(node, ast.ImportFrom) and not node.level}
        assert not imported & {"asyncio", "socket", "selectors", "threading", "time"}, name
        assert not [node for node in ast.walk(tree) if isinstance(
            node, ast.Await | ast.AsyncFunctionDef | ast.AsyncFor | ast.AsyncWith)], name


def test_deadlines_fire_in_order_and_one_set_while_firing_waits() -> None:
    timers: Deadlines[str] = Deadlines()
    assert timers.next is None
    timers.add(5.0, "b")
    timers.add(3.0, "a")
    timers.add(5.0, "c")
    assert timers.next == 3.0
    assert timers.due(4.9) == ["a"]
    timers.add(4.0, "later")
    assert timers.due(5.0) == ["later", "b", "c"]
    assert timers.due(100.0) == [] and len(timers) == 0 and timers.next is None


def test_no_deadline_when_nothing_waits() -> None:
    table = Harness(seats=3, grace=5)
    assert table.core.next_deadline is None
    peers = started(table, "Ada", "Bea", "Cy")
    assert table.core.next_deadline is None  # humans to play, no timers set
    table.gone(peers[2])
    assert table.core.next_deadline == table.now + 5
