"""A plain determinized Monte-Carlo search over the medium policy: the baseline the hard
bot must beat at the same CPU budget (issue 30). Bench-only.

At a decision in the tricks with more than one option it deals the cards it has not
seen uniformly over the other seats (consistent only with the cards it knows: its hand,
the cards seen played, the 10-discards; not the tax, the 7-passes or the passes), plays
every legal option out to the end of the hand on each deal, every seat following the
medium policy, and picks the option with the best mean place. Elsewhere: medium.
"""

from __future__ import annotations

import random
import time

from president.actions import Action, Decree, Discard, Give
from president.bots.determinize import Hands, state_from_view
from president.bots.hard import DEFAULT_BUDGET, playout
from president.bots.knowledge import PlayTracker, knowledge
from president.bots.medium import MediumBot, policy_for
from president.cards import Card, card_key
from president.engine import apply
from president.view import View


class MonteCarloBot:
    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET,
                 memory: PlayTracker | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.medium = MediumBot(seed, memory)
        self.last_deals = 0

    def choose(self, view: View) -> Action:
        started = time.process_time()
        options = [a for a in view.legal if not isinstance(a, Decree)]
        if (view.phase != "play" or len(options) < 2 or view.seat is None
                or isinstance(options[0], (Give, Discard))):
            return self.medium.choose(view)
        seat = view.seat
        policy = policy_for(view.rules)
        known = knowledge(view, policy.tables, self.medium.tracker.update(view))
        clock, deadline = time.process_time, started + self.budget
        totals = [0] * len(options)
        deals, slowest = 0, 0.0
        while True:
            base = state_from_view(view, self._deal(view, list(known.unseen_cards)),
                                   policy.tables.game)
            results = []
            for option in options:
                now = clock()
                if now + slowest > deadline:
                    break
                state, _ = apply(base, option)
                results.append(playout(state, seat, policy))
                slowest = max(slowest, clock() - now)
            if len(results) < len(options):
                break
            totals = [t + r for t, r in zip(totals, results, strict=True)]
            deals += 1
        self.last_deals = deals
        if not deals:
            return self.medium.choose(view)
        return options[min(range(len(options)), key=lambda i: (totals[i], i))]

    def _deal(self, view: View, pool: list[Card]) -> Hands:
        self.rng.shuffle(pool)
        dealt = []
        for other, n in enumerate(view.counts):
            if other == view.seat:
                dealt.append(view.hand)
            else:
                dealt.append(tuple(sorted(pool[:n], key=card_key)))
                del pool[:n]
        return tuple(dealt)
