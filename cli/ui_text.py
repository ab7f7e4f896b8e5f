"""The client's words: the player's translator and text renderer.

Every visible string goes through ``tr`` (gettext calls with English source
strings, one translator per player) or ``text`` (codes made into sentences:
events, refusal reasons, role titles, cards, house rules).
"""

from __future__ import annotations

from typing import Any

from president.cli.i18n import Translator, get_translator
from president.cli.text import Text


def load_texts(language: str | None) -> tuple[Translator, Any]:
    """The translator and text renderer for ``language`` (unknown: English)."""
    translator = get_translator(language)
    return translator, Text(translator)
