"""President: the pure rules engine (cards, house rules, state, legal actions, views)."""

from president.actions import Action, Decree, GiveBack, Pass, Play, Ready
from president.cards import Card, Rank, Suit, format_cards, parse_cards
from president.engine import apply, end_session, legal_actions, new_session
from president.errors import IllegalAction, PresidentError, RulesError
from president.events import Event, project_event
from president.roles import Role
from president.rules import PRESETS, HouseRules, load_rules, load_rules_file, preset
from president.state import Phase, State
from president.view import View, view

__all__ = [
    "Action", "Card", "Decree", "Event", "GiveBack", "HouseRules", "IllegalAction", "PRESETS",
    "Pass", "Phase", "Play", "PresidentError", "Rank", "Ready", "Role", "RulesError", "State",
    "Suit", "View", "apply", "end_session", "format_cards", "legal_actions", "load_rules",
    "load_rules_file", "new_session", "parse_cards", "preset", "project_event", "view",
]
