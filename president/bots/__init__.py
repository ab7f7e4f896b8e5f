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


from president.bots.heuristic import HeuristicBot  # noqa: E402  (needs View, imported above)

BOT_KINDS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(kind: str, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``heuristic``); KeyError for an unknown name."""
    return BOT_KINDS[kind](seed)
