"""The rules documents explain every house rule, value, preset and title set in every language."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from president.rules import ALLOWED, PRESETS, HouseRules

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "rules-docs"
LANGUAGES = ("en", "it", "nl", "pl")
FIELDS = [field.name for field in fields(HouseRules)]
# The source rule books sit beside the repository (../shared) on the team's machines and
# in CI; never copied into it. Elsewhere the test that reads them is skipped.
SEEDS = ROOT.parent / "shared" / "seeds"


def _text(lang: str) -> str:
    return (DOCS / f"rules.{lang}.md").read_text(encoding="utf-8")


def _sections(text: str) -> dict[str, str]:
    """Heading text -> body up to the next heading of any level."""
    parts = re.split(r"^(#{1,6} .*)$", text, flags=re.MULTILINE)
    return {parts[i].lstrip("#").strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def _value_name(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.fixture(params=LANGUAGES)
def lang(request: pytest.FixtureRequest) -> str:
    return request.param


def test_document_exists_and_is_substantial(lang: str) -> None:
    text = _text(lang)
    assert len(text) > 15_000
    assert len(_sections(text)) > len(FIELDS)


def test_every_house_rule_has_its_own_section(lang: str) -> None:
    sections = _sections(_text(lang))
    missing = [name for name in FIELDS if f"`{name}`" not in sections]
    assert not missing, f"rules.{lang}.md lacks sections for {missing}"


def test_every_allowed_value_is_named_in_its_section(lang: str) -> None:
    sections = _sections(_text(lang))
    for name in FIELDS:
        body = sections.get(f"`{name}`", "")
        for value in ALLOWED[name]:
            shown = f"`{_value_name(value)}`"
            assert shown in body, f"rules.{lang}.md: {shown} not in the section `{name}`"
        assert len(body) > 150, f"rules.{lang}.md: the section `{name}` is too short"


def test_every_preset_has_a_section_naming_what_it_changes(lang: str) -> None:
    sections = _sections(_text(lang))
    core = HouseRules()
    for preset_name, rules in PRESETS.items():
        body = sections.get(f'`preset = "{preset_name}"`')
        assert body is not None, f"rules.{lang}.md lacks the preset {preset_name}"
        changed = [f.name for f in fields(rules) if getattr(rules, f.name) != getattr(core, f.name)]
        for name in changed:
            assert f"`{name}" in body, f"rules.{lang}.md: preset {preset_name} omits {name}"


def test_every_title_set_has_a_section(lang: str) -> None:
    sections = _sections(_text(lang))
    for title_set in ALLOWED["title_set"]:
        body = sections.get(f'`title_set = "{title_set}"`', "")
        assert body.count(",") >= 3, f"rules.{lang}.md: titles of {title_set} missing"


def test_index_lists_every_document() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for lang in LANGUAGES:
        assert f"rules.{lang}.md" in index


def _words(text: str) -> list[str]:
    """Words of two letters or more: lists of ranks (3 4 5 ... J Q K A) do not count."""
    return [w for w in re.findall(r"[^\W\d_]+", text.lower()) if len(w) > 1]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source rule books are not on this machine")
def test_no_sentence_is_copied_from_the_sources(lang: str) -> None:
    span = 10
    seen: set[tuple[str, ...]] = set()
    for seed in SEEDS.iterdir():
        words = _words(seed.read_text(encoding="utf-8"))
        seen.update(tuple(words[i:i + span]) for i in range(len(words) - span + 1))
    words = _words(_text(lang))
    copied = [
        " ".join(words[i:i + span]) for i in range(len(words) - span + 1)
        if tuple(words[i:i + span]) in seen
    ]
    assert not copied, copied[:3]
