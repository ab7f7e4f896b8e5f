"""Thousands of seeded random sessions, every preset and random rule mixes, with the
invariants that are cheap to check after every action (test_properties.py checks
fewer sessions, each far more thoroughly)."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace

import pytest
from engine_kit import NAMES

from president.actions import Decree
from president.bots import RandomBot
from president.cards import make_deck, parse_cards
from president.engine import apply, legal_actions, new_session
from president.rules import ALLOWED, PRESETS, HouseRules
from president.state import Phase
from president.view import view

SESSIONS = 1000 * int(os.environ.get("PRESIDENT_PROPERTY_SCALE", "1"))


def random_rules(rng: random.Random) -> HouseRules:
    values = {name: rng.choice(choices) for name, choices in ALLOWED.items()
              if name not in ("min_players", "max_players", "session_length")}
    if values["session_end"] == "zero":
        values["scoring"] = "bga"
    elif values["session_end"] == "target" and values["scoring"] == "bga":
        values["session_end"] = "hands"
    return HouseRules(**values, session_length=2)


def play_checked(rules: HouseRules, players: int, seed: int) -> None:
    rules = replace(rules, session_end="hands", session_length=2)
    state, _ = new_session(rules, NAMES[:players], seed)
    deck = Counter(make_deck(rules.deck_count(players), rules.jokers))
    bots = [RandomBot(seed * 10 + seat) for seat in range(players)]
    played: Counter = Counter()
    steps, limit = 0, 6 * sum(deck.values()) * players
    while state.phase is not Phase.SESSION_OVER:
        seat = next(s for s in state.seats
                    if any(not isinstance(a, Decree) for a in legal_actions(state, s)))
        own = view(state, seat)
        assert own.hand == state.hands[seat]
        action = bots[seat].choose(own)
        state, events = apply(state, action)
        steps += 1
        assert steps < limit, "a hand that never ends"
        for event in events:
            if event.code == "deal":
                played.clear()
                steps = 0
                assert Counter(c for hand in state.hands for c in hand) == deck
            elif event.code in ("play", "downfall", "discard"):  # downfall, discard: cards leave
                played.update(parse_cards(event.params["cards"]))
            elif event.code == "hand_end":
                assert sorted(event.params["order"]) == list(range(players))
                assert len(set(event.params["order"])) == players
        if state.phase in (Phase.PLAY, Phase.TAX):
            held = Counter(c for hand in state.hands for c in hand)
            assert held + played == deck, "a card lost, duplicated or in two places"


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_a_thousand_random_sessions_keep_the_cheap_invariants(block: int) -> None:
    rng = random.Random(block)
    presets = sorted(PRESETS)
    for number in range(SESSIONS // 4):
        seed = block * 100_000 + number
        if number % 2:
            rules = PRESETS[presets[number // 2 % len(presets)]]
        else:
            rules = random_rules(rng)
        low, high = max(3, rules.min_players), min(8, rules.max_players)
        play_checked(rules, rng.randint(low, high), seed)
