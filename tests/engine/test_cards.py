"""Cards, decks and the text notation."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from president.cards import JOKER, Card, Rank, Suit, format_cards, make_deck, parse_cards, shuffled
from president.errors import NotationError


def test_notation_round_trip_every_card() -> None:
    deck = make_deck(1, 2)
    text = format_cards(deck)
    assert parse_cards(text) == deck
    assert "10H" in text.split() and "JK" in text.split()


def test_notation_examples() -> None:
    cards = parse_cards("3C 10H QS AD 2S JK")
    assert [str(c) for c in cards] == ["3C", "10H", "QS", "AD", "2S", "JK"]
    assert Card.parse("10h") == Card(Rank.TEN, Suit.HEARTS)
    assert Card.parse("jk") is JOKER


@pytest.mark.parametrize("token", ["1C", "11H", "QX", "", "J", "JKS", "3", "TC", "2SS"])
def test_bad_notation_refused_with_code(token: str) -> None:
    with pytest.raises(NotationError) as caught:
        Card.parse(token)
    assert caught.value.code == "bad_card" and caught.value.params == {"card": token}


def test_parse_sorts_and_keeps_duplicates() -> None:
    assert format_cards(parse_cards("2S 3C 3C JK 10D")) == "3C 3C 10D 2S JK"


@pytest.mark.parametrize(("decks", "jokers", "size"), [(1, 0, 52), (1, 2, 54), (2, 1, 106)])
def test_deck_sizes(decks: int, jokers: int, size: int) -> None:
    deck = make_deck(decks, jokers)
    assert len(deck) == size
    counts = Counter(deck)
    assert counts[JOKER] == decks * jokers
    assert all(n == decks for card, n in counts.items() if card is not JOKER)


def test_shuffle_is_seeded_and_a_permutation() -> None:
    deck = make_deck(1, 0)
    a = shuffled(deck, random.Random(3))
    assert a == shuffled(deck, random.Random(3)) and a != list(deck)
    assert sorted(a) == list(deck)


def test_sort_order_rank_then_suit_clubs_lowest() -> None:
    assert sorted(parse_cards("3S 3C 3H 3D")) == list(parse_cards("3C 3D 3H 3S"))
    assert str(parse_cards("3S 3C")[0]) == "3C"
