"""The Daihinmin rules' texts agree with each other in every language: a rule value is
named by the same word in its description, the pile line's step lock by the words of
the lock's own messages, and a rules document's examples keep one cast of players."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "it", "nl", "pl")
JOKER_MODES = "Highest rank: jokers pair only with jokers. Trump: a single joker beats any play. Wild: a joker played with other cards stands for the card its player names; alone it is the highest card."  # noqa: E501
STEP_LOCK_MESSAGES = (
    "The pile is locked: play exactly one rank above the top.",
    "Step lock! Until the pile is cleared, every play must be one rank above the last.",
    "A play in the same suits as the play it beats locks the pile to those suits until it is cleared (jokers fit any lock). With the step lock, a play one rank above the one it beats also locks the pile to plays one rank up.",  # noqa: E501
)


def _messages(language: str) -> dict[tuple[str | None, str], str]:
    path = ROOT / "locales" / language / "LC_MESSAGES" / "president.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain="president")
    return {(message.context, message.id): message.string for message in catalog
            if message.id and isinstance(message.id, str)}


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    return request.param


def test_the_joker_modes_description_names_each_mode_by_its_value(language: str) -> None:
    messages = _messages(language)
    description = messages[(None, JOKER_MODES)]
    for value in ("highest rank", "trump", "wild"):
        word = messages[("rule value", value)]
        assert f"{word[0].upper()}{word[1:]}:" in description, (language, word, description)


def test_the_pile_lines_step_lock_says_what_the_locks_messages_say(language: str) -> None:
    messages = _messages(language)
    step = messages[(None, "locked: one rank up")].split(": ", 1)[1]
    assert messages[(None, "locked {suits}, one rank up")].endswith(step)
    assert messages[("rule value", "suits, and one rank up")].endswith(step)
    assert any(step in messages[(None, source)] for source in STEP_LOCK_MESSAGES), (language, step)


@pytest.mark.parametrize("language", ("it", "nl", "pl"))
def test_a_rules_documents_examples_keep_its_own_cast(language: str) -> None:
    text = (ROOT / "rules-docs" / f"rules.{language}.md").read_text(encoding="utf-8")
    english_cast = re.findall(r"\b(?:Ann|Bob|Cy|Dee)\b", text)
    assert not english_cast, f"rules.{language}.md names the English cast: {english_cast}"


def test_polish_key_labels_put_a_dash_between_the_key_and_what_it_does() -> None:
    """'Enter – zagraj' on the key line: the labels added for the give, the discard and
    the joker chooser too (they read 'Enter odrzuć')."""
    labels = {source: line for (context, source), line in _messages("pl").items()
              if context is None and re.fullmatch(r"(Enter|Esc|←→) [a-z][a-z ]*", source)}
    assert len(labels) >= 8, labels
    undashed = {source: line for source, line in labels.items() if " – " not in line}
    assert not undashed, undashed
