"""What a seat knows of the hidden cards: 10-discards and its own 7-passes are facts, and
the deals of the search respect them; a pass on the trick is weighed, not taken as a fact."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from engine_kit import NAMES, position, run

from president.bots.determinize import sample_hands
from president.bots.knowledge import knowledge
from president.bots.medium import MediumBot
from president.bots.tables import tables_for
from president.cards import parse_cards
from president.engine import apply, new_session, to_act
from president.rules import PRESETS
from president.state import Phase, State
from president.view import View, view

LOCAL = PRESETS["daihinmin_local"]


def _first(found: Callable[[State, View, MediumBot], bool],
           seeds: range) -> tuple[State, View, MediumBot]:
    """The first decision in the tricks (medium bots at four seats) where ``found`` holds."""
    for seed in seeds:
        state, _ = new_session(LOCAL, NAMES[:4], seed)
        bots = [MediumBot(seat) for seat in range(4)]
        while state.phase is not Phase.SESSION_OVER and state.hand_number <= 2:
            seat = to_act(state)
            assert seat is not None
            seen = view(state, seat)
            deciding = state.phase is Phase.PLAY and seen.choosing is None
            if deciding and found(state, seen, bots[seat]):
                return state, seen, bots[seat]
            state, _ = apply(state, bots[seat].choose(seen))
    raise AssertionError("no such position")


def test_cards_another_seat_discarded_are_known_not_unseen() -> None:
    state, seen, bot = _first(
        lambda state, seen, bot: any(who != seen.seat for who, _ in seen.discards), range(40))
    tables = tables_for(LOCAL)
    known = knowledge(seen, tables, bot.tracker.update(seen))
    thrown = [card for who, cards in seen.discards if who != seen.seat for card in cards]
    assert thrown and not set(thrown) & set(known.unseen_cards)
    # and what is unseen is exactly what the other seats hold, plus what was played out of sight
    held = Counter(card for seat, hand in enumerate(state.hands) if seat != seen.seat
                   for card in hand)
    assert not held - Counter(known.unseen_cards)


def test_the_seat_a_card_was_7_passed_to_holds_it_in_every_deal() -> None:
    def gave(state: State, seen: View, bot: MediumBot) -> bool:
        bot.tracker.update(seen)
        return any(giver == seen.seat and set(cards) <= set(state.hands[to])
                   for giver, to, cards in seen.gifts_mine)

    state, seen, bot = _first(gave, range(40))
    tables = tables_for(LOCAL)
    known = knowledge(seen, tables, bot.tracker.update(seen))
    giver, to, cards = next(g for g in seen.gifts_mine if g[0] == seen.seat)
    rng = random.Random(2)
    for _ in range(20):
        hands = sample_hands(seen, known, tables, rng)
        assert set(cards) <= set(hands[to])
        assert [len(h) for h in hands] == [len(h) for h in state.hands]


def test_a_seat_that_passed_on_a_single_is_dealt_cheap_answers_less_often() -> None:
    """Soft: passing is legal with a playable card, so the deals only lean away from it."""
    hands = ["3C 4D 9S KH", "5C 6D 7S 8H", "5D 6H 7D 8S", "5H 6S 7C 8D"]
    state, _ = run(position(hands, turn=0), (0, "4D"), (1, None))
    seen = view(state, 2)
    tables = tables_for(state.rules)
    known = knowledge(seen, tables, {0: list(parse_cards("4D"))})
    rng = random.Random(5)
    cheap = set(parse_cards("5C 6D 7S 8H 5H 6S 7C 8D"))  # every card out beats a 4
    passer = others = 0
    for _ in range(400):
        dealt = sample_hands(seen, known, tables, rng)
        passer += sum(card in cheap for card in dealt[1])
        others += sum(card in cheap for card in dealt[3])
    assert passer < 0.6 * others  # uniform deals would give each about as many

