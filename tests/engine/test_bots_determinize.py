"""The hard bot's guesses: sampled hands fit what the seat knows, and a state rebuilt
from a view plus the true hands plays on exactly as the real one."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from engine_kit import NAMES, all_ready, between_hands
from test_bots_levels import random_rules

from president.actions import Decree
from president.bots import make_bot
from president.bots.determinize import sample_hands, state_from_view
from president.bots.hard import HardBot, pick
from president.bots.knowledge import knowledge
from president.bots.tables import tables_for
from president.engine import apply, legal_actions, new_session
from president.state import Phase
from president.view import view


def _next_seat(state):
    for seat in state.seats:
        if any(not isinstance(a, Decree) for a in legal_actions(state, seat)):
            return seat
    return None


@pytest.mark.slow
def test_rebuilt_state_plays_on_like_the_real_one() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        rules = random_rules(rng, hands=2)
        if rules.revolution == "quad_or_four_in_a_row":
            continue  # passes between singles do not show in a view (engine issue 18 asks)
        players = rng.randint(3, 8)
        state, _ = new_session(rules, NAMES[:players], seed)
        bots = [make_bot("medium", seat) for seat in range(players)]
        while state.phase is not Phase.SESSION_OVER and state.hand_number <= 2:
            seat = _next_seat(state)
            assert seat is not None
            seen = view(state, seat)
            # (not while a 7-pass or 10-discard is being chosen: the hard bot leaves that
            # choice to the medium one and rebuilds no state then)
            if state.phase is Phase.PLAY and seen.choosing is None and rng.random() < 0.2:
                guess = state_from_view(seen, state.hands)
                real = state
                for _ in range(12):
                    if real.phase is not Phase.PLAY:
                        break
                    for other in real.seats:
                        mine, true = view(guess, other).to_dict(), view(real, other).to_dict()
                        if other != seat:  # the tax and 7-passes it was not part of
                            for part in ("tax_mine", "gifts_mine"):
                                mine.pop(part), true.pop(part)
                        assert mine == true
                    actor = real.turn
                    action = rng.choice(legal_actions(real, actor))
                    real, _ = apply(real, action)
                    guess, _ = apply(guess, action)
                    checked += 1
            state, _ = apply(state, bots[seat].choose(seen))
    assert checked > 500


def test_sampled_hands_fit_the_counts_the_unseen_cards_and_the_tax() -> None:
    state, _ = all_ready(between_hands(None, [2, 0, 3, 1]))  # seat 2 President, 1 Scum
    medium = make_bot("medium")
    while state.phase is Phase.TAX:
        seat = _next_seat(state)
        state, _ = apply(state, medium.choose(view(state, seat)))
    seen = view(state, 2)
    tables = tables_for(state.rules)
    known = knowledge(seen, tables, {})
    rng = random.Random(1)
    for _ in range(50):
        hands = sample_hands(seen, known, tables, rng)
        assert hands[2] == state.hands[2]
        assert [len(h) for h in hands] == [len(h) for h in state.hands]
        others = Counter(card for seat, hand in enumerate(hands) if seat != 2 for card in hand)
        assert others == Counter(known.unseen_cards)
        assert not Counter(known.held[1]) - Counter(hands[1])  # the cards it was given back
        strength = tables.strength[False]
        rest = Counter(hands[1]) - Counter(known.held[1])
        assert all(strength[card.rank] <= known.caps[1] for card in rest)


def test_pick_keeps_the_policy_choice_unless_another_is_clearly_better() -> None:
    assert pick([[2, 2, 2, 2], [1, 3, 1, 3]], 0.5) == 0  # no better on average
    assert pick([[3, 3, 3, 3], [1, 1, 1, 2]], 0.5) == 1
    assert pick([[3, 1, 3, 1], [2, 2, 2, 2]], 2.0) == 0  # better, within the noise
    assert pick([[], []], 0.5) == 0


def test_hard_with_a_deal_limit_is_deterministic() -> None:
    state, _ = new_session(random_rules(random.Random(5), hands=1), NAMES[:4], 5)
    while state.phase is Phase.PLAY and len(legal_actions(state, state.turn)) < 3:
        state, _ = apply(state, make_bot("medium").choose(view(state, state.turn)))
    seen = view(state, state.turn)
    choices = {HardBot(7, budget=60.0, deals=6).choose(seen) for _ in range(3)}
    assert len(choices) == 1
