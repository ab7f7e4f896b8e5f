"""Every bot level under every preset and random rule mixes: each chosen action is
legal, and sessions end. Hard bots search with a tiny budget here (the choice is
still a search: a few deals per move)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_kit import NAMES

from president.actions import Decree
from president.bots import BOT_KINDS, LEVELS, HardBot, make_bot
from president.engine import apply, legal_actions, new_session
from president.rules import ALLOWED, PRESETS, HouseRules
from president.state import Phase
from president.view import view

KINDS = ("random", "heuristic", "easy", "medium", "hard")


def random_rules(rng: random.Random, hands: int) -> HouseRules:
    skip = {"min_players", "max_players", "session_length", "session_end"}
    values = {name: rng.choice(allowed) for name, allowed in ALLOWED.items() if name not in skip}
    end = "zero" if values["scoring"] == "bga" and rng.random() < 0.5 else "hands"
    return HouseRules(**values, session_end=end, session_length=hands)


def play_checked(rules: HouseRules, players: int, seed: int, kinds: list[str],
                 max_hands: int = 50) -> int:
    """A whole session; every action checked against ``legal_actions``. Hands played."""
    state, _ = new_session(rules, NAMES[:players], seed)
    bots = [make_bot(kind, seed * 10 + seat, budget=0.003) for seat, kind in enumerate(kinds)]
    steps, limit = 0, 3000 * max_hands
    while state.phase is not Phase.SESSION_OVER and state.hand_number <= max_hands:
        acted = False
        for seat in state.seats:
            legal = legal_actions(state, seat)
            if any(not isinstance(a, Decree) for a in legal):
                action = bots[seat].choose(view(state, seat))
                assert action in legal or (
                    isinstance(action, Decree) and action.text.strip()
                    and Decree(seat, "") in legal
                ), (kinds[seat], action, legal)
                state, _ = apply(state, action)
                acted = True
                break
        assert acted, "nobody can act"
        steps += 1
        assert steps < limit, "the session does not end"
    return state.hand_number


def test_levels_are_registered() -> None:
    assert LEVELS == ("easy", "medium", "hard")
    for kind in KINDS:
        assert kind in BOT_KINDS
    bot = make_bot("hard", 1, budget=0.05)
    assert isinstance(bot, HardBot) and bot.budget == 0.05


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_level_plays_every_preset(name: str) -> None:
    base = PRESETS[name]
    for players in (base.min_players, 6, base.max_players):
        if not base.min_players <= players <= base.max_players:
            continue
        rules = replace(base, session_end="hands", session_length=2)
        kinds = [KINDS[(seat + players) % len(KINDS)] for seat in range(players)]
        assert play_checked(rules, players, players, kinds) == 2


@pytest.mark.slow
def test_every_level_plays_random_rule_mixes() -> None:
    rng = random.Random(17)
    for seed in range(6):
        rules = random_rules(rng, hands=2)
        players = rng.randint(3, 8)
        kinds = [rng.choice(KINDS[2:]) for _ in range(players)]
        play_checked(rules, players, seed, kinds, max_hands=4)


@pytest.mark.slow
def test_every_level_plays_many_random_rule_mixes() -> None:
    rng = random.Random(2026)
    for seed in range(60):
        rules = random_rules(rng, hands=3)
        players = rng.randint(3, 8)
        kinds = [rng.choice(KINDS[2:]) for _ in range(players)]
        play_checked(rules, players, seed, kinds, max_hands=5)
