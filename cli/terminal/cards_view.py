"""Cards as styled text: rank letters in the player's language and suit symbols.

Red suits are coloured, and every card stays readable without colour: the
suit symbol tells the suit, and selection is marked on its own line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from president.cards import Card, Suit, parse_cards

SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SLOT = 5  # characters per card in the hand
BOX_SLOT = 6  # characters per boxed card (big terminals)
BOX_LINES = 5  # a row of boxed cards: raised selection, three box lines, the cursor

Fragment = tuple[Any, ...]


def card_label(card: Card, text: Any) -> str:
    if card.suit is None:
        return text.rank("JK") if hasattr(text, "rank") else "JK"
    return text.rank(card.rank.symbol) + SUIT_SYMBOLS[card.suit]


def card_style(card: Card) -> str:
    if card.suit is None:
        return "class:card.joker"
    if card.suit in (Suit.HEARTS, Suit.DIAMONDS):
        return "class:card.red"
    return "class:card.black"


def cards_fragments(cards: Iterable[Card] | str, text: Any) -> list[Fragment]:
    """A short row of cards (the pile, a tax transfer)."""
    if isinstance(cards, str):
        cards = parse_cards(cards)
    out: list[Fragment] = []
    for i, card in enumerate(cards):
        if i:
            out.append(("", " "))
        out.append((card_style(card), card_label(card, text)))
    return out


def hand_fragments(
    cards: list[Card], selected: set[int], cursor: int, width: int, text: Any,
    on_click: Callable[[int], None] | None = None, show_cursor: bool = True,
    received: frozenset[int] = frozenset(), playable: frozenset[int] | None = None,
) -> list[Fragment]:
    """The hand in rows that fit ``width``: a row of cards, then a row of markers
    (``▲`` selected, ``^`` the cursor, ``+`` received in the tax; in that order).
    With ``playable``, the other cards are dimmed (none of them can be played now)."""
    per_row = max(1, width // SLOT)
    out: list[Fragment] = []
    for start in range(0, len(cards), per_row):
        row = range(start, min(len(cards), start + per_row))
        for i in row:
            card = cards[i]
            label = card_label(card, text)
            style = card_style(card)
            if playable is not None and i not in playable:
                style = "class:card.unplayable"
            if i in selected:
                style += " class:card.selected"
            if show_cursor and i == cursor:
                style += " class:card.cursor"
            cell = f"[{label}]" if i in selected else f" {label} "
            fragment: Fragment = (style, cell.ljust(SLOT))
            if on_click is not None:
                fragment = (style, cell.ljust(SLOT), _click_handler(on_click, i))
            out.append(fragment)
        out.append(("", "\n"))
        for i in row:
            mark = "▲" if i in selected else ("^" if show_cursor and i == cursor
                                             else "+" if i in received else " ")
            out.append(("class:card.marker", f"  {mark}".ljust(SLOT)))
        out.append(("", "\n"))
    return out


def _click_handler(on_click: Callable[[int], None], index: int) -> Callable[[Any], None]:
    from prompt_toolkit.mouse_events import MouseEventType

    def handler(event: Any) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_click(index)

    return handler


def boxed_hand_fragments(
    cards: list[Card], selected: set[int], cursor: int, width: int, text: Any,
    on_click: Callable[[int], None] | None = None, received: frozenset[int] = frozenset(),
) -> list[Fragment]:
    """The hand as small boxed cards; a selected card is raised by one line and
    the cursor marked with ``^`` under it, a card received in the tax with ``+``
    (readable without colour)."""
    per_row = max(1, width // BOX_SLOT)
    out: list[Fragment] = []
    for start in range(0, len(cards), per_row):
        row = range(start, min(len(cards), start + per_row))
        for line in range(BOX_LINES):
            for i in row:
                card = cards[i]
                style = card_style(card) + (" class:card.selected" if i in selected else "")
                label = card_label(card, text)
                # selected cards draw their box one line higher
                part = line + (1 if i in selected else 0)
                cell = {1: "┌───┐", 2: f"│{label:^3}│", 3: "└───┘"}.get(part, "")
                if line == BOX_LINES - 1:
                    cell = "  ^  " if i == cursor else "  +  " if i in received else ""
                    style = "class:card.marker"
                fragment: Fragment = (style if cell else "", cell.ljust(BOX_SLOT))
                if on_click is not None:
                    fragment = (*fragment, _click_handler(on_click, i))
                out.append(fragment)
            out.append(("", "\n"))
    return out
