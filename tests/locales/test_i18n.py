"""Translators per language, plural forms, language choice, the rules command."""

from __future__ import annotations

import builtins
import io
import subprocess
import sys
from argparse import Namespace

import pytest

from president.cli import i18n
from president.cli.commands import rules as rules_command
from president.cli.i18n import Translator, choose_language, get_translator, normalize_language
from president.rules import ALLOWED

HANDS = ("{count} hand", "{count} hands")


@pytest.mark.parametrize(("n", "expected"), [
    (0, "0 rozdań"), (1, "1 rozdanie"), (2, "2 rozdania"), (5, "5 rozdań"),
    (12, "12 rozdań"), (22, "22 rozdania"), (25, "25 rozdań"), (112, "112 rozdań"),
])
def test_polish_plural_forms(n: int, expected: str) -> None:
    tr = get_translator("pl")
    assert tr.ngettext(*HANDS, n).format(count=n) == expected


@pytest.mark.parametrize(("language", "one", "many"), [
    ("en", "1 hand", "3 hands"),
    ("it", "1 mano", "3 mani"),
    ("nl", "1 ronde", "3 rondes"),
])
def test_two_form_languages(language: str, one: str, many: str) -> None:
    tr = get_translator(language)
    assert tr.ngettext(*HANDS, 1).format(count=1) == one
    assert tr.ngettext(*HANDS, 3).format(count=3) == many
    assert tr.ngettext(*HANDS, 0).format(count=0) == many.replace("3", "0")


def test_pgettext_and_npgettext_use_the_context() -> None:
    tr = get_translator("it")
    assert tr.pgettext("action", "Pass") == "Passo"
    assert tr.pgettext("title:classic", "Asshole") == "Coglione"
    assert tr.pgettext("title:scum", "Scum") == "Scum"
    assert tr.npgettext("no such context", "one", "many", 2) == "many"


def test_unknown_language_falls_back_to_english() -> None:
    for language in ("fr", "xx_YY", "", None):
        tr = get_translator(language)
        assert tr.language == "en"
        assert tr.gettext("You pass.") == "You pass."
    assert Translator("klingon").language == "en"


def test_one_translator_per_language_side_by_side() -> None:
    italian, polish = get_translator("it"), get_translator("pl_PL.UTF-8")
    assert italian.gettext("You pass.") == "Passi."
    assert polish.gettext("You pass.") == "Pasujesz."
    assert get_translator("pl") is polish
    assert not hasattr(i18n, "_") and not hasattr(builtins, "_")


def test_missing_mo_reads_the_po() -> None:
    """An editable install has no .mo: the .po is read with babel."""
    catalog = i18n._load_catalog("nl")
    assert catalog.gettext("You pass.") == "Je past."
    assert type(i18n._load_catalog("fr")).__name__ == "NullTranslations"


@pytest.mark.parametrize(("value", "code"), [
    ("it", "it"), ("IT", "it"), ("nl_BE.UTF-8", "nl"), ("pl-PL", "pl"),
    ("en_GB@euro", "en"), ("C", None), ("POSIX", None), ("de_DE", None), ("", None),
])
def test_normalize_language(value: str, code: str | None) -> None:
    assert normalize_language(value) == code


def test_choose_language_order() -> None:
    env = {"LANG": "nl_NL.UTF-8"}
    assert choose_language("pl", "it", env) == "pl"
    assert choose_language(None, "it", env) == "it"
    assert choose_language(None, None, env) == "nl"
    assert choose_language(None, None, {}) == "en"
    assert choose_language("fr", None, env) == "nl"  # unsupported --lang is skipped
    assert choose_language(None, "xx", {}) == "en"


def test_choose_language_environment_precedence() -> None:
    assert choose_language(None, None, {"LC_ALL": "it_IT", "LANG": "pl_PL"}) == "it"
    assert choose_language(None, None, {"LC_MESSAGES": "pl_PL", "LANG": "nl_NL"}) == "pl"
    assert choose_language(None, None, {"LC_ALL": "", "LANG": "pl_PL"}) == "pl"
    assert choose_language(None, None, {"LC_ALL": "C", "LANG": "pl_PL"}) == "en"
    assert choose_language(None, None, {"LANGUAGE": "nl:en", "LANG": "it_IT"}) == "nl"


def run_rules(**kwargs: object) -> str:
    out = io.StringIO()
    args = Namespace(preset="bga", rules=None, rules_lang=None, lang=None)
    for key, value in kwargs.items():
        setattr(args, key, value)
    assert rules_command.run(args, out=out, environ={}) == 0
    return out.getvalue()


def test_rules_command_prints_every_rule_in_italian() -> None:
    text = run_rules(rules_lang="it")
    assert text.startswith("Regole della casa: Board Game Arena\nGiocatori: da 4 a 8\n")
    assert "Jolly: 1 jolly per mazzo" in text
    assert "Chi passa resta fuori: sì" in text
    assert "Punteggio: Board Game Arena (si parte da 50; +5 0 −5 −10 −15)" in text
    assert "Presidente, Primo Ministro, Cittadino, Contadino, Mendicante" in text
    assert text.count("\n    ") == len(ALLOWED)  # an explanation under every rule


def test_rules_command_lists_the_daihinmin_fields_at_their_defaults_too() -> None:
    """Issue 31: the listing is complete, though a history's header leaves these out at
    their defaults (``HouseRules.to_dict``)."""
    from president.cli.text import Text
    from president.rules import LATER_FIELDS, HouseRules

    text, words = run_rules(preset="classic", lang="en"), Text("en")
    for name in LATER_FIELDS:
        assert name not in HouseRules().to_dict()
        shown = words.rule_value(name, getattr(HouseRules(), name))
        assert f"{words.rule_name(name)}: {shown}\n" in text, name


def test_rules_command_reads_a_file_and_reports_errors(tmp_path, capsys) -> None:
    good = tmp_path / "rules.toml"
    good.write_text('preset = "polish"\ntax = "none"\n', encoding="utf-8")
    text = run_rules(rules=str(good), lang="pl")
    assert "Podatek: bez podatku" in text
    assert "Koniec sesji: po osiągnięciu wyniku docelowego" in text
    assert "Długość sesji: 10 punktów" in text
    bad = tmp_path / "bad.toml"
    bad.write_text('tax = "lots"\n', encoding="utf-8")
    args = Namespace(preset="classic", rules=str(bad), rules_lang="nl", lang=None)
    assert rules_command.run(args, out=io.StringIO(), environ={}) == 2
    assert "Belasting (tax): ‘lots’ is niet toegestaan. Toegestaan: 2-1 = 2 en 1 kaart" in (
        capsys.readouterr().err)


def test_president_rules_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "president.cli.main", "rules", "--preset", "bga", "--lang", "it"],
        capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert "Regole della casa: Board Game Arena" in result.stdout
    assert "Mendicante" in result.stdout
