"""Bots: they see only a ``View`` and choose one of its legal actions."""

from __future__ import annotations

import random
from typing import Protocol

from president.actions import Action, Decree
from president.view import View


class Bot(Protocol):
    def choose(self, view: View) -> Action:
        """One of ``view.legal`` (never a Decree with empty text)."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions (decrees aside), from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        options = [action for action in view.legal if not isinstance(action, Decree)]
        return self.rng.choice(options)


from president.bots.hard import DEFAULT_BUDGET, HardBot  # noqa: E402
from president.bots.heuristic import HeuristicBot  # noqa: E402  (needs View, imported above)
from president.bots.medium import MediumBot  # noqa: E402

# The levels offered to players, weakest first; ``random`` and ``heuristic`` stay for
# tests and benches (``easy`` is the heuristic bot).
LEVELS = ("easy", "medium", "hard")
BOT_KINDS: dict[str, type] = {
    "random": RandomBot, "heuristic": HeuristicBot, "easy": HeuristicBot, "medium": MediumBot,
    "hard": HardBot,
}


def make_bot(kind: str, seed: int = 0, *, budget: float = DEFAULT_BUDGET) -> Bot:
    """A bot by name (``BOT_KINDS``); KeyError for an unknown name. ``budget``: the CPU
    seconds a searching bot may spend on one move (the others ignore it)."""
    if BOT_KINDS[kind] is HardBot:
        return HardBot(seed, budget)
    return BOT_KINDS[kind](seed)
