"""The catalog check: every source message translated in every catalog, placeholders kept."""

from __future__ import annotations

import io
import re
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("en", "it", "nl", "pl")
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[-#0 +]*\d*[sdifr]")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def read(tool: ModuleType, language: str) -> Catalog:
    with tool.po_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain="president")


def test_the_placeholder_pattern_sees_both_styles() -> None:
    assert placeholders("{name} has %(n)d cards, %s left {count}") == [
        "%(n)d", "%s", "{count}", "{name}"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_source_message_is_translated(tool: ModuleType, template: Catalog,
                                            language: str) -> None:
    catalog = read(tool, language)
    gaps = tool.missing(catalog, template)
    assert gaps == [], f"{language}: untranslated, empty or fuzzy: {gaps}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_entry_is_empty_fuzzy_or_short_of_plural_forms(tool: ModuleType,
                                                           language: str) -> None:
    catalog = read(tool, language)
    assert catalog.num_plurals == (3 if language == "pl" else 2)
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        if isinstance(message.id, tuple):
            assert isinstance(message.string, tuple), message.id
            assert len(message.string) == catalog.num_plurals, message.id
            assert all(form.strip() for form in message.string), message.id
        else:
            assert message.string.strip(), message.id


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_match_the_source(tool: ModuleType, language: str) -> None:
    catalog = read(tool, language)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            singular, plural = message.id
            first, *others = message.string
            assert placeholders(first) == placeholders(singular), (language, message.id)
            for form in others:
                assert placeholders(form) == placeholders(plural), (language, message.id, form)
        else:
            assert placeholders(message.string) == placeholders(message.id), (
                language, message.id, message.string)


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_compiles(tool: ModuleType, language: str) -> None:
    buffer = io.BytesIO()
    write_mo(buffer, read(tool, language))
    assert len(buffer.getvalue()) > 1000


def test_no_catalog_holds_obsolete_messages(tool: ModuleType, template: Catalog) -> None:
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template}
    for language in LANGUAGES:
        catalog = read(tool, language)
        extra = [m.id for m in catalog
                 if m.id and (m.id if isinstance(m.id, str) else m.id[0], m.context) not in wanted]
        assert extra == [], f"{language}: run tools/extract_messages.py: {extra}"
