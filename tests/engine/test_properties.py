"""Property tests over seeded random sessions, for every preset and random rule mixes.

Set ``PRESIDENT_PROPERTY_SCALE`` (default 1) to multiply the number of sessions.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace

import pytest
from engine_kit import NAMES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president.actions import (
    CHOSEN_CARDS,
    REASONS,
    Action,
    Decree,
    Discard,
    Give,
    GiveBack,
    Pass,
    Play,
    Ready,
)
from president.cards import Card, make_deck, parse_cards
from president.engine import apply, legal_actions, new_session, to_act
from president.errors import IllegalAction
from president.events import Event, project_event
from president.moves import canonical_cards
from president.roles import Role, roles_for_places
from president.rules import ALLOWED, PRESETS, HouseRules
from president.state import Phase, State
from president.view import view

SCALE = int(os.environ.get("PRESIDENT_PROPERTY_SCALE", "1"))
HANDS = 3  # hands per session


def rules_strategy() -> st.SearchStrategy[HouseRules]:
    """Every HouseRules field over its allowed values."""
    skip = {"min_players", "max_players", "session_length"}
    fields = {name: st.sampled_from(values) for name, values in ALLOWED.items() if name not in skip}
    fields["session_length"] = st.integers(1, HANDS)
    return st.fixed_dictionaries(fields).map(lambda values: HouseRules(**coherent(values)))


def coherent(values: dict) -> dict:
    """HouseRules refuses "zero" without bga scoring and a target below bga's start."""
    if values["session_end"] == "zero":
        values["scoring"] = "bga"
    elif values["session_end"] == "target" and values["scoring"] == "bga":
        values["session_end"] = "hands"
    return values


# ------------------------------------------------------------ the checked random driver


class Checker:
    """Plays a random session and checks every invariant after every action."""

    def __init__(self, rules: HouseRules, players: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.state, events = new_session(rules, NAMES[:players], seed)
        self.deck = Counter(make_deck(rules.deck_count(players), rules.jokers))
        self.actions: list[Action] = []
        self.events: list[Event] = list(events)
        self.played: Counter[Card] = Counter()
        self.steps_in_hand = 0
        self.limit = 6 * len(self.deck) * players  # a hand never takes more actions
        self.hands_done = 0
        self.check_events(events)
        self.check_state()

    def run(self, hands: int) -> State:
        while self.state.phase is not Phase.SESSION_OVER and self.hands_done < hands:
            self.step()
        return self.state

    def step(self) -> None:
        state = self.state
        options = [
            (seat, a) for seat in state.seats for a in legal_actions(state, seat)
            if not isinstance(a, Decree)
        ]
        assert options, "no seat can act"
        if self.rng.random() < 0.3:
            self.try_illegal()
        if state.rules.decree and self.rng.random() < 0.2:
            for seat in state.seats:
                if Decree(seat, "") in legal_actions(state, seat):
                    options.append((seat, Decree(seat, "Scum stands")))
        for _, other in self.rng.sample(options, min(2, len(options))):
            apply(state, other)  # every listed action is accepted
        _, action = self.rng.choice(options)
        self.state, events = apply(state, action)
        self.actions.append(action)
        self.events += events
        self.steps_in_hand += 1
        assert self.steps_in_hand <= self.limit, "the hand does not end"
        self.check_events(events)
        self.check_state()
        if self.rng.random() < 0.15:
            self.check_views()
        if self.state.phase is Phase.PLAY and not self.state.giving and self.rng.random() < 0.1:
            self.check_plays_complete()

    # -- invariants

    def check_events(self, events: list[Event]) -> None:
        for event in events:
            if event.code == "deal":
                self.played.clear()
                self.steps_in_hand = 0
            elif event.code in ("play", "downfall", "discard"):  # a fallen President's, a discard
                self.played.update(parse_cards(event.params["cards"]))
            elif event.code == "clear":
                self.check_clear_leader(event.params["leader"])
            elif event.code == "hand_end":
                self.hands_done += 1
                order = event.params["order"]
                players = len(self.state.players)
                assert sorted(order) == list(range(players))
                roles = event.params["roles"]
                assert Counter(roles) == Counter(r.value for r in roles_for_places(players))
                for place, seat in enumerate(order):
                    assert roles[seat] == roles_for_places(players)[place].value
            for seat in [None, *self.state.seats]:
                self.check_projection(event, seat)

    def check_clear_leader(self, leader: int) -> None:
        """The last player to play leads; if they are out, the next seat holding cards."""
        state = self.state
        last = next(
            e.params["seat"] for e in reversed(self.events) if e.code == "play"
        )
        if state.hands[last]:
            assert leader == last
        else:
            index = state.order.index(last)
            count = len(state.order)
            following = [state.order[(index + k * state.direction) % count]
                         for k in range(1, count)]
            assert leader == next(s for s in following if state.hands[s])

    def check_plays_complete(self) -> None:
        """With a small hand, the legal plays are exactly the beating sub-multisets."""
        from itertools import combinations

        from president.combos import BEATS, EQUAL, classify, compare, strengths
        from president.locks import breaks_lock

        state = self.state
        seat = state.turn
        hand = state.hands[seat]
        if len(hand) > 9:
            return
        rules, reversed_ = state.rules, state.reversed
        expected = set()
        for size in range(1, len(hand) + 1):
            for cards in set(combinations(hand, size)):
                combo = classify(cards, rules, reversed_)
                if not isinstance(combo, str) and compare(
                    combo, state.top, rules, reversed_
                ) in (BEATS, EQUAL) and breaks_lock(  # and keep the suit lock (suit_lock)
                    state.lock, cards, combo, state.top, rules,
                    strengths(rules.rank_order, reversed_)) is None:
                    expected.add(canonical_cards(hand, cards, rules, single=True))
                    apply(state, Play(seat, cards))  # any suits of a listed play are accepted
        listed = [a.cards for a in legal_actions(state, seat) if isinstance(a, Play)]
        assert len(listed) == len(set(listed)), "a play is listed twice"
        assert set(listed) == expected

    def check_projection(self, event: Event, seat: int | None) -> None:
        seen = project_event(event, seat)
        if project_event(event, None) is event:  # a spectator sees the least
            assert seen is event, "an event a spectator sees whole hides something"
        if event.code == "deal":
            assert "hands" not in seen.params
            hands = event.params["hands"]
            assert seen.params.get("cards") == (hands[seat] if seat is not None else None)
            assert seen.params["counts"] == [len(h.split()) for h in hands]
        elif event.code in ("tax", "give") and seat not in (
                event.params["from"], event.params["to"]):
            assert "cards" not in seen.params  # a tax transfer, a 7-pass: the two players only
        else:
            assert seen == event

    def check_state(self) -> None:
        state = self.state
        held = Counter(card for hand in state.hands for card in hand)
        assert held + self.played == self.deck, "cards not conserved"
        assert all(list(hand) == sorted(hand) for hand in state.hands)
        pile = Counter(card for entry in state.pile for card in entry.cards)
        assert not pile - self.played
        if state.phase is Phase.PLAY:
            assert state.turn is not None and state.hands[state.turn]
            assert legal_actions(state, state.turn)
            assert len(state.active) >= 2
        if state.phase is Phase.TAX:
            assert state.tax_due
        self.check_to_act()

    def check_to_act(self) -> None:
        """``to_act`` names a seat with something other than a decree to do (the lowest
        such seat, the President's decree first), the only one in the tricks; None once
        the session is over."""
        state = self.state
        seat = to_act(state)
        acting = [s for s in state.seats
                  if any(not isinstance(a, Decree) for a in legal_actions(state, s))]
        if state.phase is Phase.SESSION_OVER:
            assert seat is None and not acting
            return
        assert seat is not None and seat in acting
        if state.phase is Phase.PLAY:
            assert acting == [seat] == [state.turn]
        elif Decree(seat, "") not in legal_actions(state, seat) or state.phase is Phase.TAX:
            assert seat == acting[0]
        else:  # between hands, the President who may decree, not yet ready
            assert state.roles is not None and state.roles[seat] is Role.PRESIDENT

    def check_views(self) -> None:
        """A seat's view equals its view of any state where the others' hidden cards differ."""
        state = self.state
        seat = self.rng.choice(list(state.seats))
        mine = view(state, seat)
        assert mine.hand == state.hands[seat]
        for action in mine.legal:
            if isinstance(action, (Play, *CHOSEN_CARDS)):
                assert not Counter(action.cards) - Counter(state.hands[seat])
        assert all(seat in transfer[:2] for transfer in mine.tax_mine)
        assert all(seat in gift[:2] for gift in mine.gifts_mine)
        others = [s for s in state.seats if s != seat]
        pool = [card for s in others for card in state.hands[s]]
        self.rng.shuffle(pool)
        hands = list(state.hands)
        for s in others:
            count = len(hands[s])
            hands[s], pool = tuple(sorted(pool[:count])), pool[count:]
        log = tuple(t for t in state.tax_log if seat in t[:2])
        gifts = tuple(g for g in state.gifts if seat in g[:2])
        altered = replace(state, hands=tuple(hands), tax_log=log, gifts=gifts)
        assert view(altered, seat) == mine
        spectator = view(state, None)
        assert spectator.hand == () and spectator.legal == () and spectator.tax_mine == ()
        assert spectator.gifts_mine == ()
        assert view(altered, None) == spectator

    def try_illegal(self) -> None:
        state = self.state
        seat = self.rng.choice([*state.seats, len(state.players)])
        hand = state.hands[seat] if seat < len(state.players) else ()
        pool = list(hand) + [Card.parse(t) for t in ("3C", "7H", "2S", "QD")]
        cards = tuple(sorted(self.rng.sample(pool, self.rng.randint(0, min(4, len(pool))))))
        action: Action = self.rng.choice([
            Play(seat, cards), Pass(seat), GiveBack(seat, cards), Give(seat, cards),
            Discard(seat, cards), Ready(seat),
            Decree(seat, self.rng.choice(["", "ok"])),
        ])
        legal = legal_actions(state, seat) if seat < len(state.players) else ()
        if action in legal or (isinstance(action, Decree) and action.text and
                               Decree(seat, "") in legal):
            return
        chosen = isinstance(action, (Play, *CHOSEN_CARDS))
        if chosen and cards and not Counter(cards) - Counter(hand):
            single = isinstance(action, Play)  # cards differing only in suit stand for each other
            if replace(action, cards=canonical_cards(hand, cards, state.rules, single=single)) \
                    in legal:
                return
        before = replace(state)
        with pytest.raises(IllegalAction) as caught:
            apply(state, action)
        assert caught.value.code in REASONS
        assert state == before

    def check_replay(self) -> None:
        state, events = new_session(
            self.state.rules, self.state.players, self.seed
        )
        replayed = list(events)
        for action in self.actions:
            state, events = apply(state, action)
            replayed += events
        assert state == self.state
        assert replayed == self.events


def check_session(rules: HouseRules, players: int, seed: int, hands: int = HANDS) -> Checker:
    checker = Checker(rules, players, seed)
    checker.run(hands)
    checker.check_replay()
    return checker


# ------------------------------------------------------------ the tests


PRESET_CASES = [
    (name, players)
    for name, rules in PRESETS.items()
    for players in range(rules.min_players, rules.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), PRESET_CASES)
def test_presets_random_sessions_keep_every_invariant(name: str, players: int) -> None:
    for seed in range(SCALE):
        check_session(PRESETS[name], players, 1000 * players + seed)


@pytest.mark.slow
@settings(max_examples=40 * SCALE, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), players=st.integers(3, 8), seed=st.integers(0, 2**32))
def test_random_rule_combinations_keep_every_invariant(
    rules: HouseRules, players: int, seed: int
) -> None:
    check_session(rules, players, seed, hands=2)


def test_same_seed_same_session() -> None:
    a = check_session(PRESETS["bga"], 5, 7)
    b = check_session(PRESETS["bga"], 5, 7)
    assert a.actions == b.actions and a.state == b.state and a.events == b.events
    c = Checker(PRESETS["bga"], 5, 8)
    assert c.events[0].params["hands"] != a.events[0].params["hands"]


def test_checker_detects_lost_card() -> None:
    """The conservation check can fail: a state with a card removed is caught."""
    checker = Checker(HouseRules(), 4, 3)
    hands = list(checker.state.hands)
    hands[0] = hands[0][1:]
    checker.state = replace(checker.state, hands=tuple(hands))
    with pytest.raises(AssertionError, match="conserved"):
        checker.check_state()
