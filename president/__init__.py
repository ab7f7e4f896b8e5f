"""President: the pure rules engine (cards, house rules, state, legal actions, views).

A session is driven by ``to_act`` (who the session waits for), ``legal_actions``
(what that seat may do) and ``apply``; rules-docs/engine.md shows the loop."""

from pathlib import Path as _Path

from president.actions import Action, Decree, Discard, Give, GiveBack, Pass, Play, Ready
from president.cards import Card, Rank, Suit, format_cards, parse_cards
from president.engine import apply, end_session, legal_actions, new_session, to_act
from president.errors import IllegalAction, PresidentError, RulesError
from president.events import Event, project_event
from president.roles import Role
from president.rules import PRESETS, HouseRules, load_rules, load_rules_file, preset
from president.state import Phase, State
from president.view import View, view

__all__ = [
    "Action", "Card", "Decree", "Discard", "Event", "Give", "GiveBack", "HouseRules",
    "IllegalAction", "PRESETS", "Pass", "Phase", "Play", "PresidentError", "Rank", "Ready",
    "Role", "RulesError", "State", "Suit", "View", "apply", "end_session", "format_cards",
    "legal_actions", "load_rules", "load_rules_file", "new_session", "parse_cards", "preset",
    "project_event", "to_act", "view",
]

# From a checkout (no install), president.net, .cli and .locales are the folders beside
# this one, as pyproject's package-dir maps them when installed.
_CHECKOUT = _Path(__file__).resolve().parent.parent
if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "net" / "__init__.py").is_file() \
        and not (_Path(__file__).parent / "net").exists():
    __path__.append(str(_CHECKOUT))
