"""Extract the messages of the source into locales/, update the catalogs, compile.

    python tools/extract_messages.py            # write president.pot, update every .po
    python tools/extract_messages.py --compile  # also write .mo files beside the .po
    python tools/extract_messages.py --check    # exit 1 if a catalog lacks a message

New messages arrive in each .po with an empty msgstr; translate them there.
The English catalog is filled with the source text itself. See locales/README.md.
"""

from __future__ import annotations

import argparse
import copy
import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
DOMAIN = "president"
LANGUAGES = ("en", "it", "nl", "pl")
SOURCE_DIRS = ("cli", "net", "president")
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "NN_": (1, 2), "NP_": ((1, "c"), 2)}
# GNU gettext's customary forms; babel's CLDR data would give Italian a third
# form (for millions) that no message here needs.
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}


def extract(root: Path = ROOT) -> Catalog:
    """Every message of the source, as a template catalog."""
    template = Catalog(project="president-party", domain=DOMAIN, charset="utf-8")
    for folder in SOURCE_DIRS:
        for filename, lineno, message, comments, context in extract_from_dir(
            root / folder, [("**.py", "python")], keywords=KEYWORDS,
        ):
            template.add(message, None, [(f"{folder}/{filename}", lineno)],
                         auto_comments=comments, context=context)
    return template


def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(language: str) -> Catalog:
    path = po_path(language)
    if path.exists():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=language, domain=DOMAIN)
    else:
        catalog = Catalog(locale=language, domain=DOMAIN, project="president-party")
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    return catalog


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write ``path`` unless only its dates would change (no churn in git)."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, ignore_obsolete=True, include_lineno=False)
    if path.exists() and _undated(path.read_bytes()) == _undated(buffer.getvalue()):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def _undated(text: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*"', b"", text)


def update(template: Catalog, language: str) -> Catalog:
    catalog = read_catalog(language)
    # update() adopts the template's Message objects: give it a copy of its own.
    catalog.update(copy.deepcopy(template), no_fuzzy_matching=True)
    if language == "en":
        for message in catalog:
            if message.id and not message.string:
                message.string = message.id
            elif isinstance(message.id, tuple) and not all(message.string):
                message.string = message.id
    return catalog


def compile_catalog(language: str, target: Path) -> None:
    with po_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as handle:
        write_mo(handle, catalog)


def missing(catalog: Catalog, template: Catalog) -> list[str]:
    """Messages of the template that are absent, empty or fuzzy in the catalog."""
    gaps = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        strings = found.string if found else None
        if isinstance(strings, str):
            strings = (strings,)
        if found is None or found.fuzzy or not strings or not all(strings):
            gaps.append(f"{message.context or ''}|{message.id}")
    return gaps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="write .mo files too")
    parser.add_argument("--check", action="store_true", help="only report gaps")
    args = parser.parse_args(argv)
    template = extract()
    status = 0
    if args.check:
        for language in LANGUAGES:
            gaps = missing(read_catalog(language), template)
            for gap in gaps:
                print(f"{language}: {gap}")
            status |= bool(gaps)
        return status
    write_catalog(template, LOCALES / f"{DOMAIN}.pot")
    for language in LANGUAGES:
        catalog = update(template, language)
        write_catalog(catalog, po_path(language))
        if args.compile:
            compile_catalog(language, po_path(language).with_suffix(".mo"))
        gaps = missing(catalog, template)
        print(f"{language}: {len(template)} messages, {len(gaps)} to translate")
    return status


if __name__ == "__main__":
    sys.exit(main())
