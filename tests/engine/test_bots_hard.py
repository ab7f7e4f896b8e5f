"""The hard bot's search: it finds lines the medium policy misses, and decides from its
seat's view alone."""

from __future__ import annotations

from dataclasses import replace

from engine_kit import position

from president.actions import Play
from president.bots import make_bot
from president.bots.hard import HardBot, playout
from president.bots.medium import policy_for
from president.cards import parse_cards
from president.engine import apply
from president.rules import HouseRules
from president.view import view


def test_hard_finds_the_way_out_that_medium_misses() -> None:
    # Seat 2 is out; seat 1 holds 3C 8D. Medium sheds its weakest loser, the 5, and
    # is beaten by the 8 (then the 3 goes out); leading the pair of 8s first wins.
    state = position(["5D 8C 8S", "3C 8D", ""], HouseRules(), turn=0, finished=(2,))
    seen = view(state, 0)
    medium = make_bot("medium").choose(seen)
    policy = policy_for(state.rules)
    assert medium == Play(0, parse_cards("5D"))
    assert playout(apply(state, medium)[0], 0, policy) == 3
    pair = Play(0, parse_cards("8C 8S"))
    assert playout(apply(state, pair)[0], 0, policy) == 2
    for seed in range(4):
        assert HardBot(seed, budget=60.0, deals=60).choose(seen) == pair


def test_hard_decides_from_the_view_only() -> None:
    # The same view of seat 0 over two tables whose hidden hands differ: the same choice,
    # after the same number of sampled deals.
    first = position(["4C 7D 9H QS", "5C 8D JD 2S", "6H 10C KD AH"], HouseRules(), turn=0)
    second = replace(first, hands=(first.hands[0], parse_cards("6H 10C KD AH"),
                                   parse_cards("5C 8D JD 2S")))
    assert view(first, 0) == view(second, 0)
    assert view(first, 1) != view(second, 1)
    bots = [HardBot(3, budget=60.0, deals=40) for _ in range(2)]
    choices = [bot.choose(view(state, 0)) for bot, state in zip(bots, (first, second),
                                                                   strict=True)]
    assert choices[0] == choices[1]
    assert bots[0].last_deals == bots[1].last_deals > 0
