"""Every exception of the project, in one tree: a code and parameters, never a sentence.

Text for a person is made at the edge, in the player's language
(``president.cli.text.Text.error``: the one renderer of errors).

    PresidentError                  code + params; the base of everything below
    ├── NotationError               a card or card list not in the text notation
    ├── RulesError                  a bad house rule: field, value, allowed values
    ├── IllegalAction               the engine refuses an action (reason code; state unchanged)
    ├── HistoryError                a hand history that does not read or replay (line)
    └── NetError                    the network library (president.net)
        ├── ProtocolError           the peer sent what the protocol does not allow: its fault
        ├── LocalProtocolError      we were about to send an invalid message: our bug
        ├── JoinRefused             the host refused our hello (wrong_pin, table_full, …)
        ├── ClientError             the client cannot do it (not_connected, timeout, …)
        ├── JournalError            the host's journal cannot be opened, written or replayed
        └── DiscoveryError          an address to join, a TXT record, an advertisement
"""

from __future__ import annotations

from typing import Any


class PresidentError(Exception):
    """Base of every error the project raises."""

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
    """A bad house-rule value: names the field, the value and the allowed values.
    ``bad_player_count``: a number of players the rules do not seat."""


class IllegalAction(PresidentError):
    """An action the engine refuses; the state is unchanged.

    ``code`` is the reason (see ``president.actions.REASONS``); params carry
    ``seat``, ``phase`` and ``action``.
    """


class HistoryError(PresidentError):
    """A hand history that cannot be read or does not replay; names the line."""


class NetError(PresidentError):
    """Base of every error raised by ``president.net``."""


class ProtocolError(NetError):
    """The peer sent something the protocol does not allow; drop or refuse it."""


class LocalProtocolError(NetError):
    """We were about to send an invalid message: a bug on our side."""


class JoinRefused(NetError):
    """The host refused our ``hello`` (code: wrong_pin, bad_token, seat_taken, ...)."""


class ClientError(NetError):
    """A client-side failure: not_connected, timeout, disconnected, closed."""


class JournalError(NetError):
    """The journal cannot be opened, written or replayed (journal_locked,
    journal_unwritable, no_such_session, session_unreplayable)."""


class DiscoveryError(NetError):
    """Discovery failures: address_* (manual join), bad_record, bad_port, ..."""
