"""The ``hard`` bot: determinized search within a CPU-time budget per move.

At a decision in the tricks with more than one sensible option, it repeatedly deals
the cards it has not seen to the other seats (consistent with the hand sizes, the
cards played and the tax it took part in: ``determinize.sample_hands``), and in each
such deal plays every candidate out to the end of the hand, every seat following
the ``medium`` policy. It picks the candidate with the best mean finishing place.
Candidates are the medium policy's first few choices (and passing, when allowed);
every candidate is tried on the same deals. Elsewhere (the tax, between hands) and
when the budget allows no complete round, it plays as ``medium``.

The budget is CPU time (``time.process_time``) of this process: a deal started near
the end of the budget is not started, so a move stays close to its budget.
"""

from __future__ import annotations

import random
import time

from president.actions import Action, Decree, Pass
from president.bots.determinize import sample_hands, state_from_view
from president.bots.knowledge import Knowledge, knowledge
from president.bots.medium import (
    MediumBot,
    MediumPolicy,
    policy_for,
    turn_from_state,
    turn_from_view,
)
from president.engine import apply, legal_actions
from president.state import Phase, State
from president.view import View

DEFAULT_BUDGET = 0.2  # seconds of CPU per move
CANDIDATES = 6  # the medium policy's best few options are searched
CAUTION = 0.5  # standard errors by which a candidate must beat the medium policy's choice


class HardBot:
    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET,
                 deals: int | None = None) -> None:
        """``budget``: CPU seconds per move; ``deals``: at most this many deals per move
        (with a budget it never reaches, the bot is deterministic: for tests)."""
        self.rng = random.Random(seed)
        self.budget = budget
        self.deals = deals
        self.medium = MediumBot(seed)
        self.last_deals = 0  # deals searched for the last move (for benches and tests)
        self.caution = CAUTION
        self.candidates = CANDIDATES

    def choose(self, view: View) -> Action:
        started = time.process_time()
        options = [a for a in view.legal if not isinstance(a, Decree)]
        if view.phase != "play" or len(options) < 2 or view.seat is None:
            self.last_deals = 0
            return self.medium.choose(view)
        policy = policy_for(view.rules)
        played = self.medium.tracker.update(view)
        known = knowledge(view, policy.tables, played)
        turn = turn_from_view(view, known.unseen, options)
        candidates = [action for _, action in policy.ranked(turn)][:self.candidates]
        passing = next((a for a in options if isinstance(a, Pass)), None)
        if passing is not None and passing not in candidates:
            candidates.append(passing)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, known, policy, candidates, started)

    def _search(self, view: View, known: Knowledge, policy: MediumPolicy,
                candidates: list[Action], started: float) -> Action:
        seat = view.seat
        assert seat is not None
        clock = time.process_time
        deadline = started + self.budget
        places: list[list[int]] = [[] for _ in candidates]
        deals = 0
        slowest = 0.0  # the longest round so far: do not start one that would overrun
        while True:
            now = clock()
            if now + slowest > deadline or deals == self.deals:
                break
            hands = sample_hands(view, known, policy.tables, self.rng)
            base = state_from_view(view, hands)
            for index, action in enumerate(candidates):
                state, _ = apply(base, action)
                places[index].append(playout(state, seat, policy))
            deals += 1
            slowest = max(slowest, clock() - now)
        self.last_deals = deals
        return candidates[pick(places, self.caution)]


def pick(places: list[list[int]], caution: float) -> int:
    """The candidate with the best mean place over the deals (all candidates were
    played on the same deals). The first candidate is the medium policy's choice: another
    replaces it only when better by ``caution`` standard errors of the paired
    difference, so that the noise of a few deals does not overrule the policy."""
    deals = len(places[0])
    if not deals:
        return 0
    means = [sum(p) / deals for p in places]
    best = min(range(len(places)), key=lambda i: (means[i], i))
    if best == 0 or deals < 2:
        return best
    diffs = [a - b for a, b in zip(places[best], places[0], strict=True)]
    mean = sum(diffs) / deals
    spread = (sum((d - mean) ** 2 for d in diffs) / (deals - 1)) ** 0.5
    return best if mean + caution * spread / deals ** 0.5 < 0 else 0


def playout(state: State, seat: int, policy: MediumPolicy) -> int:
    """``seat``'s finishing place when every seat plays the rest of the hand by ``policy``."""
    while state.phase is Phase.PLAY:
        if not state.hands[seat]:
            return state.finished.index(seat) + 1
        actor = state.turn
        assert actor is not None
        options = legal_actions(state, actor)
        if len(options) == 1:
            action = options[0]
        else:
            action = policy.choose_trick(turn_from_state(state, actor, options))
        state, _ = apply(state, action)
    return state.finished.index(seat) + 1 if seat in state.finished else len(state.players)

