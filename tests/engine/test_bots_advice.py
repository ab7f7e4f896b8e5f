"""Hints (issue 28): the medium bot's move and its reason, as data, from a seat's view."""

from __future__ import annotations

import random

from engine_kit import position

from president.actions import Decree, Discard, Give, GiveBack, Pass, Play
from president.bots.advice import REASONS, SUGGESTED
from president.bots.medium import MediumBot
from president.cards import parse_cards
from president.engine import apply, legal_actions, new_session
from president.rules import HouseRules, preset
from president.state import Phase
from president.view import view


def test_a_lead_sheds_the_low_pair_and_names_the_twos_kept() -> None:
    state = position(["5C 5D 9S KH 2C 2H 7H", "4D 8D JD", "6D 10D QD"])
    first, *others = MediumBot().suggest(view(state, 0))
    assert first.action == Play(0, parse_cards("5C 5D"))
    assert (first.reason, dict(first.params)) == ("lead_low", {"keep": "2C 2H"})
    assert others and all(s.action != first.action for s in others)


def test_the_last_cards_go_out_and_an_unbeatable_pile_waits() -> None:
    state = position(["2S", "4C 6C 8C", "QD 7D 9D"])
    assert [(s.action, s.reason) for s in MediumBot().suggest(view(state, 0))] == [
        (Play(0, parse_cards("2S")), "go_out")]
    state = position(["KC 3D", "2S 4C", "QD 5D 7D"], turn=0)
    state, _ = apply(state, Play(0, parse_cards("KC")))
    first = MediumBot().suggest(view(state, 1))[0]
    assert (first.action, first.reason) == (Play(1, parse_cards("2S")), "win_then_out")
    state = position(["AC 3D", "4C 5C", "QD 5D 7D"], turn=0)
    state, _ = apply(state, Play(0, parse_cards("AC")))
    assert [(s.action, s.reason) for s in MediumBot().suggest(view(state, 1))] == [
        (Pass(1), "pass_only")]


def test_no_hint_off_turn_and_the_give_says_shed() -> None:
    state = position(["5C 5D", "4D 8D JD", "6D 10D QD"])
    assert MediumBot().suggest(view(state, 1)) == []
    rules = HouseRules(seven_pass=True)
    state = position(["7C 3D 9S KH", "4D 8D JD", "6D 10D QD"], rules)
    state, _ = apply(state, Play(0, parse_cards("7C")))
    hint = MediumBot().suggest(view(state, 0))
    assert len(hint) == 1 and isinstance(hint[0].action, Give) and hint[0].reason == "shed"


def test_the_hint_is_the_bots_move_from_the_view_alone() -> None:
    """In random sessions of 5 to 8 players under several presets: the first suggestion is the
    medium bot's choice, every suggestion is legal, every reason is a known code."""
    rng = random.Random(28)
    for name, players in (("classic", 8), ("daihinmin_local", 6), ("polish", 5)):
        state, _ = new_session(preset(name), [f"P{i}" for i in range(players)], 28)
        for _ in range(400):
            if state.phase is Phase.SESSION_OVER:
                break
            seat = next(s for s in state.seats if any(
                not isinstance(a, Decree) for a in legal_actions(state, s)))
            seen = view(state, seat)
            hints = MediumBot().suggest(seen)
            chosen = MediumBot().choose(seen)
            if isinstance(chosen, (Play, Pass, Give, Discard, GiveBack)):
                assert hints[0].action == chosen
                assert 0 < len(hints) <= SUGGESTED
                assert all(h.action in seen.legal and h.reason in REASONS for h in hints)
                actions = [a for a in seen.legal if not isinstance(a, Decree)]
                chosen = rng.choice(actions)
            else:
                assert hints == []
            state, _ = apply(state, chosen)


def test_following_over_a_lower_pair_says_it_keeps_the_set_whole() -> None:
    """The 9s would beat the 8 too: the hint follows with the queen and says why (the
    reason's words, "without breaking up a set", are in cli/text.py)."""
    state = position(["4S 9C 9D QD AC", "8C 3H 5H", "6D 10D KD"], turn=1)
    state, _ = apply(state, Play(1, parse_cards("8C")))
    state, _ = apply(state, Pass(2))
    first = MediumBot().suggest(view(state, 0))[0]
    assert (first.action, first.reason) == (Play(0, parse_cards("QD")), "follow_low")
