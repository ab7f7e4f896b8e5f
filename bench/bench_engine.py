"""Engine benchmark (not a test): CPU µs per play or pass, beside a plain-Python floor.

    python bench/bench_engine.py [--hands 200] [--runs 5] [--players 4 8]
        [--presets classic runs] [--loops engine decoded floor selfplay] [--profile]

Each loop plays one session of ``--hands`` hands (deal, tax, tricks, readiness) per
run; the median over the runs is printed as CPU microseconds (``time.process_time``,
so other work on a shared machine distorts it little) per play or pass, the whole
loop's time divided by the plays and passes it made:

- ``engine``: ``legal_actions`` then ``apply`` of a random legal action (decrees
  aside), what a bot's search drives;
- ``decoded``: the same, but the action applied is an equal copy (a new ``Play``
  with a new cards tuple), as the host applies an action decoded from the network;
- ``floor``: a straightforward plain-Python loop over immutable tuples doing the same
  work under the classic rules (sets of one rank on the same size, pass, clear, out,
  deal): what any engine in Python pays at least. It knows the classic rules only, so
  it is printed once per player count, beside every preset;
- ``selfplay``: the whole ``president selfplay`` loop, random bots seeing only their
  ``view`` (not run unless asked).

Presets: any name of ``rules.PRESETS`` (``daihinmin_local``: every Daihinmin rule of its
preset, suit lock and same-suit runs among them), or ``runs``: the daihinmin preset as it
was before issue 11 (one joker, a quad revolution) with runs of three or more
(``sequences = 3``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from president.actions import Action, Decree, GiveBack, Pass, Play, Ready
from president.bots import make_bot
from president.cli.commands.selfplay import bot_seed, play_session
from president.engine import apply, legal_actions, new_session, to_act
from president.rules import HouseRules, Revolution, preset
from president.state import Phase

PLAY = Phase.PLAY  # (read once per action: a module name costs less than an enum member)
BENCH_PRESETS: dict[str, HouseRules] = {
    "runs": HouseRules(jokers=1, revolution=Revolution.QUAD, sequences=3)}


def bench_rules(name: str, hands: int) -> HouseRules:
    rules = BENCH_PRESETS[name] if name in BENCH_PRESETS else preset(name)
    return replace(rules, session_end="hands", session_length=hands)


def copy_of(action: Action) -> Action:
    """An equal action that is not the listed object, as a decoder makes it."""
    match action:
        case Play(seat, cards, declared):  # (a wild joker's declaration kept)
            return Play(seat, tuple(list(cards)), tuple(list(declared)))
        case GiveBack(seat, cards):
            return GiveBack(seat, tuple(list(cards)))
        case Pass(seat):
            return Pass(seat)
        case Ready(seat):
            return Ready(seat)
    cards = getattr(action, "cards", None)  # the other actions with cards (7-pass, 10-discard)
    if cards is not None:
        return replace(action, cards=tuple(list(cards)))
    raise TypeError(action)


def engine_loop(rules: HouseRules, players: int, seed: int, decoded: bool = False) -> int:
    """Random legal actions from ``legal_actions`` into ``apply``: the plays and passes made."""
    names = [f"Random {seat + 1}" for seat in range(players)]
    state, _ = new_session(rules, names, seed)
    rng = random.Random(seed)
    moves = 0
    while (seat := to_act(state)) is not None:
        moves += state.phase is PLAY
        legal = legal_actions(state, seat)
        action = rng.choice(legal)
        if isinstance(action, Decree):  # decrees aside (their text is the President's)
            action = rng.choice([a for a in legal if not isinstance(a, Decree)])
        state, _ = apply(state, copy_of(action) if decoded else action)
    assert state.hand_number == rules.session_length
    return moves


def decoded_loop(rules: HouseRules, players: int, seed: int) -> int:
    return engine_loop(rules, players, seed, decoded=True)


def selfplay_loop(rules: HouseRules, players: int, seed: int) -> int:
    names = [f"Random {seat + 1}" for seat in range(players)]
    bots = [make_bot("random", bot_seed(seed, seat)) for seat in range(players)]
    play_session(rules, names, seed, bots)
    return 0  # play_session keeps no count: selfplay is reported per hand


def floor_loop(rules: HouseRules, players: int, seed: int) -> int:
    """Classic rules over immutable tuples: a hand is a sorted tuple of rank numbers
    (0 = 3 … 12 = 2), a state a tuple; legal plays listed, one chosen, a new state
    made. No tax, roles or events: the least work an action needs."""
    rng = random.Random(seed)
    deck = [rank for rank in range(13) for _ in range(4 * rules.deck_count(players))]
    moves = 0
    for _ in range(rules.session_length):
        rng.shuffle(deck)
        hands = tuple(tuple(sorted(deck[seat::players])) for seat in range(players))
        # (hands, turn, top rank, top size, last player, passed seats, finished seats)
        state: tuple = (hands, rng.randrange(players), -1, 0, -1, frozenset(), ())
        while True:
            hands, turn, top, size, last, passed, finished = state
            hand = hands[turn]
            options: list[tuple[int, int] | None] = [] if top < 0 else [None]
            index = 0
            while index < len(hand):
                rank = hand[index]
                count = hand.count(rank)
                if top < 0:
                    options.extend((rank, n) for n in range(1, count + 1))
                elif rank > top and count >= size:
                    options.append((rank, size))
                index += count
            choice = rng.choice(options)
            moves += 1
            if choice is None:
                passed = passed | {turn}
            else:
                rank, size = choice
                at = hand.index(rank)
                left = hand[:at] + hand[at + size:]
                hands = hands[:turn] + (left,) + hands[turn + 1:]
                top, last, passed = rank, turn, frozenset()
                if not left:
                    finished += (turn,)
                    if len(finished) == players - 1:
                        break
            following = [(turn + step) % players for step in range(1, players + 1)]
            waiting = [s for s in following if hands[s] and s != last and s not in passed]
            if not waiting:  # everyone else passed: the last player (or the next) leads
                leader = next(s for s in [last, *following] if hands[s])
                state = (hands, leader, -1, 0, -1, frozenset(), finished)
            else:
                state = (hands, waiting[0], top, size, last, passed, finished)
    return moves


LOOPS: dict[str, Callable[[HouseRules, int, int], int]] = {
    "engine": engine_loop, "decoded": decoded_loop, "floor": floor_loop,
    "selfplay": selfplay_loop,
}


def measure(loop: str, players: int, rules: HouseRules, seed: int) -> tuple[float, int]:
    """CPU seconds and the plays and passes of one run."""
    start = time.process_time()
    moves = LOOPS[loop](rules, players, seed)
    return time.process_time() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per run (max 1000)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presets", nargs="*", default=["classic", "runs", "daihinmin_local"])
    parser.add_argument("--players", type=int, nargs="*", default=[4, 8])
    parser.add_argument("--loops", nargs="*", default=["engine", "decoded", "floor"],
                        choices=list(LOOPS))
    parser.add_argument("--profile", action="store_true", help="cProfile one run per setting")
    args = parser.parse_args()
    floors: dict[int, float] = {}
    for players in args.players:
        for name in args.presets:
            rules = bench_rules(name, args.hands)
            for loop in args.loops:
                if loop == "floor" and players in floors:
                    continue
                if args.profile:
                    profiler = cProfile.Profile()
                    profiler.runcall(measure, loop, players, rules, 0)
                    print(f"--- profile, {loop} loop, {players} players, {name}")
                    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
                    continue
                runs = [measure(loop, players, rules, seed) for seed in range(args.runs)]
                if loop == "selfplay":
                    per_hand = statistics.median(seconds / args.hands for seconds, _ in runs)
                    print(f"{players} players  {name:<10} {loop:<8} "
                          f"{per_hand * 1e6:8.0f} µs per hand")
                    continue
                each = [seconds / moves * 1e6 for seconds, moves in runs]
                median = statistics.median(each)
                if loop == "floor":
                    floors[players] = median
                    name_shown = "classic"
                else:
                    name_shown = name
                moves = statistics.median(moves for _, moves in runs)
                print(f"{players} players  {name_shown:<10} {loop:<8} {median:6.1f} µs per "
                      f"play or pass (median of {args.runs} runs of {args.hands} hands, "
                      f"{moves / args.hands:.0f} per hand; min {min(each):.1f}, "
                      f"max {max(each):.1f})")


if __name__ == "__main__":
    main()
