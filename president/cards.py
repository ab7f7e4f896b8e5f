"""Cards, decks and the text notation (``3C 10H QS AD 2S JK``)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import FrozenInstanceError
from enum import IntEnum
from functools import cache
from operator import attrgetter

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


class Card:
    """One card. Jokers have no suit. Two decks hold equal cards: hands are multisets.

    Cards are interned: ``Card(rank, suit)`` always returns the same object, so
    equality is identity (fast in the engine's hot path) and the hash is the one
    the value would have. Immutable; ordered by ``key``.
    """

    __slots__ = ("rank", "suit", "key", "_hash", "_text")
    __match_args__ = ("rank", "suit")

    rank: Rank
    suit: Suit | None
    key: int  # sort key: by rank identity, then suit (jokers last)
    _hash: int
    _text: str

    def __new__(cls, rank: Rank, suit: Suit | None) -> Card:
        card = _INTERNED.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            _init = object.__setattr__
            _init(card, "rank", rank)
            _init(card, "suit", suit)
            _init(card, "key", rank * 5 + (0 if suit is None else suit + 1))
            _init(card, "_hash", hash((rank, suit)))
            _init(card, "_text", "JK" if suit is None else rank.symbol + suit.symbol)
            card = _INTERNED.setdefault((rank, suit), card)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: Card) -> bool:
        return self.key < other.key

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text})"

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit | None]]:
        return Card, (self.rank, self.suit)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

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


_INTERNED: dict[tuple[Rank, Suit | None], Card] = {}
_CARDS = {(rank, suit): Card(rank, suit) for rank in SUITED_RANKS for suit in Suit}
JOKER = Card(Rank.JOKER, None)

card_key = attrgetter("key")  # sorted(cards, key=card_key) == sorted(cards), faster


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse ``"3C 10H JK"`` into a sorted tuple of cards."""
    return tuple(sorted((Card.parse(token) for token in text.split()), key=card_key))


def format_cards(cards: Iterable[Card]) -> str:
    if type(cards) is tuple and len(cards) == 1:
        return cards[0]._text  # the most common play: a single
    return " ".join([card._text for card in cards])


@cache
def make_deck(decks: int, jokers_per_deck: int) -> tuple[Card, ...]:
    """The combined deck, sorted: ``decks`` French decks plus their jokers."""
    one = list(_CARDS.values()) + [JOKER] * jokers_per_deck
    return tuple(sorted(one * decks, key=card_key))


def shuffled(deck: tuple[Card, ...], rng: random.Random) -> list[Card]:
    cards = list(deck)
    rng.shuffle(cards)
    return cards
