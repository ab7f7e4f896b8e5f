"""The floor with the engine's outputs (not a test): what the API alone costs per move.

    python bench/api_floor.py [--hands 200] [--runs 5] [--players 4]

``bench_engine.py``'s floor loop plays classic hands over tuples of rank numbers and
hands out nothing. The engine must hand out, for every play or pass, a ``State`` (its
fields' dict copied and changed, as ``engine._made`` does), the events as ``Event``
objects with their parameters, and the legal actions as a tuple of ``Play`` and ``Pass``
objects (made once and kept, as the engine's move generator keeps them). This loop is
the floor loop, making the same choices with the same generator (the same games, the
same count of moves), plus those objects: no engine could cost less per move and keep
its API. Prints the floor, this loop and the engine loop (CPU µs per play or pass,
median of the runs) and their ratios to the floor.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench_engine import bench_rules, engine_loop, floor_loop

from president.actions import Pass, Play
from president.cards import make_deck
from president.engine import new_session
from president.events import Event
from president.rules import HouseRules
from president.state import State

_new_state = State.__new__
_set_field = object.__setattr__


def api_floor_loop(rules: HouseRules, players: int, seed: int) -> int:
    """``floor_loop``'s game, handing out a State, its events and the legal actions."""
    rng = random.Random(seed)
    deck = [rank for rank in range(13) for _ in range(4 * rules.deck_count(players))]
    fields: dict[str, Any] = dict(new_session(rules, [str(s) for s in range(players)],
                                              seed)[0].__dict__)
    each = 4 * rules.deck_count(players)  # cards of a rank
    ranked = make_deck(rules.deck_count(players), 0)  # (rank, size) -> its lowest cards
    plays = {(seat, rank, size): Play(seat, ranked[rank * each:rank * each + size])
             for seat in range(players) for rank in range(13) for size in range(1, each + 1)}
    passes = [Pass(seat) for seat in range(players)]
    moves = 0
    for number in range(rules.session_length):
        rng.shuffle(deck)
        hands = tuple(tuple(sorted(deck[seat::players])) for seat in range(players))
        state: tuple = (hands, rng.randrange(players), -1, 0, -1, frozenset(), ())
        while True:
            hands, turn, top, size, last, passed, finished = state
            hand = hands[turn]
            listed: list[Play | Pass] = [] if top < 0 else [passes[turn]]
            index = 0
            while index < len(hand):
                rank = hand[index]
                count = hand.count(rank)
                if top < 0:
                    listed.extend(plays[turn, rank, n] for n in range(1, count + 1))
                elif rank > top and count >= size:
                    listed.append(plays[turn, rank, size])
                index += count
            choice = rng.choice(tuple(listed))
            moves += 1
            values = fields.copy()
            if isinstance(choice, Pass):
                events = [Event("pass", {"hand": number, "seat": turn})]
                passed = values["passed"] = passed | {turn}
            else:
                cards = choice.cards
                events = [Event("play", {"hand": number, "seat": turn, "cards": str(cards[0])})]
                rank, size = cards[0].rank - 3, len(cards)
                at = hand.index(rank)
                left = hand[:at] + hand[at + size:]
                hands = values["hands"] = hands[:turn] + (left,) + hands[turn + 1:]
                top, last, passed = rank, turn, frozenset()
                if not left:
                    finished += (turn,)
                    if len(finished) == players - 1:
                        break
            values["_legal"] = {}
            made = _new_state(State)
            _set_field(made, "__dict__", values)
            _handed = (made, events)  # (what ``apply`` returns; dropped at the next move)
            following = [(turn + step) % players for step in range(1, players + 1)]
            waiting = [s for s in following if hands[s] and s != last and s not in passed]
            if not waiting:
                leader = next(s for s in [last, *following] if hands[s])
                state = (hands, leader, -1, 0, -1, frozenset(), finished)
            else:
                state = (hands, waiting[0], top, size, last, passed, finished)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rules = bench_rules("classic", args.hands)
    loops = {"floor": floor_loop, "api floor": api_floor_loop, "engine": engine_loop}
    medians = {}
    for name, loop in loops.items():
        each = []
        for seed in range(args.runs):
            start = time.process_time()
            moves = loop(rules, args.players, seed)
            each.append((time.process_time() - start) / moves * 1e6)
        medians[name] = statistics.median(each)
    for name, median in medians.items():
        print(f"{args.players} players  classic  {name:<9} {median:5.2f} µs per play or pass, "
              f"{median / medians['floor']:.2f}× the floor")


if __name__ == "__main__":
    main()
