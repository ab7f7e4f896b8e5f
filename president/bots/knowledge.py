"""What one seat knows about the hidden cards of the hand being played.

Built from the seat's ``View`` only: the deck the rules make, the seat's own hand,
the cards it has seen played, the 10-discards (face up), the hand sizes, and the tax
transfers and 7-passes it took part in (a seat that gave cards knows who holds them; a
seat that received the tax knows the giver kept nothing stronger than what it gave).
These are facts. What a pass suggests is not (passing is always legal): the search
weighs it when it deals the hidden cards (``determinize.sample_hands``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from president.bots.tables import Counts, RuleTables, rank_counts
from president.cards import Card, make_deck
from president.rules import HouseRules
from president.view import View


@dataclass
class Knowledge:
    """``unseen``: rank counts of the cards this seat has not seen (held by the
    others, or played where it could not see); ``held``: cards known to be in a seat's
    hand; ``caps``: a seat's unknown cards are no stronger than this strength (in the
    normal order; the tax takes the highest cards)."""

    unseen: Counts
    unseen_cards: list[Card]
    held: dict[int, list[Card]] = field(default_factory=dict)
    caps: dict[int, int] = field(default_factory=dict)


class PlayTracker:
    """The cards this seat has seen played in the current hand, remembered across its
    turns (a view shows only the current trick). Cards played in a trick that was
    cleared between two of its turns stay unknown."""

    def __init__(self) -> None:
        self.hand_number = -1
        self.seen: dict[int, list[Card]] = {}  # by seat
        self._pile: tuple[tuple[int, tuple[Card, ...], tuple[Card, ...]], ...] = ()
        self._hand: tuple[Card, ...] | None = None

    def update(self, view: View) -> dict[int, list[Card]]:
        if view.hand_number != self.hand_number:
            self.hand_number, self.seen, self._pile, self._hand = view.hand_number, {}, (), None
        if view.phase != "play":
            return self.seen
        seat = view.seat
        pile = view.pile
        new = pile[len(self._pile):] if pile[:len(self._pile)] == self._pile else pile
        for who, cards, _ in new:
            if who != seat:
                self.seen.setdefault(who, []).extend(cards)
        if self._hand is not None and seat is not None:
            # What left this seat's own hand since its last turn: its own play.
            rest = list(self._hand)
            for card in view.hand:
                if card in rest:
                    rest.remove(card)
            self.seen.setdefault(seat, []).extend(rest)
        self._pile, self._hand = pile, view.hand
        return self.seen


def same_rank_singles(view: View) -> int:
    """Consecutive singles of one rank at the end of the pile with no pass between
    them (four-in-a-row revolution). A pass since the last play resets the count; a
    pass between earlier plays does not show in a view, so this may count too many."""
    if view.passed:
        return 0
    count, rank = 0, None
    for _, cards, _ in reversed(view.pile):
        if len(cards) != 1 or (rank is not None and cards[0].rank is not rank):
            break
        rank = cards[0].rank
        count += 1
    return count % 4  # the fourth starts a revolution and the count again


def deck_for(rules: HouseRules, players: int) -> tuple[Card, ...]:
    return make_deck(rules.deck_count(players), rules.jokers)


def knowledge(view: View, tables: RuleTables, played: dict[int, list[Card]]) -> Knowledge:
    """``played``: the cards this seat has seen each seat play this hand (its own included:
    whatever left its hand, its 7-passes and 10-discards too)."""
    rest = list(deck_for(view.rules, len(view.players)))
    seat = view.seat
    counted: dict[Card, int] = {}
    for card in view.hand:
        counted[card] = counted.get(card, 0) + 1
    given = [card for giver, _, moved in view.gifts_mine if giver == seat for card in moved]
    for who, cards in played.items():
        for card in cards:
            if who == seat and card in given:
                given.remove(card)  # passed on, not gone: the receiver holds it (or played it)
                continue
            counted[card] = counted.get(card, 0) + 1
    for who, thrown in view.discards:  # face up (its own are among ``played``)
        if who != seat:
            for card in thrown:
                counted[card] = counted.get(card, 0) + 1
    unseen_cards: list[Card] = []
    for card in rest:
        left = counted.get(card, 0)
        if left:
            counted[card] = left - 1
        else:
            unseen_cards.append(card)
    known = Knowledge(rank_counts(unseen_cards), unseen_cards)
    for giver, receiver, moved in view.gifts_mine:  # 7-passes (``seven_pass``)
        if giver == seat and view.counts[receiver]:
            _still_held(known, receiver, moved, played)
    if seat is None or not view.tax_mine or not view.results:
        return known
    place = {s: i for i, s in enumerate(view.results[-1].order)}
    strength = tables.strength[False]
    for giver, receiver, moved in view.tax_mine:
        if giver == seat and view.counts[receiver]:
            _still_held(known, receiver, moved, played)
        elif receiver == seat and place.get(giver, 0) > place.get(seat, 0):
            # The tax took the giver's highest cards: it kept nothing stronger.
            cap = min(strength[card.rank] for card in moved)
            known.caps[giver] = min(cap, known.caps.get(giver, cap))
    return known


def _still_held(known: Knowledge, receiver: int, moved: tuple[Card, ...],
                played: dict[int, list[Card]]) -> None:
    """The receiver holds what this seat gave it (in the tax, or a 7-pass), unless it has
    played it since."""
    holding = known.held.setdefault(receiver, [])
    gone = list(played.get(receiver, ()))
    for card in moved:
        if card in gone:
            gone.remove(card)
        else:
            holding.append(card)
