"""Guessing the hidden hands: a full ``State`` consistent with what one seat has seen.

``sample_hands`` deals the cards a seat has not seen to the other seats, as many as
each holds, respecting what the seat knows (cards it gave in the tax or a 7-pass, the
giver's cap) and weighing what the passes on the trick suggest; ``state_from_view``
builds the engine state of the trick in play with those hands, through the public
``State`` constructor.
"""

from __future__ import annotations

import random

from president.bots.knowledge import Knowledge, same_rank_singles
from president.bots.tables import RANKS, RuleTables
from president.cards import Card, Rank, card_key
from president.game import Game
from president.roles import Role
from president.state import Phase, PileEntry, State
from president.view import View

Hands = tuple[tuple[Card, ...], ...]
# The chance that a seat which passed on the top is dealt without a cheap answer to it.
PASS_WEIGHT = 0.75


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
    _weigh_passes(view, known, tables, dealt, rng)
    return tuple(tuple(sorted(cards, key=card_key)) for cards in dealt)


def _weigh_passes(view: View, known: Knowledge, tables: RuleTables,
                  dealt: list[list[Card]], rng: random.Random) -> None:
    """A soft inference, not a fact: a seat that passed on the top set most often held no
    cheap answer to it (a whole set of its size, of a rank beating it that is not among
    the order's three strongest). With chance ``PASS_WEIGHT`` such a set dealt to it is
    swapped with cards of a seat that did not pass. Not under a suit lock (the suits
    decide) nor after a 5 (``five_skip``: a skipped seat did not choose)."""
    top, seat = view.top, view.seat
    if top is None or top.kind != "set" or not view.passed or (
            view.lock is not None and view.lock.suits):
        return
    if view.rules.five_skip and view.pile and any(
            card.rank is Rank.FIVE for card in view.pile[-1][1]):
        return
    strength = tables.strength[view.reversed]
    ceiling = sorted({strength[int(rank)] for rank in RANKS if rank is not Rank.JOKER})[-3]
    cheap = {rank for rank, size in tables.beaters(top, view.reversed)
             if size == top.size and rank != int(Rank.JOKER) and strength[rank] < ceiling}
    if not cheap:
        return
    fixed = set(known.held) | {seat}
    takers = [s for s, cards in enumerate(dealt)
              if cards and s not in view.passed and s not in fixed and s not in known.caps]
    normal = tables.strength[False]
    for passer in sorted(view.passed):
        if passer in fixed or not dealt[passer] or not takers:
            continue
        hand = dealt[passer]
        cap = known.caps.get(passer)
        for rank in sorted(cheap):
            group = [card for card in hand if card.rank == rank]
            if len(group) != top.size or rng.random() >= PASS_WEIGHT:
                continue
            taker = rng.choice(takers)
            swaps = [card for card in dealt[taker] if card.rank not in cheap
                     and (cap is None or normal[card.rank] <= cap)]
            if len(swaps) < len(group):
                continue
            back = rng.sample(swaps, len(group))
            for given, taken in zip(group, back, strict=True):
                hand.remove(given)
                hand.append(taken)
                dealt[taker].remove(taken)
                dealt[taker].append(given)


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
        discards=view.discards,
        game=game or Game(view.rules),
    )
