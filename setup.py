"""Build hook: compile the gettext catalogs (locales/*/LC_MESSAGES/*.po -> .mo).

Everything else is configured in pyproject.toml; setuptools runs this file
because it exists. The .mo files are build products, never kept in git. An
editable install has none and reads the .po files at run time instead
(``president.cli.i18n``).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithCatalogs(build_py):
    """``build_py`` that also writes a compiled ``.mo`` beside each packaged ``.po``."""

    def run(self) -> None:
        super().run()
        source = Path(__file__).resolve().parent / "locales"
        target = Path(self.build_lib) / "president" / "locales"
        for po_file in sorted(source.glob("*/LC_MESSAGES/*.po")):
            language = po_file.parent.parent.name
            with po_file.open("rb") as handle:
                catalog = read_po(handle, locale=language, domain=po_file.stem)
            mo_file = target / po_file.relative_to(source).with_suffix(".mo")
            mo_file.parent.mkdir(parents=True, exist_ok=True)
            with mo_file.open("wb") as handle:
                write_mo(handle, catalog)


setup(cmdclass={"build_py": BuildPyWithCatalogs})
