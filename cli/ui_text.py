"""The client's words: a bridge to ``president.cli.i18n``/``president.cli.text``.

Every visible string goes through a translator (gettext calls with English
source strings). Until the localization modules exist, an English
pass-through with the same method names stands in.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol


class Translator(Protocol):
    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...
    def pgettext(self, context: str, message: str) -> str: ...


class English:
    """Pass-through translator (English source strings)."""

    language = "en"

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message


_ROLE_TITLES: dict[str, dict[str, str]] = {
    "classic": {
        "president": "President", "vice_president": "Vice President",
        "upper_neutral": "Upper Neutral", "neutral": "Neutral",
        "lower_neutral": "Lower Neutral", "vice_scum": "Vice Scum", "scum": "Scum",
        "super_scum": "Super Scum",
    },
    "scum": {
        "president": "President", "vice_president": "Vice President",
        "upper_neutral": "Upper Neutral", "neutral": "Neutral",
        "lower_neutral": "Lower Neutral", "vice_scum": "Vice Scum", "scum": "Scum",
        "super_scum": "Super Scum",
    },
    "capitalism": {
        "president": "President", "vice_president": "Vice President",
        "upper_neutral": "Upper Middle", "neutral": "Middle",
        "lower_neutral": "Lower Middle", "vice_scum": "Vice Scum", "scum": "Scum",
        "super_scum": "Super Scum",
    },
    "bga": {
        "president": "President", "vice_president": "Prime Minister",
        "upper_neutral": "Citizen", "neutral": "Citizen", "lower_neutral": "Citizen",
        "vice_scum": "Peasant", "scum": "Beggar", "super_scum": "Beggar",
    },
}

_REASONS: dict[str, str] = {
    "session_over": "The session is over.",
    "wrong_phase": "You cannot do that now.",
    "bad_seat": "No such seat.",
    "not_your_turn": "It is not your turn.",
    "already_out": "You have no cards left in this hand.",
    "not_in_hand": "Those cards are not in your hand.",
    "empty_play": "Select some cards first.",
    "mixed_ranks": "A set must be all of one rank.",
    "jokers_alone": "Jokers may only be played with jokers.",
    "wrong_size": "Play as many cards as the pile shows.",
    "wrong_kind": "A run cannot be played on a set, nor a set on a run.",
    "too_low": "That does not beat the pile.",
    "must_lead": "You lead: you cannot pass on an empty pile.",
    "locked_out": "You passed: you are out until the pile is cleared.",
    "no_tax_due": "You have nothing to give back.",
    "wrong_count": "Choose exactly the number of cards you owe.",
    "already_ready": "You are already ready.",
    "not_president": "Only the President may decree.",
    "decree_made": "The decree is already made.",
    "decree_invalid": "A decree needs some text (at most 200 characters).",
}


class FallbackText:
    """English rendering of codes, with the method names the text module offers."""

    def __init__(self, translator: Translator) -> None:
        self.tr = translator

    def role_title(self, role: str, title_set: str) -> str:
        return _ROLE_TITLES.get(title_set, _ROLE_TITLES["classic"]).get(role, role)

    def reason(self, code: str, params: dict[str, Any] | None = None) -> str:
        return _REASONS.get(code, code)

    def rank(self, symbol: str) -> str:
        return symbol

    def preset_name(self, preset: str) -> str:
        return preset

    def title_set_name(self, title_set: str) -> str:
        return title_set

    def phase(self, phase: str) -> str:
        return phase.replace("_", " ")

    def rule_name(self, field: str) -> str:
        return field.replace("_", " ").capitalize()

    def rule_value(self, field: str, value: Any) -> str:
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def rule_explanation(self, field: str) -> str:
        return ""

    def event(self, event: dict[str, Any], players: list[str], seat: int | None) -> str:
        code = event.get("type")

        def name(index: Any) -> str:
            if isinstance(index, int) and 0 <= index < len(players):
                return "you" if index == seat else players[index]
            return "?"

        if code == "deal":
            return f"Hand {event.get('hand')} dealt by {name(event.get('dealer'))}."
        if code == "play":
            return f"{name(event.get('seat'))}: {symbols(event.get('cards', ''))}"
        if code == "pass":
            return f"{name(event.get('seat'))} passed."
        if code == "skip":
            return f"{name(event.get('seat'))} is skipped."
        if code == "revolution":
            return "Revolution!" if event.get("reversed") else "Counter-revolution!"
        if code == "clear":
            return f"Pile cleared; {name(event.get('leader'))} leads."
        if code == "out":
            return f"{name(event.get('seat'))} went out in place {event.get('place')}."
        if code == "tax":
            cards = symbols(event.get("cards", "")) or f"{event.get('count')} cards"
            return f"{name(event.get('from'))} gives {cards} to {name(event.get('to'))}."
        if code == "hand_end":
            return f"Hand {event.get('hand')} is over."
        if code == "session_end":
            winners = ", ".join(name(w) for w in event.get("winners", []))
            return f"The session is over. Winner: {winners}."
        if code == "decree":
            return f"{name(event.get('seat'))} decrees: {event.get('text')}"
        if code == "ready":
            return f"{name(event.get('seat'))} is ready."
        if code == "lead":
            return f"{name(event.get('seat'))} leads."
        return str(code)


def symbols(cards: str) -> str:
    suits = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    return " ".join(c if c == "JK" else c[:-1] + suits.get(c[-1], c[-1]) for c in cards.split())


def load_texts(language: str | None) -> tuple[Translator, Any]:
    """The translator and text renderer for ``language``; English fallbacks."""
    try:
        i18n = importlib.import_module("president.cli.i18n")
        text = importlib.import_module("president.cli.text")
    except ImportError:
        translator = English()
        return translator, FallbackText(translator)
    translator = i18n.get_translator(language)
    return translator, text.Text(translator)
