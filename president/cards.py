"""Cards, decks and the text notation (``3C 10H QS AD 2S JK``)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from president.errors import NotationError


class Rank(IntEnum):
    """Card ranks; the integer value is only an identity, not the playing order."""

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    JOKER = 16

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]


class Suit(IntEnum):
    """Suits, in the Big Two order used by ``suit_tiebreak`` (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "CDHS"[self]


_RANK_SYMBOLS = {
    Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6", Rank.SEVEN: "7",
    Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10", Rank.JACK: "J", Rank.QUEEN: "Q",
    Rank.KING: "K", Rank.ACE: "A", Rank.TWO: "2", Rank.JOKER: "JK",
}
_RANKS_BY_SYMBOL = {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()}
_SUITS_BY_SYMBOL = {suit.symbol: suit for suit in Suit}

SUITED_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Jokers have no suit. Two decks hold equal cards: hands are multisets."""

    rank: Rank
    suit: Suit | None

    @property
    def key(self) -> int:
        """Sort key: by rank identity, then suit (jokers last)."""
        return self.rank * 5 + (0 if self.suit is None else self.suit + 1)

    def __lt__(self, other: Card) -> bool:
        return self.key < other.key

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({self})"

    @classmethod
    def parse(cls, text: str) -> Card:
        token = text.strip().upper()
        if token == "JK":
            return JOKER
        rank = _RANKS_BY_SYMBOL.get(token[:-1])
        suit = _SUITS_BY_SYMBOL.get(token[-1:])
        if rank is None or suit is None or rank is Rank.JOKER:
            raise NotationError("bad_card", card=text)
        return _CARDS[(rank, suit)]


_CARDS = {(rank, suit): Card(rank, suit) for rank in SUITED_RANKS for suit in Suit}
JOKER = Card(Rank.JOKER, None)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse ``"3C 10H JK"`` into a sorted tuple of cards."""
    return tuple(sorted(Card.parse(token) for token in text.split()))


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def make_deck(decks: int, jokers_per_deck: int) -> tuple[Card, ...]:
    """The combined deck, sorted: ``decks`` French decks plus their jokers."""
    one = list(_CARDS.values()) + [JOKER] * jokers_per_deck
    return tuple(sorted(one * decks))


def shuffled(deck: tuple[Card, ...], rng: random.Random) -> list[Card]:
    cards = list(deck)
    rng.shuffle(cards)
    return cards
