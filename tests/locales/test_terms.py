"""One word per game concept and language, the same in the catalogs and the rules documents.

``locales/terms.toml`` is the glossary: for each concept of ../shared/glossary.md the word
each language uses (chosen from that language's rule book where it has one), the variants
it must not use, and the English messages that name it. Every source message naming the
concept must use the word in its translation; no catalog entry and no rules document may
use a rejected variant, nor a phrase the translation reviews quoted as a slip.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "rules-docs"
GLOSSARY = ROOT / "locales" / "terms.toml"
LANGUAGES = ("en", "it", "nl", "pl")


@dataclass(frozen=True)
class Term:
    concept: str
    source: str | None  # a source message naming the concept (None: the documents only)
    use: dict[str, str]  # language -> the word (a regular expression)
    reject: dict[str, str]  # language -> its variants
    exempt: frozenset[str]  # source messages that may say it otherwise
    docs: bool  # the rules documents use the word too


def _load() -> tuple[tuple[Term, ...], dict[str, list[str]]]:
    data = tomllib.loads(GLOSSARY.read_text(encoding="utf-8"))
    terms = tuple(Term(concept=t["concept"], source=t.get("source"), use=t.get("use", {}),
                       reject=t.get("reject", {}), exempt=frozenset(t.get("exempt", ())),
                       docs=t.get("docs", True)) for t in data["term"])
    return terms, data["slips"]


TERMS, SLIPS = _load()


def _strip(text: str) -> str:
    """Code spans and placeholders are not words of the language."""
    text = re.sub(r"`[^`]*`", " ", text)
    return re.sub(r"\{[^{}]*\}", " ", text)


def _slip(phrase: str) -> re.Pattern[str]:
    """``phrase`` as written, not as a part of a longer word ("Esc blijf", not "blijven")."""
    return re.compile(r"(?<!\w)" * phrase[0].isalnum() + re.escape(phrase)
                      + r"(?!\w)" * phrase[-1].isalnum(), re.IGNORECASE)


def _catalog(tool: ModuleType, language: str) -> Catalog:
    with tool.po_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain="president")


def _entries(catalog: Catalog) -> list[tuple[str, str]]:
    """(English source, translation) for every form of every message."""
    out = []
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            sources = [message.id[0]] + [message.id[1]] * (len(message.string) - 1)
            out += list(zip(sources, message.string, strict=True))
        else:
            out.append((message.id, message.string))
    return out


def _doc(language: str) -> str:
    return (DOCS / f"rules.{language}.md").read_text(encoding="utf-8")


def test_the_glossary_names_every_language_and_its_patterns_compile() -> None:
    assert len({term.concept for term in TERMS}) == len(TERMS)
    for term in TERMS:
        assert set(term.use) | set(term.reject) <= set(LANGUAGES), term.concept
        for pattern in [term.source or "", *term.use.values(), *term.reject.values()]:
            re.compile(pattern)
        if term.source:
            assert set(term.use) == set(LANGUAGES), term.concept
    assert set(SLIPS) <= set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_naming_a_concept_uses_the_languages_word(tool: ModuleType,
                                                                language: str) -> None:
    wrong = []
    for source, translation in _entries(_catalog(tool, language)):
        for term in TERMS:
            if term.source is None or source in term.exempt or language not in term.use:
                continue
            if re.search(term.source, _strip(source)) and not re.search(
                    term.use[language], _strip(translation), re.IGNORECASE):
                wrong.append((term.concept, source, translation))
    assert not wrong, "\n".join(map(repr, wrong))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalog_entry_uses_a_rejected_variant_or_a_slip(tool: ModuleType,
                                                            language: str) -> None:
    entries = _entries(_catalog(tool, language))
    found = [(term.concept, translation) for _, translation in entries for term in TERMS
             if language in term.reject
             and re.search(term.reject[language], _strip(translation), re.IGNORECASE)]
    found += [(slip, translation) for _, translation in entries
              for slip in SLIPS.get(language, ()) if _slip(slip).search(translation)]
    assert not found, "\n".join(map(repr, found))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_document_uses_the_same_words(language: str) -> None:
    doc = _doc(language)
    words = _strip(doc)
    missing = [term.concept for term in TERMS
               if term.docs and language in term.use
               and not re.search(term.use[language], words, re.IGNORECASE)]
    assert not missing, f"rules.{language}.md never says: {missing}"
    found = [(term.concept, match.group(0)) for term in TERMS if language in term.reject
             for match in re.finditer(term.reject[language], words, re.IGNORECASE)]
    found += [(slip, slip) for slip in SLIPS.get(language, ()) if _slip(slip).search(doc)]
    assert not found, f"rules.{language}.md: {found}"


def test_the_glossary_catches_what_the_reviews_found() -> None:
    """The patterns bite: the words the two reviews found are each caught."""
    old = {"it": ["chi ospita il tavolo", "le preimpostazioni", "La pila viene pulita",
                  "il padrone del tavolo", "il proprietario", "Finale vietato",
                  "11-back (fante)", "nella loro lobby", "storico valido"],
           "nl": ["de gastheer", "Voorinstelling", "de laagste geldige set", "van die rang",
                  "gesloten ♥", "De stapel is op andere kleuren gesloten", "Achtsnede",
                  "Val (miyako-ochi)", "11-back (boer)", "Aantal kaarten per speelbeurt",
                  "winst", "Meer verboden uitgangen"],
           "pl": ["gospodarz stołu", "Sekwensy", "gotowe zestawy zasad", "dowolny układ",
                  "Zakazane wyjście", "11-back (walet)", "Cięcie ósemką", "TWOJA KOLEJ",
                  "To nie twoja kolejka.", "kolej: Anna", "Nie masz tych kart w ręce."]}
    for language, phrases in old.items():
        for phrase in phrases:
            assert any(re.search(term.reject.get(language, "(?!)"), phrase, re.IGNORECASE)
                       for term in TERMS), (language, phrase)
    assert _slip("Esc blijf").search("a even weg · Esc blijf")
    assert not _slip("Esc blijf").search("a even weg · Esc blijven")
    assert _slip("Za {name} gra bot").search("Za {name} gra bot: {event}")
