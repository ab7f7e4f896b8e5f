"""Bots: they see only a ``View`` and choose one of its legal actions."""

from __future__ import annotations

import random
from typing import Protocol

from president.actions import Action, Decree
from president.errors import RulesError
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
        if not options:  # only a decree is offered: make it
            return Decree(view.seat if view.seat is not None else 0, DECREE_TEXT)
        return self.rng.choice(options)


from president.bots.hard import DEFAULT_BUDGET, HardBot  # noqa: E402
from president.bots.heuristic import DECREE_TEXT, HeuristicBot  # noqa: E402  (needs View, imported above)
from president.bots.knowledge import PlayTracker  # noqa: E402
from president.bots.medium import MediumBot  # noqa: E402

# The levels offered to players, weakest first; ``random`` and ``heuristic`` stay for
# tests and benches (``easy`` is the heuristic bot).
LEVELS = ("easy", "medium", "hard")
DEFAULT_LEVEL = "medium"
BOT_KINDS: dict[str, type] = {
    "random": RandomBot, "heuristic": HeuristicBot, "easy": HeuristicBot, "medium": MediumBot,
    "hard": HardBot,
}


def make_bot(kind: str, seed: int = 0, *, budget: float = DEFAULT_BUDGET,
             memory: PlayTracker | None = None) -> Bot:
    """A bot by name (``BOT_KINDS``); KeyError for an unknown name. ``budget``: the CPU
    seconds a searching bot may spend on one move; ``memory``: what its seat has seen
    played this hand, for a caller that makes a new bot for every move (the bots that
    count cards keep it up to date; the others ignore both)."""
    cls = BOT_KINDS[kind]
    if cls is HardBot:
        return HardBot(seed, budget, memory=memory)
    if cls is MediumBot:
        return MediumBot(seed, memory)
    return cls(seed)


def bot_levels(spec: str, level: str = DEFAULT_LEVEL) -> tuple[str, ...]:
    """What ``--bots`` asks for, one level per bot: a number of bots at ``level``, or
    their kinds one by one (``easy,hard``). RulesError names the field and the choices."""
    text = spec.strip()
    if text.isdigit():
        return (level,) * int(text)
    kinds = tuple(kind.strip() for kind in text.split(","))
    if not text or any(kind not in BOT_KINDS for kind in kinds):
        raise RulesError("bad_value", field="bots", value=spec,
                         allowed=["0..8", *LEVELS, *(k for k in BOT_KINDS if k not in LEVELS)])
    return kinds
