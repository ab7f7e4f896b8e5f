"""One word per game concept and language, the same in the catalogs and the rules documents.

Each ``Term`` names a concept of the glossary (../shared/glossary.md), the word each
language uses for it (chosen from that language's rule book where it has one) and the
synonyms it must not use. Every source message that names the concept in English must
use the word in its translation; no catalog entry and no rules document may use a banned
synonym. locales/README.md lists the words for translators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

DOCS = Path(__file__).resolve().parents[2] / "rules-docs"
LANGUAGES = ("en", "it", "nl", "pl")


@dataclass(frozen=True)
class Term:
    concept: str
    english: str | None  # a source message naming the concept (None: the documents only)
    used: dict[str, str]  # language -> the word (a regular expression)
    banned: dict[str, str] = field(default_factory=dict)  # language -> its synonyms
    exempt: frozenset[str] = frozenset()  # source messages that may say it otherwise
    in_docs: bool = True  # the rules documents use the word too


TERMS = (
    Term("host", r"\bhost\b(?! a table)",
         {"en": r"\bhost", "it": r"\bhost\b", "nl": r"\bhost", "pl": r"\bhost|\bhoś"},
         {"it": r"\bchi ospita|\bospitante|\bpadrone di casa",
          "nl": r"\bgastheer|\bgastvrouw", "pl": r"\bgospodar|\bgospodyni"}),
    Term("preset", r"\bpreset\b|\bnamed set of house rules",
         {"en": r"\bpresets?\b|\bnamed set of house rules", "it": r"\bvariant[ei]\b",
          "nl": r"\bregelsets?\b", "pl": r"\bwariant"},
         {"it": r"\bpreimpostazion|\bregole predefinite", "nl": r"\bvoorinstelling",
          "pl": r"\bzestaw\w* zasad|\bgotow\w* zestaw"}),
    Term("run", r"\bruns?\b(?! another)",
         {"en": r"\bruns?\b", "it": r"\bscal[ae]\b", "nl": r"\breeks(en)?\b", "pl": r"\bstrit"},
         {"en": r"\bstraights?\b", "it": r"\bsequenz", "nl": r"\bstra(at|ten)\b",
          "pl": r"\bsekwens"}),
    Term("pile", r"\bpile\b",
         {"en": r"\bpile\b", "it": r"\bpila\b|\bpresa\b", "nl": r"\bstapel",
          "pl": r"\bstos"},
         {"it": r"\bmucchio|\bcumulo|\bpulit[ao]\b", "nl": r"\bhoop\b",
          "pl": r"\bkupk|\bstert"}),
    Term("trick", None,
         {"en": r"\btricks?\b", "it": r"\bpres[ae]\b", "nl": r"\bslag(en)?\b",
          "pl": r"\blew(a|y|ie|ę)\b"},
         {"pl": r"\brund[aęyz]"}),
    Term("lead", r"\blead(s)?\b",
         {"en": r"\blead", "it": r"\bapr[eio]|\bapertura", "nl": r"\buitk\w*|\bkom\w* uit\b",
          "pl": r"\b(roz)?zaczyna"},
         {"it": r"\bcomando\b", "nl": r"\bleid(en|t)?\b|\bleiding\b", "pl": r"\bprowadz"}),
    # (not "7-pass": the rule that gives cards away, not the pass of a turn)
    Term("pass", r"(?<!7-)\bpass(es|ed|ing)?\b",
         {"en": r"\bpass", "it": r"\bpass", "nl": r"\bpas|\bgepast|\bpast\b",
          "pl": r"\bpas|\bspas"}),
    Term("tax", r"\btax\b",
         {"en": r"\btax\b", "it": r"\btass[ae]\b", "nl": r"\bbelasting", "pl": r"\bpodat"},
         {"it": r"\bimpost[ae]\b|\btribut", "nl": r"\btaks\b|\bheffing",
          "pl": r"\bdanin|\bharacz"},
         # the seat column says what the player does: gives cards back
         exempt=frozenset({"choosing tax cards"})),
    Term("revolution", r"(?i)\brevolution\b",
         {"en": r"(?i)revolution", "it": r"(?i)rivoluzion", "nl": r"(?i)revoluti",
          "pl": r"(?i)rewoluc"}),
    Term("skip", r"(?i)\bskip(s|ped)?\b",
         {"en": r"(?i)\bskip", "it": r"(?i)\bsalt",
          "nl": r"(?i)oversla|overgeslagen|slaat\b.*\bover\b", "pl": r"(?i)\bpomi|\bkolejk"}),
    Term("rank (a card's value)", r"(?i)\branks?\b(?! above)",
         {"en": r"(?i)\brank", "it": r"(?i)\bvalor", "nl": r"(?i)\bwaarde", "pl": r"(?i)\bwartoś"},
         # Dutch "rang" is a player's rank (President … Eikel), never a card's
         {"nl": r"(?i)\brang"},
         exempt=frozenset({"Reseat by rank"})),
    Term("set (cards of one rank)", None, {},
         {"nl": r"\bsets?\b", "pl": r"\bukład"}, in_docs=False),
)


def _strip(text: str) -> str:
    """Placeholders, code spans and setting names are not words of the language."""
    text = re.sub(r"`[^`]*`", " ", text)
    return re.sub(r"\{[^{}]*\}", " ", text)


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
    return _strip((DOCS / f"rules.{language}.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_naming_a_concept_uses_the_languages_word(tool: ModuleType,
                                                                language: str) -> None:
    wrong = []
    for source, translation in _entries(_catalog(tool, language)):
        for term in TERMS:
            if term.english is None or source in term.exempt or language not in term.used:
                continue
            if re.search(term.english, _strip(source)) and not re.search(
                    term.used[language], _strip(translation), re.IGNORECASE):
                wrong.append((term.concept, source, translation))
    assert not wrong, "\n".join(map(repr, wrong))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_catalog_entry_uses_a_banned_synonym(tool: ModuleType, language: str) -> None:
    found = [
        (term.concept, translation) for _, translation in _entries(_catalog(tool, language))
        for term in TERMS
        if language in term.banned and re.search(term.banned[language], _strip(translation),
                                                 re.IGNORECASE)
    ]
    assert not found, "\n".join(map(repr, found))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_document_uses_the_same_words(language: str) -> None:
    doc = _doc(language)
    missing = [term.concept for term in TERMS
               if term.in_docs and language in term.used
               and not re.search(term.used[language], doc, re.IGNORECASE)]
    assert not missing, f"rules.{language}.md never says: {missing}"
    found = [(term.concept, match.group(0)) for term in TERMS if language in term.banned
             for match in re.finditer(term.banned[language], doc, re.IGNORECASE)]
    assert not found, f"rules.{language}.md: {found}"


def test_a_banned_synonym_is_caught() -> None:
    """The patterns bite: the words the review found are each caught."""
    old = {"it": ["chi ospita il tavolo", "le preimpostazioni", "La pila viene pulita"],
           "nl": ["de gastheer", "Voorinstelling", "de laagste geldige set", "van die rang"],
           "pl": ["gospodarz stołu", "Sekwensy", "gotowe zestawy zasad", "dowolny układ"]}
    for language, phrases in old.items():
        for phrase in phrases:
            assert any(re.search(term.banned.get(language, "(?!)"), phrase, re.IGNORECASE)
                       for term in TERMS), (language, phrase)
