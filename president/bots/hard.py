"""The ``hard`` bot: determinized search within a CPU-time budget per move.

At a decision in the tricks with more than one sensible option, it repeatedly deals
the cards it has not seen to the other seats (consistent with the hand sizes, the
cards played and the tax it took part in: ``determinize.sample_hands``), and in each
such deal plays every candidate out to the end of the hand, every seat following
the ``medium`` policy. It picks the candidate with the best mean finishing place.
Candidates are the medium policy's first few choices (and passing, when allowed);
every candidate is tried on the same deals. Elsewhere (the tax, between hands) and
when the budget allows no complete round, it plays as ``medium``.

When two seats are left holding cards it solves the hand instead (``endgame.Solver``:
every option, exactly, on the deal it knows or a few sampled ones), falling back to the
search when that is too big for half the budget.

The budget is CPU time (``time.process_time``) of this process: a deal started near
the end of the budget is not started, so a move stays close to its budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from president.actions import Action, Decree, Discard, Give, Pass
from president.bots.determinize import sample_hands, state_from_view
from president.bots.endgame import Solver
from president.bots.knowledge import Knowledge, PlayTracker, knowledge
from president.bots.medium import (
    MediumBot,
    MediumPolicy,
    policy_for,
    turn_from_state,
    turn_from_view,
)
from president.bots.tables import SLOTS, Counts
from president.engine import apply, legal_actions, to_act
from president.state import Phase, State
from president.view import View

DEFAULT_BUDGET = 0.2  # seconds of CPU per move
# The medium policy's best few options are searched (and passing). Few candidates
# searched on more deals beat many on few: the best of many noisy means is often
# only lucky, and 50 ms hold some 15-20 deals of seven candidates at six players.
CANDIDATES = 3
PRUNE_AFTER = 8  # deals after which clearly worse candidates are dropped
# Standard errors of the paired difference by which a candidate must beat the medium
# policy's choice to replace it (0.5 let noise overrule the policy: hard lost to
# medium at six players under bga).
CAUTION = 2.0
ENDGAME_DEALS = 4  # deals solved when two seats are left and some cards went unseen


class HardBot:
    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET,
                 deals: int | None = None, memory: PlayTracker | None = None) -> None:
        """``budget``: CPU seconds per move; ``deals``: at most this many deals per move
        (with a budget it never reaches, the bot is deterministic: for tests); ``memory``:
        as for ``MediumBot``."""
        self.rng = random.Random(seed)
        self.budget = budget
        self.deals = deals
        self.medium = MediumBot(seed, memory)
        self.last_deals = 0  # deals searched for the last move (for benches and tests)
        self.caution = CAUTION
        self.candidates = CANDIDATES

    def choose(self, view: View) -> Action:
        started = time.process_time()
        options = [a for a in view.legal if not isinstance(a, Decree)]
        if (view.phase != "play" or len(options) < 2 or view.seat is None
                or isinstance(options[0], (Give, Discard))):
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
        if sum(1 for n in view.counts if n) == 2:
            solved = self._endgame(view, known, policy, options, started)
            if solved is not None:
                return solved
        return self._search(view, known, policy, candidates, started)

    def _endgame(self, view: View, known: Knowledge, policy: MediumPolicy,
                 options: Sequence[Action], started: float) -> Action | None:
        """Two seats left: every option solved exactly (``endgame.Solver``) on a few
        deals (one when the seat's unseen cards are all the other's hand); the best mean
        place. None when a solve is too big for half the budget (the search has the rest)."""
        seat = view.seat
        assert seat is not None
        exact = len(known.unseen_cards) == sum(view.counts) - len(view.hand)
        solver = Solver(seat, started + self.budget / 2)
        totals = [0] * len(options)
        for _ in range(1 if exact else ENDGAME_DEALS):
            hands = sample_hands(view, known, policy.tables, self.rng)
            base = state_from_view(view, hands, policy.tables.game)
            for index, option in enumerate(options):
                place = solver.place(apply(base, option)[0])
                if place is None:
                    return None
                totals[index] += place
        self.last_deals = 1 if exact else ENDGAME_DEALS
        return options[min(range(len(options)), key=lambda i: (totals[i], i))]

    def _search(self, view: View, known: Knowledge, policy: MediumPolicy,
                candidates: list[Action], started: float) -> Action:
        seat = view.seat
        assert seat is not None
        clock = time.process_time
        deadline = started + self.budget
        places: list[list[int]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))  # candidates still searched
        deals = 0
        slowest = 0.0  # the longest playout so far: do not start one that would overrun
        while deals != self.deals:
            hands = sample_hands(view, known, policy.tables, self.rng)
            base = state_from_view(view, hands, policy.tables.game)
            results: list[int] = []
            for index in alive:
                now = clock()
                if now + slowest > deadline:
                    break
                state, _ = apply(base, candidates[index])
                results.append(playout(state, seat, policy))
                slowest = max(slowest, clock() - now)
            if len(results) < len(alive):
                break  # out of time: the unfinished deal is not counted
            for index, place in zip(alive, results, strict=True):
                places[index].append(place)
            deals += 1
            if deals >= PRUNE_AFTER and deals % 8 == 0:
                alive = prune([places[i] for i in alive], alive)
                if len(alive) == 1 or settled([places[i] for i in alive]):
                    break
        self.last_deals = deals
        if not deals:
            return candidates[0]
        return candidates[alive[pick([places[i] for i in alive], self.caution)]]


def prune(places: list[list[int]], alive: list[int]) -> list[int]:
    """The candidates not yet clearly worse (by 2.5 standard errors) than the best."""
    deals = len(places[0])
    means = [sum(p) / deals for p in places]
    best = min(range(len(places)), key=lambda i: (means[i], i))
    kept = []
    for position, index in enumerate(alive):
        mean, error = paired(places[position], places[best])
        if position == best or mean - 2.5 * error <= 0:
            kept.append(index)
    return kept


def paired(better: list[int], other: list[int]) -> tuple[float, float]:
    """Mean and standard error of ``better - other`` over the same deals."""
    deals = len(better)
    diffs = [a - b for a, b in zip(better, other, strict=True)]
    mean = sum(diffs) / deals
    if deals < 2:
        return mean, float("inf")
    spread = (sum((d - mean) ** 2 for d in diffs) / (deals - 1)) ** 0.5
    return mean, spread / deals ** 0.5


def settled(places: list[list[int]]) -> bool:
    """The search can stop: the candidates never differ, or one is ahead of every
    other by more than three standard errors."""
    deals = len(places[0])
    means = [sum(p) / deals for p in places]
    best = min(range(len(places)), key=lambda i: (means[i], i))
    for index, other in enumerate(places):
        if index != best:
            mean, error = paired(places[best], other)
            if not (mean == 0 and error == 0) and mean + 3 * error >= 0:
                return False
    return True


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
    if best == 0:
        return best
    mean, error = paired(places[best], places[0])
    return best if mean + caution * error < 0 else 0


def _out(state: State, seat: int) -> tuple[Counts, int]:
    """The cards the other seats hold, by rank, and the largest of their hands."""
    pool = [0] * SLOTS
    most = 0
    for other, cards in enumerate(state.hands):
        if other != seat:
            for card in cards:
                pool[card.rank] += 1
            most = max(most, len(cards))
    return pool, most


def playout(state: State, seat: int, policy: MediumPolicy) -> int:
    """``seat``'s finishing place when every seat plays the rest of the hand by ``policy``."""
    while state.phase is Phase.PLAY:
        place = state.place(seat)
        if place is not None:
            return place
        actor = to_act(state)
        assert actor is not None
        options = legal_actions(state, actor)
        if len(options) == 1:
            action = options[0]
        elif isinstance(options[0], (Give, Discard)):  # a 7-pass or 10-discard
            action = policy.shed(state.hands[actor], options,  # type: ignore[arg-type]
                                 *_out(state, actor), state.reversed != state.back)
        else:
            action = policy.choose_trick(turn_from_state(state, actor, options))
        state, _ = apply(state, action)
    place = state.place(seat)
    return place if place is not None else len(state.players)
