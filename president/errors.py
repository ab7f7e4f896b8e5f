"""The engine's exceptions: a code and parameters, never a sentence.

Text for the player is made at the edge (the client), in the player's language.
"""

from __future__ import annotations

from typing import Any


class PresidentError(Exception):
    """Base of every error the engine raises."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        details = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"{self.code}({details})"


class NotationError(PresidentError):
    """A card or card list that is not in the text notation."""


class RulesError(PresidentError):
    """A bad house-rule value: names the field, the value and the allowed values."""


class IllegalAction(PresidentError):
    """An action the engine refuses; the state is unchanged.

    ``code`` is the reason (see ``president.actions.REASONS``); params carry
    ``seat``, ``phase`` and ``action``.
    """


class HistoryError(PresidentError):
    """A hand history that cannot be read or does not replay; names the line."""
