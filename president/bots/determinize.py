"""Guessing the hidden hands: a full ``State`` consistent with what one seat has seen.

``sample_hands`` deals the cards a seat has not seen to the other seats, as many as
each holds, respecting what the seat knows (cards it gave in the tax, the giver's
cap); ``state_from_view`` builds the engine state of the trick in play with those
hands, through the public ``State`` constructor.
"""

from __future__ import annotations

import random

from president.bots.knowledge import Knowledge, same_rank_singles
from president.bots.tables import RuleTables
from president.cards import Card, card_key
from president.game import Game
from president.roles import Role
from president.state import Phase, PileEntry, State
from president.view import View

Hands = tuple[tuple[Card, ...], ...]


def sample_hands(view: View, known: Knowledge, tables: RuleTables, rng: random.Random) -> Hands:
    """One deal of the unseen cards over the other seats (``view.counts`` each)."""
    seat = view.seat
    pool = list(known.unseen_cards)
    rng.shuffle(pool)
    dealt: list[list[Card]] = [[] for _ in view.counts]
    need = [0 if other == seat else n for other, n in enumerate(view.counts)]
    for other, cards in known.held.items():
        for card in cards[:need[other]]:
            if card in pool:
                pool.remove(card)
                dealt[other].append(card)
                need[other] -= 1
    strength = tables.strength[False]
    # The most constrained seats first: those the tax says hold nothing strong.
    for other, cap in sorted(known.caps.items(), key=lambda item: item[1]):
        if need[other] <= 0:
            continue
        fits = [i for i, card in enumerate(pool) if strength[card.rank] <= cap]
        taken = set(fits[:need[other]])
        dealt[other].extend(pool[i] for i in sorted(taken))
        need[other] -= len(taken)
        pool = [card for i, card in enumerate(pool) if i not in taken]
    for other, n in enumerate(need):
        if n > 0:
            dealt[other].extend(pool[:n])
            del pool[:n]
    if seat is not None:
        dealt[seat] = list(view.hand)
    return tuple(tuple(sorted(cards, key=card_key)) for cards in dealt)


def state_from_view(view: View, hands: Hands, game: Game | None = None) -> State:
    """The state of the trick in play, as ``view`` shows it, with ``hands`` as the hands
    (``game``: the rules' ``Game``, whose caches the states of a search share). Not
    while a 7-pass or 10-discard is being chosen (``view.choosing``): the view does not
    show where the turn goes after it."""
    return State(
        rules=view.rules, players=view.players, seed=0, phase=Phase.PLAY,
        hand_number=view.hand_number, dealer=view.dealer, order=view.order, hands=hands,
        turn=view.turn, direction=view.direction, reversed=view.reversed,
        pile=tuple(PileEntry(*entry) for entry in view.pile), top=view.top,
        last_player=view.last_player, passed=view.passed, locked=view.locked,
        same_rank_singles=same_rank_singles(view), finished=view.finished,
        roles=tuple(map(Role, view.roles)) if view.roles is not None else None,
        scores=view.scores, presidencies=view.presidencies, tax_due=(), tax_log=view.tax_mine,
        ready=frozenset(), decree=view.decree, decree_hand=0, results=view.results, winners=(),
        back=view.back, bottom=view.bottom, lock=view.lock, gifts=view.gifts_mine,
        game=game or Game(view.rules),
    )
