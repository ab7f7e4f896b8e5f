"""Translators: one object per language, never a process-wide ``_``.

A host may render text for players in several languages at once, so every
caller holds the ``Translator`` of its player. Catalogs live in
``locales/<lang>/LC_MESSAGES/president.po``; the build compiles them to ``.mo``
(``setup.py``), and when no ``.mo`` exists (an editable install) the ``.po`` is
read directly with babel.

Messages that sit in tables are marked for extraction with ``N_``, ``NN_`` and
``NP_`` (identity functions); ``tools/extract_messages.py`` knows them.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES = ("en", "it", "nl", "pl")
# Each language's own name, for a language menu (never translated).
LANGUAGE_NAMES = {"en": "English", "it": "Italiano", "nl": "Nederlands", "pl": "Polski"}
DEFAULT_LANGUAGE = "en"
DOMAIN = "president"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def N_(message: str) -> str:
    """Mark ``message`` for extraction; translate it later with ``gettext``."""
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction; translate it later with ``ngettext``."""
    return singular, plural


def NP_(context: str, message: str) -> tuple[str, str]:
    """Mark a message with context for extraction; translate it with ``pgettext``."""
    return context, message


def normalize_language(value: str | None) -> str | None:
    """``"pl_PL.UTF-8"``, ``"nl-BE"``, ``"IT"`` -> a supported code, else None."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def choose_language(
    cli_lang: str | None, saved_lang: str | None, environ: Mapping[str, str]
) -> str:
    """From ``--lang``, else the saved setting, else the locale, else English.

    An unsupported ``--lang`` or saved value is skipped, not fatal. For the
    environment the first non-empty of LC_ALL, LC_MESSAGES, LANG decides (as
    POSIX does); ``LANGUAGE`` lists are also honoured before it.
    """
    for candidate in (cli_lang, saved_lang):
        code = normalize_language(candidate)
        if code:
            return code
    for entry in environ.get("LANGUAGE", "").split(":"):
        code = normalize_language(entry)
        if code:
            return code
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable)
        if value:
            return normalize_language(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def _load_catalog(language: str) -> gettext.NullTranslations:
    """The compiled ``.mo`` if the build made one, else the ``.po`` read by babel."""
    folder = resources.files("president.locales") / language / "LC_MESSAGES"
    mo_file = folder / f"{DOMAIN}.mo"
    if mo_file.is_file():
        with mo_file.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    po_file = folder / f"{DOMAIN}.po"
    if not po_file.is_file():
        return gettext.NullTranslations()
    with po_file.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class Translator:
    """The text of one language: gettext calls plus babel number/list formatting."""

    def __init__(self, language: str | None) -> None:
        self.language = normalize_language(language) or DEFAULT_LANGUAGE
        self.locale = Locale.parse(self.language)
        self._catalog = _load_catalog(self.language)

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"

    def gettext(self, message: str) -> str:
        return self._catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._catalog.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._catalog.npgettext(context, singular, plural, n)

    def format_number(self, number: float) -> str:
        """``1234`` -> ``1,234`` (en), ``1.234`` (it, nl), ``1234`` (pl, CLDR)."""
        return format_decimal(number, locale=self.locale)

    def format_list(self, items: Iterable[str],
                    style: Literal["standard", "or"] = "standard") -> str:
        """``["a", "b", "c"]`` -> ``a, b e c`` (it), ``a, b en c`` (nl), ``a, b i c`` (pl)."""
        return format_list(list(items), style=style, locale=self.locale)


def get_translator(language: str | None) -> Translator:
    """The shared translator of ``language`` (unknown or None: English)."""
    return _translator(normalize_language(language) or DEFAULT_LANGUAGE)


@cache
def _translator(language: str) -> Translator:
    return Translator(language)
